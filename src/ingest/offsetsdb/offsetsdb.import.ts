import type { ImportRecord } from '../../catalogue/catalogue.schemas.ts'
import { ImportError } from '../../catalogue/catalogue.errors.ts'
import { toImportRecord } from '../../catalogue/project.mapper.ts'
import { blankRecord, importRecords, isHttpUrl, type ImportOptions } from '../projects.import.ts'
import * as projects from '../../catalogue/project-rows.repository.ts'
import type { Named } from '../registries/project-draft.ts'
import { importedFiles, recordImportedFiles } from '../registries/registry-import.repository.ts'
import { beneficiaryKey } from '../../ledger/beneficiary-key.ts'
import type { MediaStore } from '../../media/media-store.ts'
import type { Db } from '../../store/database.ts'
import {
  ARCHIVE_LIMITS, archiveDigest, readArchive, type ArchiveFile, type ArchiveLimits, type IgnoredEntry,
  type TableKind
} from './archive.ts'
import { creditDigest, creditOf, projectOf, targetOf, type ArchiveProject, type Target } from './offsetsdb-rows.ts'
import * as stage from './offsetsdb.repository.ts'

// `tonne import --from offsetsdb FILE...`: OffsetsDB's archive is a snapshot of its source. One transaction (the
// import lock's) reads the tables, stages the credits, writes the projects it names (what the archive says over
// what the catalogue has; fields it does not give stay) and makes their ledgers exactly the archive's, then derives
// their totals in SQL. A refused, interrupted or killed import leaves the catalogue as it was. Only projects whose
// content changed (fields, totals, or ledger rows) get a new `updated_at`. docs/registries.md, "OffsetsDB's archive".

export interface OffsetsDbImportReport {
  source: 'offsetsdb'
  /** Every table read, with its rows. */
  files: Array<{ file: string, table: TableKind, rows: number }>
  /** Zip entries that are no OffsetsDB projects or credits table, with why. */
  ignored: IgnoredEntry[]
  /** The same bytes were imported before: nothing was read or changed. */
  already_imported: boolean
  /** Of the archive's files (one file: its own SHA-256). */
  sha256: string
  /** The latest transaction date in the archive (YYYY-MM-DD): what date the snapshot describes. */
  data_as_of: string | null
  created: number
  updated: number
  unchanged: number
  /** Projects the archive names, and the ledger rows it holds in the catalogue after the import. */
  projects: number
  transactions: number
  /** Credits whose project the projects table lacks: kept under a minimal project (named by its id). */
  missing_projects: Array<{ project_id: string, credits: number }>
  /** Rows not used, with why (the first 100; `skipped_count` counts them all). */
  skipped: Array<{ file: string, line: number, reason: string }>
  skipped_count: number
}

export interface OffsetsDbImportOptions {
  media?: MediaStore
  now?: Date
  lock?: ImportOptions['lock']
  /** Zip limits (tests make them small). */
  limits?: ArchiveLimits
}

/** How reports and each project's `source` name the archive: a stable name, not the file's (content, not names). */
const SOURCE_LABEL = 'OffsetsDB archive'
const MAX_REPORTED = 100
const clip = (text: string | null, max: number) => text === null ? null : text.slice(0, max)

function newRecord (target: Target): ImportRecord {
  return blankRecord({
    externalId: target.externalId, name: target.externalId, registry: target.registry, standard: target.standard
  })
}

/** The archive's project over the stored one (or a new one): every field the archive gives, the rest as stored. */
function merge (project: ArchiveProject | undefined, stored: ImportRecord | undefined, target: Target): ImportRecord {
  const base = stored ?? newRecord(target)
  const { transactions: _ledger, ...record } = base
  const source = [...(base.source ?? []).filter((s) => s.file !== SOURCE_LABEL), { file: SOURCE_LABEL, lines: null }]
  if (project === undefined) return { ...record, source }
  const credits = base.credits ?? {
    issued: null, retired: null, vintages: base.vintages.map((vintage) => ({ vintage, issued: null, retired: null }))
  }
  const url = project.projectUrl !== null && isHttpUrl(project.projectUrl) ? project.projectUrl : base.url
  return {
    ...record,
    name: clip(project.name, 500) ?? base.name,
    project_developer: clip(project.proponent, 500) ?? base.project_developer,
    location: project.country ?? base.location,
    url,
    protocol: project.protocol.length > 0
      ? project.protocol.slice(0, 50).map((p) => p.slice(0, 200))
      : base.protocol ?? [],
    category: clip(project.category, 100) ?? base.category ?? null,
    project_type: clip(project.projectType, 200) ?? base.project_type ?? null,
    status: clip(project.status, 100) ?? base.status ?? null,
    is_compliance: project.isCompliance ?? base.is_compliance ?? null,
    listed_date: project.listedAt ?? base.listed_date ?? null,
    // The archive's totals stand where the ledger has no transaction of a type (docs/project-import.md).
    credits: { ...credits, issued: project.issued ?? credits.issued, retired: project.retired ?? credits.retired },
    source
  }
}

/**
 * Imports OffsetsDB's archive (the CSV or Parquet zip, or its tables as separate files) as a snapshot of the
 * projects it names, in one transaction. The same bytes as an earlier import change nothing and are not read.
 */
export async function importOffsetsDbArchive (
  db: Db, files: ReadonlyArray<{ path: string, label: string }>,
  options: { media?: MediaStore, now?: Date, lock?: ImportOptions['lock'], limits?: ArchiveLimits }
): Promise<OffsetsDbImportReport> {
  const now = options.now ?? new Date()
  const sha256 = await archiveDigest(files)
  const report: OffsetsDbImportReport = {
    source: 'offsetsdb',
    files: [],
    ignored: [],
    already_imported: false,
    sha256,
    data_as_of: null,
    created: 0,
    updated: 0,
    unchanged: 0,
    projects: 0,
    transactions: 0,
    missing_projects: [],
    skipped: [],
    skipped_count: 0
  }
  // Asked before the lock and the reading: a daily sync of unchanged bytes costs a digest and a query.
  if ((await importedFiles(db, stage.SOURCE_NAME, [sha256])).size > 0) {
    const counts = await stage.sourceCounts(db)
    return { ...report, already_imported: true, unchanged: counts.projects, ...counts }
  }
  const skip = (file: string, line: number, reason: string) => {
    report.skipped_count++
    if (report.skipped.length < MAX_REPORTED) report.skipped.push({ file, line, reason })
  }
  /** OffsetsDB's project id of each record, in record order. */
  const odbIds: string[] = []
  /**
   * Each project's credits as one value whatever their order: their count and the sums (mod 2^32) of four words of
   * each credit's digest, kept per project (10,000 small arrays, not the rows).
   */
  const ledgers = new Map<string, Uint32Array>()
  let hasCredits = false

  const prepare = async (trx: Db) => {
    await stage.createStage(trx)
    const listed = new Map<string, ArchiveProject>()
    let batch: stage.StagedCredit[] = []
    let seq = 0
    for await (const table of readArchive(files as ArchiveFile[], report.ignored, options.limits ?? ARCHIVE_LIMITS)) {
      let rows = 0
      hasCredits ||= table.kind === 'credits'
      for await (const row of table.rows) {
        rows++
        if (table.kind === 'projects') {
          const project = projectOf(row.values)
          if (typeof project === 'string') { skip(table.label, row.line, project); continue }
          if (listed.has(project.projectId)) skip(table.label, row.line, `${project.projectId} again; used instead`)
          listed.set(project.projectId, project)
          continue
        }
        const credit = creditOf(row.values)
        if (typeof credit === 'string') { skip(table.label, row.line, credit); continue }
        const digest = creditDigest(credit)
        const odbProject = credit.projectId.slice(0, 200)
        const sums = ledgers.get(odbProject) ?? new Uint32Array(5)
        ledgers.set(odbProject, sums)
        const words = Buffer.from(digest, 'base64url')
        sums[0]! += 1
        for (let w = 0; w < 4; w++) sums[w + 1]! += words.readUInt32BE(w * 4)
        batch.push({
          seq: seq++,
          odb_project: odbProject,
          digest,
          type: credit.type,
          date: credit.date,
          vintage: credit.vintage,
          quantity: credit.quantity,
          account: credit.account,
          beneficiary: credit.beneficiary,
          beneficiary_key: credit.beneficiary === null ? null : beneficiaryKey(credit.beneficiary),
          harmonised: credit.harmonised,
          reason: credit.reason,
          note: credit.note,
          url: credit.url,
          source_file: SOURCE_LABEL,
          source_line: row.line
        })
        if (batch.length >= stage.STAGE_BATCH) {
          await stage.stageCredits(trx, batch)
          batch = []
        }
      }
      report.files.push({ file: table.label, table: table.kind, rows })
    }
    await stage.stageCredits(trx, batch)
    if (report.files.length === 0) {
      throw new ImportError('no OffsetsDB table found: the files hold neither a projects table (columns project_id, ' +
        'registry, name) nor a credits table (project_id, quantity, transaction_type)')
    }
    const staged = await stage.stagedProjects(trx)
    report.data_as_of = staged.latest
    for (const [projectId, credits] of staged.projects) {
      if (!listed.has(projectId)) report.missing_projects.push({ project_id: projectId, credits })
    }
    const named = [...listed.keys(), ...report.missing_projects.map((m) => m.project_id)]
    const targets = named.map((id) => targetOf(id, listed.get(id)?.registry))
    return await records(trx, named, targets, listed)
  }

  /** The records, each merged over its stored project (matched by registry and external id). */
  const records = async (trx: Db, named: string[], targets: Target[], listed: Map<string, ArchiveProject>) => {
    const byRegistry = new Map<string, number[]>()
    targets.forEach((t, i) => byRegistry.set(t.registry.name_id, [...byRegistry.get(t.registry.name_id) ?? [], i]))
    const result: Array<{ value: ImportRecord, line: undefined }> = []
    const inStore = { media: (key: string) => key }
    for (const [registry, indexes] of byRegistry) {
      for (let i = 0; i < indexes.length; i += 1000) {
        const chunk = indexes.slice(i, i + 1000)
        const rows = await projects.projectsOfRegistry(trx, registry, chunk.map((n) => targets[n]!.externalId))
        const relations = await projects.loadRelations(trx, rows.map((r) => r.id))
        const stored = new Map(rows.map((row) => [row.external_id, toImportRecord(row, relations, inStore)]))
        for (const n of chunk) {
          const target = targets[n]!
          const found = stored.get(target.externalId)
          // A stored project keeps its registry's and standard's names: one verbose name per name_id.
          const record = merge(listed.get(named[n]!), found, found === undefined
            ? target
            : {
                ...target,
                registry: found.registry as Named
              })
          record.id = result.length + 1
          result.push({ value: record, line: undefined })
          odbIds.push(named[n]!)
        }
      }
    }
    return result
  }

  const ledger = async (trx: Db, written: readonly ImportRecord[]): Promise<ReadonlySet<number>> => {
    await recordImportedFiles(trx, stage.SOURCE_NAME, [{ sha256, name: files.map((f) => f.label).join(', ') }],
      now.toISOString())
    if (!hasCredits) {
      await stage.dropStage(trx)
      return new Set()
    }
    await stage.mapProjects(trx, written.map((r, i) => ({
      odb_project: odbIds[i]!, project_id: r.id, registry: r.registry.name_id
    })))
    const staged = new Map(written.map((r, i) => {
      const sums = ledgers.get(odbIds[i]!) ?? new Uint32Array(5)
      return [r.id, { digest: [...sums].map((n) => n.toString(16)).join('.'), credits: sums[0]! }]
    }))
    const changed = await stage.applySnapshot(trx, staged)
    await stage.dropStage(trx)
    return changed
  }

  try {
    const result = await importRecords(db, prepare, {
      replace: false,
      idsByExternalId: true,
      now,
      sourceName: stage.SOURCE_NAME,
      ledger,
      ...(options.media !== undefined && { baseDir: options.media.dir, media: options.media }),
      ...(options.lock !== undefined && { lock: options.lock })
    })
    Object.assign(report, { created: result.created, updated: result.updated, unchanged: result.unchanged })
  } catch (error) {
    if (!(error instanceof ImportError) || error.index === undefined) throw error
    const id = odbIds[error.index]
    throw new ImportError(`${id ?? 'a project'}${error.field === undefined ? '' : `, field "${error.field}"`}: ` +
      error.reason)
  }
  await stage.analyze(db)
  const counts = await stage.sourceCounts(db)
  report.projects = odbIds.length
  report.transactions = counts.transactions
  return report
}
