import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import path from 'node:path'
import { after, before, type TestContext } from 'node:test'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { createKey } from '../src/access/api-keys.service.ts'
import { buildApp } from '../src/app.ts'
import { loadCalculatorData, type CalculatorData } from '../src/calculator/calculator.data.ts'
import { loadBundledCatalogueOnce } from '../src/ingest/bundled-catalogue.ts'
import { importProjects } from '../src/ingest/projects.import.ts'
import { loadConfig, type Config } from '../src/config.ts'
import { prepareParts } from '../src/startup.ts'
import { openStore, SQLITE_FILE_NAME, type Store } from '../src/store/connect.ts'
import { migrateToLatest } from '../src/store/migrate.ts'
import { copyMigratedSqlite, databaseEnv, TEST_READ_WORKERS, type TestDatabase } from './databases.ts'
import { REPO_ROOT, TEST_TMPDIR, tempDir } from './support/files.ts'

export { REPO_ROOT, tempDir }

/** The clock of the imports that buildTestApp makes: every fixture project has these timestamps. */
export const FIXTURE_IMPORT_TIME = new Date('2026-01-15T12:00:00.000Z')

export interface TestApp {
  app: FastifyInstance
  store: Store
  config: Config
  dataDir: string
  /** A key with the catalogue:read scope, made the way `tonne keys create` makes one. */
  key: string
  /** app.inject with that key sent as `Authorization: Bearer KEY`. */
  inject: (request: string | InjectOptions) => Promise<LightMyRequestResponse>
}

export interface TestAppOptions {
  /** Which database the app runs on (default SQLite); PostgreSQL gets a fresh database of its own. */
  database?: TestDatabase
  /** Load the bundled real catalogue, as a first `tonne serve` does. */
  bundled?: boolean
  /** Import these records (the import format) before the app starts. */
  records?: readonly object[]
  /** Extra environment settings, as an operator would give them. */
  env?: Record<string, string>
  /** Capture the JSON log lines (sets LOG_LEVEL to info unless env says otherwise). */
  logStream?: NodeJS.WritableStream
  /** The calculator's data, when a test loads its own (from a changed copy of data/) instead of the shipped files. */
  calculatorData?: CalculatorData
}

let calculatorData: CalculatorData | undefined

/**
 * The calculator's data, loaded once per test process: every app reads the same bundled files, never changes
 * them, and loading them was about a third of building a test app's parts.
 */
export function testCalculatorData (): CalculatorData {
  return (calculatorData ??= loadCalculatorData())
}

let bundledFile: Promise<string> | undefined

/**
 * A migrated SQLite database with the bundled catalogue loaded by loadBundledCatalogueOnce, made once per test
 * process (in its temp folder, removed when the process ends): loading the 736 projects took about 280 ms of CPU
 * per app that asked for them, a copy of the file a few.
 */
async function bundledSqlite (): Promise<string> {
  return await (bundledFile ??= (async () => {
    const dir = mkdtempSync(path.join(TEST_TMPDIR, 'tonne-bundled-'))
    process.on('exit', () => { rmSync(dir, { recursive: true, force: true }) })
    await copyMigratedSqlite(dir)
    const store = await openStore(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SQLITE_READ_WORKERS: '0' }))
    try {
      await loadBundledCatalogueOnce(store.db)
    } finally {
      await store.close()
    }
    return store.location
  })())
}

/**
 * Builds the real app exactly as `tonne serve` does (config from env settings, a database built by
 * the real migrations), in a fresh data directory; everything is closed after the test.
 */
export async function buildTestApp (t: TestContext, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = tempDir(t)
  const database = options.env?.['DATABASE_URL'] === undefined ? options.database ?? 'sqlite' : 'postgres'
  // A copy of the database migrated once per run (test/databases.ts); migrateToLatest below then has nothing to do.
  // With the bundled catalogue, a copy of one this process loaded it into (below).
  if (database === 'sqlite') {
    if (options.bundled === true) copyFileSync(await bundledSqlite(), path.join(dataDir, SQLITE_FILE_NAME))
    else await copyMigratedSqlite(dataDir)
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: options.logStream === undefined ? 'silent' : 'info',
    // A test app shares the PostgreSQL server with everything else: few connections (test/databases.ts).
    DATABASE_POOL_SIZE: '4',
    SQLITE_READ_WORKERS: TEST_READ_WORKERS,
    ...(options.env?.['DATABASE_URL'] === undefined && await databaseEnv(t, options.database ?? 'sqlite')),
    ...options.env
  })
  const store = await openStore(config)
  await migrateToLatest(store.db)
  if (options.bundled === true) await loadBundledCatalogueOnce(store.db)
  if (options.records !== undefined) {
    await importProjects(store.db, JSON.stringify(options.records), { replace: false, now: FIXTURE_IMPORT_TIME })
  }
  const { key } = await createKey(store.db, { name: 'test', scopes: ['catalogue:read'] })
  const logStream = options.logStream !== undefined ? { logStream: options.logStream } : {}
  const parts = await prepareParts(config, store,
    { ...logStream, calculatorData: options.calculatorData ?? testCalculatorData() })
  const app = await buildApp(parts)
  t.after(async () => {
    // A test's clients (browsers, fetch) keep idle connections open; the graceful stop would wait STOP_DRAIN_MS
    // for each app's to close on their own. Closing them first keeps that wait for requests still in flight.
    app.server.closeIdleConnections()
    await app.close()
    await store.close().catch(() => undefined)
  })
  await app.ready()
  const inject = async (request: string | InjectOptions) => {
    const options = typeof request === 'string' ? { url: request } : request
    return await app.inject({ ...options, headers: { authorization: `Bearer ${key}`, ...options.headers } })
  }
  return { app, store, config, dataDir, key, inject }
}

/**
 * One app for the tests of a describe (call it in the describe's body) that only read: built before its first
 * test, closed after its last. Building an app costs about 40 ms of CPU; a file of read-only tests needs one.
 * Only for tests that change nothing a later test could see (no writes, no keys, no rate limit run down).
 */
export function sharedTestApp (options: TestAppOptions = {}): () => TestApp {
  let built: TestApp | undefined
  const cleanups: Array<() => unknown> = []
  // buildTestApp asks its context only to run clean-ups after it; these run in the order given, as node:test's do.
  const owner = { after: (fn: () => unknown) => { cleanups.push(fn) } } as unknown as TestContext
  before(async () => { built = await buildTestApp(owner, options) })
  after(async () => { for (const cleanup of cleanups) await cleanup() })
  return () => {
    if (built === undefined) throw new Error('sharedTestApp: the app is built in the describe\'s before hook')
    return built
  }
}
