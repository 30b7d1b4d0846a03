/**
 * A strict RFC 4180 CSV reader for the calculator's reference files. Strict on purpose:
 * a stray quote or a short row means the file was damaged, and the service must refuse
 * to start rather than compute with a shifted column.
 */

export interface CsvTable {
  header: string[]
  /** One record per data line, keyed by header name. */
  rows: Array<Record<string, string>>
}

/** Parses CSV text; throws an Error naming `fileLabel` and the line on any malformation. */
export function parseCsv (text: string, fileLabel: string): CsvTable {
  const records = splitRecords(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, fileLabel)
  const header = records[0]
  if (header === undefined || header.length === 0 || (header.length === 1 && header[0] === '')) {
    throw new Error(`${fileLabel}: the file is empty (expected a header line)`)
  }
  const seen = new Set<string>()
  for (const name of header) {
    if (name === '' ||
      seen.has(name)) throw new Error(`${fileLabel}: header has an empty or repeated column name "${name}"`)
    seen.add(name)
  }
  const rows: Array<Record<string, string>> = []
  for (let index = 1; index < records.length; index++) {
    const fields = records[index] ?? []
    if (fields.length !== header.length) {
      throw new Error(`${fileLabel}: record ${recordOf(index - 1)} has ${fields.length} fields, expected ` +
        `${header.length} (${header.join(',')})`)
    }
    const row: Record<string, string> = {}
    header.forEach((name, column) => { row[name] = fields[column] ?? '' })
    rows.push(row)
  }
  return { header, rows }
}

/** The record number, in its file, of `table.rows[index]`: the header is record 1. Errors name rows by it. */
export function recordOf (index: number): number {
  return index + 2
}

/** Throws unless the header is exactly `expected`, in order. */
export function expectHeader (table: CsvTable, expected: readonly string[], fileLabel: string): void {
  if (table.header.join(',') !== expected.join(',')) {
    throw new Error(`${fileLabel}: unexpected header "${table.header.join(',')}", expected "${expected.join(',')}"`)
  }
}

// Fields are cut out with slice, not built a character at a time: the airports file alone is 400 KB, read
// at every start (docs/performance.md).
const QUOTE = 0x22
const COMMA = 0x2c
const LF = 0x0a
const CR = 0x0d

function splitRecords (text: string, fileLabel: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let line = 1
  let i = 0
  while (i < text.length) {
    let field: string
    if (text.charCodeAt(i) === QUOTE) {
      field = ''
      let from = i + 1
      for (;;) {
        const close = text.indexOf('"', from)
        if (close === -1) {
          line += count(text, LF, from, text.length)
          throw new Error(`${fileLabel}: line ${line}: unterminated quoted field`)
        }
        line += count(text, LF, from, close)
        if (text.charCodeAt(close + 1) === QUOTE) {
          field += text.slice(from, close + 1)
          from = close + 2
          continue
        }
        field += text.slice(from, close)
        i = close + 1
        break
      }
      const next = text.charCodeAt(i)
      if (i < text.length && next !== COMMA && next !== LF && next !== CR) {
        throw new Error(`${fileLabel}: line ${line}: unexpected character after a closing quote`)
      }
    } else {
      const from = i
      let c = text.charCodeAt(i)
      while (i < text.length && c !== COMMA && c !== LF && c !== CR) {
        if (c === QUOTE) throw new Error(`${fileLabel}: line ${line}: a quote inside an unquoted field`)
        c = text.charCodeAt(++i)
      }
      field = text.slice(from, i)
    }
    record.push(field)
    if (i >= text.length) break
    const c = text.charCodeAt(i++)
    if (c === COMMA) {
      // A comma at the very end leaves one more, empty field.
      if (i === text.length) record.push('')
      continue
    }
    if (c === CR && text.charCodeAt(i) === LF) i++
    records.push(record)
    record = []
    line++
  }
  // A last line without a line break; after one, the record is still empty.
  if (record.length > 0) records.push(record)
  return records
}

function count (text: string, code: number, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === code) n++
  return n
}
