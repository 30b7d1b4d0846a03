/**
 * Re-derives data/calculator/airports.csv from the OpenFlights airports.dat file.
 * Usage: npx node scripts/derive-airports.ts <path/to/openflights-airports.dat> > data/calculator/airports.csv
 * Keeps airports with a 3-letter IATA code; columns iata,name,city,country,latitude,longitude;
 * coordinates rounded to 6 decimals (about 0.1 m, far below what a flight distance needs).
 */
import { readFileSync } from 'node:fs'
import { parseCsv } from '../src/reference/csv.ts'

const inputPath = process.argv[2]
if (inputPath === undefined) {
  console.error('usage: derive-airports.ts <openflights-airports.dat>')
  process.exit(1)
}
const columns = ['id', 'name', 'city', 'country', 'iata', 'icao', 'latitude', 'longitude', 'altitude', 'utc_offset',
  'dst', 'tz', 'type', 'source']
// airports.dat has no header line: add one so the strict reader can key the fields.
const table = parseCsv(columns.join(',') + '\n' + readFileSync(inputPath, 'utf8'), inputPath)

const quote = (value: string): string => /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
const round6 = (value: string): string => String(Math.round(Number(value) * 1e6) / 1e6)

const lines = ['iata,name,city,country,latitude,longitude']
const rows = table.rows
  .filter((row) => /^[A-Z0-9]{3}$/.test(row.iata ?? ''))
  .sort((a, b) => (a.iata ?? '').localeCompare(b.iata ?? ''))
for (const row of rows) {
  lines.push([row.iata ?? '', quote(row.name ?? ''), quote(row.city ?? ''), quote(row.country ?? ''),
    round6(row.latitude ?? ''), round6(row.longitude ?? '')].join(','))
}
process.stdout.write(lines.join('\n') + '\n')
