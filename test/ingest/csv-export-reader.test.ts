import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { readCsvExport, readCsvHeader } from '../../src/ingest/registries/csv-export.ts'
import { tempDir } from '../helpers.ts'

// Registry exports as spreadsheets save them: a byte-order mark, CRLF line ends, blank lines, a cell broken over
// lines inside quotes. Each record is given with the physical line it starts on, which reports and `source` name.

test('a registry CSV export: BOM, CRLF, blank lines and quoted line breaks; each record with its first line',
  async (t) => {
    const file = path.join(tempDir(t), 'export.csv')
    writeFileSync(file, '\ufeffID,Project  Name\r\n' +
      '1,One\r\n' +
      '\r\n' +
      '2,"Two\r\nlines"\r\n' +
      '3,Three\r\n' +
      '4,Four')
    const records = []
    for await (const record of readCsvExport(file, 'export.csv')) records.push(record)
    assert.deepEqual(records.map((r) => [r.line, r.fields]),
      [[2, ['1', 'One']], [4, ['2', 'Two\r\nlines']], [6, ['3', 'Three']], [7, ['4', 'Four']]])
    assert.deepEqual(records[0]!.header, ['ID', 'Project Name'], 'no BOM in the first name; white space collapsed')
    assert.equal(records[1]!.raw, '2,"Two\r\nlines"')
    assert.deepEqual(await readCsvHeader(file, 'export.csv'), ['ID', 'Project Name'])
  })
