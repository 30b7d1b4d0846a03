import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { tonne } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import { importExports, projects } from '../support/registries.ts'
import { workspace, type Workspace } from '../support/workspace.ts'

// A registry export's transactions are staged in the database as the file is read and settled there (issue 33,
// item 5: a million-row export never sits in memory). What the import says of them stays what it said when they
// were held per project: a later row of an identity replaces an earlier one (reported when it says another quantity),
// an identity two projects give refuses the import, and so does a transaction the import format refuses.

const HEADER = 'Issuance Date,Sustainable Development Goals,Vintage Start,Vintage End,ID,Name,Country/Area,' +
  'Project Type,Methodology,Total Vintage Quantity,Quantity Issued,Serial Number,Additional Certifications,' +
  'Retirement/Cancellation Date,Retirement Beneficiary,Retirement Reason,Retirement Details'
const row = (id: number, quantity: number, serial: string, retired = '2024-03-01') =>
  `2024-01-01,,2020-01-01,2020-12-31,${id},Project ${id},India,Energy industries,ACM0002,"5,000",${quantity},` +
  `${serial},,${retired},,,`

interface Credits { issued: number | null, retired: number | null }

/** The external ids of the catalogue's projects whose id starts VCS700. */
async function listed (ws: Workspace): Promise<string[]> {
  const [page] = await ws.api(['/api/v1/commerce/products/?search=VCS700&limit=100'])
  return (JSON.parse(page!) as { results: Array<{ external_id: string }> }).results.map((p) => p.external_id)
}

forEachDatabase((database) => {
  describe(`a registry export's staged ledger [${database}]`, () => {
    test('a serial given twice in one project: the later row is used, the earlier reported', async (t) => {
      const ws = await workspace(t, database)
      const file = ws.write('transactions.csv', [HEADER,
        /* 2 */ row(7001, 100, 'S-1'),
        /* 3 */ row(7001, 40, 'S-2'),
        /* 4 */ row(7001, 250, 'S-1'),
        /* 5 */ row(7001, 40, 'S-2', '2024-03-02')].join('\n'))
      const report = await importExports(ws, 'verra', [file])
      assert.deepEqual(report.skipped, [
        {
          file: 'transactions.csv',
          line: 2,
          reason: 'retirement:S-1 again at transactions.csv line 4, which is used ' +
          'instead'
        }
      ])
      const credits = (await projects(ws, ['VCS7001'])).get('VCS7001')!.credits as Credits
      assert.deepEqual([credits.issued, credits.retired], [5000, 290])
    })

    test('a serial two projects give refuses the import, and nothing is written', async (t) => {
      const ws = await workspace(t, database)
      const file = ws.write('transactions.csv', [HEADER, row(7001, 100, 'S-1'), row(7002, 100, 'S-1')].join('\n'))
      const result = await tonne(['import', '--from', 'verra', file], ws.env)
      assert.notEqual(result.code, 0)
      assert.match(result.stderr,
        /VCS7002 \(transactions\.csv line 3\), field "transactions.*identity": identity "retirement:S-1" of VERRA is/)
      assert.deepEqual(await listed(ws), [])
    })

    test('a transaction the import format refuses (a line break in a serial) refuses the import', async (t) => {
      const ws = await workspace(t, database)
      const file = ws.write('transactions.csv', [HEADER, row(7001, 100, 'S-1'), row(7003, 100, '"S-2\nS-3"')]
        .join('\n'))
      const result = await tonne(['import', '--from', 'verra', file], ws.env)
      assert.notEqual(result.code, 0)
      assert.match(result.stderr,
        /VCS7003 \(transactions\.csv line 3\), field "transactions\[1\]\.identity": holds a line break/)
      assert.deepEqual(await listed(ws), [])
    })
  })
})
