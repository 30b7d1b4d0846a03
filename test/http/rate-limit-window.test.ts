import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'

const LIST = '/api/v1/commerce/products/'
const PING = '/api/v1/co2-calculator/ping'
const START = Date.UTC(2026, 10, 23, 12, 0, 0)

// The windows are one minute long (README, docs/api.md). The clock is node:test's mock Date, moved by hand:
// no test waits for real time.

forEachDatabase((database) => {
  describe(`rate-limit windows last one minute [${database}]`, () => {
    test('the calculator: a full window stays full for 60 s, then a new one starts', async (t) => {
      t.mock.timers.enable({ apis: ['Date'], now: START })
      const { app } = await buildTestApp(t, { database, env: { RATE_LIMIT_CALCULATOR: '2' } })
      const ping = async () => await app.inject({ url: PING, remoteAddress: '192.0.2.7' })
      const first = await ping()
      assert.equal(first.statusCode, 200)
      assert.equal(first.headers['ratelimit-reset'], '60', 'a new window has 60 s to run')
      assert.equal((await ping()).statusCode, 200)
      const full = await ping()
      assert.equal(full.statusCode, 429)
      assert.equal(full.headers['retry-after'], '60')

      t.mock.timers.tick(30_000)
      const half = await ping()
      assert.equal(half.statusCode, 429, 'still limited half a minute later')
      assert.equal(half.headers['retry-after'], '30')
      t.mock.timers.tick(29_999)
      assert.equal((await ping()).statusCode, 429, 'still limited 1 ms before the minute is over')
      t.mock.timers.tick(1)
      const next = await ping()
      assert.equal(next.statusCode, 200, 'a new window after exactly one minute')
      assert.equal(next.headers['ratelimit-remaining'], '1')
      assert.equal(next.headers['ratelimit-reset'], '60')
    })

    test('the catalogue: per key, the same one-minute window', async (t) => {
      t.mock.timers.enable({ apis: ['Date'], now: START })
      const { inject } = await buildTestApp(t, { database, env: { RATE_LIMIT_CATALOGUE: '1' } })
      assert.equal((await inject(LIST)).headers['ratelimit-reset'], '60')
      t.mock.timers.tick(59_000)
      const limited = await inject(LIST)
      assert.equal(limited.statusCode, 429)
      assert.equal(limited.headers['retry-after'], '1')
      t.mock.timers.tick(1000)
      assert.equal((await inject(LIST)).statusCode, 200)
    })
  })
})
