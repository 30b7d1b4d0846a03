import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { recordManualImport } from '../../src/ingest/sources.ts'
import { saveSource } from '../../src/ingest/sources.repository.ts'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'

// GET /api/v1/commerce/sources/ as a client meets it: behind the catalogue key, conditional, in the OpenAPI document.

forEachDatabase((database) => {
  describe(`GET /api/v1/commerce/sources/ (${database})`, () => {
    test('needs a catalogue key; lists every source; its ETag follows the content, and a match is a 304',
      async (t) => {
        const { app, store, inject } = await buildTestApp(t, { database })
        const path = '/api/v1/commerce/sources/'
        assert.equal((await app.inject(path)).statusCode, 401)
        const empty = await inject(path)
        assert.equal(empty.statusCode, 200)
        assert.deepEqual(empty.json(), { count: 0, results: [] })

        await recordManualImport(store.db, 'gold-standard', true, new Date('2026-11-20T09:00:00.000Z'))
        await saveSource(store.db, 'offsetsdb', {
          kind: 'offsetsdb',
          url: 'https://example.org/offsets-db.csv.zip',
          last_checked_at: '2026-11-27T06:00:00.000Z',
          last_status: 'failed',
          last_error: 'example.org answered 503 Service Unavailable (after 4 tries)',
          etag: '"a"',
          last_modified: 'Thu, 26 Nov 2026 06:00:00 GMT'
        })
        const listed = await inject(path)
        assert.equal(listed.statusCode, 200)
        const body = listed.json<{ count: number, results: Array<Record<string, unknown>> }>()
        assert.equal(body.count, 2)
        assert.deepEqual(body.results.map((s) => s['name']), ['gold-standard', 'offsetsdb'])
        assert.deepEqual(body.results[0], {
          name: 'gold-standard',
          kind: 'gold-standard',
          url: null,
          last_checked_at: '2026-11-20T09:00:00.000Z',
          last_changed_at: '2026-11-20T09:00:00.000Z',
          data_as_of: null,
          sha256: null,
          etag: null,
          last_status: 'changed',
          last_error: null,
          projects: 0,
          transactions: 0,
          attribution: 'Public exports of Gold Standard Impact Registry; the registry\'s own terms of use apply.'
        })
        assert.equal(body.results[1]!['last_status'], 'failed')
        assert.ok(!('last_modified' in body.results[1]!), 'the validator the sync sends is not listed')

        const etag = listed.headers.etag as string
        assert.match(etag, /^W\/"/)
        assert.equal((await inject({ url: path, headers: { 'if-none-match': etag } })).statusCode, 304)
        await saveSource(store.db, 'offsetsdb', { kind: 'offsetsdb', last_status: 'not_modified', last_error: null })
        const changed = await inject({ url: path, headers: { 'if-none-match': etag } })
        assert.equal(changed.statusCode, 200)
        assert.notEqual(changed.headers.etag, etag)
      })

    test('it takes the catalogue\'s answer path: a 304 carries the Vary its 200 did, a body compresses', async (t) => {
      const { store, inject } = await buildTestApp(t, { database })
      const path = '/api/v1/commerce/sources/'
      // Enough sources for a body past the compression threshold, so the 200 varies on Accept-Encoding.
      for (const kind of ['gold-standard', 'verra', 'arb', 'acr', 'isometric'] as const) {
        await recordManualImport(store.db, kind, true, new Date('2026-11-20T09:00:00.000Z'))
      }
      const full = await inject({ url: path, headers: { 'accept-encoding': 'gzip' } })
      assert.equal(full.statusCode, 200)
      assert.equal(full.headers['content-encoding'], 'gzip')
      assert.match(String(full.headers.vary), /accept-encoding/i)
      const again = await inject({
        url: path, headers: { 'accept-encoding': 'gzip', 'if-none-match': full.headers.etag as string }
      })
      assert.equal(again.statusCode, 304)
      assert.equal(again.headers.vary, full.headers.vary, 'the 304 stands for the same representation')
      assert.equal(again.headers['cache-control'], full.headers['cache-control'])
    })

    test('the OpenAPI document lists it as listSources, with the area\'s key, errors and 304', async (t) => {
      const { app } = await buildTestApp(t, { database })
      const doc = (await app.inject('/openapi.json')).json<{
        paths: Record<string, { get: { operationId: string, security: unknown, responses: Record<string, unknown> } }>
      }>()
      const operation = doc.paths['/api/v1/commerce/sources/']?.get
      assert.equal(operation?.operationId, 'listSources')
      assert.deepEqual(operation.security, [{ apiKey: ['catalogue:read'] }])
      assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '304', '400', '401', '403', '429'])
    })
  })
})
