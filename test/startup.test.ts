import assert from 'node:assert/strict'
import { existsSync, rmSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { MediaStore } from '../src/media/media-store.ts'
import { MediaSigner } from '../src/media/signing.ts'
import type { ChangeFeed } from '../src/store/change-feed.ts'
import type { Store } from '../src/store/connect.ts'
import type { Database } from '../src/store/database.ts'
import { tempDir, testCalculatorData } from './helpers.ts'

// Start-up work (startup.ts) reads and writes files and opens connections; buildApp only registers
// the parts it is given. So an app builds from parts whose files and connections are all gone.
test('buildApp builds from prepared parts without touching a file, the database or Redis', async (t) => {
  const dir = tempDir(t)
  const dataDir = path.join(dir, 'data-never-made')
  const mediaDir = path.join(dir, 'media')
  const config = loadConfig({
    DATA_DIR: dataDir,
    MEDIA_DIR: mediaDir,
    LOG_LEVEL: 'silent',
    // Start-up would connect here; buildApp uses only the Redis part it is given (none).
    REDIS_URL: 'redis://127.0.0.1:1'
  })
  const media = new MediaStore(mediaDir)
  rmSync(mediaDir, { recursive: true })
  // A database that counts every attempt to reach it and never answers.
  let connections = 0
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: async () => { connections++; throw new Error('no database here') } })
  })
  const store: Store = {
    db,
    readDb: db,
    location: 'nowhere',
    warm: async () => { await sql`select 1`.execute(db) },
    ping: async () => { await sql`select 1`.execute(db) },
    poolStats: () => ({ total: 0, idle: 0, waiting: 0, max: 1 }),
    get changes (): ChangeFeed { throw new Error('buildApp must use the feed start-up prepared') },
    close: async () => await db.destroy()
  }

  // A change feed that counts reads: start-up starts listening, buildApp only hands the feed on.
  let feedReads = 0
  const changes: ChangeFeed = {
    get generation () { feedReads++; return 0 },
    fresh: () => { feedReads++; return false },
    close: () => undefined
  }
  const app = await buildApp({
    config,
    store,
    changes,
    media,
    signer: new MediaSigner('a-test-secret-of-at-least-32-characters', 3600),
    calculatorData: testCalculatorData()
  })
  t.after(async () => await app.close())
  await app.ready()
  assert.equal(connections, 0, 'buildApp reached for the database')
  assert.equal(feedReads, 0, 'buildApp read the change feed')

  assert.equal(existsSync(dataDir), false, 'buildApp made the data directory (a secret file?)')
  assert.equal(existsSync(mediaDir), false, 'buildApp wrote into the media folder')
  // The app answers from its parts: the calculator needs neither database nor Redis.
  const ping = await app.inject('/api/v1/co2-calculator/ping')
  assert.equal(ping.statusCode, 200)
  const countries = await app.inject('/api/v1/co2-calculator/countries')
  assert.equal(countries.statusCode, 200)
  // That store is the app's database: readiness reports it, and no Redis was given to check.
  const ready = await app.inject('/health/ready')
  assert.equal(ready.statusCode, 503)
  assert.equal(ready.json().detail, 'Not ready: database unreachable.')
})
