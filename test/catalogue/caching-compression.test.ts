import assert from 'node:assert/strict'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { describe, test } from 'node:test'
import { Compile } from 'typebox/compile'
import { ProjectPageSchema, ProjectSchema } from '../../src/catalogue/catalogue.schemas.ts'
import { importProjects } from '../../src/ingest/projects.import.ts'
import { buildSyntheticCatalogue } from '../../scripts/bench/synthetic-catalogue.ts'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { fixtureProjects, project } from '../fixtures/projects.ts'

const LIST = '/api/v1/commerce/products/'

forEachDatabase((database) => {
  describe(`ETags, compression and stored JSON [${database}]`, () => {
    test('an ETag on the unsigned payload: a repeat with If-None-Match is 304 though the links were re-signed',
      async (t) => {
        const { inject, store } = await buildTestApp(t, { database, records: fixtureProjects() })
        // The test's clock: links are signed per second, so the next second is one tick away.
        t.mock.timers.enable({ apis: ['Date'], now: Date.now() })
        for (const url of [`${LIST}?limit=5`, `${LIST}1/`]) {
          const first = await inject(url)
          const etag = first.headers['etag'] as string
          assert.match(etag, /^W\/"[A-Za-z0-9_-]{27}"$/)
          assert.equal(first.headers['cache-control'], 'private, max-age=60')
          t.mock.timers.tick(1000)
          const again = await inject(url)
          assert.notEqual(again.body, first.body, 'links are signed anew each second')
          assert.equal(again.headers['etag'], etag)
          const notModified = await inject({ url, headers: { 'if-none-match': etag } })
          assert.equal(notModified.statusCode, 304)
          assert.equal(notModified.body, '')
          assert.equal(notModified.headers['etag'], etag)
          assert.equal((await inject({ url, headers: { 'if-none-match': 'W/"other", ' + etag } })).statusCode, 304)
          assert.equal((await inject({ url, headers: { 'if-none-match': 'W/"other"' } })).statusCode, 200)
        }
        const before = (await inject(`${LIST}1/`)).headers['etag'] as string
        await importProjects(store.db, JSON.stringify([{ ...fixtureProjects()[0], name: 'Renamed' }]),
          { replace: false })
        const changed = await inject({ url: `${LIST}1/`, headers: { 'if-none-match': before } })
        assert.equal(changed.statusCode, 200)
        assert.equal(changed.json().name, 'Renamed')
      })

    test('ANSWER_CACHE=false gives the same answers, built anew each time', async (t) => {
      const cached = await buildTestApp(t, { database, records: fixtureProjects() })
      // A second app over the same database: an ETag names a catalogue version, which both see.
      const same = {
        DATA_DIR: cached.dataDir,
        ...(cached.config.databaseUrl !== undefined && { DATABASE_URL: cached.config.databaseUrl })
      }
      const uncached = await buildTestApp(t, { database, env: { ANSWER_CACHE: 'false', ...same } })
      const strip = (s: string) => s.replace(/\?expires=\d+&signature=[0-9a-f]{64}/g, '')
      for (const url of [`${LIST}?ordering=-name&limit=4`, `${LIST}1/`,
        '/api/v1/co2-calculator/diet?country_code=DEU&diet_form=vegan']) {
        const a = await cached.inject({ url, headers: { host: 'x' } })
        const b = await uncached.inject({ url, headers: { host: 'x' } })
        assert.equal(strip(b.body), strip(a.body), url)
        assert.equal(b.headers['etag'], a.headers['etag'])
      }
    })

    test('large answers are compressed for clients that ask; small ones are not', async (t) => {
      // A ledger long enough that a page of it is over 1 KiB.
      const retirement = { type: 'retirement', date: '2024-01-02', vintage: 2020, reason: null, source: null }
      const transactions = Array.from({ length: 30 },
        (_, i) => ({ ...retirement, identity: `T-${i}`, quantity: i + 1, beneficiary: `Buyer ${i}` }))
      const records = fixtureProjects().map((p, i) => i === 0 ? { ...p, transactions } : p)
      const { inject } = await buildTestApp(t, { database, records })
      const plain = await inject(LIST)
      assert.equal(plain.headers['content-encoding'], undefined)
      const gzip = await inject({ url: LIST, headers: { 'accept-encoding': 'gzip' } })
      assert.equal(gzip.headers['content-encoding'], 'gzip')
      assert.match(gzip.headers['vary'] as string, /accept-encoding/i)
      const strip = (s: string) => s.replace(/\?expires=\d+&signature=[0-9a-f]{64}/g, '')
      assert.equal(strip(gunzipSync(gzip.rawPayload).toString()), strip(plain.body))
      const br = await inject({ url: LIST, headers: { 'accept-encoding': 'br, gzip' } })
      assert.equal(br.headers['content-encoding'], 'br')
      assert.deepEqual(JSON.parse(brotliDecompressSync(br.rawPayload).toString()).count, 12)
      // Kept variants must negotiate as the plugin does: q-values, aliases, opting out, codings not kept.
      assert.match(br.headers['vary'] as string, /^accept, accept-encoding$/i)
      assert.equal((await inject({ url: LIST, headers: { 'accept-encoding': 'br;q=0, gzip' } }))
        .headers['content-encoding'], 'gzip')
      assert.equal((await inject({ url: LIST, headers: { 'accept-encoding': 'x-gzip' } }))
        .headers['content-encoding'], 'gzip')
      assert.equal((await inject({ url: LIST, headers: { 'accept-encoding': 'br', 'x-no-compression': '1' } }))
        .headers['content-encoding'], undefined)
      const deflate = await inject({ url: LIST, headers: { 'accept-encoding': 'deflate' } })
      assert.equal(deflate.headers['content-encoding'], 'deflate')
      assert.equal(strip(inflateSync(deflate.rawPayload).toString()), strip(plain.body))
      const head = await inject({ method: 'HEAD', url: LIST, headers: { 'accept-encoding': 'br' } })
      assert.equal(head.headers['content-encoding'], 'br')
      assert.equal(head.body, '')
      for (const url of ['/api/v1/commerce/transactions/?limit=50', '/api/v1/co2-calculator/countries']) {
        const identity = await inject(url)
        assert.ok(identity.rawPayload.length >= 1024, url)
        const compressed = await inject({ url, headers: { 'accept-encoding': 'br' } })
        assert.equal(compressed.headers['content-encoding'], 'br', url)
        assert.equal(brotliDecompressSync(compressed.rawPayload).toString(), identity.body, url)
        const gzipped = await inject({ url, headers: { 'accept-encoding': 'gzip' } })
        assert.equal(gunzipSync(gzipped.rawPayload).toString(), identity.body, url)
      }
      // An empty page: a detail now carries the ledger's fields and is over 1 KiB.
      const small = await inject({ url: `${LIST}?search=no-such-project`, headers: { 'accept-encoding': 'gzip' } })
      assert.ok(small.body.length < 1024)
      assert.equal(small.headers['content-encoding'], undefined)
    })

    test('pages and details built from stored JSON match the documented schemas', async (t) => {
      const { inject } = await buildTestApp(t, { database, records: fixtureProjects() })
      const page = Compile(ProjectPageSchema)
      const detail = Compile(ProjectSchema)
      const body = (await inject(`${LIST}?limit=1000`)).json()
      assert.ok(page.Check(body), JSON.stringify([...page.Errors(body)][0]))
      for (const p of fixtureProjects()) {
        const one = (await inject(`${LIST}${p.id}/`)).json()
        assert.ok(detail.Check(one), JSON.stringify([...detail.Errors(one)][0]))
      }
    })

    test("renaming a vocabulary entry updates every project's answer, not only the imported ones", async (t) => {
      const { inject, store } = await buildTestApp(t, { database, records: fixtureProjects() })
      await importProjects(store.db,
        JSON.stringify([project(50, { registry: { name_id: 'REGISTRY_A', verbose_name: 'Registry A (renamed)' } })]),
        { replace: false })
      assert.equal((await inject(`${LIST}2/`)).json().registry.verbose_name, 'Registry A (renamed)')
      const page = (await inject(`${LIST}?registry=REGISTRY_A&limit=100`)).json()
      assert.ok(page.results.every((p: { registry: { verbose_name: string } }) =>
        p.registry.verbose_name === 'Registry A (renamed)'))
    })

    test('counts follow imports at once', async (t) => {
      const { inject, store } = await buildTestApp(t, { database, records: fixtureProjects() })
      assert.equal((await inject(`${LIST}?location=Brazil`)).json().count, 2)
      await importProjects(store.db, JSON.stringify([project(60, { location: 'Brazil' })]), { replace: false })
      assert.equal((await inject(`${LIST}?location=Brazil`)).json().count, 3)
      await importProjects(store.db, JSON.stringify([project(70)]), { replace: true })
      assert.equal((await inject(`${LIST}?location=Brazil`)).json().count, 1)
      assert.equal((await inject(LIST)).json().count, 1)
    })

    test('search by the index and by scan agree: short terms, quotes, accents, case', async (t) => {
      const { inject } = await buildTestApp(t, {
        database,
        records: [...fixtureProjects(), project(40, { name: 'The "Quoted" Reserve' }), project(41, { name: 'Ox Bow' })]
      })
      const ids = async (term: string) =>
        (await inject(`${LIST}?search=${encodeURIComponent(term)}&limit=100`)).json().results.map(
          (p: { id: number }) => p.id)
      assert.deepEqual(await ids('ox'), [41])
      assert.deepEqual(await ids('OX B'), [41])
      assert.deepEqual(await ids('"quoted"'), [40])
      assert.deepEqual(await ids('ÉNERGIE'), [4])
      assert.deepEqual(await ids('são'), [4])
      assert.deepEqual(await ids('a'), (await ids('A')))
      assert.ok((await ids('a')).length > 5)
    })

    test('correct at size: 3000 synthetic projects page, filter, count and search consistently', async (t) => {
      const { inject, store } = await buildTestApp(t, { database })
      await buildSyntheticCatalogue(store.db, 3000, 1000)
      const all = (await inject(`${LIST}?limit=1000&registry=SYNTHETIC_REGISTRY_3`)).json()
      let seen: number[] = all.results.map((p: { id: number }) => p.id)
      for (let offset = 1000; offset < all.count; offset += 1000) {
        seen = seen.concat(
          (await inject(`${LIST}?limit=1000&offset=${offset}&registry=SYNTHETIC_REGISTRY_3`)).json().results.map(
            (p: { id: number }) => p.id))
      }
      assert.equal(seen.length, all.count)
      assert.deepEqual(seen, [...seen].sort((a, b) => a - b))
      const search = (await inject(`${LIST}?search=mangrove&limit=1000`)).json()
      assert.ok(search.count > 0 && search.count < 3000)
      assert.ok(search.results.every((p: { name: string }) => p.name.includes('mangrove')))
      const last = (await inject(`${LIST}?offset=2990&limit=50`)).json()
      assert.equal(last.results.length, 10)
      assert.equal(last.next, null)
      assert.equal((await inject(`${LIST}2999/`)).json().external_id, 'SYN-2999')

      // A search's pages, in either id order and with another filter, are exactly the matching projects in order.
      type Item = { id: number, name: string, registry: { name_id: string } }
      const every: Item[] = []
      for (let offset = 0; offset < 3000; offset += 1000) {
        every.push(...(await inject(`${LIST}?limit=1000&offset=${offset}`)).json().results as Item[])
      }
      const matching = every.filter((p) => p.name.toLowerCase().includes('mangrove'))
      const inRegistry = matching.filter((p) => p.registry.name_id === 'SYNTHETIC_REGISTRY_3')
      assert.ok(inRegistry.length > 0 && inRegistry.length < matching.length)
      for (const [query, expected] of [
        ['ordering=id', matching],
        ['ordering=-id', [...matching].reverse()],
        ['registry=SYNTHETIC_REGISTRY_3', inRegistry]
      ] as const) {
        const ids: number[] = []
        for (let offset = 0; ; offset += 25) {
          const page = (await inject(`${LIST}?search=mangrove&${query}&limit=25&offset=${offset}`)).json()
          assert.equal(page.count, expected.length, query)
          ids.push(...page.results.map((p: Item) => p.id))
          if (page.next === null) break
        }
        assert.deepEqual(ids, expected.map((p) => p.id), query)
      }
    })
  })
})
