/**
 * Re-extracts data/calculator/desnz_2025_flat_file_rows.csv: the rows of DESNZ's official 2025 flat file
 * (sheet "Factors by Category", saved as CSV) whose ids data/calculator/desnz_2025_factors.csv cites,
 * unchanged and in the flat file's order.
 * Usage: npx node scripts/extract-desnz-rows.ts <factors-by-category.csv> >
 * data/calculator/desnz_2025_flat_file_rows.csv
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseCsv } from '../src/reference/csv.ts'

const inputPath = process.argv[2]
if (inputPath === undefined) {
  console.error('usage: extract-desnz-rows.ts <factors-by-category.csv>')
  process.exit(1)
}
const factorsFile = path.join(import.meta.dirname, '..', 'data', 'calculator', 'desnz_2025_factors.csv')
const wanted = new Set(parseCsv(readFileSync(factorsFile, 'utf8'), factorsFile).rows.map((row) => row.desnz_id ?? ''))
const official = parseCsv(readFileSync(inputPath, 'utf8'), inputPath)

const quote = (value: string): string => /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
const rows = official.rows.filter((row) => wanted.has(row.ID ?? ''))
const missing = [...wanted].filter((id) => !rows.some((row) => row.ID === id))
if (missing.length > 0) {
  console.error(`not in the flat file: ${missing.join(', ')}`)
  process.exit(1)
}
const lines = [official.header.join(','),
  ...rows.map((row) => official.header.map((column) => quote(row[column] ?? '')).join(','))]
process.stdout.write(lines.join('\n') + '\n')
