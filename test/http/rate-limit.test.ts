import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import Fastify from 'fastify'
import { createKey } from '../../src/access/api-keys.service.ts'
import { RateLimitCounters, registerRateLimit } from '../../src/http/rate-limit.ts'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'

const LIST = '/api/v1/commerce/products/'
const PING = '/api/v1/co2-calculator/ping'

forEachDatabase((database) => {
  describe(`rate limits [${database}]`, () => {
    test('per key on the catalogue: RateLimit headers on every answer, 429 with Retry-After past the limit',
      async (t) => {
        const { app, inject, store } = await buildTestApp(t, { database, env: { RATE_LIMIT_CATALOGUE: '3/min' } })
        for (let i = 1; i <= 3; i++) {
          const response = await inject(LIST)
          assert.equal(response.statusCode, 200)
          assert.equal(response.headers['ratelimit-limit'], '3')
          assert.equal(response.headers['ratelimit-remaining'], String(3 - i))
          assert.ok(Number(response.headers['ratelimit-reset']) > 0)
        }
        const limited = await inject(LIST)
        assert.equal(limited.statusCode, 429)
        assert.match(limited.headers['content-type'] as string, /^application\/problem\+json/)
        assert.equal(limited.json().code, 'rate_limited')
        assert.equal(limited.headers['ratelimit-limit'], '3')
        assert.equal(limited.headers['ratelimit-remaining'], '0')
        const retryAfter = Number(limited.headers['retry-after'])
        assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`)

        // Another key has its own counter.
        const { key: other } = await createKey(store.db, { name: 'other', scopes: ['catalogue:read'] })
        assert.equal((await app.inject({ url: LIST, headers: { authorization: `Bearer ${other}` } })).statusCode, 200)
      })

    test("a key's own limit overrides the default", async (t) => {
      const { app, store } = await buildTestApp(t, { database, env: { RATE_LIMIT_CATALOGUE: '100' } })
      const { key } = await createKey(store.db, { name: 'tight', scopes: ['catalogue:read'], rateLimitPerMinute: 2 })
      const get = async () => await app.inject({ url: LIST, headers: { authorization: `Bearer ${key}` } })
      assert.equal((await get()).headers['ratelimit-limit'], '2')
      assert.equal((await get()).statusCode, 200)
      assert.equal((await get()).statusCode, 429)
    })

    test('per client address on the calculator; X-Forwarded-For counts only behind a trusted proxy', async (t) => {
      const { app } = await buildTestApp(t, { database, env: { RATE_LIMIT_CALCULATOR: '2' } })
      const from = async (ip: string, forwarded?: string) => await app.inject({
        url: PING, remoteAddress: ip, ...(forwarded !== undefined && { headers: { 'x-forwarded-for': forwarded } })
      })
      assert.equal((await from('10.0.0.1', '1.1.1.1')).statusCode, 200)
      assert.equal((await from('10.0.0.1', '2.2.2.2')).statusCode, 200)
      assert.equal((await from('10.0.0.1', '3.3.3.3')).statusCode, 429, 'the header is ignored by default')
      assert.equal((await from('10.0.0.2')).statusCode, 200, 'another address has its own counter')

      const proxied = await buildTestApp(t, { database, env: { RATE_LIMIT_CALCULATOR: '2', TRUST_PROXY: 'true' } })
      const via = async (forwarded: string) =>
        await proxied.app.inject({ url: PING, remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': forwarded } })
      assert.equal((await via('1.1.1.1')).statusCode, 200)
      assert.equal((await via('1.1.1.1')).statusCode, 200)
      assert.equal((await via('1.1.1.1')).statusCode, 429)
      assert.equal((await via('2.2.2.2')).statusCode, 200, 'each forwarded client has its own counter')
    })
  })
})

test('a failed answer is charged its time less the request already counted: one quicker than a work unit costs 1',
  async (t) => {
    const app = Fastify()
    t.after(async () => await app.close())
    const counters = new RateLimitCounters({ redis: undefined, policy: 'local', log: app.log })
    // A work unit of a minute: no answer here takes that long, so a failure is one unit, the request itself.
    await registerRateLimit(app, { name: 'test', counters, key: () => 'k', max: () => 100, workUnitMs: 60_000 })
    app.get('/ok', async () => ({ ok: true }))
    app.get('/fails', async () => { throw new Error('a statement timeout') })
    const remaining = async (url: string) => Number((await app.inject(url)).headers['ratelimit-remaining'])
    assert.equal(await remaining('/ok'), 99)
    assert.equal((await app.inject('/fails')).statusCode, 500)
    assert.equal(await remaining('/ok'), 97, 'the failure counted once, as any request')
  })

test('a failed answer that had already been charged for its rows is not charged them again', async (t) => {
  const app = Fastify()
  t.after(async () => await app.close())
  const counters = new RateLimitCounters({ redis: undefined, policy: 'local', log: app.log })
  // A work unit of a minute: the failure's time is under one unit, which the request itself already paid.
  const charge = await registerRateLimit(app,
    { name: 'test', counters, key: () => 'k', max: () => 100, workUnitMs: 60_000 })
  app.get('/ok', async () => ({ ok: true }))
  app.get('/rows-then-fails', async (request) => {
    await charge(request, 5)
    throw new Error('a statement timeout after the first rows were priced')
  })
  const remaining = async (url: string) => Number((await app.inject(url)).headers['ratelimit-remaining'])
  assert.equal((await app.inject('/rows-then-fails')).statusCode, 500)
  // 100 - 1 (the request) - 5 (its rows) = 94 left; this request is one more.
  assert.equal(await remaining('/ok'), 93)
})
