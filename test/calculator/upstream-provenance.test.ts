import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { parse } from 'csv-parse/sync'
import { parseCsv } from '../../src/reference/csv.ts'

/**
 * Every per-country file in data/calculator is pinned to the upstream file it was extracted from.
 * data/calculator/upstream/ holds a gzipped copy of each upstream file, byte for byte, and
 * upstream.csv names its repository, commit, path and git blob id: the copy must hash to that blob
 * (anyone can compare it with GitHub), and every shipped value must be the upstream value for the same
 * country and year, rounded to the digits shipped. A changed value, a changed year or a changed copy fails.
 */

const DATA = path.join(import.meta.dirname, '..', '..', 'data', 'calculator')
const UPSTREAM = path.join(DATA, 'upstream')

/** Files pinned by another test, or written by Tonne itself (their sources are cited row by row). */
const PINNED_ELSEWHERE: Record<string, string> = {
  'desnz_2025_factors.csv': 'test/calculator/desnz-provenance.test.ts',
  'desnz_2025_flat_file_rows.csv': 'test/calculator/desnz-provenance.test.ts',
  'airports.csv': 'derived by scripts/derive-airports.ts',
  'household_size.csv': 'upstream is a spreadsheet (xlsx); rows carry their reference date and source',
  'parameters.csv': 'Tonne: one cited value per row',
  'sources.csv': 'Tonne: the list of sources',
  'clothing_factors.csv': 'Tonne transcription: one cited value per row',
  'taiwan_region_override.csv': 'Tonne: evidence rows, checked by the loader',
  'recs_2015_household_size.csv': 'group means of the EIA RECS 2015 microdata (an R data file upstream); ' +
    'the exponents fitted on it are checked by test/calculator/household-size-scaling.test.ts'
}

interface Pin {
  shipped_file: string
  shipped_column: string
  stored_copy: string
  /** owid-product: one row per product (Poore and Nemecek), keyed by Entity instead of Code. */
  format: 'owid' | 'owid-semicolon' | 'owid-product' | 'wdi'
  upstream_column: string
  repository: string
  commit: string
  path: string
  git_blob: string
  /** Empty: each row is the latest complete year. A year: every row is that year (one year for /footprint). */
  year: string
}

const pins = parseCsv(readFileSync(path.join(UPSTREAM, 'upstream.csv'), 'utf8'), 'upstream.csv')
  .rows as unknown as Pin[]

function gitBlobId (content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex')
}

// Parsed once per stored copy and format: a copy with ten pins was parsed a hundred times (each pin and its siblings).
const parsed = new Map<string, Array<Record<string, string>>>()

/** Upstream values by country code, then year (empty cells left out). */
function upstreamValues (pin: Pin, content: Buffer): Map<string, Map<number, string>> {
  const wide = pin.format === 'wdi'
  const key = `${pin.stored_copy} ${pin.format}`
  // The World Bank's bulk CSV starts with four lines of metadata and ends each row with a comma.
  const records = parsed.get(key) ?? parse(content, {
    bom: true,
    columns: true,
    delimiter: pin.format === 'owid-semicolon' ? ';' : ',',
    from_line: wide ? 5 : 1,
    relax_column_count: wide
  }) as Array<Record<string, string>>
  parsed.set(key, records)
  const byCode = new Map<string, Map<number, string>>()
  for (const record of records) {
    const code = wide ? record['Country Code'] : pin.format === 'owid-product' ? record.Entity : record.Code
    if (code === undefined || code === '') continue
    const years = byCode.get(code) ?? new Map<number, string>()
    byCode.set(code, years)
    if (wide) {
      for (const [column, value] of Object.entries(record)) {
        if (/^\d{4}$/.test(column) && value !== '') years.set(Number(column), value)
      }
    } else if ((record[pin.upstream_column] ?? '') !== '') {
      years.set(Number(record.Year), record[pin.upstream_column] as string)
    }
  }
  return byCode
}

/** True when `shipped` is `upstream` rounded to the decimals `shipped` was written with. */
function sameRounded (shipped: string, upstream: string): boolean {
  const decimals = shipped.includes('.') ? (shipped.split('.')[1] ?? '').length : 0
  return Math.abs(Number(shipped) - Number(upstream)) <= 0.5 * 10 ** -decimals * (1 + 1e-9)
}

describe('upstream provenance of the per-country files', () => {
  test('every data file is pinned here or by another named check', () => {
    const pinned = new Set(pins.map((pin) => pin.shipped_file))
    for (const name of readdirSync(DATA).filter((file) => file.endsWith('.csv'))) {
      assert.ok(pinned.has(name) || name in PINNED_ELSEWHERE, `${name} is pinned to its upstream extract`)
    }
  })

  for (const pin of pins) {
    test(`${pin.shipped_file} (${pin.shipped_column}) equals ${pin.repository} at ${pin.commit.slice(0, 7)}`, () => {
      const content = gunzipSync(readFileSync(path.join(UPSTREAM, pin.stored_copy)))
      assert.equal(gitBlobId(content), pin.git_blob, `${pin.stored_copy} is the upstream file, byte for byte`)
      const upstream = upstreamValues(pin, content)
      // A row is the latest year in which every column taken from the same upstream file has a value.
      const siblings = pins.filter((other) => other.shipped_file === pin.shipped_file &&
        other.stored_copy === pin.stored_copy && other !== pin).map((other) => upstreamValues(other, content))
      const complete = (code: string, years: Map<number, string>): number[] =>
        [...years.keys()].filter((year) => siblings.every((sibling) => sibling.get(code)?.has(year) === true))
      const shipped = parseCsv(readFileSync(path.join(DATA, pin.shipped_file), 'utf8'), pin.shipped_file)
      const wide = pin.format === 'wdi'
      const rows = shipped.rows.filter((row) => !wide || row.kind === 'country')
      assert.ok(rows.length > (pin.format === 'owid-product' ? 30 : 100), `${rows.length} rows checked`)
      for (const row of rows) {
        const code = (pin.format === 'owid-product' ? row.product : row.iso_code) ?? ''
        const year = Number(wide ? row.latest_year : row.year)
        const years = upstream.get(code)
        assert.ok(years !== undefined, `${pin.shipped_file}: ${code} is in the upstream file`)
        const value = years.get(year)
        assert.ok(value !== undefined, `${pin.shipped_file}: ${code} ${year} has an upstream value`)
        assert.equal(year, pin.year === '' ? Math.max(...complete(code, years)) : Number(pin.year),
          `${pin.shipped_file}: ${code}: ${year} is the ${pin.year === '' ? 'latest' : 'pinned'} year`)
        const cell = row[pin.shipped_column] ?? ''
        assert.ok(sameRounded(cell, value), `${pin.shipped_file}: ${code} ${year}: ${cell} is upstream ${value}`)
        if (wide) {
          for (const y of [2021, 2022, 2023]) {
            const kept = row[`value_${y}`] ?? ''
            assert.equal(kept, years.get(y) ?? '', `${pin.shipped_file}: ${code} value_${y}`)
          }
        }
      }
    })
  }
})
