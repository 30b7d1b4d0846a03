import { createReadStream, createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'
import { ParquetWriter, schemaFromColumnData } from 'hyparquet-writer'
import { fileWriter } from 'hyparquet-writer/src/node.js'
import { seededRandom } from '../../src/reference/seeded-random.ts'
// The columns and how OffsetsDB writes their values: one definition for the tests' small archives and this one.
import { CREDIT_COLUMNS, csvValue, parquetColumns, PROJECT_COLUMNS } from '../../test/support/offsetsdb.ts'

// A synthetic OffsetsDB archive shaped like the real one (offsets_db_data/models.py's columns, OffsetsDB's CSV
// conventions, its registries' id prefixes and shares): N projects and M credits, as offsets-db.csv.zip and
// offsets-db.parquet.zip. Deterministic (a seeded generator), so two runs make the same bytes. `changedEvery`
// changes every credit of each project whose number is 7 modulo it (100: about 1 % of projects and credits).

export interface MarketShape {
  projects: number
  credits: number
  /** Change the credits of projects numbered 7 modulo this (0: none). */
  changedEvery?: number
}

const REGISTRIES: ReadonlyArray<[string, string, number]> = [['verra', 'VCS', 0.45], ['gold-standard', 'GLD', 0.25],
  ['american-carbon-registry', 'ACR', 0.1], ['climate-action-reserve', 'CAR', 0.1], ['art-trees', 'ART', 0.02],
  ['isometric', 'ISO', 0.03], ['cercarbono', 'CCB', 0.05]]
const CATEGORIES = ['forest', 'renewable-energy', 'ghg-management', 'cookstove', 'agriculture', 'energy-efficiency',
  'land-use', 'carbon-capture', 'fuel-switching', 'unknown']
const STATUSES = ['Registered', 'Listed', 'Completed', 'Under validation', 'Active']
const COUNTRIES = ['India', 'China', 'Brazil', 'United States', 'Indonesia', 'Kenya', 'Peru', 'Colombia', 'Turkey',
  'Viet Nam', 'Ghana', 'Zimbabwe', 'Mexico', 'Cambodia', 'Uganda']
const REASONS = ['Voluntary', 'Environmental Benefit', 'Compliance', 'On behalf of clients', 'CORSIA', null]

interface Project { id: string, registry: string, row: Record<string, unknown> }

function projectsOf (shape: MarketShape): Project[] {
  const random = seededRandom(1)
  const out: Project[] = []
  let n = 0
  for (const [registry, prefix, share] of REGISTRIES) {
    const count = registry === 'cercarbono' ? shape.projects - n : Math.round(shape.projects * share)
    for (let i = 0; i < count; i++, n++) {
      const id = `${prefix}${1000 + i}`
      const pick = <T> (list: readonly T[]) => list[Math.floor(random() * list.length)]!
      const year = 2005 + Math.floor(random() * 18)
      out.push({
        id,
        registry,
        row: {
          project_id: id,
          name: `Synthetic ${pick(CATEGORIES)} project ${id}`,
          registry,
          proponent: `Developer ${Math.floor(random() * 2000)}`,
          protocol: random() < 0.8 ? [`vm00${10 + Math.floor(random() * 40)}`] : [],
          category: pick(CATEGORIES),
          status: pick(STATUSES),
          country: pick(COUNTRIES),
          listed_at: `${year}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`,
          is_compliance: registry === 'climate-action-reserve' || registry === 'american-carbon-registry'
            ? random() < 0.5
            : false,
          retired: null,
          issued: null,
          first_issuance_at: null,
          first_retirement_at: null,
          project_url: `https://registry.example/${registry}/${id}`,
          project_type: pick(CATEGORIES),
          project_type_source: 'carbonplan'
        }
      })
    }
  }
  return out
}

/** The credits, a batch at a time (each credit's project drawn with a skew: a few projects hold many). */
function * creditBatches (shape: MarketShape, projects: readonly Project[], size: number) {
  const random = seededRandom(2)
  for (let from = 0; from < shape.credits; from += size) {
    const batch: Array<Record<string, unknown>> = []
    for (let i = from; i < Math.min(shape.credits, from + size); i++) {
      const index = Math.floor(projects.length * random() ** 2)
      const project = projects[index]!
      const roll = random()
      const type = roll < 0.3 ? 'issuance' : roll < 0.95 ? 'retirement' : 'cancellation'
      const retired = type === 'retirement'
      const buyer = Math.floor(random() * 20_000)
      const vintage = 2005 + Math.floor(random() * 19)
      const changed = shape.changedEvery !== undefined && shape.changedEvery > 0 && index % shape.changedEvery === 7
      batch.push({
        project_id: project.id,
        quantity: 1 + Math.floor(random() * 50_000) + (changed ? 1 : 0),
        vintage,
        transaction_date: `${Math.min(2025, vintage + 1 + Math.floor(random() * 3))}-` +
          `${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-` +
          `${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
        transaction_type: type,
        retirement_account: retired ? `Account holder ${buyer % 5000}` : null,
        retirement_beneficiary: retired && random() < 0.7 ? `Beneficiary company ${buyer} Ltd.` : null,
        retirement_beneficiary_harmonized: retired && random() < 0.5 ? `Beneficiary ${buyer}` : null,
        retirement_note: retired && random() < 0.4 ? `Retired on behalf of client ${Math.floor(random() * 1e6)}` : null,
        retirement_reason: retired ? REASONS[Math.floor(random() * REASONS.length)] : null,
        transaction_url: random() < 0.3 ? `https://registry.example/t/${i}` : null
      })
    }
    yield batch
  }
}

function csvCell (column: string, value: unknown): string {
  const text = csvValue(column, value)
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const csvLines = (columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>) =>
  rows.map((row) => columns.map((c) => csvCell(c, row[c])).join(',')).join('\n') + '\n'

/** A zip written as it is made (fflate's streaming Zip), waiting for the file to take each chunk. */
function zipFile (file: string) {
  const out = createWriteStream(file)
  const zip = new Zip((error, chunk, final) => {
    if (error !== null) throw error
    out.write(chunk)
    if (final) out.end()
  })
  return {
    zip,
    drain: async () => { if (out.writableNeedDrain) await once(out, 'drain') },
    close: async () => { zip.end(); await finished(out) }
  }
}

export async function writeCsvArchive (file: string, shape: MarketShape): Promise<void> {
  const projects = projectsOf(shape)
  const archive = zipFile(file)
  const projectEntry = new ZipDeflate('offsets-db/projects.csv', { level: 6 })
  archive.zip.add(projectEntry)
  projectEntry.push(Buffer.from(PROJECT_COLUMNS.join(',') + '\n' +
    csvLines(PROJECT_COLUMNS, projects.map((p) => p.row))), true)
  const creditEntry = new ZipDeflate('offsets-db/credits.csv', { level: 6 })
  archive.zip.add(creditEntry)
  creditEntry.push(Buffer.from(CREDIT_COLUMNS.join(',') + '\n'))
  for (const batch of creditBatches(shape, projects, 20_000)) {
    creditEntry.push(Buffer.from(csvLines(CREDIT_COLUMNS, batch)))
    await archive.drain()
  }
  creditEntry.push(new Uint8Array(0), true)
  await archive.close()
}

async function parquetFile (file: string, columns: readonly string[],
  batches: Iterable<ReadonlyArray<Record<string, unknown>>>): Promise<void> {
  let writer: ParquetWriter | undefined
  for (const batch of batches) {
    const data = parquetColumns(columns, batch)
    writer ??= new ParquetWriter({ writer: fileWriter(file), schema: schemaFromColumnData({ columnData: data }) })
    await writer.write({ columnData: data, rowGroupSize: 100_000 })
  }
  writer!.finish()
}

export async function writeParquetArchive (file: string, shape: MarketShape, scratch: string): Promise<void> {
  const projects = projectsOf(shape)
  const tables: Array<[string, string]> = [['projects.parquet', `${scratch}/projects.parquet`],
    ['credits.parquet', `${scratch}/credits.parquet`]]
  await parquetFile(tables[0]![1], PROJECT_COLUMNS, [projects.map((p) => p.row)])
  await parquetFile(tables[1]![1], CREDIT_COLUMNS, creditBatches(shape, projects, 100_000))
  const archive = zipFile(file)
  for (const [name, path] of tables) {
    // Parquet is compressed already: stored, as OffsetsDB's zip would gain little by deflating it.
    const entry = new ZipPassThrough(`offsets-db/${name}`)
    archive.zip.add(entry)
    for await (const chunk of createReadStream(path)) {
      entry.push(chunk as Buffer)
      await archive.drain()
    }
    entry.push(new Uint8Array(0), true)
  }
  await archive.close()
}

/** Which projects `changedEvery` changes (those that hold at least one credit), by OffsetsDB id. */
export function changedProjects (shape: MarketShape): Set<string> {
  const projects = projectsOf(shape)
  const index = new Map(projects.map((p, i) => [p.id, i]))
  const changed = new Set<string>()
  for (const batch of creditBatches(shape, projects, 100_000)) {
    for (const credit of batch) {
      const id = String(credit['project_id'])
      const every = shape.changedEvery
      if (every !== undefined && index.get(id)! % every === 7) changed.add(id)
    }
  }
  return changed
}
