import assert from 'node:assert/strict'
import { test } from 'node:test'
import pg from 'pg'
import { fixtureProjects } from '../fixtures/projects.ts'
import { POSTGRES_ADMIN_URL, TEST_DATABASES } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'

// PostgreSQL's connections are shared by every process on the server: DATABASE_POOL_SIZE caps
// what one Tonne process takes, however many requests arrive at once.
test('DATABASE_POOL_SIZE caps the PostgreSQL connections of one process', {
  skip: !TEST_DATABASES.includes('postgres') && 'PostgreSQL suites are off (TONNE_TEST_DATABASES)'
}, async (t) => {
  const { app, config, inject } = await buildTestApp(t, {
    database: 'postgres', records: fixtureProjects(), env: { DATABASE_POOL_SIZE: '2' }
  })
  const database = new URL(config.databaseUrl!).pathname.slice(1)
  const answers = await Promise.all(Array.from({ length: 12 }, async (_, i) =>
    await inject(`/api/v1/commerce/products/?limit=2&offset=${i}`)))
  assert.deepEqual(answers.map((a) => a.statusCode), Array(12).fill(200))

  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  await admin.connect()
  t.after(async () => await admin.end())
  // Besides its pool, each process holds one connection that LISTENs for changes (named tonne-changes).
  const { rows } = await admin.query<{ name: string, n: number }>(
    'select application_name as name, count(*)::int as n from pg_stat_activity where datname = $1 ' +
    'group by application_name', [database])
  const listening = rows.find((r) => r.name === 'tonne-changes')?.n ?? 0
  const pooled = rows.filter((r) => r.name !== 'tonne-changes').reduce((sum, r) => sum + r.n, 0)
  assert.ok(pooled <= 2, `${pooled} pooled connections to ${database}`)
  assert.ok(listening <= 1, `${listening} listening connections to ${database}`)
  assert.match((await app.inject('/metrics')).body, /tonne_db_pool_connections\{state="max"\} 2\n/)
})

test('DATABASE_POOL_SIZE must be a whole number from 1 to 1000', async () => {
  const { loadConfig } = await import('../../src/config.ts')
  assert.throws(() => loadConfig({ DATABASE_POOL_SIZE: '0' }),
    /DATABASE_POOL_SIZE must be a whole number from 1 to 1000/)
  assert.throws(() => loadConfig({ DATABASE_POOL_SIZE: 'lots' }), /DATABASE_POOL_SIZE must be/)
  assert.equal(loadConfig({}).databasePoolSize, 10)
})
