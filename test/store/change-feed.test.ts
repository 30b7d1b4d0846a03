import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { listenPostgres, type ChangeFeed } from '../../src/store/change-feed.ts'
import { openStore } from '../../src/store/connect.ts'
import { copyMigratedSqlite, createPostgresDatabase, TEST_DATABASES } from '../databases.ts'
import { tempDir } from '../helpers.ts'

// The change feeds (src/store/change-feed.ts): what a serving process's caches trust. Until its LISTEN
// connection is up nothing cached is served; once it is, a value read at the current generation is fresh until a
// NOTIFY from any connection moves the generation. A feed that never went live would leave every PostgreSQL
// instance rebuilding every answer, which no answer would show.

/** Yields to the event loop until `done` holds, failing after 10 s (the feed has no event to wait on). */
async function until (done: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done(); await new Promise(setImmediate)) {
    if (Date.now() > deadline) assert.fail(`not within 10 s: ${what}`)
  }
}

test('PostgreSQL change feed: fresh once listening, moved on by a NOTIFY from another connection, never while ' +
  'the database is said to be away', {
  skip: !TEST_DATABASES.includes('postgres') && 'PostgreSQL suites are off (TONNE_TEST_DATABASES)'
}, async (t) => {
  const url = await createPostgresDatabase(t)
  let away = false
  const feed: ChangeFeed = listenPostgres(pg, url, () => away)
  t.after(() => { feed.close() })
  assert.equal(feed.fresh(feed.generation), false, 'nothing is trusted before the LISTEN is up')
  await until(() => feed.fresh(feed.generation), 'the feed is live')

  const read = feed.generation
  const other = new pg.Client({ connectionString: url })
  await other.connect()
  t.after(async () => await other.end())
  await other.query("select pg_notify('tonne_changes', 'catalogue')")
  await until(() => !feed.fresh(read), 'a NOTIFY from another connection moves the generation')
  assert.ok(feed.fresh(feed.generation), 'a value read after the change is fresh')

  away = true
  assert.equal(feed.fresh(feed.generation), false, 'while the database is said to be away, nothing is fresh')
})

test('SQLite change feed: a commit by another connection to the file (a worker, the CLI) moves the generation',
  async (t) => {
    const dataDir = tempDir(t)
    await copyMigratedSqlite(dataDir)
    const serving = await openStore({ dataDir, databaseUrl: undefined, sqliteReadWorkers: 0 })
    t.after(async () => await serving.close())
    const cli = await openStore({ dataDir, databaseUrl: undefined, sqliteReadWorkers: 0 })
    t.after(async () => await cli.close())
    const feed = serving.changes
    // The feed's first read of PRAGMA data_version is its baseline: a change is a later value.
    await serving.db.selectFrom('api_keys').select('id').execute()
    const read = feed.generation
    // Raw SQL: the service's own writes also tell this process's feeds directly, which is not what is tested here.
    await sql`create table feed_probe (x integer)`.execute(cli.db)
    await until(() => !feed.fresh(read), "another connection's commit is seen")
  })
