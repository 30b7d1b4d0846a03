import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { parse } from 'csv-parse'
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet'
import yauzl from 'yauzl'
import { ImportError } from '../../catalogue/catalogue.errors.ts'
import { fileSha256 } from '../file-digest.ts'

// OffsetsDB's archive as tables of rows: the CSV zip, the Parquet zip, or the projects and credits tables as separate
// CSV or Parquet files. What a file or a zip entry is comes from its bytes (a zip, Parquet's magic, else CSV) and
// which table it is from its columns: entry names are not part of OffsetsDB's contract, and they are never used as
// paths (a CSV entry is streamed; a Parquet entry, which needs random access, goes to a temporary file named here).
// Zips are read with yauzl (central directory first, so a truncated zip is refused before anything is read) and
// Parquet with hyparquet. Entry count, entry size and total expanded size are capped: a zip bomb is an import error.

export type TableKind = 'projects' | 'credits'

/** The columns that tell each table (offsets_db_data/models.py); the others are optional. */
export const TABLE_COLUMNS: Readonly<Record<TableKind, readonly string[]>> = {
  projects: ['project_id', 'registry', 'name'],
  credits: ['project_id', 'quantity', 'transaction_type']
}

export interface ArchiveLimits {
  /** Entries in one zip (directories included). */
  maxEntries: number
  /** Bytes of one entry, expanded. */
  maxEntryBytes: number
  /** Bytes of every entry of every zip of one import, expanded. */
  maxTotalBytes: number
  /** Expanded over compressed size, for entries past 1 MiB: a bomb compresses zeros a thousand to one. */
  maxRatio: number
}

const GIB = 1024 ** 3
// OffsetsDB's CSV zip expands to well under 2 GiB (credits are the bulk); text compresses 5-20 to one.
export const ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 100,
  maxEntryBytes: 4 * GIB,
  maxTotalBytes: 8 * GIB,
  maxRatio: 200
}

export interface ArchiveRow {
  /** The column's value as the table gives it (a string in CSV; typed in Parquet); undefined when absent. */
  values: Record<string, unknown>
  /** The CSV line or Parquet row number (from 1, the header not counted for Parquet). */
  line: number
}

export interface ArchiveTable {
  kind: TableKind
  /** The file, or `file > entry` for a zip entry: a label for reports, never a path. */
  label: string
  columns: readonly string[]
  rows: AsyncIterable<ArchiveRow>
}

export interface IgnoredEntry { label: string, reason: string }

export interface ArchiveFile { path: string, label: string }

/** Control characters and over-long names are not shown as they are: an entry name is data. */
function entryLabel (file: ArchiveFile, name: string): string {
  const clean = name.replace(/\p{Cc}/gu, '?')
  return `${file.label} > ${clean.length > 200 ? `${clean.slice(0, 200)}…` : clean}`
}

/** Which table a header is, or why it is none. */
export function tableOf (columns: readonly string[]): TableKind | undefined {
  const has = (kind: TableKind) => TABLE_COLUMNS[kind].every((c) => columns.includes(c))
  if (has('credits')) return 'credits'
  if (has('projects')) return 'projects'
  return undefined
}

const NOT_A_TABLE = `its columns are neither OffsetsDB's projects (${TABLE_COLUMNS.projects.join(', ')}) nor its ` +
  `credits (${TABLE_COLUMNS.credits.join(', ')})`

/** The SHA-256 of the files' bytes (one file: its own digest; several: of their digests, in any order). */
export async function archiveDigest (files: readonly ArchiveFile[]): Promise<string> {
  const digests: string[] = []
  for (const file of files) {
    try {
      digests.push(await fileSha256(file.path))
    } catch (error) {
      throw new ImportError(`${file.label}: ${(error as Error).message}`)
    }
  }
  if (digests.length === 1) return digests[0]!
  return createHash('sha256').update(digests.sort().join('\n')).digest('hex')
}

async function magic (file: string): Promise<string> {
  const handle = await open(file, 'r')
  try {
    const buffer = Buffer.alloc(4)
    const { bytesRead } = await handle.read(buffer, 0, 4, 0)
    return buffer.subarray(0, bytesRead).toString('latin1')
  } finally {
    await handle.close()
  }
}

const isZip = (head: string) => head === 'PK\u0003\u0004' || head === 'PK\u0005\u0006'
const isParquet = (head: string) => head === 'PAR1'

/**
 * Every table of the files, in the order found. Each table's rows must be read before the next table is asked
 * for. `ignored` collects entries that are no table (a README, another OffsetsDB table such as clips).
 */
export async function * readArchive (
  files: readonly ArchiveFile[], ignored: IgnoredEntry[], limits: ArchiveLimits = ARCHIVE_LIMITS
): AsyncGenerator<ArchiveTable> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'tonne-offsetsdb-'))
  const budget = { total: 0 }
  try {
    for (const file of files) {
      const head = await magic(file.path).catch((error: unknown) => {
        throw new ImportError(`${file.label}: ${(error as Error).message}`)
      })
      if (isZip(head)) {
        yield * zipTables(file, scratch, ignored, limits, budget)
      } else if (isParquet(head)) {
        const table = await parquetTable(file.path, file.label)
        if (table === undefined) throw new ImportError(`${file.label}: ${NOT_A_TABLE}`)
        yield table
      } else {
        const table = await csvTable(createReadStream(file.path), file.label)
        if (table === undefined) throw new ImportError(`${file.label}: ${NOT_A_TABLE}`)
        yield table
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

async function openZip (file: ArchiveFile): Promise<yauzl.ZipFile> {
  return await new Promise((resolve, reject) => {
    yauzl.open(file.path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, zip) => {
      if (error !== null) reject(new ImportError(`${file.label} is not a readable zip (truncated?): ${error.message}`))
      else resolve(zip)
    })
  })
}

async function nextEntry (zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return await new Promise((resolve, reject) => {
    const done = () => {
      zip.off('entry', onEntry)
      zip.off('end', onEnd)
      zip.off('error', onError)
    }
    const onEntry = (entry: yauzl.Entry) => { done(); resolve(entry) }
    const onEnd = () => { done(); resolve(null) }
    const onError = (error: Error) => { done(); reject(error) }
    zip.on('entry', onEntry)
    zip.on('end', onEnd)
    zip.on('error', onError)
    zip.readEntry()
  })
}

async function * zipTables (
  file: ArchiveFile, scratch: string, ignored: IgnoredEntry[], limits: ArchiveLimits, budget: { total: number }
): AsyncGenerator<ArchiveTable> {
  const zip = await openZip(file)
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ImportError(`${file.label} has ${zip.entryCount} entries; an OffsetsDB archive has a few ` +
        `(at most ${limits.maxEntries} are read)`)
    }
    let index = 0
    for (;;) {
      let entry: yauzl.Entry | null
      try {
        entry = await nextEntry(zip)
      } catch (error) {
        throw new ImportError(`${file.label} is not a readable zip: ${(error as Error).message}`)
      }
      if (entry === null) return
      index++
      const label = entryLabel(file, entry.fileName)
      if (entry.fileName.endsWith('/')) continue
      checkDeclared(entry, label, limits, budget)
      const stream = await new Promise<Readable>((resolve, reject) => {
        zip.openReadStream(entry, (error, readable) => {
          if (error !== null) reject(new ImportError(`${label} cannot be read: ${error.message}`))
          else resolve(readable)
        })
      })
      const chunks = limited(stream, label, limits, budget)
      const first = await chunks.next()
      const head = first.done === true ? Buffer.alloc(0) : first.value
      const rest = async function * () {
        if (first.done !== true) yield head
        yield * chunks
      }
      if (isParquet(head.subarray(0, 4).toString('latin1'))) {
        // Parquet is read from its end (the footer): to a file named here, never after the entry.
        const target = path.join(scratch, `entry-${index}.parquet`)
        await pipeline(Readable.from(rest()), createWriteStream(target, { flags: 'wx' }))
        const table = await parquetTable(target, label)
        if (table === undefined) ignored.push({ label, reason: NOT_A_TABLE })
        else yield table
        await rm(target, { force: true })
        continue
      }
      const table = await csvTable(Readable.from(rest()), label)
      if (table === undefined) {
        ignored.push({ label, reason: NOT_A_TABLE })
        stream.destroy()
        continue
      }
      yield table
    }
  } finally {
    zip.close()
  }
}

/** What the zip declares, before expanding anything: a bomb usually says what it is. */
function checkDeclared (entry: yauzl.Entry, label: string, limits: ArchiveLimits, budget: { total: number }): void {
  if (entry.uncompressedSize > limits.maxEntryBytes) {
    throw new ImportError(`${label} expands to ${entry.uncompressedSize} bytes; at most ${limits.maxEntryBytes} ` +
      'are read (a zip bomb?)')
  }
  if (budget.total + entry.uncompressedSize > limits.maxTotalBytes) {
    throw new ImportError(`${label}: the archive expands to more than ${limits.maxTotalBytes} bytes (a zip bomb?)`)
  }
  if (entry.uncompressedSize > 1024 ** 2 && entry.uncompressedSize > limits.maxRatio * entry.compressedSize) {
    throw new ImportError(`${label} expands ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))}` +
      ` times its compressed size; a table compresses far less (at most ${limits.maxRatio} times): a zip bomb?`)
  }
}

/** The entry's bytes, counted as they expand: declared sizes can lie (yauzl also checks them). */
async function * limited (
  stream: Readable, label: string, limits: ArchiveLimits, budget: { total: number }
): AsyncGenerator<Buffer> {
  let bytes = 0
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length
      budget.total += chunk.length
      if (bytes > limits.maxEntryBytes || budget.total > limits.maxTotalBytes) {
        throw new ImportError(`${label} expands past the archive limits (a zip bomb?)`)
      }
      yield chunk
    }
  } catch (error) {
    if (error instanceof ImportError) throw error
    throw new ImportError(`${label} cannot be read (a damaged or truncated zip?): ${(error as Error).message}`)
  } finally {
    stream.destroy()
  }
}

const MAX_RECORD_SIZE = 1024 * 1024

/** A CSV table: its header, then its rows as objects by column; undefined when the header names no table. */
async function csvTable (source: Readable, label: string): Promise<ArchiveTable | undefined> {
  const parser = source.pipe(parse({
    bom: true,
    relax_column_count: true,
    max_record_size: MAX_RECORD_SIZE,
    info: true
  }))
  source.on('error', (error) => parser.destroy(error))
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<{ record: string[], info: { lines: number } }>
  const fail = (error: unknown): never => {
    if (error instanceof ImportError) throw error
    throw new ImportError(`${label} is not a CSV table Tonne reads: ${(error as Error).message}`)
  }
  const first = await records.next().catch(fail)
  const columns = first.done === true ? [] : first.value.record.map((c) => c.trim())
  const kind = tableOf(columns)
  if (kind === undefined) {
    parser.destroy()
    return undefined
  }
  const rows = async function * (): AsyncGenerator<ArchiveRow> {
    for (;;) {
      const next = await records.next().catch(fail)
      if (next.done === true) return
      const values: Record<string, unknown> = {}
      const fields = next.value.record
      for (let i = 0; i < columns.length; i++) values[columns[i]!] = fields[i]
      yield { values, line: next.value.info.lines }
    }
  }
  return { kind, label, columns, rows: rows() }
}

/** Rows decoded at a time: a row group can hold a whole table. */
const PARQUET_WINDOW = 50_000

async function parquetTable (file: string, label: string): Promise<ArchiveTable | undefined> {
  const fail = (error: unknown): never => {
    throw new ImportError(`${label} is not a Parquet table Tonne reads (truncated?): ${(error as Error).message}`)
  }
  const buffer = await asyncBufferFromFile(file).catch(fail)
  const metadata = await parquetMetadataAsync(buffer).catch(fail)
  const columns = parquetSchema(metadata).children.map((c) => c.element.name)
  const kind = tableOf(columns)
  if (kind === undefined) return undefined
  const rows = async function * (): AsyncGenerator<ArchiveRow> {
    let start = 0
    for (const group of metadata.row_groups) {
      const end = start + Number(group.num_rows)
      for (let from = start; from < end; from += PARQUET_WINDOW) {
        const objects = await parquetReadObjects({
          file: buffer, metadata, rowStart: from, rowEnd: Math.min(end, from + PARQUET_WINDOW)
        }).catch(fail)
        for (let i = 0; i < objects.length; i++) yield { values: objects[i]!, line: from + i + 1 }
      }
      start = end
    }
  }
  return { kind, label, columns, rows: rows() }
}
