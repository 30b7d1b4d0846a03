import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createKey, revokeKey } from '../../src/access/api-keys.service.ts'
import { tonne } from '../cli.helpers.ts'
import { databaseEnv, forEachDatabase } from '../databases.ts'
import { buildTestApp, tempDir } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

const LIST = '/api/v1/commerce/products/'
const PING = '/api/v1/co2-calculator/ping'

forEachDatabase((database) => {
  describe(`scopes: catalogue:read and calculator:read [${database}]`, () => {
    test('a calculator-only key gets 403 on every catalogue path; a catalogue key gets in', async (t) => {
      const { app, store } = await buildTestApp(t, { database, records: fixtureProjects() })
      const { key: calculatorKey } = await createKey(store.db, { name: 'calculator', scopes: ['calculator:read'] })
      const { key: bothKey } = await createKey(store.db, {
        name: 'both', scopes: ['catalogue:read', 'calculator:read']
      })
      for (const url of [LIST, `${LIST}1/`, `${LIST}facets/`, `${LIST}geojson/`]) {
        const refused = await app.inject({ url, headers: { authorization: `Bearer ${calculatorKey}` } })
        assert.equal(refused.statusCode, 403, url)
        assert.equal(refused.json().code, 'forbidden')
        assert.match(refused.json().detail, /catalogue:read/)
        assert.equal((await app.inject({ url, headers: { authorization: `Bearer ${bothKey}` } })).statusCode, 200, url)
      }
    })

    test('the calculator stays open without a key, limited per address', async (t) => {
      const { app } = await buildTestApp(t, { database, env: { RATE_LIMIT_CALCULATOR: '2' } })
      const anonymous = async () => await app.inject({ url: PING, remoteAddress: '10.1.1.1' })
      assert.equal((await anonymous()).headers['ratelimit-limit'], '2')
      assert.equal((await anonymous()).statusCode, 200)
      assert.equal((await anonymous()).statusCode, 429)
    })

    test('a key with calculator:read is limited per key (its own limit, else the default)', async (t) => {
      const { app, store } = await buildTestApp(t, { database, env: { RATE_LIMIT_CALCULATOR: '2' } })
      const { key: first } = await createKey(store.db, {
        name: 'first', scopes: ['calculator:read'], rateLimitPerMinute: 3
      })
      const { key: second } = await createKey(store.db, { name: 'second', scopes: ['calculator:read'] })
      const as = async (key: string | undefined) => await app.inject({
        url: PING, remoteAddress: '10.2.2.2', headers: key === undefined ? {} : { authorization: `Bearer ${key}` }
      })
      // The address's own count is used up; the keys, from the same address, each have theirs.
      assert.equal((await as(undefined)).statusCode, 200)
      assert.equal((await as(undefined)).statusCode, 200)
      assert.equal((await as(undefined)).statusCode, 429)
      for (let i = 0; i < 3; i++) {
        const response = await as(first)
        assert.equal(response.statusCode, 200)
        assert.equal(response.headers['ratelimit-limit'], '3')
        assert.equal(response.headers['ratelimit-remaining'], String(2 - i))
      }
      assert.equal((await as(first)).statusCode, 429)
      assert.equal((await as(second)).headers['ratelimit-limit'], '2')
      assert.equal((await as(second)).statusCode, 200)
      assert.equal((await as(second)).statusCode, 429)
    })

    test('on the calculator, a key without calculator:read counts as no key; a bad key is a 401', async (t) => {
      const { app, key: catalogueKey, store } = await buildTestApp(t, { database, env: { RATE_LIMIT_CALCULATOR: '1' } })
      const from = { url: PING, remoteAddress: '10.3.3.3' }
      const response = await app.inject({ ...from, headers: { authorization: `Bearer ${catalogueKey}` } })
      assert.equal(response.statusCode, 200)
      assert.equal((await app.inject(from)).statusCode, 429, 'the same count as the address')
      const unknownKey = `tonne_0123456789ab_${'C'.repeat(43)}`
      const bad = await app.inject({ url: PING, headers: { authorization: `Bearer ${unknownKey}` } })
      assert.equal(bad.statusCode, 401)
      assert.equal(bad.json().code, 'unauthorized')
      const { id, key } = await createKey(store.db, { name: 'gone', scopes: ['calculator:read'] })
      await revokeKey(store.db, id)
      assert.equal((await app.inject({ url: PING, headers: { 'x-api-key': key } })).statusCode, 401)
    })
  })

  describe(`tonne keys create --scopes [${database}]`, () => {
    test('calculator:read, both scopes, and the default', async (t) => {
      const env = { DATA_DIR: tempDir(t), ...await databaseEnv(t, database) }
      const create = async (name: string, ...scopes: string[]) =>
        await tonne(['keys', 'create', '--name', name, ...scopes, '--json'], env)
      const calculator = await create('widget', '--scopes', 'calculator:read')
      assert.equal(calculator.code, 0, calculator.stderr)
      assert.deepEqual(JSON.parse(calculator.stdout).scopes, ['calculator:read'])
      const both = await create('partner', '--scopes', 'catalogue:read,calculator:read')
      assert.deepEqual(JSON.parse(both.stdout).scopes, ['catalogue:read', 'calculator:read'])
      const plain = await create('default')
      assert.deepEqual(JSON.parse(plain.stdout).scopes, ['catalogue:read'])
      const listed = await tonne(['keys', 'list', '--json'], env)
      const list = JSON.parse(listed.stdout) as Array<{ name: string, scopes: string[] }>
      assert.deepEqual(list.map((k) => [k.name, k.scopes]), [
        ['widget', ['calculator:read']],
        ['partner', ['catalogue:read', 'calculator:read']],
        ['default', ['catalogue:read']]
      ])
      const help = await tonne(['--help'], env)
      assert.match(help.stdout, /catalogue:read for\s+\/api\/v1\/commerce\/products\//)
      assert.match(help.stdout, /calculator:read for a\s+per-key rate limit/)
    })
  })
})

test('the OpenAPI document says which scope each operation needs', async (t) => {
  const { app } = await buildTestApp(t)
  const doc = (await app.inject('/openapi.json')).json()
  for (const path of ['/api/v1/commerce/products/', '/api/v1/commerce/products/{id}/',
    '/api/v1/commerce/products/facets/', '/api/v1/commerce/products/geojson/']) {
    assert.deepEqual(doc.paths[path].get.security, [{ apiKey: ['catalogue:read'] }], path)
    assert.match(doc.paths[path].get.description, /catalogue:read/)
  }
  const paths = doc.paths as Record<string, { get: { security: unknown, description: string } }>
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/api/v1/co2-calculator/')) continue
    // No key needed; a key with calculator:read is counted on its own.
    assert.deepEqual(item.get.security, [{}, { apiKey: ['calculator:read'] }], path)
    assert.match(item.get.description, /calculator:read/, path)
  }
})
