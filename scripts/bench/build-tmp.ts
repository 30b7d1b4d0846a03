import { openStore } from '../../src/store/connect.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { buildSyntheticCatalogue } from './synthetic-catalogue.ts'
const store = await openStore({ dataDir: process.argv[2]!, databaseUrl: process.env['DATABASE_URL'] })
await migrateToLatest(store.db)
const t = performance.now()
await buildSyntheticCatalogue(store.db, Number(process.argv[3]))
console.log('built in', Math.round(performance.now() - t), 'ms')
await store.close()
