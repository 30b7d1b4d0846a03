import { createHash, randomBytes } from 'node:crypto'
import {
  copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout } from 'node:timers/promises'
import type { TestContext } from 'node:test'
import pg from 'pg'
import { openStore, SQLITE_FILE_NAME } from '../src/store/connect.ts'
import { migrateToLatest } from '../src/store/migrate.ts'
import { readTemplateState, resetToTemplate, type TemplateState } from './support/database-reset.ts'
import { TEST_TMPDIR } from './support/files.ts'

// The test settings live here, the way src/config.ts holds the service's.
//   TONNE_TEST_DATABASES     databases the store-backed suites run on (default "sqlite,postgres")
//   TONNE_TEST_POSTGRES_URL  an admin connection to a PostgreSQL server (default the local one, user postgres)
//   TONNE_TEST_REDIS_URL     a Redis server for the shared-counter tests (default the local one)
//   TONNE_TEST_TMPDIR        where tests make their data folders (test/support/files.ts)
//   TONNE_TEST_READ_WORKERS  SQLite read workers of each test app (default 1; `npm run test:fast` sets 0)
const env = process.env

export type TestDatabase = 'sqlite' | 'postgres'

export const TEST_DATABASES: readonly TestDatabase[] = (() => {
  const names = (env['TONNE_TEST_DATABASES'] ??
    'sqlite,postgres').split(',').map((n) => n.trim()).filter((n) => n !== '')
  for (const name of names) {
    if (name !== 'sqlite' &&
      name !== 'postgres') throw new Error(`TONNE_TEST_DATABASES: unknown database "${name}" (sqlite, postgres)`)
  }
  if (env['CI'] === 'true' && !names.includes('postgres')) {
    throw new Error('CI must run the PostgreSQL suites: do not set TONNE_TEST_DATABASES there')
  }
  return names as TestDatabase[]
})()

/**
 * SQLITE_READ_WORKERS for test apps. One, as a container of 224-383 MB gets (src/sizing.ts): reads still leave the
 * event loop, and most apps no longer boot a second worker on their first overlapping reads (about 30 ms of CPU
 * each). The fast command's 0 is the smallest containers' setting, reads on the main thread. Tests of two readers
 * ask for them.
 */
export const TEST_READ_WORKERS = (() => {
  const given = env['TONNE_TEST_READ_WORKERS'] ?? '1'
  if (!/^\d+$/.test(given)) throw new Error(`TONNE_TEST_READ_WORKERS must be a whole number (got "${given}")`)
  return given
})()

export const POSTGRES_ADMIN_URL = env['TONNE_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres'
export const REDIS_URL = env['TONNE_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379'

// One small pool of admin connections per test process, for every copy and drop: a new connection costs the
// server a process of its own (about 40 ms of its CPU on a 2-core machine, 2026-11-28), and each test database
// needed two or three. Idle ones do not keep the process alive.
let adminPool: pg.Pool | undefined

// 30 s and three tries: in a full run, admin connections of one shared test process have timed out together (while
// its CPU-heaviest calculator tests ran), and a slow start is not a missing server. A refused connection (no
// server) fails each try at once.
async function admin<T> (work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  if (adminPool === undefined) {
    adminPool = new pg.Pool({
      connectionString: POSTGRES_ADMIN_URL, max: 2, connectionTimeoutMillis: 30_000, allowExitOnIdle: true
    })
    // An idle connection the server ends (a restart) leaves the pool; it is no error of this process.
    adminPool.on('error', () => undefined)
  }
  let client: pg.PoolClient | undefined
  let failure: Error | undefined
  for (let attempt = 0; attempt < 3 && client === undefined; attempt++) {
    try {
      client = await adminPool.connect()
    } catch (error) {
      failure = error as Error
    }
  }
  if (client === undefined) {
    throw new Error(`The PostgreSQL suites need a server at ${POSTGRES_ADMIN_URL} (${failure?.message}). ` +
      'Start one, point TONNE_TEST_POSTGRES_URL at one, or run only SQLite with TONNE_TEST_DATABASES=sqlite.')
  }
  let broken = false
  try {
    return await work(client)
  } catch (error) {
    broken = true
    throw error
  } finally {
    // After a failure the session may hold a lock or an aborted state: it is closed rather than reused.
    client.release(broken)
  }
}

// Every test gets a database of its own, but migrating one costs about a second: each kind is migrated once and
// copied. The copies' source is named by a hash of src/store/, so test runs of other checkouts (other migrations)
// on the same server or machine never share one, and a later run reuses it.
const STORE_DIR = path.join(import.meta.dirname, '..', 'src', 'store')

const SCHEMA_HASH = (() => {
  const hash = createHash('sha256')
  const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)])
  for (const file of files(STORE_DIR).sort()) hash.update(path.relative(STORE_DIR, file)).update(readFileSync(file))
  return hash.digest('hex').slice(0, 16)
})()

function postgresUrl (name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}

let postgresTemplate: Promise<string> | undefined

/**
 * The migrated PostgreSQL template database (built once per schema, kept for later runs). Parallel test
 * processes take an advisory lock to build it; a copy needs no one connected to the template, so it is built
 * under another name, renamed when ready, and closed to connections.
 */
async function migratedPostgresTemplate (): Promise<string> {
  const name = `tonne_template_${SCHEMA_HASH}`
  return await (postgresTemplate ??= admin(async (client) => {
    await client.query('select pg_advisory_lock(hashtext($1))', [name])
    try {
      const found = await client.query('select 1 from pg_database where datname = $1', [name])
      if (found.rowCount === 0) {
        const building = `${name}_${randomBytes(4).toString('hex')}`
        await client.query(`create database ${building}`)
        const store = await openStore({ dataDir: os.tmpdir(), databaseUrl: postgresUrl(building) })
        try {
          await migrateToLatest(store.db)
        } finally {
          await store.close()
        }
        await client.query(`alter database ${building} rename to ${name}`)
        await client.query(`alter database ${name} with allow_connections false`)
      }
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [name])
    }
    return name
  }))
}

// A test's database is given back after it: emptied to the template's state and checked, it goes to the next test
// of this process (test/support/database-reset.ts); one that cannot be is dropped in the background. So a process
// makes a copy only when none is free (two or three in a run), and drops what is left when it ends.
const free: string[] = []
let templateState: Promise<TemplateState | undefined> | undefined

async function connectTo (name: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: postgresUrl(name) })
  client.on('error', () => undefined)
  await client.connect()
  return client
}

/**
 * Waits until the test's own connections are gone (its after hooks close them, maybe after this one has started):
 * forcing them closed earlier would make the app's pool fail mid-close. False if some are still there after 30 s.
 */
async function unused (name: string): Promise<boolean> {
  // Each look takes an admin connection only for its query, so a wait does not hold one from the copies.
  const connected = async () => await admin(async (client) => {
    const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name])
    return (rows[0] as { n: number }).n
  })
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if (await connected() === 0) return true
    await setTimeout(100)
  }
  return false
}

/** Drops the database, closing any connection still open to it. */
async function dropDatabase (name: string): Promise<void> {
  await admin(async (client) => { await client.query(`drop database if exists ${name} with (force)`) })
}

/**
 * Starts dropping the database once its test's connections are gone (forced after 30 s), without waiting for it
 * (the process waits for it before it ends).
 */
function dropLater (name: string): void {
  unused(name).then(async () => { await dropDatabase(name) }).catch((error: unknown) => {
    console.error(`could not drop the test database ${name}: ${(error as Error).message}`)
  })
}

/** After its test: the database back to the template's state for the next test, or dropped. */
async function giveBack (name: string): Promise<void> {
  const state = await templateState?.catch(() => undefined)
  if (await unused(name) && state !== undefined && await reset(name, state)) {
    free.push(name)
  } else {
    await dropDatabase(name)
  }
}

/** True if the database is now as a fresh copy is; false if it could not be reset (a test closed it, say). */
async function reset (name: string, state: TemplateState): Promise<boolean> {
  let client: pg.Client | undefined
  try {
    client = await connectTo(name)
    return await resetToTemplate(client, state)
  } catch {
    return false
  } finally {
    await client?.end().catch(() => undefined)
  }
}

process.on('beforeExit', () => {
  for (const name of free.splice(0)) dropLater(name)
})

/**
 * A PostgreSQL database for this test, as a fresh copy of the migrated template is (`migrated`, the default), given
 * back after it; returns its URL. `migrated: false` gives an empty database (for tests of the migrations
 * themselves), dropped after the test.
 */
export async function createPostgresDatabase (t: TestContext,
  options: { migrated?: boolean } = {}): Promise<string> {
  let name: string
  if (options.migrated === false) {
    name = `tonne_test_${randomBytes(6).toString('hex')}`
    await admin(async (client) => { await client.query(`create database ${name}`) })
    t.after(() => { dropLater(name) })
    return postgresUrl(name)
  }
  const reused = free.pop()
  if (reused === undefined) {
    const template = await migratedPostgresTemplate()
    name = `tonne_test_${randomBytes(6).toString('hex')}`
    await admin(async (client) => { await client.query(`create database ${name} template ${template}`) })
    // The template's state is read from the process's first copy, before any test has used it.
    templateState ??= (async () => {
      const client = await connectTo(name)
      try {
        return await readTemplateState(client)
      } finally {
        await client.end()
      }
    })()
    // Without it, databases are dropped after their tests, as before.
    await templateState.catch(() => undefined)
  } else {
    name = reused
  }
  t.after(() => {
    giveBack(name).catch((error: unknown) => {
      console.error(`could not give back the test database ${name}: ${(error as Error).message}`)
      dropLater(name)
    })
  })
  return postgresUrl(name)
}

let sqliteTemplate: string | undefined

/**
 * Puts a migrated SQLite database into `dataDir` (a copy of one built once per schema in the OS temp folder,
 * written under a temporary name and renamed, so parallel processes never see half a file).
 */
export async function copyMigratedSqlite (dataDir: string): Promise<void> {
  if (sqliteTemplate === undefined) {
    const folder = path.join(TEST_TMPDIR, 'tonne-test-templates')
    const file = path.join(folder, `${SCHEMA_HASH}.sqlite`)
    if (!existsSync(file)) {
      mkdirSync(folder, { recursive: true })
      const building = mkdtempSync(path.join(folder, 'building-'))
      try {
        const store = await openStore({ dataDir: building, databaseUrl: undefined })
        try {
          await migrateToLatest(store.db)
        } finally {
          await store.close()
        }
        renameSync(store.location, file)
      } finally {
        rmSync(building, { recursive: true, force: true })
      }
    }
    sqliteTemplate = file
  }
  mkdirSync(dataDir, { recursive: true })
  copyFileSync(sqliteTemplate, path.join(dataDir, SQLITE_FILE_NAME))
}

/** Runs `suite` once per configured database, naming the database in the suite titles. */
export function forEachDatabase (suite: (database: TestDatabase) => void): void {
  for (const database of TEST_DATABASES) suite(database)
}

/**
 * Settings that point the service (or the CLI) at a fresh database of the given kind. PostgreSQL's
 * connections are shared with whatever else runs on the server: a test process takes few.
 */
export async function databaseEnv (t: TestContext, database: TestDatabase,
  options: { migrated?: boolean } = {}): Promise<Record<string, string>> {
  return database === 'postgres'
    ? { DATABASE_URL: await createPostgresDatabase(t, options), DATABASE_POOL_SIZE: '4' }
    : {}
}
