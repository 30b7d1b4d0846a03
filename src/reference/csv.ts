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
      throw new Error(`${fileLabel}: record ${index +
        1} has ${fields.length} fields, expected ${header.length} (${header.join(',')})`)
    }
    const row: Record<string, string> = {}
    header.forEach((name, column) => { row[name] = fields[column] ?? '' })
    rows.push(row)
  }
  return { header, rows }
}

/** Throws unless the header is exactly `expected`, in order. */
export function expectHeader (table: CsvTable, expected: readonly string[], fileLabel: string): void {
  if (table.header.join(',') !== expected.join(',')) {
    throw new Error(`${fileLabel}: unexpected header "${table.header.join(',')}", expected "${expected.join(',')}"`)
  }
}

function splitRecords (text: string, fileLabel: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let atFieldStart = true
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') { field += '"'; i++ } else {
          quoted = false
          const next = text[i + 1]
          if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
            throw new Error(`${fileLabel}: line ${line}: unexpected character after a closing quote`)
          }
        }
      } else {
        if (c === '\n') line++
        field += c
      }
      continue
    }
    if (c === '"') {
      if (!atFieldStart) throw new Error(`${fileLabel}: line ${line}: a quote inside an unquoted field`)
      quoted = true
      atFieldStart = false
    } else if (c === ',') {
      record.push(field); field = ''; atFieldStart = true
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      record.push(field); records.push(record)
      record = []; field = ''; atFieldStart = true; line++
    } else {
      field += c
      atFieldStart = false
    }
  }
  if (quoted) throw new Error(`${fileLabel}: line ${line}: unterminated quoted field`)
  if (field !== '' || record.length > 0) { record.push(field); records.push(record) }
  return records
}
