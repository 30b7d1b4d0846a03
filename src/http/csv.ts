import { Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import type { FastifyReply, FastifyRequest } from 'fastify'

// CSV answers for any list of the API (projects now; transactions can reuse it): RFC 4180 text written by
// csv-stringify as the rows come, so a long list is never held in memory whole.

const CSV_TYPE = 'text/csv; charset=utf-8'

/** One column: its header and how to read it from a row (null and undefined become empty cells). */
export interface CsvColumn<Row> {
  header: string
  value: (row: Row) => string | number | boolean | null | undefined
}

/**
 * A download's file name from what was asked for: `base`, then each given filter as `name-value` (or the value
 * alone where `bare` says the value names itself: a registry, a type, a search), in the order `names` gives, so the
 * same filters give the same name. Only a-z, 0-9, "_" and "-": safe in any file system and in the header.
 */
export function csvFilename (
  base: string, query: Record<string, unknown>, names: ReadonlyArray<string | readonly [name: string, label: string]>,
  bare: readonly string[] = []
): string {
  const parts = [base]
  for (const entry of names) {
    const [name, label] = typeof entry === 'string' ? [entry, entry] : entry
    const value = query[name]
    if (value === undefined || value === null || String(value).trim() === '') continue
    const folded = String(value).normalize('NFKD').replace(/\p{M}/gu, '').trim().toLowerCase()
    const text = folded.replace(/[^a-z0-9_]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40)
    if (text !== '') parts.push(bare.includes(name) ? text : `${label}-${text}`)
  }
  return `${parts.join('-').slice(0, 180)}.csv`
}

/** One URL, two representations (JSON, CSV): caches keep them apart by Accept. */
export function varyOnAccept (reply: FastifyReply): void {
  const vary = reply.getHeader('vary')
  reply.header('vary', vary === undefined ? 'Accept' : `${String(vary)}, Accept`)
}

/** Whether the request asks for CSV: `format=csv`, or an Accept header that prefers text/csv to JSON. */
export function wantsCsv (request: FastifyRequest, format: string | undefined): boolean {
  if (format !== undefined) return format === 'csv'
  const accept = request.headers.accept ?? ''
  const quality = (type: RegExp): number => {
    for (const part of accept.split(',')) {
      const [range = '', ...parameters] = part.trim().split(';')
      if (!type.test(range.trim().toLowerCase())) continue
      const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
      return q === undefined ? 1 : Number(q)
    }
    return 0
  }
  const csv = quality(/^text\/csv$/)
  return csv > 0 && csv > quality(/^application\/(json|\*)$|^\*\/\*$/)
}

/**
 * Streams `rows` as CSV with a header line. A text cell that a spreadsheet would read as a formula (starting with
 * =, +, -, @, a tab or a carriage return) gets a leading apostrophe (csv-stringify's escape_formulas; OWASP,
 * "CSV Injection"). The download is named `filename`.
 */
export async function sendCsv<Row> (
  reply: FastifyReply, filename: string, columns: ReadonlyArray<CsvColumn<Row>>, rows: AsyncIterable<Row>
): Promise<FastifyReply> {
  const stringifier = stringify({
    header: true,
    columns: columns.map((column) => column.header),
    escape_formulas: true,
    record_delimiter: 'windows',
    cast: { boolean: (value) => String(value) }
  })
  // A failure half-way cannot change the status any more: the stream ends early and the client sees it cut.
  Readable.from((async function * () {
    for await (const row of rows) yield columns.map((column) => column.value(row) ?? '')
  })()).on('error', (error) => stringifier.destroy(error)).pipe(stringifier)
  return reply
    .type(CSV_TYPE)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(stringifier)
}
