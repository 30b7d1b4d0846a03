import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { parse } from 'csv-parse/sync'
import type { ImportRecord, TransactionRecord } from '../../src/catalogue/catalogue.schemas.ts'
import { tonne } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import { project } from '../fixtures/projects.ts'
import { workspace } from '../support/workspace.ts'

// Where a transaction came from (`source`) reads the same in every answer: the API's JSON, its CSV and the export.
// A file without a line (a file whose rows have no numbers, as the API documents `line: null`) keeps its file;
// no file is null. The export once wrote the first as `source: null`, and the import refused `line: null`.

const tx = (identity: string, quantity: number, source: TransactionRecord['source']): TransactionRecord =>
  ({ identity, type: 'issuance', date: '2021-03-01', vintage: 2020, quantity, beneficiary: null, reason: null, source })

const RECORD: ImportRecord = project(1, {
  transactions: [
    tx('I-1', 10, { file: 'issuances.csv', line: 3 }),
    tx('I-2', 20, { file: 'archive.parquet', line: null }),
    tx('I-3', 30, null)
  ]
})
const EXPECTED = [{ file: 'issuances.csv', line: 3 }, { file: 'archive.parquet', line: null }, null]
const LEDGER = '/api/v1/commerce/products/1/transactions/?ordering=quantity'

forEachDatabase((database) => {
  test(`a transaction's source reads the same in JSON, CSV and the export [${database}]`, async (t) => {
    const ws = await workspace(t, database)
    const imported = await tonne(['import', ws.write('a.json', JSON.stringify([RECORD]))], ws.env)
    assert.equal(imported.code, 0, imported.stderr)

    const [json, csv] = await ws.api([LEDGER, `${LEDGER}&format=csv`])
    const items = (JSON.parse(json!) as { results: Array<{ source: unknown }> }).results
    assert.deepEqual(items.map((item) => item.source), EXPECTED)
    const rows = parse(csv!, { columns: true }) as Array<Record<string, string>>
    assert.deepEqual(rows.map((row) => [row['source_file'], row['source_line']]),
      [['issuances.csv', '3'], ['archive.parquet', ''], ['', '']])

    const file = path.join(ws.dir, 'export.json')
    const exported = await tonne(['export', file], ws.env)
    assert.equal(exported.code, 0, exported.stderr)
    const [record] = JSON.parse(readFileSync(file, 'utf8')) as ImportRecord[]
    assert.deepEqual(record!.transactions!.map((t) => t.source), EXPECTED)

    // And the export reads back as it was written.
    const copy = await workspace(t, database)
    assert.equal((await tonne(['import', file], copy.env)).code, 0)
    assert.deepEqual(await copy.api([LEDGER]), [json])
  })
})
