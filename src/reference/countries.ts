import path from 'node:path'
import { readFileSync } from 'node:fs'
import { parseCsv } from './csv.ts'

export interface CountryRecord {
  name: string
  alpha2: string
  alpha3: string
  region: string
  subRegion: string
}

export const COUNTRIES_FILE = path.join(import.meta.dirname, '..', '..', 'data', 'countries', 'iso3166-un-m49.csv')

/** ISO 3166-1 countries with their UN M49 regions (data/countries/SOURCE.md, CC BY-SA 4.0). */
export function readCountries (file = COUNTRIES_FILE): CountryRecord[] {
  return parseCsv(readFileSync(file, 'utf8'), file).rows.map((row, index) => {
    const record = {
      name: row['name'] ?? '',
      alpha2: row['alpha-2'] ?? '',
      alpha3: row['alpha-3'] ?? '',
      region: row['region'] ?? '',
      subRegion: row['sub-region'] ?? ''
    }
    if (record.name === '' || !/^[A-Z]{2}$/.test(record.alpha2) || !/^[A-Z]{3}$/.test(record.alpha3)) {
      throw new Error(`${file}: data row ${index + 1} lacks a name or valid ISO codes`)
    }
    return record
  })
}
