import type { MediaStore } from '../../media/media-store.ts'
import type { Db } from '../../store/database.ts'
import type {
  Credits, ImportRecord, Source, TransactionRecord, TransactionType
} from '../../catalogue/catalogue.schemas.ts'
import { toImportRecord } from '../../catalogue/project.mapper.ts'
import { ExportFileError, ImportError } from '../../catalogue/catalogue.errors.ts'
import { blankRecord, importRecords, ledgerValues, transactionProblem, type ImportOptions } from '../projects.import.ts'
import * as projectRows from '../../catalogue/project-rows.repository.ts'
import * as vocabularies from '../../catalogue/vocabularies.repository.ts'
import * as ledgerImport from '../ledger-import.repository.ts'
import { bulkWorthIt, withLedgerIndexesAfter } from '../ledger-bulk.repository.ts'
import { fileSha256 } from '../file-digest.ts'
import { art, acr, car } from './apx.ts'
import { arb } from './arb.ts'
import { cercarbono } from './cercarbono.ts'
import { ProtocolMappings } from './credit-types.ts'
import { readCsvExport, readCsvHeader } from './csv-export.ts'
import { goldStandard } from './gold-standard.ts'
import { isometric } from './isometric.ts'
import {
  exportDates, importedFiles, latestTransactionDates, recordExportDates, recordImportedFiles
} from './registry-import.repository.ts'
import {
  Drafts, type LedgerSummary, type Named, type ProjectDraft, type RowRef, type RowWarning, type SkippedRow,
  type TransactionSpool
} from './project-draft.ts'
import * as stage from './registry-stage.repository.ts'
import { RowDigests } from './row-digests.ts'
import type { ExportDefinition, ExportKind, RegistryDefinition, RegistryKey, Row, RowContext } from './registry.ts'
import { verra } from './verra.ts'

// `tonne import --from REGISTRY FILE...`: reads a registry's own exports, harmonises them into projects, and
// writes them through the one import path (projects.import.ts: validation, all or nothing). Projects are
// matched by (registry, external id), so a re-import keeps their ids; what the files do not say (in_sale,
// ratings, prices, images, or fields of another export) stays as the catalogue had it. Transactions are added
// to the ledger by identity, never removed. The stored projects are read, merged and written with the import
// lock held, so two imports at once cannot lose each other's changes. docs/registries.md, "Import rules".

const REGISTRIES: Readonly<Record<RegistryKey, RegistryDefinition>> = {
  verra, 'gold-standard': goldStandard, acr, car, art, cercarbono, isometric, arb
}

interface ExportFile {
  path: string
  /** How reports and each project's `source` name the file (its name, or a path relative to the data). */
  label: string
}

export interface RegistryImportReport {
  registry: RegistryKey
  files: Array<{ file: string, export: ExportKind, rows: number }>
  /** Files not read: the catalogue has imported the same bytes before (under the name given). */
  already_imported: Array<{ file: string, as: string }>
  created: number
  updated: number
  unchanged: number
  /** Rows not used, with why; the import went ahead without them. */
  skipped: SkippedRow[]
  /** Values that could not be read and were left empty. */
  warnings: RowWarning[]
}

interface RegistryImportOptions {
  /** The media store: stored images of re-imported projects are kept through it. */
  media?: MediaStore
  now?: Date
  /** Imports run one at a time: how long to wait for another, and what to say when waiting begins. */
  lock?: ImportOptions['lock']
}

/** The transaction types each kind of export lists. */
const LISTS: Record<ExportKind, readonly TransactionType[]> = {
  projects: [],
  issuances: ['issuance'],
  retirements: ['retirement'],
  cancellations: ['cancellation'],
  transactions: ['issuance', 'retirement']
}

/** Whether a header has a column, in one of its spellings. */
const hasColumn = (header: readonly string[], column: string | readonly string[]) =>
  typeof column === 'string' ? header.includes(column) : column.some((c) => header.includes(c))

const describe = (column: string | readonly string[]) => typeof column === 'string' ? column : column.join(' or ')

/**
 * Which export of the registry each file is, by its header: of the exports whose columns it has, the one that
 * names most (Gold Standard's retirements carry every issuance column, and a retirement date). Project exports
 * are read first, so that ledger rows add to the projects they state.
 */
async function planFiles (
  definition: RegistryDefinition, readers: readonly ExportDefinition[], files: readonly ExportFile[]
) {
  const plans: Array<{ file: ExportFile, reader: ExportDefinition }> = []
  for (const file of files) {
    const header = await readCsvHeader(file.path, file.label)
    const reader = readers.filter((r) => r.columns.every((c) => hasColumn(header, c)))
      .sort((a, b) => b.columns.length - a.columns.length)[0]
    if (reader === undefined) {
      const expected = readers.map((r) => `${r.kind}: ${r.columns.map(describe).join(', ')}`).join('; ')
      throw new ExportFileError(`${file.label} is not a ${definition.key} export Tonne reads: its header lacks the ` +
        `columns of each (${expected})`)
    }
    plans.push({ file, reader })
  }
  return plans.sort((a, b) => (a.reader.kind === 'projects' ? 0 : 1) - (b.reader.kind === 'projects' ? 0 : 1))
}

// Control characters other than tab and line breaks: no registry value means one, and a terminal that shows a
// stored name would obey them. U+FFFD is what a byte that is not UTF-8 (a Latin-1 export) was decoded to.
const CONTROL = /(?![\t\n\r])\p{Cc}/gu
const NOT_UTF8 = '\uFFFD'

/** The row's fields without control characters, each removal and each undecodable byte reported by column. */
function cleanFields (record: { fields: string[], header: string[], raw: string },
  warn: (field: string, reason: string) => void): string[] {
  CONTROL.lastIndex = 0
  if (!CONTROL.test(record.raw) && !record.raw.includes(NOT_UTF8)) return record.fields
  return record.fields.map((value, i) => {
    const column = record.header[i] ?? `column ${i + 1}`
    if (value.includes(NOT_UTF8)) {
      warn(column, 'holds bytes that are not UTF-8 (the file may be Latin-1 or Windows-1252), read as U+FFFD: ' +
        'save the export as UTF-8 to keep those characters')
    }
    const cleaned = value.replace(CONTROL, '')
    if (cleaned !== value) warn(column, 'held control characters (such as ESC or BEL); they were removed')
    return cleaned
  })
}

/**
 * The drafts' transactions, staged in the import's transaction a batch at a time (a million-row export's ledger
 * never sits in memory), each checked as the import checks a record's transactions: the first problem of each
 * project is kept, to refuse the import if the project is written.
 */
class StagedSpool implements TransactionSpool {
  readonly #db: Db
  #buffer: stage.StagedTransaction[] = []
  #seq = 0
  readonly #counts = new Map<string, number>()
  readonly problems = new Map<string, { field: string | undefined, message: string }>()

  constructor (db: Db) {
    this.#db = db
  }

  add (externalId: string, t: TransactionRecord & { source: RowRef }): void {
    const index = this.#counts.get(externalId) ?? 0
    this.#counts.set(externalId, index + 1)
    if (!this.problems.has(externalId)) {
      const problem = transactionProblem(t, index)
      if (problem !== undefined) this.problems.set(externalId, problem)
    }
    this.#buffer.push({
      seq: this.#seq++,
      draft: externalId,
      ...ledgerValues(t),
      source_file: t.source.file,
      source_line: t.source.line
    })
  }

  get full (): boolean {
    return this.#buffer.length >= stage.STAGE_BATCH
  }

  async flush (): Promise<void> {
    const rows = this.#buffer
    this.#buffer = []
    await stage.stageTransactions(this.#db, rows)
  }
}

/** Reads every row of the files into drafts; rows that cannot be used are skipped and reported. */
async function readExports (
  plans: Awaited<ReturnType<typeof planFiles>>, base: Pick<RowContext, 'drafts' | 'countries' | 'mappings'>,
  report: RegistryImportReport, asOf: Map<string, string>, today: string, spool?: StagedSpool
): Promise<void> {
  for (const { file, reader } of plans) {
    let rows = 0
    const seen = new RowDigests()
    let columns: Map<string, number> | undefined
    for await (const record of readCsvExport(file.path, file.label)) {
      rows++
      const at = { file: file.label, line: record.line }
      if (record.fields.length !== record.header.length) {
        const reason = `has ${record.fields.length} fields; the header has ${record.header.length}`
        report.skipped.push({ ...at, reason })
        continue
      }
      const earlier = seen.seen(record.raw, record.line)
      if (earlier !== undefined) {
        report.skipped.push({ ...at, reason: `repeats line ${earlier} exactly` })
        continue
      }
      // Each column's index, once per file (every record of a file shares its header): not a Map per row.
      if (columns === undefined) {
        columns = new Map<string, number>()
        for (const [i, name] of record.header.entries()) if (!columns.has(name)) columns.set(name, i)
      }
      const indexes = columns
      const fields = cleanFields(record, (field, reason) => report.warnings.push({ ...at, field, reason }))
      const raw = (column: string) => {
        const i = indexes.get(column)
        return i === undefined ? '' : fields[i] ?? ''
      }
      const row: Row = { raw, get: (column) => raw(column).trim() }
      const context: RowContext = {
        ...base,
        ...at,
        warn: (field, reason) => report.warnings.push({ ...at, field, reason }),
        skip: (reason) => { report.skipped.push({ ...at, reason }) },
        state: (draft, fields) => {
          // A project export is as recent as the latest date its rows state that is not in the future.
          for (const stated of [fields.date, fields.listed_date]) {
            if (typeof stated === 'string' && stated <= today && stated > (asOf.get(file.label) ?? '')) {
              asOf.set(file.label, stated)
            }
          }
          const replaced = draft.stateFields(fields, at)
          if (replaced !== undefined) {
            const reason = `${draft.externalId} again at ${at.file} line ${at.line}, which is used instead`
            report.skipped.push({ ...replaced, reason })
          }
        }
      }
      reader.read(row, context)
      if (spool?.full === true) await spool.flush()
    }
    report.files.push({ file: file.label, export: reader.kind, rows })
  }
}

function newRecord (registry: Named, draft: ProjectDraft): ImportRecord {
  return blankRecord({
    externalId: draft.externalId,
    name: '',
    registry,
    standard: { name_id: `${registry.name_id}_STANDARD`, verbose_name: registry.verbose_name }
  })
}

/** Lines listed per file: a 50,000-transaction project's detail listed every line (291 KB). */
const SOURCE_LINES = 100

/**
 * Source entries of this import replace the stored ones of the same file; the others stay. Each lists its first
 * lines and, when there are more, how many (`rows`).
 */
function mergeSource (stored: Source | undefined, read: NonNullable<Source>): Source {
  const files = new Set(read.map((s) => s.file))
  const bounded = read.map((s) => s.lines === null || s.lines.length <= SOURCE_LINES
    ? s
    : { file: s.file, lines: s.lines.slice(0, SOURCE_LINES), rows: s.lines.length })
  return [...(stored ?? []).filter((s) => !files.has(s.file)), ...bounded]
}

/**
 * What the files say over what the catalogue has (or a new project's defaults). A project export's row states the
 * project as the registry listed it when the export was made (`stated`: not older than the export that last stated
 * it; else its fields, and its line in `source`, are left out). What ledger rows repeat about a project (its name,
 * developer, SDGs, certifications) replaces the stored fields only when the file's latest transaction of the project
 * is not older than the stored ledger's latest: an older or date-filtered export adds its transactions and changes
 * nothing else.
 */
function merge (
  draft: ProjectDraft, stored: ImportRecord | undefined, current: boolean, stated: boolean, registry: Named,
  goals: ReadonlyMap<number, string>
): ImportRecord {
  // The stored ledger stays as it is: this import's transactions are staged apart (StagedSpool above) and written
  // from there, so the record carries none.
  const { transactions: _stored, ...base } = stored ?? newRecord(registry, draft)
  const defined = (fields: object) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))
  const fields = { ...current ? defined(draft.ledgerFields()) : {}, ...stated ? defined(draft.projectFields()) : {} }
  const described = current || (stated && draft.stated())
  const sdgs = described ? draft.sdgs() : undefined
  const certifications = described ? draft.certifications() : undefined
  const credits = withStoredVintages(draft.credits(), base.credits)
  return {
    ...base,
    ...fields,
    registry,
    external_id: draft.externalId,
    sustainable_development_goals: sdgs === undefined
      ? base.sustainable_development_goals
      : sdgs.map((n) => ({ name_id: goals.get(n)! })),
    certifications: certifications ?? base.certifications,
    vintages: credits === undefined ? base.vintages : credits.vintages.map((v) => v.vintage),
    ...(credits !== undefined ? { credits } : base.credits !== undefined && { credits: base.credits }),
    source: mergeSource(base.source, draft.source(stated ? undefined : draft.statedAt()))
  }
}

/**
 * The files' credits with the stored vintages they do not name, and each vintage's stored CORSIA flag where the files
 * do not state one: a retirements export read alone keeps what the issuances said of every vintage.
 */
function withStoredVintages (read: Credits | undefined, stored: Credits | undefined): Credits | undefined {
  if (read === undefined || stored === undefined) return read
  const storedByYear = new Map(stored.vintages.map((v) => [v.vintage, v]))
  const vintages = read.vintages.map((v) => {
    const corsia = storedByYear.get(v.vintage)?.corsia_eligible
    const keep = v.corsia_eligible === undefined && corsia !== undefined && corsia !== null
    return keep ? { ...v, corsia_eligible: corsia } : v
  })
  const named = new Set(read.vintages.map((v) => v.vintage))
  return {
    ...read,
    vintages: [...vintages, ...stored.vintages.filter((v) => !named.has(v.vintage))]
      .sort((a, b) => a.vintage - b.vintage)
  }
}

/** One verbose name per name_id across the import (the first given): registries spell labels inconsistently. */
function oneNamePerId (records: ImportRecord[]): void {
  const names = new Map<string, string>()
  const same = <T extends Named | null> (kind: string, entry: T): T => {
    if (entry === null) return entry
    const key = `${kind}\u0000${entry.name_id}`
    const verbose = names.get(key) ?? entry.verbose_name
    names.set(key, verbose)
    return { ...entry, verbose_name: verbose }
  }
  for (const record of records) {
    record.standard = same('standard', record.standard)
    record.credit_type = same('credit_type', record.credit_type)
    record.rating = same('rating', record.rating)
    record.certifications = record.certifications.map((c) => same('certification', c))
  }
}

/** The staged transactions settled (the last row of each identity), their sums handed to the drafts. */
async function settleSpool (trx: Db, drafts: Drafts): Promise<void> {
  await stage.settleStage(trx)
  const summaries = new Map<string, { sums: Array<LedgerSummary['sums'][number]>, latest: string | null }>()
  for (const { draft, type, vintage, quantity, latest } of await stage.stagedSums(trx)) {
    const summary = summaries.get(draft) ?? { sums: [], latest: null }
    summary.sums.push({ type: type as TransactionType, vintage, quantity })
    if (latest !== null && (summary.latest === null || latest > summary.latest)) summary.latest = latest
    summaries.set(draft, summary)
  }
  for (const [externalId, summary] of summaries) drafts.find(externalId)?.settleSpool(summary)
  for (const row of await stage.replacedRows(trx)) {
    const reason = `${row.identity} again at ${row.by_file} line ${row.by_line}, which is used instead`
    drafts.find(row.draft)?.replacedRows.push({ file: row.file, line: row.line, reason })
  }
}

/**
 * The staged ledger of the projects written, upserted by (registry, identity) after the archive's rows of those
 * projects give way (docs/registries.md, "Two sources"); returns the projects it took transactions from.
 */
async function writeStaged (trx: Db, key: RegistryKey, records: readonly ImportRecord[],
  origins: readonly ProjectDraft[]): Promise<{ changed: ReadonlySet<number>, movedFrom: number[] }> {
  await stage.mapDrafts(trx, records.map((record, position) =>
    ({ draft: origins[position]!.externalId, project_id: record.id, registry: record.registry.name_id, position })))
  const shared = await stage.sharedIdentity(trx)
  if (shared !== undefined) {
    const row = origins.find((draft) => draft.externalId === shared.second)?.firstRow()
    throw new ImportError(`${shared.second}${row === undefined ? '' : ` (${row.file} line ${row.line})`}, field ` +
      `"transactions.identity": identity "${shared.identity}" of ${shared.registry} is already used by ${shared.first}`)
  }
  await ledgerImport.deleteTransactionsOfSources(trx, await stage.projectsWithStagedLedger(trx), ['offsetsdb'])
  const inImport = new Set(records.map((r) => r.id))
  const movedFrom = (await stage.ownersOfStaged(trx)).filter((id) => !inImport.has(id))
  // Every row enters a dozen ledger indexes: with SQLite's default 2 MB page cache each insert read pages back. 16 MB,
  // not 64: the cache also bounds the sorters of the ordered insert and the index builds (docs/benchmarks.md).
  await stage.pageCache(trx, 16_384)
  // A load about as large as the ledger goes in unindexed, its indexes built once after (ledger-bulk.repository.ts).
  if (await bulkWorthIt(trx, await stage.settledSize(trx))) {
    await withLedgerIndexesAfter(trx, async () => { await stage.writeStagedLedger(trx, key) })
  } else await stage.writeStagedLedger(trx, key)
  await stage.pageCache(trx, 2000)
  await stage.dropStage(trx)
  return { changed: new Set(), movedFrom }
}

/** A file's SHA-256, hex: the same bytes are the same file, whatever its name. */
async function fileDigest (file: ExportFile): Promise<string> {
  try {
    return await fileSha256(file.path)
  } catch (error) {
    throw new ExportFileError(`${file.label}: ${(error as Error).message}`)
  }
}

/**
 * Imports a registry's export files in one transaction: all or nothing (a file that is not CSV, or a project
 * that fails validation, changes nothing). Rows that cannot be used are skipped and reported, not fatal.
 */
export async function importRegistryExports (
  db: Db, key: RegistryKey, files: readonly ExportFile[], options: RegistryImportOptions = {}
): Promise<RegistryImportReport> {
  const definition = REGISTRIES[key]
  const now = options.now ?? new Date()
  // Which export each file is, and its digest, before waiting for the lock: a file Tonne cannot read fails now.
  const plans = await planFiles(definition, definition.exports(), files)
  const digests = new Map<ExportFile, string>()
  for (const { file } of plans) digests.set(file, await fileDigest(file))
  const report: RegistryImportReport = {
    registry: key, files: [], already_imported: [], created: 0, updated: 0, unchanged: 0, skipped: [], warnings: []
  }
  const registryOf = (externalId: string): Named | undefined => definition.targets === undefined
    ? definition.registry
    : definition.targets.find((t) => externalId.startsWith(t.prefix))?.registry
  const origins: ProjectDraft[] = []

  const prepare = async (trx: Db) => {
    const known = await importedFiles(trx, definition.registry.name_id, [...new Set(digests.values())])
    const fresh: typeof plans = []
    const seen = new Map<string, string>()
    for (const plan of plans) {
      const digest = digests.get(plan.file)!
      const as = known.get(digest) ?? seen.get(digest)
      if (as !== undefined) {
        report.already_imported.push({ file: plan.file.label, as })
        continue
      }
      seen.set(digest, plan.file.label)
      fresh.push(plan)
    }
    await stage.createStage(trx)
    const spool = new StagedSpool(trx)
    const drafts = new Drafts(spool)
    const countries = new Map((await vocabularies.countryAliases(trx)).map((a) => [a.alias_key, a.name]))
    const asOf = new Map<string, string>()
    await readExports(fresh, { drafts, countries, mappings: new ProtocolMappings() }, report, asOf,
      now.toISOString().slice(0, 10), spool)
    await spool.flush()
    await settleSpool(trx, drafts)

    for (const draft of drafts.all()) for (const row of draft.replacedRows) report.skipped.push(row)
    // A project whose totals the registry states, and whose transactions of a type this import's exports list in
    // full, has none of that type where it has no row (docs/registries.md, "Totals: one rule").
    const listed = fresh.flatMap((p) => LISTS[p.reader.kind])
    for (const draft of drafts.all()) if (draft.statesTotals()) draft.listsTypes(listed)
    const goals = new Map([...await vocabularies.sdgNumbersByNameId(trx)].map(([nameId, number]) => [number, nameId]))
    const byRegistry = new Map<string, { registry: Named, drafts: ProjectDraft[] }>()
    for (const draft of drafts.all()) {
      const registry = registryOf(draft.externalId)
      if (registry === undefined) {
        const first = draft.firstRow()
        const reason = `${draft.externalId}: no registry Tonne reads`
        if (first !== undefined) report.skipped.push({ ...first, reason })
        continue
      }
      const group = byRegistry.get(registry.name_id) ?? { registry, drafts: [] }
      group.drafts.push(draft)
      byRegistry.set(registry.name_id, group)
    }
    const records: ImportRecord[] = []
    // Stored images are re-imported from the media store itself (paths relative to it).
    const inStore = { media: (mediaKey: string) => mediaKey }
    for (const { registry, drafts: group } of byRegistry.values()) {
      const storedRows = await projectRows.projectsOfRegistry(trx, registry.name_id, group.map((d) => d.externalId))
      const relations = await projectRows.loadRelations(trx, storedRows.map((r) => r.id))
      const latest = await latestTransactionDates(trx, storedRows.map((r) => r.id))
      const exported = await exportDates(trx, registry.name_id, storedRows.map((r) => r.external_id))
      const dated: Array<{ externalId: string, asOf: string }> = []
      const stored = new Map(storedRows.map((row) =>
        [row.external_id, { record: toImportRecord(row, relations, inStore), latest: latest.get(row.id) }]))
      for (const draft of group) {
        const found = stored.get(draft.externalId)
        const first = draft.firstRow()
        // Ledger rows describe a stored project when they are not older than its stored ledger; a table that adds
        // to other registries' projects (CARB's) describes only those the catalogue lacks.
        const latest = draft.latestDate()
        const current = found === undefined || (definition.targets === undefined &&
          (found.latest === undefined || (latest !== null && latest >= found.latest)))
        // A project export older than the one that last stated the project adds nothing to it (docs/registries.md,
        // "Older files do not replace newer fields"): by the latest date each export's rows state.
        const statedAt = draft.statedAt()
        const fileAsOf = statedAt === undefined ? undefined : asOf.get(statedAt.file)
        const storedAsOf = found === undefined ? undefined : exported.get(draft.externalId)
        const older = fileAsOf !== undefined && storedAsOf !== undefined && fileAsOf < storedAsOf
        if (older) {
          report.skipped.push({
            ...statedAt!,
            reason: `${draft.externalId}: the export's rows date it ${fileAsOf}, ` +
            `older than the export of ${storedAsOf} that stated the project: its fields are kept`
          })
        } else if (fileAsOf !== undefined) {
          dated.push({ externalId: draft.externalId, asOf: fileAsOf })
        }
        const record = merge(draft, found?.record, current, !older, registry, goals)
        if (record.name === '') {
          const reason = `${draft.externalId}: no row of the files given names the project`
          if (first !== undefined) report.skipped.push({ ...first, reason })
          continue
        }
        // Placeholder ids, unique for validation; the import gives each its stored id or a new one.
        record.id = records.length + 1
        records.push(record)
        origins.push(draft)
      }
      await recordExportDates(trx, registry.name_id, dated)
    }
    records.forEach((_record, i) => {
      const draft = origins[i]!
      const problem = spool.problems.get(draft.externalId)
      if (problem === undefined) return
      const first = draft.firstRow()
      throw new ImportError(`${draft.externalId}${first === undefined ? '' : ` (${first.file} line ${first.line})`}` +
        `${problem.field === undefined ? '' : `, field "${problem.field}"`}: ${problem.message}`)
    })
    oneNamePerId(records)
    await recordImportedFiles(trx, definition.registry.name_id,
      fresh.map((p) => ({ sha256: digests.get(p.file)!, name: p.file.label })), now.toISOString())
    return records.map((value) => ({ value, line: undefined }))
  }

  try {
    const result = await importRecords(db, prepare, {
      replace: false,
      idsByExternalId: true,
      // The registry's own files take the ledger of the projects they give transactions for over from the archive.
      sourceName: key,
      supersedes: ['offsetsdb'],
      ledger: async (trx, records) => await writeStaged(trx, key, records, origins),
      ...(options.media !== undefined && { baseDir: options.media.dir, media: options.media }),
      now,
      ...(options.lock !== undefined && { lock: options.lock })
    })
    Object.assign(report, { created: result.created, updated: result.updated, unchanged: result.unchanged })
  } catch (error) {
    if (!(error instanceof ImportError) || error.index === undefined) throw error
    const draft = origins[error.index]!
    const first = draft.firstRow()
    throw new ImportError(`${draft.externalId}${first === undefined ? '' : ` (${first.file} line ${first.line})`}` +
      `${error.field === undefined ? '' : `, field "${error.field}"`}: ${error.reason}`)
  }
  return report
}
