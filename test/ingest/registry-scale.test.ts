import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { tonne } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import { projects } from '../support/registries.ts'
import { workspace } from '../support/workspace.ts'

// Registry files at the size of the real ones (issue 33): a Verra projects export of 130,000 rows over 2,000 ids
// stopped with "Maximum call stack size exceeded" after writing (its report spread 128,000 skipped rows into one
// call), and a project with many transactions listed every line in its `source` (291 KB for 50,000).

const PROJECTS_HEADER = 'ID,Name,Proponent,Project Type,AFOLU Activities,Methodology,Status,Country/Area,' +
  'Estimated Annual Emission Reductions,Region,Project Registration Date,Crediting Period Start Date,' +
  'Crediting Period End Date'
const TRANSACTIONS_HEADER = 'Issuance Date,Sustainable Development Goals,Vintage Start,Vintage End,ID,Name,' +
  'Country/Area,Project Type,Methodology,Total Vintage Quantity,Quantity Issued,Serial Number,' +
  'Additional Certifications,Retirement/Cancellation Date,Retirement Beneficiary,Retirement Reason,' +
  'Retirement Details'

forEachDatabase((database) => {
  describe(`registry files at scale [${database}]`, () => {
    test('130,000 project rows over 2,000 ids: the text report is printed, exit 0', async (t) => {
      const ws = await workspace(t, database)
      const rows = Array.from({ length: 130_000 }, (_, i) =>
        `${9000 + (i % 2000)},Project ${i % 2000},Dev,Energy industries,,ACM0002,Registered,India,"1,000",Asia,,,`)
      const file = ws.write('projects.csv', [PROJECTS_HEADER, ...rows].join('\n'))
      const result = await tonne(['import', '--from', 'verra', file], ws.env)
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /^Imported 2000 projects from verra exports .*: 2000 new/)
      assert.match(result.stdout, /Skipped 128000 rows:/)
    })

    test('a project\'s source lists its first 100 lines and how many there are', async (t) => {
      const ws = await workspace(t, database)
      const rows = Array.from({ length: 250 }, (_, i) => `2024-01-${String(1 + (i % 28)).padStart(2, '0')},,` +
        '2020-01-01,2020-12-31,4242,Big Project,India,Energy industries,ACM0002,"100,000",10,' +
        `1-${i * 10}-${i * 10 + 9}-VCS-VCU-1-VER-IN-1-4242-01012020-31122020-0,,,,,`)
      const file = ws.write('transactions.csv', [TRANSACTIONS_HEADER, ...rows].join('\n'))
      const result = await tonne(['import', '--from', 'verra', file], ws.env)
      assert.equal(result.code, 0, result.stderr)
      const detail = (await projects(ws, ['VCS4242'])).get('VCS4242')!
      const source = detail.source as Array<{ file: string, lines: number[], rows?: number }>
      assert.equal(source.length, 1)
      assert.equal(source[0]!.rows, 250)
      assert.deepEqual(source[0]!.lines, Array.from({ length: 100 }, (_, i) => i + 2))
    })
  })
})
