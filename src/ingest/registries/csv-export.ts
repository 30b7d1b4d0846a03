import { createReadStream } from 'node:fs'
import { parse, CsvError, type Info } from 'csv-parse'
import { ExportFileError } from '../../catalogue/catalogue.errors.ts'
import { cleanText } from './values.ts'

/** Characters one record may hold: far above any real row (Cercarbono's carry every serial), far below memory. */
const MAX_RECORD_SIZE = 16 * 1024 * 1024

interface CsvRecord {
  /** The physical line the record starts on (line 1 is the header). */
  line: number
  fields: string[]
  /** The record's text as in the file, to tell a repeated row. */
  raw: string
}

/**
 * Streams a CSV export record by record (csv-parse; RFC 4180 quoting, line breaks inside quoted fields, a BOM).
 * The first record is the header, its names with white space collapsed ("Program  Country" → "Program Country").
 * Rows with another number of fields than the header are given as they are, for the caller to skip.
 */
export async function * readCsvExport (file: string, label: string): AsyncGenerator<CsvRecord & { header: string[] }> {
  const parser = createReadStream(file).pipe(parse({
    bom: true, info: true, raw: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_SIZE
  }))
  let header: string[] | undefined
  try {
    for await (const { record, info, raw } of parser as AsyncIterable<{ record: string[], info: Info, raw: string }>) {
      // info.lines is the line the record ends on; count back over the line breaks inside it.
      const breaks = (raw.match(/\r\n|\n|\r/g) ?? []).length
      const line = info.lines - breaks + (/[\r\n]$/.test(raw) ? 1 : 0)
      if (header === undefined) {
        header = record.map(cleanText)
        continue
      }
      yield { line, fields: record, raw: raw.replace(/[\r\n]+$/, ''), header }
    }
  } catch (error) {
    if (error instanceof CsvError || (error as { code?: string }).code === 'ENOENT') {
      throw new ExportFileError(`${label}: ${(error as Error).message}`)
    }
    throw error
  }
  if (header === undefined) throw new ExportFileError(`${label}: the file is empty (expected a header line)`)
}

/**
 * Just the header of a CSV export (to tell which export it is), with white space collapsed. The first record, not
 * the first line: older Excel-made exports break header cells over lines inside quotes ("Date \nIssued").
 */
export async function readCsvHeader (file: string, label: string): Promise<string[]> {
  const source = createReadStream(file)
  const parser = source.pipe(parse({ bom: true, relax_column_count: true, max_record_size: MAX_RECORD_SIZE }))
  source.once('error', (error) => parser.destroy(error))
  // Only the first record is read but the file stays open: close it before answering.
  const closed = new Promise<void>((resolve) => source.once('close', () => resolve()))
  try {
    const first = await (parser as AsyncIterable<string[]>)[Symbol.asyncIterator]().next()
    if (first.done !== true) return first.value.map(cleanText)
  } catch (error) {
    if (error instanceof CsvError || (error as { code?: string }).code === 'ENOENT') {
      throw new ExportFileError(`${label}: ${(error as Error).message}`)
    }
    throw error
  } finally {
    parser.destroy()
    source.destroy()
    await closed
  }
  throw new ExportFileError(`${label}: the file is empty (expected a header line)`)
}
