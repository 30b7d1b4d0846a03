import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import type { TestContext } from 'node:test'
import pg from 'pg'
import type { TestDatabase } from '../databases.ts'

/**
 * Holds what an import writes, from outside the service: SQLite's write lock (as another import would), or on
 * PostgreSQL the projects table in share mode (reads still go through; an import that got the import lock then
 * waits inside it). Returns the release, which the test's end also calls.
 */
export async function holdImportWrites (t: TestContext, env: Record<string, string>, database: TestDatabase):
Promise<() => Promise<void>> {
  let release: () => Promise<void>
  if (database === 'sqlite') {
    const db = new DatabaseSync(path.join(env['DATA_DIR']!, 'tonne.sqlite'))
    db.exec('BEGIN IMMEDIATE')
    release = async () => { db.exec('COMMIT'); db.close() }
  } else {
    const client = new pg.Client({ connectionString: env['DATABASE_URL'] })
    await client.connect()
    await client.query('begin')
    await client.query('lock table projects in share mode')
    release = async () => { await client.query('commit'); await client.end() }
  }
  let released = false
  const once = async () => { if (!released) { released = true; await release() } }
  t.after(async () => { await once().catch(() => undefined) })
  return once
}
