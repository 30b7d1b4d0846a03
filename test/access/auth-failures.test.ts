import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createKey } from '../../src/access/api-keys.service.ts'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'

const LIST = '/api/v1/commerce/products/'
const CALCULATOR = '/api/v1/co2-calculator/ping'
const START = Date.UTC(2026, 10, 23, 12, 0, 0)
const WRONG = 'tonne_000000000000_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'

forEachDatabase((database) => {
  describe(`failed API key checks are limited per client address [${database}]`, () => {
    test('past AUTH_FAILURE_LIMIT an address gets 429 and Retry-After for a minute, unless it sends a valid key',
      async (t) => {
        t.mock.timers.enable({ apis: ['Date'], now: START })
        const { app, key } = await buildTestApp(t, { database, env: { AUTH_FAILURE_LIMIT: '5/min' } })
        const from = async (address: string, presented?: string) => await app.inject({
          url: LIST,
          remoteAddress: address,
          ...(presented !== undefined && { headers: { authorization: `Bearer ${presented}` } })
        })
        // Wrong, malformed and missing keys all count.
        const tries = [WRONG, 'not-a-key', undefined, WRONG, WRONG]
        for (const presented of tries) assert.equal((await from('198.51.100.1', presented)).statusCode, 401)
        const limited = await from('198.51.100.1', WRONG)
        assert.equal(limited.statusCode, 429)
        assert.match(limited.headers['content-type'] as string, /^application\/problem\+json/)
        assert.equal(limited.json().code, 'rate_limited')
        assert.equal(limited.headers['retry-after'], '60')
        assert.equal((await from('198.51.100.1', undefined)).statusCode, 429, 'no key: refused')
        assert.equal((await from('198.51.100.1', 'not-a-key')).statusCode, 429, 'a malformed key: refused')
        assert.equal((await from('198.51.100.1', key)).statusCode, 200, 'a valid key is never refused for the address')

        assert.equal((await from('198.51.100.2', key)).statusCode, 200, 'another address is not affected')
        assert.equal((await from('198.51.100.2', WRONG)).statusCode, 401)

        t.mock.timers.tick(45_000)
        assert.equal((await from('198.51.100.1', WRONG)).headers['retry-after'], '15')
        t.mock.timers.tick(15_000)
        assert.equal((await from('198.51.100.1', WRONG)).statusCode, 401, 'a new minute, a new chance')
      })

    test('a valid key from a locked-out address meets only its own limit, on the catalogue and the calculator',
      async (t) => {
        const { app, store } = await buildTestApp(t, { database, env: { AUTH_FAILURE_LIMIT: '2/min' } })
        const { key } = await createKey(store.db,
          { name: 'own', scopes: ['catalogue:read', 'calculator:read'], rateLimitPerMinute: 3 })
        const address = '198.51.100.7'
        const get = async (url: string, presented?: string) => await app.inject({
          url, remoteAddress: address, ...(presented !== undefined && { headers: { 'x-api-key': presented } })
        })
        for (let i = 0; i < 3; i++) await get(LIST, WRONG)
        assert.equal((await get(LIST, WRONG)).statusCode, 429, 'the address is locked out')
        assert.equal((await get(CALCULATOR, key)).statusCode, 200)
        for (let i = 0; i < 3; i++) assert.equal((await get(LIST, key)).statusCode, 200)
        const own = await get(LIST, key)
        assert.equal(own.statusCode, 429, "the key's own limit (3 a minute) still holds")
        assert.equal(own.headers['ratelimit-limit'], '3')
      })

    test('wrong keys sent to the open calculator are refused (401) but never count against the address',
      async (t) => {
        const { app } = await buildTestApp(t, { database, env: { AUTH_FAILURE_LIMIT: '2/min' } })
        const address = '198.51.100.8'
        for (let i = 0; i < 10; i++) {
          const headers = { 'x-api-key': WRONG }
          assert.equal((await app.inject({ url: CALCULATOR, remoteAddress: address, headers })).statusCode, 401)
        }
        const catalogue = await app.inject({ url: LIST, remoteAddress: address, headers: { 'x-api-key': WRONG } })
        assert.equal(catalogue.statusCode, 401, 'the first failure on the catalogue is answered, not 429')
      })

    test('by default 30 failures a minute are answered; the 3,000 after them are refused at once', async (t) => {
      const { app } = await buildTestApp(t, { database })
      const statuses = new Map<number, number>()
      for (let i = 0; i < 100; i++) {
        const { statusCode } = await app.inject({
          url: LIST, remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${WRONG}` }
        })
        statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1)
      }
      assert.deepEqual(Object.fromEntries(statuses), { 401: 30, 429: 70 })
    })

    test('good keys never count', async (t) => {
      const env = { AUTH_FAILURE_LIMIT: '2', RATE_LIMIT_CATALOGUE: '1000' }
      const { app, key } = await buildTestApp(t, { database, env })
      for (let i = 0; i < 20; i++) {
        const headers = { authorization: `Bearer ${key}` }
        const response = await app.inject({ url: LIST, remoteAddress: '203.0.113.10', headers })
        assert.equal(response.statusCode, 200)
      }
    })
  })
})
