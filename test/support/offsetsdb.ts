import { stringify } from 'csv-stringify/sync'
import { zipSync, type Zippable } from 'fflate'
import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer'

// OffsetsDB's archive made in a test: its projects and credits tables (the columns of offsets_db_data/models.py in
// carbonplan/offsets-db-data) written as OffsetsDB writes them, as CSV (dates `YYYY-MM-DD 00:00:00+00:00`,
// True/False, the protocol list as a Python literal) or Parquet (typed values, a list), and zipped with fflate.

export interface OdbProject {
  project_id: string
  name: string | null
  registry: string
  proponent: string | null
  protocol: string[]
  category: string | null
  status: string | null
  country: string | null
  listed_at: string | null
  is_compliance: boolean | null
  retired: number | null
  issued: number | null
  first_issuance_at: string | null
  first_retirement_at: string | null
  project_url: string | null
  project_type: string | null
  project_type_source: string | null
}

export interface OdbCredit {
  project_id: string
  quantity: number
  vintage: number | null
  transaction_date: string | null
  transaction_type: string
  retirement_account: string | null
  retirement_beneficiary: string | null
  retirement_beneficiary_harmonized: string | null
  retirement_note: string | null
  retirement_reason: string | null
  transaction_url: string | null
}

export const PROJECT_COLUMNS = ['project_id', 'name', 'registry', 'proponent', 'protocol', 'category', 'status',
  'country', 'listed_at', 'is_compliance', 'retired', 'issued', 'first_issuance_at', 'first_retirement_at',
  'project_url', 'project_type', 'project_type_source'] as const
export const CREDIT_COLUMNS = ['project_id', 'quantity', 'vintage', 'transaction_date', 'transaction_type',
  'retirement_account', 'retirement_beneficiary', 'retirement_beneficiary_harmonized', 'retirement_note',
  'retirement_reason', 'transaction_url'] as const
const DATES = new Set(['listed_at', 'first_issuance_at', 'first_retirement_at', 'transaction_date'])

/** A value as OffsetsDB's CSV writes it, before CSV quoting. */
export function csvValue (column: string, value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return `[${value.map((v) => `'${String(v)}'`).join(', ')}]`
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (DATES.has(column)) return `${String(value)} 00:00:00+00:00`
  return String(value)
}

export function csvTable<T extends object> (columns: readonly string[], rows: readonly T[]): Uint8Array {
  const records = rows.map((row) => columns.map((c) => csvValue(c, (row as Record<string, unknown>)[c])))
  return Buffer.from(stringify([columns as string[], ...records]))
}

/** The tables' columns with OffsetsDB's Parquet types (timestamps, booleans, INT64 vintages, doubles, a list). */
export function parquetColumns<T extends object> (columns: readonly string[], rows: readonly T[]): ColumnSource[] {
  const value = (row: T, c: string) => (row as Record<string, unknown>)[c] ?? null
  return columns.map((name) => {
    const data = rows.map((row) => value(row, name))
    if (DATES.has(name)) {
      return { name, data: data.map((d) => d === null ? null : new Date(`${String(d)}T00:00:00Z`)), type: 'TIMESTAMP' }
    }
    if (name === 'protocol') return { name, data }
    if (name === 'is_compliance') return { name, data, type: 'BOOLEAN' }
    if (name === 'vintage') {
      return { name, data: data.map((v) => v === null ? null : BigInt(v as number)), type: 'INT64' }
    }
    if (['quantity', 'retired', 'issued'].includes(name)) return { name, data, type: 'DOUBLE' }
    return { name, data, type: 'STRING' }
  })
}

export function parquetTable<T extends object> (columns: readonly string[], rows: readonly T[]): Uint8Array {
  return new Uint8Array(parquetWriteBuffer({ columnData: parquetColumns(columns, rows) }))
}

export function zip (entries: Record<string, Uint8Array>): Uint8Array {
  return zipSync(entries as Zippable)
}

export function project (id: string, registry: string, fields: Partial<OdbProject> = {}): OdbProject {
  return {
    project_id: id,
    name: `Project ${id}`,
    registry,
    proponent: null,
    protocol: [],
    category: null,
    status: null,
    country: null,
    listed_at: null,
    is_compliance: null,
    retired: null,
    issued: null,
    first_issuance_at: null,
    first_retirement_at: null,
    project_url: null,
    project_type: null,
    project_type_source: null,
    ...fields
  }
}

export function credit (id: string, type: string, quantity: number, fields: Partial<OdbCredit> = {}): OdbCredit {
  return {
    project_id: id,
    quantity,
    vintage: null,
    transaction_date: null,
    transaction_type: type,
    retirement_account: null,
    retirement_beneficiary: null,
    retirement_beneficiary_harmonized: null,
    retirement_note: null,
    retirement_reason: null,
    transaction_url: null,
    ...fields
  }
}
