import { writeFileSync } from 'node:fs'
import path from 'node:path'
import type { TestContext } from 'node:test'
import { createKey } from '../../src/access/api-keys.service.ts'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { prepareParts } from '../../src/startup.ts'
import { openStore } from '../../src/store/connect.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { copyMigratedSqlite, databaseEnv, TEST_READ_WORKERS, type TestDatabase } from '../databases.ts'
import { tempDir, testCalculatorData } from '../helpers.ts'

export interface Workspace {
  dir: string
  /** Settings for the `tonne` command and the app: this workspace's data folder and database. */
  env: Record<string, string>
  /** Writes a file into the workspace; returns its path. */
  write: (name: string, text: string) => string
  /** GETs these catalogue URLs through the real app over the workspace's database (signed links made comparable). */
  api: (urls: string[]) => Promise<string[]>
  /**
   * As api, for reads that depend on each other: `work` GETs through one app, built for it and closed after (so it
   * sees the database as it is now, as api's apps do).
   */
  read: <T>(work: (get: (url: string) => Promise<string>) => Promise<T>) => Promise<T>
}

/**
 * A data directory with its own migrated database (SQLite or PostgreSQL; `migrated: false` leaves it empty), for
 * CLI tests read back over the API.
 */
export async function workspace (t: TestContext, database: TestDatabase,
  options: { migrated?: boolean } = {}): Promise<Workspace> {
  const dir = tempDir(t)
  const env = { DATA_DIR: path.join(dir, 'data'), ...await databaseEnv(t, database, options) }
  // Migrated once per run and copied (test/databases.ts), unless the test is about migrating.
  if (database === 'sqlite' && options.migrated !== false) await copyMigratedSqlite(env.DATA_DIR)
  const write = (name: string, text: string) => {
    const file = path.join(dir, name)
    writeFileSync(file, text)
    return file
  }
  const read = async <T>(work: (get: (url: string) => Promise<string>) => Promise<T>): Promise<T> => {
    // As buildTestApp's apps (test/databases.ts).
    const config = loadConfig({ SQLITE_READ_WORKERS: TEST_READ_WORKERS, ...env, LOG_LEVEL: 'silent' })
    const store = await openStore(config)
    await migrateToLatest(store.db)
    const { key } = await createKey(store.db, { name: 'reader', scopes: ['catalogue:read'] })
    const app = await buildApp(await prepareParts(config, store, { calculatorData: testCalculatorData() }))
    try {
      const headers = { host: 'tonne.test', authorization: `Bearer ${key}` }
      // Signed links differ by key and second; compare what they point at.
      const unsigned = (body: string) => body.replace(/\?expires=\d+&signature=[0-9a-f]{64}/g, '?signed')
      return await work(async (url) => unsigned((await app.inject({ url, headers })).body))
    } finally {
      await app.close()
      await store.close()
    }
  }
  const api = async (urls: string[]): Promise<string[]> => await read(async (get) => {
    // One at a time, as one key's client should: searches are expensive reads, one at a time per key (429 past it).
    const bodies: string[] = []
    for (const url of urls) bodies.push(await get(url))
    return bodies
  })
  return { dir, env, write, api, read }
}
