import assert from 'node:assert/strict'
import { describe, test, type TestContext } from 'node:test'
import type { Static } from 'typebox'
import { Compile } from 'typebox/compile'
import { createKey } from '../../src/access/api-keys.service.ts'
import type { TransactionRecord } from '../../src/catalogue/catalogue.schemas.ts'
import { TransactionPageSchema } from '../../src/ledger/transactions.schemas.ts'
import { forEachDatabase, type TestDatabase } from '../databases.ts'
import { importProjects } from '../../src/ingest/projects.import.ts'
import { buildTestApp, FIXTURE_IMPORT_TIME, type TestApp } from '../helpers.ts'
import { ledgerProjects } from '../fixtures/ledger.ts'
import { project } from '../fixtures/projects.ts'

const LEDGER = '/api/v1/commerce/transactions/'
const projectLedger = (id: number | string) => `/api/v1/commerce/products/${id}/transactions/`

// A page of the ledger as its schema states it.
type Page = Static<typeof TransactionPageSchema>

async function ledgerApp (t: TestContext, database: TestDatabase): Promise<TestApp> {
  // The ledger goes in through `tonne import`'s own code (the records' `transactions`).
  return await buildTestApp(t, { database, records: ledgerProjects() })
}

async function page (app: TestApp, url: string): Promise<Page> {
  const response = await app.inject({ url, headers: { host: 'tonne.test' } })
  assert.equal(response.statusCode, 200, response.body)
  return response.json<Page>()
}

const quantities = (p: Page) => p.results.map((item) => item.quantity)

async function problem (app: TestApp, url: string, status = 400) {
  const response = await app.inject(url)
  assert.equal(response.statusCode, status, `${url}: ${response.body}`)
  assert.match(String(response.headers['content-type']), /^application\/problem\+json/)
  return response.json<{ code: string, parameter?: string, detail: string, allowed_values?: string[] }>()
}

forEachDatabase((database) => {
  describe(`ledger: the whole ledger and a project's [${database}]`, () => {
    test('the whole ledger: every transaction, newest first, undated last; items carry every field', async (t) => {
      const app = await ledgerApp(t, database)
      const body = await page(app, LEDGER)
      assert.equal(body.count, 9)
      assert.equal(body.next, null)
      assert.equal(body.previous, null)
      const order = quantities(body)
      // 300 and 450 share 2021-01-10: their order is the tie-break's (checked below).
      assert.deepEqual([order[0], order[1], new Set(order.slice(2, 4)), ...order.slice(4)],
        [1200, 75, new Set([300, 450]), 800, 2500, 1000, 5000, 20])
      const retirement = body.results.find((item) => item.quantity === 300)!
      assert.deepEqual({ ...retirement, id: typeof retirement.id }, {
        id: 'number',
        transaction_id: 'A-3',
        project_id: 1,
        type: 'retirement',
        date: '2021-01-10',
        vintage: 2018,
        quantity: 300,
        beneficiary: 'Société Générale',
        reason: 'Voluntary offsetting',
        note: null,
        account: null,
        serials: null,
        vintage_start: null,
        vintage_end: null,
        source: { file: 'ledger/transactions.csv', line: 300 },
        project_external_id: 'EXT-1',
        project_name: 'Project 001'
      })
      const cancellation = body.results.find((item) => item.quantity === 75)!
      assert.equal(cancellation.source, null)
      assert.equal(cancellation.beneficiary, null)
      assert.equal(cancellation.type, 'cancellation')
      assert.equal(body.results.find((item) => item.quantity === 20)!.date, null)
      assert.equal(new Set(body.results.map((item) => item.id)).size, 9)
      const schema = Compile(TransactionPageSchema)
      assert.ok(schema.Check(body), JSON.stringify([...schema.Errors(body)][0]))
    })

    test('a project\'s ledger; a project without transactions is an empty page; an unknown project is a 404',
      async (t) => {
        const app = await ledgerApp(t, database)
        const first = await page(app, projectLedger(1))
        assert.equal(first.count, 6)
        assert.deepEqual(new Set(first.results.map((item) => item.project_id)), new Set([1]))
        assert.deepEqual(quantities(await page(app, projectLedger(2))), [1200, 800, 5000])
        assert.deepEqual(quantities(await page(app, `${projectLedger(1)}?type=issuance`)), [2500, 1000])
        assert.deepEqual(await page(app, projectLedger(3)), { count: 0, next: null, previous: null, results: [] })
        for (const id of ['999', '0', 'abc', '1.5', '2147483648']) {
          const body = await problem(app, projectLedger(id), 404)
          assert.equal(body.code, 'not_found')
        }
        assert.match((await problem(app, projectLedger(999), 404)).detail, /999/)
        // The project is in the path: the whole ledger's `project` filter is not a parameter here.
        assert.equal((await problem(app, `${projectLedger(1)}?project=2`)).parameter, 'project')
      })

    test('format=csv (or Accept: text/csv): every matching transaction as CSV, in order, formulas escaped',
      async (t) => {
        const app = await ledgerApp(t, database)
        const csv = await app.inject(`${LEDGER}?format=csv&type=retirement&ordering=quantity&limit=1`)
        assert.equal(csv.statusCode, 200, csv.body)
        assert.match(String(csv.headers['content-type']), /^text\/csv; charset=utf-8/)
        assert.match(String(csv.headers['content-disposition']), /attachment; filename="transactions-retirement\.csv"/)
        const lines = csv.body.trimEnd().split('\r\n')
        assert.equal(lines[0], 'id,transaction_id,project_id,project_external_id,project_name,registry,registry_code,' +
          'type,date,vintage,quantity,beneficiary,reason,note,account,serials,vintage_start,vintage_end,source_file,' +
          'source_line')
        // Every retirement (limit and offset do not apply), by quantity, as the JSON pages give them.
        const json = await page(app, `${LEDGER}?type=retirement&ordering=quantity&limit=1000`)
        assert.equal(lines.length - 1, json.count)
        assert.deepEqual(lines.slice(1).map((line) => Number(line.split(',')[10])), quantities(json))
        assert.ok(lines.some((line) =>
          line.endsWith(',Société Générale,Voluntary offsetting,,,,,,ledger/transactions.csv,300')))
        // JSON and CSV share a URL: caches keep them apart by Accept.
        assert.match(String((await app.inject(LEDGER)).headers['vary']), /Accept/)
        const accept = await app.inject({ url: projectLedger(2), headers: { accept: 'text/csv' } })
        assert.match(String(accept.headers['content-type']), /^text\/csv/)
        assert.equal(accept.body.trimEnd().split('\r\n').length - 1, 3)
        // A bad filter is refused before anything streams.
        assert.equal((await problem(app, `${LEDGER}?format=csv&date_after=2021-13-01`)).parameter, 'date_after')
        assert.equal((await problem(app, `${LEDGER}?format=xml`)).parameter, 'format')
      })

    test('without a key 401, with a key lacking catalogue:read 403, on both paths', async (t) => {
      const app = await ledgerApp(t, database)
      const { key } = await createKey(app.store.db, { name: 'calculator only', scopes: ['calculator:read'] })
      for (const url of [LEDGER, projectLedger(1)]) {
        const anonymous = await app.app.inject({ url })
        assert.equal(anonymous.statusCode, 401, url)
        assert.match(String(anonymous.headers['www-authenticate']), /^Bearer/)
        const refused = await app.app.inject({ url, headers: { authorization: `Bearer ${key}` } })
        assert.equal(refused.statusCode, 403, url)
        assert.equal(refused.json<{ code: string }>().code, 'forbidden')
      }
    })
  })

  describe(`ledger: filters [${database}]`, () => {
    test('type, vintage and project', async (t) => {
      const app = await ledgerApp(t, database)
      const retirements = await page(app, `${LEDGER}?type=retirement`)
      assert.equal(retirements.count, 5)
      assert.deepEqual(new Set(quantities(retirements)), new Set([1200, 300, 450, 800, 20]))
      assert.deepEqual(quantities(await page(app, `${LEDGER}?type=issuance`)), [2500, 1000, 5000])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?type=cancellation`)), [75])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?vintage=2018`)), [300, 1000, 20])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?vintage=2016`)), [])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?project=2`)), [1200, 800, 5000])
      assert.equal((await page(app, `${LEDGER}?project=3`)).count, 0)
    })

    test('registry, case-insensitive as in the products filter; an unknown one is a 400 listing the known',
      async (t) => {
        const app = await ledgerApp(t, database)
        for (const value of ['REGISTRY_B', 'registry_b', 'Registry_B']) {
          assert.deepEqual(quantities(await page(app, `${LEDGER}?registry=${value}`)), [1200, 800, 5000], value)
        }
        assert.equal((await page(app, `${LEDGER}?registry=REGISTRY_A`)).count, 6)
        const body = await problem(app, `${LEDGER}?registry=NOPE`)
        assert.equal(body.code, 'invalid_parameter')
        assert.equal(body.parameter, 'registry')
        assert.deepEqual(body.allowed_values, ['REGISTRY_A', 'REGISTRY_B'])
      })

    test('date_after and date_before are inclusive days; an undated transaction matches neither', async (t) => {
      const app = await ledgerApp(t, database)
      const after = await page(app, `${LEDGER}?date_after=2021-01-10`)
      assert.deepEqual([after.results[0]!.quantity, after.results[1]!.quantity, new Set(quantities(after).slice(2))],
        [1200, 75, new Set([300, 450])])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?date_before=2020-06-15`)), [2500, 1000, 5000])
      const between = await page(app, `${LEDGER}?date_after=2020-06-16&date_before=2021-01-10`)
      assert.deepEqual(new Set(quantities(between)), new Set([300, 450, 800]))
      assert.equal(between.results[2]!.quantity, 800)
      assert.equal((await page(app, `${LEDGER}?date_after=2023-03-01`)).count, 0)
      // A window that closes before it opens matches nothing (as any two filters that exclude each other).
      assert.equal((await page(app, `${LEDGER}?date_after=2022-01-01&date_before=2021-01-01`)).count, 0)
    })

    test('a date that is not a calendar day written YYYY-MM-DD is a 400 naming the parameter', async (t) => {
      const app = await ledgerApp(t, database)
      for (const [parameter, value] of [['date_after', '2021-13-01'], ['date_after', '2021-02-30'],
        ['date_before', '20210101'], ['date_before', 'yesterday'], ['date_after', '2021-1-5'],
        ['date_after', '2021-01-10T00:00:00Z'], ['date_before', '']]) {
        const body = await problem(app, `${LEDGER}?${parameter}=${encodeURIComponent(value!)}`)
        assert.equal(body.code, 'invalid_parameter', value)
        assert.equal(body.parameter, parameter, value)
      }
      // A leap day is a day.
      assert.equal((await page(app, `${LEDGER}?date_before=2024-02-29`)).count, 8)
    })

    test('search: a substring of the beneficiary, case- and accent-insensitive; wildcards are literal', async (t) => {
      const app = await ledgerApp(t, database)
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=societe`)), [300, 20])
      // By quantity the undated one takes its place among the others.
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=societe&ordering=quantity`)), [20, 300])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=e&ordering=-quantity`)), [1200, 800, 450, 300, 20])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=societe&ordering=date`)), [300, 20])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=${encodeURIComponent('GÉNÉRALE')}`)), [1200, 300])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=${encodeURIComponent('acme air')}`)), [450, 800])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=ener`)), [1200, 300])
      for (const literal of ['%', '_', 'a%e', '\\']) {
        assert.equal((await page(app, `${LEDGER}?search=${encodeURIComponent(literal)}`)).count, 0, literal)
      }
      // Blank search is no filter.
      assert.equal((await page(app, `${LEDGER}?search=%20`)).count, 9)
    })

    test('search follows every write: a changed beneficiary, --replace and a removed project', async (t) => {
      const app = await ledgerApp(t, database)
      const [one, two, three] = ledgerProjects()
      const renamed = {
        ...one!,
        transactions: one!.transactions!.map((tx) =>
          tx.identity === 'A-3' ? { ...tx, beneficiary: 'Banque Populaire' } : tx)
      }
      await importProjects(app.store.db, JSON.stringify([renamed]), { replace: false, now: FIXTURE_IMPORT_TIME })
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=societe`)), [20])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=banque`)), [300])
      assert.equal((await page(app, `${LEDGER}?search=banque`)).results[0]!.beneficiary, 'Banque Populaire')
      // Project 2 leaves the catalogue, and project 1 keeps only its issuances.
      const issuances = { ...renamed, transactions: renamed.transactions.filter((tx) => tx.type === 'issuance') }
      await importProjects(app.store.db, JSON.stringify([issuances, three]),
        { replace: true, now: FIXTURE_IMPORT_TIME })
      for (const term of ['acme', 'banque', 'societe', 'energy']) {
        assert.equal((await page(app, `${LEDGER}?search=${term}`)).count, 0, term)
      }
      assert.equal((await page(app, LEDGER)).count, 2)
      await importProjects(app.store.db, JSON.stringify([two]), { replace: false, now: FIXTURE_IMPORT_TIME })
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=acme`)), [800])
    })

    test('a search with thousands of matches pages and counts the same as a narrow one', async (t) => {
      // 5,200 retirements for "Dense Holder <n>", the n-th dated 2000-01-01 plus n days with quantity n, and one
      // undated (quantity 0.5): more matches than a search reads by id, so a page walks the ordering's index.
      const day = (n: number) => new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10)
      const transactions: TransactionRecord[] = Array.from({ length: 5200 }, (_, i) => ({
        identity: `D-${i + 1}`,
        type: 'retirement',
        date: day(i + 1),
        vintage: 2000,
        quantity: i + 1,
        beneficiary: `Dense Holder ${i + 1}`,
        reason: null,
        source: null
      }))
      transactions.push({ ...transactions[0]!, identity: 'D-undated', date: null, quantity: 0.5 })
      const app = await buildTestApp(t, { database, records: [project(9, { vintages: [2000], transactions })] })
      const first = await page(app, `${LEDGER}?search=dense&limit=3`)
      assert.equal(first.count, 5201)
      assert.deepEqual(quantities(first), [5200, 5199, 5198])
      assert.equal(first.results[0]!.date, day(5200))
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=dense&limit=3&offset=5199`)), [1, 0.5])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=holder&ordering=quantity&limit=3`)), [0.5, 1, 2])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?search=dense&ordering=-quantity&offset=5198`)),
        [2, 1, 0.5])
      const narrow = await page(app, `${LEDGER}?search=${encodeURIComponent('holder 5199')}`)
      assert.deepEqual([narrow.count, quantities(narrow)], [1, [5199]])
      const combined = await page(app, `${LEDGER}?search=dense&date_after=${day(5101)}&limit=200`)
      assert.deepEqual([combined.count, combined.results.length, quantities(combined).at(-1)], [100, 100, 5101])
    })

    test('filters combine (AND), on both paths', async (t) => {
      const app = await ledgerApp(t, database)
      assert.deepEqual(quantities(await page(app, `${LEDGER}?type=retirement&registry=REGISTRY_A&search=acme`)), [450])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?type=retirement&vintage=2017&date_before=2021-01-01`)),
        [800])
      assert.deepEqual(quantities(await page(app, `${projectLedger(2)}?search=acme&type=retirement`)), [800])
      assert.deepEqual(quantities(await page(app, `${projectLedger(1)}?registry=REGISTRY_B`)), [])
    })

    test('bad parameters are 400s: unknown, repeated, out of range, not an allowed value, unknown project',
      async (t) => {
        const app = await ledgerApp(t, database)
        const cases: Array<[string, string]> = [
          ['foo=1', 'foo'], ['type=issuance&type=retirement', 'type'], ['type=transfer', 'type'],
          ['vintage=abc', 'vintage'], ['vintage=1e3', 'vintage'], ['limit=0', 'limit'], ['limit=1001', 'limit'],
          ['offset=-1', 'offset'], ['ordering=name', 'ordering'], ['ordering=date,quantity', 'ordering'],
          ['ordering=id', 'ordering'], ['project=999', 'project'], ['project=x', 'project']
        ]
        for (const [query, parameter] of cases) {
          const body = await problem(app, `${LEDGER}?${query}`)
          assert.equal(body.parameter, parameter, query)
        }
        assert.deepEqual((await problem(app, `${LEDGER}?ordering=name`)).allowed_values,
          ['date', '-date', 'quantity', '-quantity'])
        assert.deepEqual((await problem(app, `${LEDGER}?type=transfer`)).allowed_values,
          ['issuance', 'retirement', 'cancellation'])
      })
  })

  describe(`ledger: ordering and pages [${database}]`, () => {
    test('ordering by date and quantity, both ways; id breaks ties in the same direction', async (t) => {
      const app = await ledgerApp(t, database)
      const ascending = await page(app, `${LEDGER}?ordering=date`)
      assert.deepEqual([...quantities(ascending).slice(0, 4), new Set(quantities(ascending).slice(4, 6)),
        ...quantities(ascending).slice(6)], [5000, 1000, 2500, 800, new Set([300, 450]), 75, 1200, 20])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?ordering=quantity`)),
        [20, 75, 300, 450, 800, 1000, 1200, 2500, 5000])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?ordering=-quantity`)),
        [5000, 2500, 1200, 1000, 800, 450, 300, 75, 20])
      const tied = (p: Page) => p.results.filter((item) => item.date === '2021-01-10').map((item) => item.id)
      const [low, high] = tied(ascending).sort((a, b) => a - b)
      assert.deepEqual(tied(ascending), [low, high])
      assert.deepEqual(tied(await page(app, `${LEDGER}?ordering=-date`)), [high, low])
      assert.deepEqual(tied(await page(app, LEDGER)), [high, low])
    })

    test('limit/offset pages: links keep the known parameters; undated rows follow across a page edge', async (t) => {
      const app = await ledgerApp(t, database)
      const first = await page(app, `${LEDGER}?ordering=date&limit=3`)
      assert.equal(first.count, 9)
      assert.deepEqual(quantities(first), [5000, 1000, 2500])
      assert.equal(first.previous, null)
      const next = new URL(first.next!)
      assert.equal(`${next.origin}${next.pathname}`, `http://tonne.test${LEDGER}`)
      assert.deepEqual(Object.fromEntries(next.searchParams), { limit: '3', offset: '3', ordering: 'date' })
      // Walking the next links visits every transaction once.
      const seen: number[] = []
      let url: string | null = first.next
      seen.push(...quantities(first))
      while (url !== null) {
        const current = await page(app, url.replace('http://tonne.test', ''))
        seen.push(...quantities(current))
        url = current.next
      }
      assert.deepEqual(seen.slice(6), [75, 1200, 20])
      assert.equal(seen.length, 9)
      // The last dated row and the undated one on one page, and the undated one alone (both directions).
      assert.deepEqual(quantities(await page(app, `${LEDGER}?ordering=date&limit=2&offset=7`)), [1200, 20])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?ordering=date&limit=2&offset=8`)), [20])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?limit=2&offset=7`)), [5000, 20])
      assert.deepEqual(quantities(await page(app, `${LEDGER}?limit=5&offset=8`)), [20])
      const past = await page(app, `${LEDGER}?limit=5&offset=9`)
      assert.deepEqual({ count: past.count, results: past.results, next: past.next },
        { count: 9, results: [], next: null })
      const previous = new URL(past.previous!)
      assert.deepEqual(Object.fromEntries(previous.searchParams), { limit: '5', offset: '4' })
      // Project 1's beneficiaries with an "e": 300 and 450 (one day), then 20 (undated).
      const second = await page(app, `${projectLedger(1)}?limit=2&offset=1&search=e`)
      assert.equal(second.count, 3)
      assert.equal(second.results[1]!.quantity, 20)
      assert.equal(new URL(second.previous!).search, '?limit=2&search=e')
      assert.equal(second.next, null)
    })

    test('one rate limit with the products; an uncached search or a CSV download costs 5, a cached answer 1',
      async (t) => {
        const app = await buildTestApp(t,
          { database, records: ledgerProjects(), env: { RATE_LIMIT_CATALOGUE: '20' } })
        const remaining = async (url: string) => (await app.inject(url)).headers['ratelimit-remaining']
        assert.equal(await remaining(`${LEDGER}?search=acme`), '19')
        // The search's 4 more units were charged after its answer: this cached answer shows them, and costs 1.
        assert.equal(await remaining(`${LEDGER}?search=acme`), '14')
        assert.equal(await remaining(`${projectLedger(1)}?type=issuance`), '13')
        assert.equal(await remaining('/api/v1/commerce/products/'), '12')
        assert.equal(await remaining(LEDGER), '11')
        // A CSV download costs what a search does: it reads every match (docs/api.md, "CSV").
        assert.equal(await remaining(`${LEDGER}?format=csv`), '10')
        assert.equal(await remaining(LEDGER), '5')
      })

    test('answers carry an ETag and answer If-None-Match with 304', async (t) => {
      const app = await ledgerApp(t, database)
      const first = await app.inject(`${LEDGER}?type=issuance`)
      assert.equal(first.statusCode, 200)
      const etag = String(first.headers['etag'])
      assert.match(etag, /^W\//)
      const again = await app.inject({ url: `${LEDGER}?type=issuance`, headers: { 'if-none-match': etag } })
      assert.equal(again.statusCode, 304)
      assert.equal(again.body, '')
      assert.notEqual(String((await app.inject(`${LEDGER}?type=retirement`)).headers['etag']), etag)
    })
  })
})
