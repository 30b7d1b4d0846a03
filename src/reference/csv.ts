import { readFileSync } from 'node:fs'

/**
 * Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into records keyed by the
 * header row. Throws with the file name and line on a malformed row, so bad data stops the start.
 */
export function parseCsv (text: string, file = 'CSV'): Array<Record<string, string>> {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') { field += '"'; i++ } else quoted = false
      } else {
        if (ch === '\n') line++
        field += ch
      }
    } else if (ch === '"') {
      if (field !== '') throw new Error(`${file}: line ${line}: quote inside an unquoted field`)
      quoted = true
    } else if (ch === ',') {
      row.push(field); field = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      row.push(field); field = ''
      rows.push(row); row = []
      line++
    } else {
      field += ch
    }
  }
  if (quoted) throw new Error(`${file}: unterminated quoted field`)
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row) }

  const [header, ...body] = rows.filter((r) => !(r.length === 1 && r[0] === ''))
  if (header === undefined) throw new Error(`${file}: empty file`)
  return body.map((cells, index) => {
    if (cells.length !== header.length) {
      throw new Error(`${file}: data row ${index + 1} has ${cells.length} fields, the header has ${header.length}`)
    }
    return Object.fromEntries(header.map((name, i) => [name, cells[i] ?? '']))
  })
}

export function readCsv (file: string): Array<Record<string, string>> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new Error(`cannot read data file ${file}: ${(error as Error).message}`)
  }
  return parseCsv(text.replace(/^\uFEFF/, ''), file)
}
