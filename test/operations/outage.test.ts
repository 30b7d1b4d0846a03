import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { test } from 'node:test'
import { createPostgresDatabase, REDIS_URL, TEST_DATABASES } from '../databases.ts'

// These need the PostgreSQL and Redis servers; they are off only when TONNE_TEST_DATABASES leaves PostgreSQL out.
const servers = { skip: TEST_DATABASES.includes('postgres') ? false : 'TONNE_TEST_DATABASES leaves PostgreSQL out' }
import { buildTestApp } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { TcpProxy, through } from '../support/tcp-proxy.ts'

/** Retries `probe` until it gives `status` (the service recovers by itself), up to `seconds`. */
async function eventually (probe: () => Promise<number>, status: number, seconds = 15): Promise<number> {
  let last = 0
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline; await sleep(250)) {
    last = await probe()
    if (last === status) return last
  }
  return last
}

test('a database or Redis outage gives 503s and an unready service, then it recovers by itself', servers, async (t) => {
  const databaseUrl = await createPostgresDatabase(t)
  const pgProxy = await TcpProxy.start({ host: new URL(databaseUrl).hostname, port: Number(new URL(databaseUrl).port || 5432) })
  const redisProxy = await TcpProxy.start({ host: new URL(REDIS_URL).hostname, port: Number(new URL(REDIS_URL).port || 6379) })
  t.after(async () => { await pgProxy.close(); await redisProxy.close() })
  const { app, inject } = await buildTestApp(t, {
    records: fixtureProjects(),
    env: { DATABASE_URL: through(databaseUrl, pgProxy), REDIS_URL: through(REDIS_URL, redisProxy) }
  })
  const catalogue = async () => (await inject('/api/v1/commerce/products/1/')).statusCode
  const calculator = async () => (await app.inject('/api/v1/co2-calculator/ping')).statusCode
  const ready = async () => (await app.inject('/health/ready')).statusCode
  assert.equal(await catalogue(), 200)
  assert.equal(await calculator(), 200)
  assert.deepEqual((await app.inject('/health/ready')).json().checks, { database: 'ok', redis: 'ok' })

  pgProxy.cut()
  const started = Date.now()
  const failed = await inject('/api/v1/commerce/products/1/')
  assert.ok(Date.now() - started < 10_000, 'no hang')
  assert.equal(failed.statusCode, 503)
  assert.equal(failed.json().code, 'service_unavailable')
  assert.match(failed.headers['content-type'] as string, /^application\/problem\+json/)
  assert.equal(await ready(), 503)
  assert.equal(await calculator(), 200, 'the calculator does not need the database')
  pgProxy.restore()
  assert.equal(await eventually(catalogue, 200), 200)
  assert.equal(await eventually(ready, 200), 200)

  redisProxy.cut()
  assert.equal(await eventually(calculator, 503), 503)
  assert.equal((await app.inject('/api/v1/co2-calculator/ping')).json().code, 'service_unavailable')
  assert.equal(await ready(), 503)
  redisProxy.restore()
  assert.equal(await eventually(calculator, 200), 200)
  assert.equal(await eventually(ready, 200), 200)
  assert.equal(await catalogue(), 200)
})
