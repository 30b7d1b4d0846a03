import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { buildTestApp } from '../helpers.ts'

const PING = '/api/v1/co2-calculator/ping'

describe('TRUST_PROXY', () => {
  test('a number is a hop count, only true/false are booleans, anything else names proxies', () => {
    const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy
    assert.equal(trust('1'), 1)
    assert.equal(trust('0'), 0)
    assert.equal(trust('2'), 2)
    assert.equal(trust('true'), true)
    assert.equal(trust('FALSE'), false)
    assert.equal(trust('10.0.0.1, 10.1.0.0/16'), '10.0.0.1,10.1.0.0/16')
    assert.equal(trust('loopback'), 'loopback')
    for (const bad of ['yes', 'no', 'on', '10.0.0.300', '-1', '1.5']) {
      assert.throws(() => loadConfig({ TRUST_PROXY: bad }), (error: unknown) =>
        error instanceof ConfigError && /TRUST_PROXY/.test(error.message), bad)
    }
  })

  test('TRUST_PROXY=1 (as compose ships it) believes one hop: a forged left-most entry is no way around the limit',
    async (t) => {
      const { app } = await buildTestApp(t, { env: { RATE_LIMIT_CALCULATOR: '2', TRUST_PROXY: '1' } })
      // The proxy (10.0.0.1) appends the address it saw (203.0.113.7); the client wrote the entries before it.
      const forged = async (i: number) => await app.inject({
        url: PING, remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` }
      })
      assert.equal((await forged(1)).statusCode, 200)
      assert.equal((await forged(2)).statusCode, 200)
      assert.equal((await forged(3)).statusCode, 429, 'the client is the address the proxy saw, whatever it forges')
      const other = await app.inject({
        url: PING, remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': '203.0.113.8' }
      })
      assert.equal(other.statusCode, 200, 'another client behind the same proxy has its own counter')
    })
})
