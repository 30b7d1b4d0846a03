import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { parse } from 'csv-parse/sync'
import type { TransactionRecord } from '../../src/catalogue/catalogue.schemas.ts'
import { forEachDatabase } from '../databases.ts'
import { project } from '../fixtures/projects.ts'
import { sharedTestApp } from '../helpers.ts'

// The OffsetsDB project fields in the project API (issue 21): list and detail fields, filters, facets,
// orderings and CSV columns. Expected values are worked out by hand from the records below.

const LIST = '/api/v1/commerce/products/'
const FACETS = '/api/v1/commerce/products/facets/'

const tx = (identity: string, type: TransactionRecord['type'], date: string | null, vintage: number | null,
  quantity: number): TransactionRecord =>
  ({ identity, type, date, vintage, quantity, beneficiary: null, reason: null, source: null })

function records (): object[] {
  return [
    project(1, {
      vintages: [2020],
      protocol: ['VM0007', 'VM0015'],
      status: 'Registered',
      category: 'forest',
      project_type: 'REDD+',
      is_compliance: false,
      listed_date: '2018-02-01',
      transactions: [
        tx('A-1', 'issuance', '2021-03-01', 2020, 100),
        tx('A-2', 'issuance', '2020-06-15', 2019, 50),
        tx('A-3', 'retirement', '2022-01-10', 2020, 30),
        tx('A-4', 'cancellation', '2021-05-05', 2020, 5)
      ]
    }),
    project(2, {
      vintages: [],
      protocol: ['ACM0002'],
      // Another spelling of the same status: the filter ignores case.
      status: 'REGISTERED',
      category: 'renewable-energy',
      is_compliance: true,
      transactions: [tx('B-1', 'issuance', '2019-01-01', 2018, 10), tx('B-2', 'cancellation', null, 2018, 8),
        tx('B-3', 'retirement', '2019-06-01', 2018, 1)]
    }),
    project(3, { vintages: [], protocol: ['vm0007'], status: 'Listed', category: 'forest' }),
    project(4, { vintages: [] })
  ]
}

interface Item {
  id: number
  protocol: string[]
  credits_cancelled: number | null
  first_issuance_date: string | null
  first_retirement_date: string | null
}

forEachDatabase((database) => {
  describe(`the OffsetsDB project fields in the API [${database}]`, () => {
    // The tests below that only read share one app.
    const shared = sharedTestApp({ database, records: records() })
    test('list items and the detail carry them; the detail has cancelled credits per vintage', async () => {
      const { inject } = shared()
      const one = (await inject(`${LIST}1/`)).json()
      assert.deepEqual(
        [one.protocol, one.category, one.project_type, one.status, one.is_compliance, one.listed_date],
        [['VM0007', 'VM0015'], 'forest', 'REDD+', 'Registered', false, '2018-02-01'])
      assert.deepEqual([one.credits_issued, one.credits_retired, one.credits_cancelled], [150, 30, 5])
      assert.deepEqual([one.first_issuance_date, one.first_retirement_date], ['2020-06-15', '2022-01-10'])
      assert.deepEqual(one.credits, {
        issued: 150,
        retired: 30,
        cancelled: 5,
        vintages: [
          { vintage: 2019, issued: 50, retired: 0, cancelled: 0, corsia_eligible: null },
          { vintage: 2020, issued: 100, retired: 30, cancelled: 5, corsia_eligible: null }
        ]
      })
      const four = (await inject(`${LIST}4/`)).json()
      assert.deepEqual(
        [four.protocol, four.category, four.status, four.is_compliance, four.credits_cancelled,
          four.first_issuance_date],
        [[], null, null, null, null, null])
      const items = (await inject(`${LIST}?ordering=id`)).json().results as Item[]
      assert.deepEqual(items.map((p) => p.credits_cancelled), [5, 8, null, null])
      assert.deepEqual(items.map((p) => p.first_retirement_date), ['2022-01-10', '2019-06-01', null, null])
      assert.deepEqual(items[0]!.protocol, ['VM0007', 'VM0015'])
    })

    test('filters status, category, protocol and is_compliance ignore case; unknown values are a 400', async () => {
      const { inject } = shared()
      const ids = async (query: string) => ((await inject(`${LIST}?${query}`)).json().results as Item[])
        .map((p) => p.id)
      assert.deepEqual(await ids('status=registered'), [1, 2])
      assert.deepEqual(await ids('status=LISTED'), [3])
      assert.deepEqual(await ids('category=Forest'), [1, 3])
      assert.deepEqual(await ids('protocol=VM0007'), [1, 3])
      assert.deepEqual(await ids('protocol=acm0002'), [2])
      assert.deepEqual(await ids('is_compliance=true'), [2])
      assert.deepEqual(await ids('is_compliance=false'), [1])
      assert.deepEqual(await ids('category=forest&status=registered'), [1])
      const unknown = await inject(`${LIST}?status=Retired`)
      assert.equal(unknown.statusCode, 400)
      assert.equal(unknown.json().code, 'invalid_parameter')
      assert.match(unknown.json().detail,
        /status "Retired" is not a known value; valid values: Listed, REGISTERED, Registered/)
      assert.equal((await inject(`${LIST}?is_compliance=maybe`)).statusCode, 400)
      assert.equal((await inject(`${LIST}?protocol=VM0007&protocol=VM0015`)).statusCode, 400)
    })

    test('facets count status, category, protocol and compliance, each without its own filter', async () => {
      const { inject } = shared()
      const { facets, with_value: withValue } = (await inject(`${FACETS}?category=forest`)).json()
      assert.deepEqual(facets.status, [
        { value: 'Listed', label: 'Listed', count: 1 },
        { value: 'Registered', label: 'Registered', count: 1 }
      ])
      // Spellings that differ in case are one value, counted as the filter counts it.
      const all = (await inject(FACETS)).json().facets
      assert.deepEqual(all.status, [
        { value: 'REGISTERED', label: 'REGISTERED', count: 2 },
        { value: 'Listed', label: 'Listed', count: 1 }
      ])
      assert.equal((await inject(`${LIST}?status=${all.status[0].value}`)).json().count, 2)
      // Its own filter left out: every project with a category.
      assert.deepEqual(facets.category, [
        { value: 'forest', label: 'forest', count: 2 },
        { value: 'renewable-energy', label: 'renewable-energy', count: 1 }
      ])
      assert.deepEqual(facets.protocol, [
        { value: 'VM0007', label: 'VM0007', count: 2 },
        { value: 'VM0015', label: 'VM0015', count: 1 }
      ])
      assert.deepEqual(facets.is_compliance, [{ value: 'false', label: 'Voluntary', count: 1 }])
      assert.deepEqual([withValue.credits_cancelled, withValue.first_issuance_date, withValue.first_retirement_date],
        [1, 1, 1])
    })

    test('orderings by credits_cancelled and the first dates put projects without a value last', async () => {
      const { inject } = shared()
      const ids = async (ordering: string) => ((await inject(`${LIST}?ordering=${ordering}`)).json()
        .results as Item[]).map((p) => p.id)
      assert.deepEqual(await ids('-credits_cancelled'), [2, 1, 3, 4])
      assert.deepEqual(await ids('credits_cancelled'), [1, 2, 3, 4])
      assert.deepEqual(await ids('first_issuance_date'), [2, 1, 3, 4])
      assert.deepEqual(await ids('-first_retirement_date'), [1, 2, 3, 4])
    })

    test('the CSV has a column for each new field', async () => {
      const { inject } = shared()
      const csv = (await inject(`${LIST}?format=csv&ordering=id`)).body
      const rows = parse(csv, { columns: true }) as Array<Record<string, string>>
      assert.deepEqual(
        ['credits_cancelled', 'first_issuance_date', 'first_retirement_date', 'protocol', 'category', 'project_type',
          'status', 'is_compliance', 'listed_date'].map((column) => rows[0]![column]),
        ['5', '2020-06-15', '2022-01-10', 'VM0007; VM0015', 'forest', 'REDD+', 'Registered', 'false', '2018-02-01'])
      assert.deepEqual(['credits_cancelled', 'protocol', 'status', 'is_compliance'].map((c) => rows[3]![c]),
        ['', '', '', ''])
    })
  })
})
