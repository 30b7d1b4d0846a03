import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, test } from 'node:test'
import { createInitialKeyOnce, createKey, listKeys, revokeKey } from '../../src/access/api-keys.service.ts'
import { loadConfig } from '../../src/config.ts'
import { openStore } from '../../src/store/connect.ts'
import { tonne } from '../cli.helpers.ts'
import { copyMigratedSqlite, databaseEnv, forEachDatabase } from '../databases.ts'
import { buildTestApp, tempDir } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

const LIST = '/api/v1/commerce/products/'

forEachDatabase((database) => {
  describe(`API keys on the catalogue [${database}]`, () => {
    test('a valid key works as Bearer and as X-API-Key', async (t) => {
      const { app, key } = await buildTestApp(t, { database, records: fixtureProjects() })
      assert.equal((await app.inject({ url: LIST, headers: { authorization: `Bearer ${key}` } })).statusCode, 200)
      assert.equal((await app.inject({ url: LIST, headers: { authorization: `bearer  ${key}` } })).statusCode, 200)
      assert.equal((await app.inject({ url: `${LIST}1/`, headers: { 'x-api-key': key } })).statusCode, 200)
    })

    const invalid: Array<[string, Record<string, string>, RegExp]> = [
      ['no key', {}, /^Bearer realm="tonne"$/],
      ['a malformed key', { authorization: 'Bearer not-a-key' }, /error="invalid_token"/],
      ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }, /error="invalid_token"/],
      ['an unknown key', { authorization: `Bearer tonne_0123456789ab_${'A'.repeat(43)}` }, /error="invalid_token"/],
      ['an unknown X-API-Key', { 'x-api-key': `tonne_0123456789ab_${'B'.repeat(43)}` }, /error="invalid_token"/]
    ]
    for (const [what, headers, challenge] of invalid) {
      test(`${what} is a 401 with WWW-Authenticate`, async (t) => {
        const { app } = await buildTestApp(t, { database, records: fixtureProjects() })
        for (const url of [LIST, `${LIST}1/`, `${LIST}999/`]) {
          const response = await app.inject({ url, headers })
          assert.equal(response.statusCode, 401)
          assert.match(response.headers['www-authenticate'] as string, challenge)
          assert.equal(response.json().code, 'unauthorized')
        }
      })
    }

    test('a key with the right id but a wrong secret is refused', async (t) => {
      const { app, key } = await buildTestApp(t, { database })
      const tampered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A')
      assert.equal((await app.inject({ url: LIST, headers: { authorization: `Bearer ${tampered}` } })).statusCode, 401)
    })

    test('a revoked key is a 401 at once', async (t) => {
      const { app, store } = await buildTestApp(t, { database })
      const { id, key } = await createKey(store.db, { name: 'to revoke', scopes: ['catalogue:read'] })
      assert.equal((await app.inject({ url: LIST, headers: { authorization: `Bearer ${key}` } })).statusCode, 200)
      assert.equal(await revokeKey(store.db, id), true)
      const response = await app.inject({ url: LIST, headers: { authorization: `Bearer ${key}` } })
      assert.equal(response.statusCode, 401)
      assert.match(response.json().detail, /revoked/)
    })

    test('a valid key without the catalogue:read scope is a 403', async (t) => {
      const { app, store } = await buildTestApp(t, { database })
      const { key } = await createKey(store.db, { name: 'no scopes', scopes: [] })
      const response = await app.inject({ url: LIST, headers: { authorization: `Bearer ${key}` } })
      assert.equal(response.statusCode, 403)
      assert.equal(response.json().code, 'forbidden')
    })

    test('the calculator needs no key', async (t) => {
      const { app } = await buildTestApp(t, { database })
      assert.equal((await app.inject('/api/v1/co2-calculator/ping')).statusCode, 200)
    })

    test('keys and the Authorization header never appear in the logs', async (t) => {
      const lines: string[] = []
      const logStream = new Writable({ write (chunk, _encoding, done) { lines.push(String(chunk)); done() } })
      const { app, key } = await buildTestApp(t, { database, records: fixtureProjects(), logStream })
      await app.inject({ url: LIST, headers: { authorization: `Bearer ${key}` } })
      await app.inject({ url: `${LIST}1/`, headers: { 'x-api-key': key } })
      await app.inject({ url: LIST, headers: { authorization: `Bearer ${key}x` } })
      const log = lines.join('')
      assert.ok(lines.length >= 6, 'requests were logged')
      assert.ok(!log.includes(key.slice(19)), 'no key secret in the logs')
      assert.doesNotMatch(log, /tonne_[0-9a-f]{12}_/)
      assert.doesNotMatch(log, /authorization|x-api-key|Bearer/i)
    })
  })

  test(`the initial key: made on a first start without keys, then never again, even once revoked [${database}]`,
    async (t) => {
      // A new, migrated database with no key, as on a first `tonne serve`.
      const freshStore = async () => {
        const dataDir = tempDir(t)
        if (database === 'sqlite') await copyMigratedSqlite(dataDir)
        const opened = await openStore(loadConfig({
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          ...await databaseEnv(t, database)
        }))
        t.after(async () => await opened.close())
        return opened
      }
      const store = await freshStore()
      const first = await createInitialKeyOnce(store.db)
      assert.deepEqual(first?.scopes, ['catalogue:read', 'calculator:read'])
      assert.equal(await createInitialKeyOnce(store.db), undefined, 'a second start makes none')
      assert.ok(await revokeKey(store.db, first!.id))
      assert.equal(await createInitialKeyOnce(store.db), undefined, 'nor once it is revoked')
      assert.equal((await listKeys(store.db)).length, 1)

      // A database that already has keys (made with `tonne keys create` before the first serve) gets none.
      const keyed = await freshStore()
      await createKey(keyed.db, { name: 'partner', scopes: ['catalogue:read'] })
      assert.equal(await createInitialKeyOnce(keyed.db), undefined)
      assert.equal((await listKeys(keyed.db)).length, 1)
    })

  describe(`tonne keys [${database}]`, () => {
    test('create (text and --json), list, revoke', async (t) => {
      const env = { DATA_DIR: tempDir(t), ...await databaseEnv(t, database) }
      const created = await tonne(['keys', 'create', '--name', 'partner one', '--rate-limit', '120/min', '--json'], env)
      assert.equal(created.code, 0, created.stderr)
      const info = JSON.parse(created.stdout)
      assert.match(info.key, /^tonne_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/)
      assert.equal(info.key.split('_')[1], info.id)
      assert.deepEqual(info.scopes, ['catalogue:read'])
      assert.equal(info.rate_limit_per_minute, 120)
      const text = await tonne(['keys', 'create', '--name', 'second'], env)
      assert.match(text.stdout, /shown this once/)
      const list = await tonne(['keys', 'list', '--json'], env)
      const keys = JSON.parse(list.stdout)
      assert.equal(keys.length, 2)
      assert.ok(!list.stdout.includes(info.key), 'list never shows a key')
      assert.equal((await tonne(['keys', 'revoke', info.id], env)).code, 0)
      assert.equal((await tonne(['keys', 'revoke', info.id], env)).code, 1)
      assert.ok(JSON.parse((await tonne(['keys', 'list', '--json'], env)).stdout)[0].revoked_at)
    })

    test('bad arguments are refused with exit code 2', async (t) => {
      const env = { DATA_DIR: tempDir(t), ...await databaseEnv(t, database) }
      assert.equal((await tonne(['keys', 'create'], env)).code, 2)
      assert.match((await tonne(['keys', 'create', '--name', 'x', '--scopes', 'catalogue:write'], env)).stderr,
        /unknown scope/)
      assert.equal((await tonne(['keys', 'create', '--name', 'x', '--rate-limit', 'fast'], env)).code, 2)
      assert.equal((await tonne(['keys', 'rotate'], env)).code, 2)
    })
  })
})
