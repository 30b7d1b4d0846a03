import assert from 'node:assert/strict'
import { describe, test, type TestContext } from 'node:test'
import { loadConfig } from '../../src/config.ts'
import { openStore, type Store } from '../../src/store/connect.ts'
import { ImportLockTimeout, withImportLock } from '../../src/store/import-lock.ts'
import { copyMigratedSqlite, databaseEnv, forEachDatabase, type TestDatabase } from '../databases.ts'
import { tempDir } from '../helpers.ts'

// Imports run one after the other (src/store/import-lock.ts): a second waits for the first up to IMPORT_LOCK_WAIT,
// then gives up having written nothing. Here the first import is another store on the same database, as another
// process (the CLI, another instance) would be.

/** Two stores on one new database: the second stands for another process. */
async function twoStores (t: TestContext, database: TestDatabase): Promise<[Store, Store]> {
  const dataDir = tempDir(t)
  if (database === 'sqlite') await copyMigratedSqlite(dataDir)
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...await databaseEnv(t, database) })
  const stores = [await openStore(config), await openStore(config)] as const
  t.after(async () => { for (const store of stores) await store.close() })
  return [stores[0], stores[1]]
}

/** Holds the import lock through `store` until the returned release is called. */
async function holdLock (store: Store): Promise<{ release: () => void, done: Promise<void> }> {
  let release!: () => void
  const released = new Promise<void>((resolve) => { release = resolve })
  let held!: () => void
  const holding = new Promise<void>((resolve) => { held = resolve })
  const done = withImportLock(store.db, { waitMs: 0 }, async () => { held(); await released })
  await holding
  return { release, done }
}

forEachDatabase((database) => {
  describe(`the import lock [${database}]`, () => {
    test('held elsewhere past IMPORT_LOCK_WAIT: the import gives up, says why, and its work never runs',
      async (t) => {
        const [first, second] = await twoStores(t, database)
        const holder = await holdLock(first)
        let ran = false
        let waited = 0
        await assert.rejects(withImportLock(second.db, { waitMs: 0, onWait: () => { waited++ } }, async () => {
          ran = true
        }), (error: Error) => error instanceof ImportLockTimeout && /another import is running/.test(error.message))
        assert.equal(ran, false)
        assert.equal(waited, 0, 'a wait of 0 gives up at once, before saying it waits')
        holder.release()
        await holder.done
      })

    test('released while the import waits: it says once that it waits, then runs', async (t) => {
      const [first, second] = await twoStores(t, database)
      const holder = await holdLock(first)
      const order: string[] = []
      const result = await withImportLock(second.db, {
        waitMs: 30_000,
        onWait: () => { order.push('waiting'); holder.release() }
      }, async () => { order.push('ran'); return 'imported' })
      await holder.done
      assert.equal(result, 'imported')
      assert.deepEqual(order, ['waiting', 'ran'])
    })
  })
})
