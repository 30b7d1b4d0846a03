import { randomBytes } from 'node:crypto'
import type { TestContext } from 'node:test'
import pg from 'pg'

// The test settings live here, the way src/config.ts holds the service's.
//   TONNE_TEST_DATABASES     databases the store-backed suites run on (default "sqlite,postgres")
//   TONNE_TEST_POSTGRES_URL  an admin connection to a PostgreSQL server (default the local one, user postgres)
//   TONNE_TEST_REDIS_URL     a Redis server for the shared-counter tests (default the local one)
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

export const POSTGRES_ADMIN_URL = env['TONNE_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres'
export const REDIS_URL = env['TONNE_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379'

async function admin<T> (work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5000 })
  try {
    await client.connect()
  } catch (error) {
    throw new Error(`The PostgreSQL suites need a server at ${POSTGRES_ADMIN_URL} (${(error as Error).message}). ` +
      'Start one, point TONNE_TEST_POSTGRES_URL at one, or run only SQLite with TONNE_TEST_DATABASES=sqlite.')
  }
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A new, empty PostgreSQL database for this test, dropped after it; returns its URL. */
export async function createPostgresDatabase (t: TestContext): Promise<string> {
  const name = `tonne_test_${randomBytes(6).toString('hex')}`
  await admin(async (client) => { await client.query(`create database ${name}`) })
  t.after(async () => {
    await admin(async (client) => { await client.query(`drop database if exists ${name} with (force)`) })
  })
  const url = new URL(POSTGRES_ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}

/** Runs `suite` once per configured database, naming the database in the suite titles. */
export function forEachDatabase (suite: (database: TestDatabase) => void): void {
  for (const database of TEST_DATABASES) suite(database)
}

/**
 * Settings that point the service (or the CLI) at a fresh database of the given kind. PostgreSQL's
 * connections are shared with whatever else runs on the server: a test process takes few.
 */
export async function databaseEnv (t: TestContext, database: TestDatabase): Promise<Record<string, string>> {
  return database === 'postgres' ? { DATABASE_URL: await createPostgresDatabase(t), DATABASE_POOL_SIZE: '4' } : {}
}
