import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import type { ImportRecord, TransactionRecord } from '../../src/catalogue/catalogue.schemas.ts'
import { tonne } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import { project } from '../fixtures/projects.ts'
import { workspace, type Workspace } from '../support/workspace.ts'

// The ledger as `tonne import` writes it: transactions upserted by (registry, identity), project credits derived
// from them. Expected values are summed by hand from the transactions below.

const json = (records: object[]) => JSON.stringify(records)
const DETAIL = '/api/v1/commerce/products/1/'

const tx = (identity: string, type: TransactionRecord['type'], date: string | null, vintage: number | null,
  quantity: number, beneficiary: string | null = null): TransactionRecord =>
  ({ identity, type, date, vintage, quantity, beneficiary, reason: null, source: { file: 'ledger.csv', line: 2 } })

const I1 = tx('I-1', 'issuance', '2021-03-01', 2020, 100)
const I2 = tx('I-2', 'issuance', '2020-06-15', 2019, 50)
const R1 = tx('R-1', 'retirement', '2022-01-10', 2020, 30, 'Société Générale')
const R2 = tx('R-2', 'retirement', null, 2019, 7)
const C1 = tx('C-1', 'cancellation', '2021-05-05', 2020, 5)
const LEDGER = [I1, I2, R1, R2, C1]

/** Project 1 with the record's own credits (issued 999 in 2020), which its ledger must override. */
const withLedger = (transactions?: TransactionRecord[], overrides: Partial<ImportRecord> = {}): ImportRecord =>
  project(1, {
    vintages: [2020, 2021],
    credits: {
      issued: 999,
      retired: null,
      vintages: [{ vintage: 2020, issued: 999, retired: null }, { vintage: 2021, issued: null, retired: null }]
    },
    ...(transactions !== undefined && { transactions }),
    ...overrides
  })

interface Detail {
  vintages: number[]
  credits_issued: number | null
  credits_retired: number | null
  updated_at: string
  credits: {
    issued: number | null
    retired: number | null
    vintages: Array<{ vintage: number, issued: number | null, retired: number | null }>
  }
}

async function detail (ws: Workspace, url = DETAIL): Promise<Detail> {
  const [body] = await ws.api([url])
  return JSON.parse(body!) as Detail
}

async function importFile (ws: Workspace, name: string, records: object[], ...flags: string[]): Promise<string> {
  const result = await tonne(['import', ws.write(name, json(records)), ...flags], ws.env)
  assert.equal(result.code, 0, result.stderr)
  return result.stdout
}

forEachDatabase((database) => {
  describe(`the ledger in tonne import [${database}]`, () => {
    test('a project with transactions takes its credits, vintages and totals from them', async (t) => {
      const ws = await workspace(t, database)
      await importFile(ws, 'a.json', [withLedger(LEDGER)])
      const one = await detail(ws)
      // Issued: 100 + 50; retired: 30 + 7 (the record's 999 is overridden); 2021 has no transaction: 0.
      assert.equal(one.credits_issued, 150)
      assert.equal(one.credits_retired, 37)
      assert.deepEqual(one.vintages, [2019, 2020, 2021])
      assert.deepEqual(one.credits, {
        ...one.credits,
        issued: 150,
        retired: 37,
        vintages: [
          { ...one.credits.vintages[0], vintage: 2019, issued: 50, retired: 7 },
          { ...one.credits.vintages[1], vintage: 2020, issued: 100, retired: 30 },
          { ...one.credits.vintages[2], vintage: 2021, issued: 0, retired: 0 }
        ]
      })
    })

    test('sums of fractional quantities are not left with binary noise (0.1 + 0.2 is 0.3)', async (t) => {
      const ws = await workspace(t, database)
      // Isometric issues fractions of a tonne (81.025): sums of such decimals must read back as written.
      await importFile(ws, 'a.json', [withLedger([tx('F-1', 'issuance', '2021-01-01', 2020, 0.1),
        tx('F-2', 'issuance', '2021-01-02', 2020, 0.2), tx('F-3', 'retirement', '2021-02-01', 2020, 389.4),
        tx('F-4', 'retirement', '2021-02-02', 2020, 0.02)])])
      const found = await detail(ws)
      assert.equal(found.credits_issued, 0.3)
      assert.equal(found.credits_retired, 389.42)
      assert.deepEqual(found.credits.vintages.find((v) => v.vintage === 2020),
        { vintage: 2020, issued: 0.3, retired: 389.42, cancelled: null, corsia_eligible: null })
    })

    test('a type without transactions keeps the record\'s total: 0 stays 0, none stays null', async (t) => {
      const ws = await workspace(t, database)
      const issuedOnly = [I1, I2]
      await importFile(ws, 'a.json', [
        withLedger(issuedOnly),
        project(2, {
          credits: { issued: 10, retired: 0, vintages: [] },
          vintages: [],
          transactions: [tx('I-9', 'issuance', '2020-01-01', 2020, 40)]
        }),
        project(3, { credits: { issued: 12, retired: 3, vintages: [] }, vintages: [] })
      ])
      const [one, two, three] = await Promise.all([detail(ws), detail(ws, '/api/v1/commerce/products/2/'),
        detail(ws, '/api/v1/commerce/products/3/')])
      assert.deepEqual([one.credits_issued, one.credits_retired], [150, null])
      assert.deepEqual([two.credits_issued, two.credits_retired], [40, 0])
      // No ledger: the record's credits, as before.
      assert.deepEqual([three.credits_issued, three.credits_retired], [12, 3])
    })

    test('importing the same file twice, or under another name, duplicates nothing and changes nothing',
      async (t) => {
        const ws = await workspace(t, database)
        await importFile(ws, 'a.json', [withLedger(LEDGER)])
        const before = await detail(ws)
        const again = await importFile(ws, 'a.json', [withLedger(LEDGER)])
        assert.match(again, /0 new, 0 updated, 1 unchanged/)
        const renamed = await importFile(ws, 'copy-of-a.json', [withLedger(LEDGER)])
        assert.match(renamed, /0 new, 0 updated, 1 unchanged/)
        assert.deepEqual(await detail(ws), before)
      })

    test('a partial or older file, or one without transactions, removes no transaction', async (t) => {
      const ws = await workspace(t, database)
      await importFile(ws, 'a.json', [withLedger(LEDGER)])
      const before = await detail(ws)
      const partial = await importFile(ws, 'partial.json', [withLedger([I1, R2])])
      assert.match(partial, /1 unchanged/)
      const none = await importFile(ws, 'none.json', [withLedger()])
      assert.match(none, /1 unchanged/)
      assert.deepEqual(await detail(ws), before)
    })

    test('a record without the optional fields empties them, but keeps its ledger', async (t) => {
      const ws = await workspace(t, database)
      await importFile(ws, 'a.json', [withLedger(LEDGER, {
        protocol: ['VM0007'], status: 'Registered', category: 'forest', is_compliance: true, listed_date: '2019-04-02'
      })])
      await importFile(ws, 'b.json', [withLedger()])
      const [body] = await ws.api([DETAIL])
      const one = JSON.parse(body!) as Record<string, unknown>
      assert.deepEqual([one['protocol'], one['status'], one['category'], one['is_compliance'], one['listed_date']],
        [[], null, null, null, null])
      assert.deepEqual([one['credits_issued'], one['credits_retired']], [150, 37])
    })

    test('a corrected transaction replaces the stored one of the same identity', async (t) => {
      const ws = await workspace(t, database)
      await importFile(ws, 'a.json', [withLedger(LEDGER)])
      const changed = await importFile(ws, 'b.json', [withLedger([{ ...I1, quantity: 120 }])])
      assert.match(changed, /1 updated/)
      const one = await detail(ws)
      assert.equal(one.credits_issued, 170)
      assert.equal(one.credits.vintages.find((v) => v.vintage === 2020)!.issued, 120)
    })

    test('a transaction a later file gives under another project moves to it, and both projects\' credits follow',
      async (t) => {
        const ws = await workspace(t, database)
        await importFile(ws, 'a.json', [withLedger(LEDGER)])
        await importFile(ws, 'b.json', [project(2, { vintages: [], transactions: [I1] })])
        const [one, two] = [await detail(ws), await detail(ws, '/api/v1/commerce/products/2/')]
        // Project 1 keeps I-2 (50); project 2 has I-1 (100, vintage 2020).
        assert.equal(one.credits_issued, 50)
        assert.equal(one.credits.vintages.find((v) => v.vintage === 2020)!.issued, 0)
        assert.equal(two.credits_issued, 100)
        assert.deepEqual(two.vintages, [2020])
      })

    test('--replace removes the transactions the file does not contain', async (t) => {
      const ws = await workspace(t, database)
      await importFile(ws, 'a.json',
        [withLedger(LEDGER), project(2, { transactions: [tx('I-9', 'issuance', '2020-01-01', 2020, 40)] })])
      await importFile(ws, 'b.json', [withLedger([I1, R1])], '--replace')
      const one = await detail(ws)
      // Left: I-1 (100, vintage 2020) and R-1 (30, vintage 2020); 2019 came only from the removed I-2 and R-2.
      assert.equal(one.credits_issued, 100)
      assert.equal(one.credits_retired, 30)
      assert.deepEqual(one.vintages, [2020, 2021])
      // Project 2 is gone with its ledger: importing it again without transactions gives the record's credits.
      await importFile(ws, 'c.json',
        [project(2, { credits: { issued: 1, retired: null, vintages: [] }, vintages: [] })])
      assert.equal((await detail(ws, '/api/v1/commerce/products/2/')).credits_issued, 1)
    })

    test('export writes the ledger and the new fields; importing it into an empty database gives identical answers',
      async (t) => {
        const source = await workspace(t, database)
        const offsetsFields = {
          protocol: ['VM0007', 'ACM0002'],
          status: 'Registered',
          project_type: 'Improved Forest Management',
          category: 'forest',
          is_compliance: true,
          listed_date: '2019-04-02'
        }
        await importFile(source, 'a.json', [
          withLedger(LEDGER, offsetsFields),
          project(2, { transactions: [tx('I-9', 'issuance', '2020-01-01', 2020, 40)], status: 'Listed' }),
          project(3, { credits: { issued: 12, retired: 3, vintages: [] }, vintages: [] })
        ])
        const exportFile = `${source.dir}/export.json`
        const exported = await tonne(['export', exportFile], source.env)
        assert.equal(exported.code, 0, exported.stderr)
        const records = JSON.parse(readFileSync(exportFile, 'utf8')) as ImportRecord[]
        assert.deepEqual(records[0]!.transactions, LEDGER)
        assert.deepEqual({ ...records[0]!, ...offsetsFields }, records[0])
        assert.equal(records[1]!.status, 'Listed')
        assert.deepEqual(records[1]!.protocol, [])
        assert.equal(records[2]!.transactions, undefined)

        const target = await workspace(t, database)
        const imported = await tonne(['import', exportFile], target.env)
        assert.equal(imported.code, 0, imported.stderr)
        const urls = ['/api/v1/commerce/products/?limit=1000', DETAIL, '/api/v1/commerce/products/2/',
          '/api/v1/commerce/products/3/', '/api/v1/commerce/products/facets/']
        // Timestamps say when this database got the data.
        const stamps = (body: string) => body.replace(/"(created|updated)_at":"[^"]*"/g, '"$1_at":"T"')
        assert.deepEqual((await target.api(urls)).map(stamps), (await source.api(urls)).map(stamps))
        const again = await tonne(['export'], target.env)
        assert.deepEqual(JSON.parse(again.stdout), records)
      })

    test('an identity twice in one file is refused and nothing changes', async (t) => {
      const ws = await workspace(t, database)
      const twice = [withLedger([I1]), project(2, { transactions: [{ ...I1, quantity: 1 }] })]
      const result = await tonne(['import', ws.write('a.json', json(twice))], ws.env)
      assert.equal(result.code, 1)
      assert.match(result.stderr,
        /record 1, field "transactions\[0\]\.identity": identity "I-1" of REGISTRY_A is already used by record 0/)
      const [list] = await ws.api(['/api/v1/commerce/products/'])
      assert.equal(JSON.parse(list!).count, 0)
    })
  })
})
