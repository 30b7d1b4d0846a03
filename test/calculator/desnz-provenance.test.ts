import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { loadCalculatorData } from '../../src/calculator/calculator.data.ts'
import { parseCsv } from '../../src/reference/csv.ts'

/**
 * Every DESNZ value the calculator uses is checked against the official 2025 flat file, row by
 * row id. data/calculator/desnz_2025_flat_file_rows.csv holds those rows copied unchanged from
 * DESNZ's "Factors by Category" sheet (OGL v3.0), header included.
 */

const DATA = path.join(import.meta.dirname, '..', '..', 'data', 'calculator')
const OFFICIAL_HEADER = ['ID', 'Scope', 'Level 1', 'Level 2', 'Level 3', 'Level 4', 'Column Text', 'UOM', 'GHG/Unit',
  'GHG Conversion Factor 2025']

function table (file: string) {
  return parseCsv(readFileSync(path.join(DATA, file), 'utf8'), file)
}

describe('DESNZ 2025 provenance', () => {
  const official = table('desnz_2025_flat_file_rows.csv')
  const rows = new Map(official.rows.map((row) => [row.ID, row]))
  const factors = table('desnz_2025_factors.csv')

  test('the official rows keep the flat file\'s own header', () => {
    assert.deepEqual(official.header, OFFICIAL_HEADER)
    assert.equal(rows.size, official.rows.length, 'each row id once')
  })

  test('every DESNZ factor has a row id, and its value is the official row\'s, digit for digit', () => {
    assert.ok(factors.rows.length >= 100)
    for (const factor of factors.rows) {
      const row = rows.get(factor.desnz_id ?? '')
      assert.ok(row !== undefined, `${factor.key}: row ${factor.desnz_id ?? '(none)'} is in the official file`)
      assert.equal(factor.value, row['GHG Conversion Factor 2025'], `${factor.key} (${factor.desnz_id ?? ''})`)
      // The path names the row's own levels, so a right number on the wrong row is caught too.
      for (const level of ['Level 1', 'Level 2', 'Level 3', 'Level 4', 'Column Text'] as const) {
        if ((row[level] ?? '') !== '') {
          assert.ok(factor.desnz_path?.includes(row[level] as string),
          `${factor.key}: path "${factor.desnz_path ?? ''}" names "${row[level] ?? ''}"`)
        }
      }
    }
  })

  test('every DESNZ factor the calculator loads is published with its row id, and upstream rows are well-to-tank ' +
    'rows', () => {
    const data = loadCalculatorData()
    const desnz = [...data.factors.values()].filter((factor) => factor.source === 'desnz-2025')
    assert.equal(desnz.length, factors.rows.length)
    for (const factor of desnz) {
      assert.equal(factor.status, 'published', factor.key)
      const id = factor.id.replace('desnz-2025:', '')
      assert.ok(rows.has(id), `${factor.key} shows factor_id desnz-2025:<row id>`)
      if (factor.key.startsWith('desnz:wtt.')) {
        assert.match(rows.get(id)?.['Level 1'] ?? '', /^WTT-|^Transmission/,
          factor.key)
      }
    }
  })
})
