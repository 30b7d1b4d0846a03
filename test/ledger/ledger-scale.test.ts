import assert from 'node:assert/strict'
import { describe, test, type TestContext } from 'node:test'
import type { ImportRecord, TransactionRecord } from '../../src/catalogue/catalogue.schemas.ts'
import { importProjects } from '../../src/ingest/projects.import.ts'
import { allMatchingTransactions, CSV_BATCH } from '../../src/ledger/transactions.service.ts'
import { forEachDatabase, type TestDatabase } from '../databases.ts'
import { buildTestApp, FIXTURE_IMPORT_TIME, type TestApp } from '../helpers.ts'
import { tx } from '../fixtures/ledger.ts'
import { project } from '../fixtures/projects.ts'

// The ledger's counts come from its summary and deep pages start from the month the summary places them in
// (issue 34); the CSV walks by keyset. These tests hold the answers to what the rows say, across month edges,
// date ranges that cut months, undated rows and ties, on a ledger larger than one CSV batch.

const LEDGER = '/api/v1/commerce/transactions/'
const TYPES = ['issuance', 'retirement', 'cancellation'] as const
const registryB = { name_id: 'REGISTRY_B', verbose_name: 'Registry B' }

/** 1,300 transactions over three projects; quantity is the row's number (unique); dates repeat (ties). */
function records (): ImportRecord[] {
  const transactions = (projectId: number): TransactionRecord[] => Array.from({ length: 1300 }, (_, i) => i)
    .filter((i) => i % 3 === projectId - 1).map((i) => {
      // 40 distinct days over four years, so every month edge and many ties are crossed; 1 in 25 undated.
      const day = new Date(Date.UTC(2019, 0, 1) + (i * 37 % 40) * 37 * 86_400_000).toISOString().slice(0, 10)
      return {
        identity: `T-${i}`,
        type: TYPES[i % 3]!,
        date: i % 25 === 0 ? null : day,
        vintage: 2015 + (i % 4),
        quantity: i + 1,
        beneficiary: i % 3 === 1 ? `Buyer ${i % 7}` : null,
        reason: null,
        source: null
      }
    })
  return [
    project(1, { transactions: transactions(1) }),
    project(2, { transactions: transactions(2) }),
    project(3, { registry: registryB, transactions: transactions(3) })
  ]
}

interface Item { id: number, project_id: number, type: string, date: string | null, vintage: number, quantity: number }
interface Page { count: number, results: Item[] }

async function get (app: TestApp, url: string): Promise<Page> {
  const response = await app.inject(url)
  assert.equal(response.statusCode, 200, `${url}: ${response.body}`)
  return response.json<Page>()
}

/** What the rows say: the matching transactions of the records, as quantities. */
function expected (match: (row: TransactionRecord, projectId: number) => boolean): Set<number> {
  return new Set(records().flatMap((r) => r.transactions!.filter((row) => match(row, r.id)).map((row) => row.quantity)))
}

/** Every answer's order: by `field` in `direction`, id breaking ties the same way; by date, undated last. */
function assertOrdered (items: Item[], field: 'date' | 'quantity', descending: boolean, where: string): void {
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1]!, items[i]!]
    if (field === 'date' && (a.date === null || b.date === null)) {
      assert.ok(b.date === null, `${where}: undated rows come last (${i})`)
      if (a.date === null) assert.ok(descending ? a.id > b.id : a.id < b.id, `${where}: undated by id (${i})`)
      continue
    }
    const [x, y] = [a[field]!, b[field]!]
    assert.ok(descending ? x > y || (x === y && a.id > b.id) : x < y || (x === y && a.id < b.id),
      `${where}: rows ${i - 1} and ${i} out of order`)
  }
}

const FILTERS: Array<[string, (row: TransactionRecord, projectId: number) => boolean]> = [
  ['', () => true],
  ['type=retirement', (row) => row.type === 'retirement'],
  ['registry=REGISTRY_B&vintage=2016', (row, id) => id === 3 && row.vintage === 2016],
  // Cuts months at both ends; the undated rows never match a date range.
  ['date_after=2019-03-15&date_before=2021-02-10', (row) => row.date !== null && row.date >= '2019-03-15' &&
    row.date <= '2021-02-10'],
  ['type=issuance&date_after=2020-01-01', (row) => row.type === 'issuance' && row.date !== null &&
    row.date >= '2020-01-01'],
  ['project=2', (_row, id) => id === 2]
]

async function ledgerApp (t: TestContext, database: TestDatabase): Promise<TestApp> {
  return await buildTestApp(t, { database, records: records() })
}

forEachDatabase((database) => {
  describe(`ledger at scale: counts, deep pages and the CSV walk [${database}]`, () => {
    test('every page at every offset is its slice of the whole ordered list, and count is exact', async (t) => {
      const app = await ledgerApp(t, database)
      for (const [filter, match] of FILTERS) {
        const want = expected(match)
        for (const ordering of ['-date', 'date', '-quantity']) {
          const query = `${filter}${filter === '' ? '' : '&'}ordering=${ordering}`
          const whole: Item[] = []
          for (let offset = 0; ; offset += 1000) {
            const p = await get(app, `${LEDGER}?${query}&limit=1000&offset=${offset}`)
            assert.equal(p.count, want.size, `${query}: count`)
            whole.push(...p.results)
            if (p.results.length < 1000) break
          }
          assert.deepEqual(new Set(whole.map((item) => item.quantity)), want, `${query}: the matching rows`)
          assertOrdered(whole, ordering.replace('-', '') as 'date' | 'quantity', ordering.startsWith('-'), query)
          // Deep pages, landing in every part of the list (past its end too), with an odd page size.
          for (const offset of [1, 37, 211, 433, 700, 861, want.size - 3, want.size + 5]) {
            if (offset < 0) continue
            const p = await get(app, `${LEDGER}?${query}&limit=13&offset=${offset}`)
            assert.deepEqual(p.results.map((item) => item.id), whole.slice(offset, offset + 13).map((item) => item.id),
              `${query}: offset ${offset}`)
          }
        }
      }
    })

    test('an import changes the counts and pages at once (a new catalogue version)', async (t) => {
      const app = await ledgerApp(t, database)
      const before = await get(app, `${LEDGER}?type=retirement&limit=1&offset=400`)
      const added = records()[0]!
      added.transactions = [...added.transactions!,
        tx('NEW-1', 'retirement', '2030-01-01', 2020, 99_999, null, null, null)]
      await importProjects(app.store.db, JSON.stringify([added]), { replace: false, now: FIXTURE_IMPORT_TIME })
      const after = await get(app, `${LEDGER}?type=retirement&limit=1&offset=401`)
      assert.equal(after.count, before.count + 1)
      assert.equal(after.results[0]!.id, before.results[0]!.id)
      assert.equal((await get(app, `${LEDGER}?type=retirement&limit=1`)).results[0]!.quantity, 99_999)
    })

    test('the CSV walk reads each row once: a transaction imported between its batches moves nothing',
      async (t) => {
        const app = await ledgerApp(t, database)
        const rows = await allMatchingTransactions(app.store.readDb, { ordering: '-date' } as never)
        const seen: Item[] = []
        for await (const row of rows) {
          seen.push(row as Item)
          if (seen.length === CSV_BATCH) {
            // Newest of all: a walk by OFFSET would now meet row CSV_BATCH - 1 again at the next batch's start.
            const added = records()[1]!
            added.transactions = [...added.transactions!,
              tx('NEW-2', 'issuance', '2031-01-01', 2020, 77_777, null, null, null)]
            await importProjects(app.store.db, JSON.stringify([added]), { replace: false, now: FIXTURE_IMPORT_TIME })
          }
        }
        const ids = seen.map((row) => row.id)
        assert.equal(new Set(ids).size, ids.length, 'no row twice')
        assert.deepEqual(new Set(seen.map((row) => row.quantity)), expected(() => true))
        assertOrdered(seen, 'date', true, 'csv')
      })
  })
})
