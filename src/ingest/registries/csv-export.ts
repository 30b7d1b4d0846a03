import { createReadStream } from 'node:fs'
import { parse, CsvError } from 'csv-parse'
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
    bom: true, raw: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_SIZE
  }))
  let header: string[] | undefined
  // Lines are counted from each record's raw text, which begins with any blank lines skipped before it. csv-parse's
  // own info.lines counts one line too many after a blank CRLF line followed by a quoted line break (csv-parse 7.0).
  let next = 1
  try {
    for await (const { record, raw } of parser as AsyncIterable<{ record: string[], raw: string }>) {
      const line = next + lineBreaks(/^[\r\n]*/.exec(raw)![0])
      next += lineBreaks(raw)
      if (header === undefined) {
        header = record.map(cleanText)
        continue
      }
      yield { line, fields: record, raw: raw.replace(/^[\r\n]+|[\r\n]+$/g, ''), header }
    }
  } catch (error) {
    if (error instanceof CsvError || (error as { code?: string }).code === 'ENOENT') {
      throw new ExportFileError(`${label}: ${(error as Error).message}`)
    }
    throw error
  }
  if (header === undefined) throw new ExportFileError(`${label}: the file is empty (expected a header line)`)
}

/** A CR LF is one line break, as are a lone LF and a lone CR. */
function lineBreaks (text: string): number {
  return (text.match(/\r\n|\n|\r/g) ?? []).length
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
