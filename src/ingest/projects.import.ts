import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { Compile } from 'typebox/compile'
import { checkedImage, ImageContentError, MAX_IMAGE_BYTES } from '../media/image-content.ts'
import { MEDIA_TYPES, type MediaStore } from '../media/media-store.ts'
import type { Db, NewProjectRow, VocabularyName, VocabularyTable } from '../store/database.ts'
import { announceCommitted } from '../store/change-feed.ts'
import { ImportLockTimeout, withImportLock, type ImportLockOptions } from '../store/import-lock.ts'
import { ImportRecordSchema, type ImportRecord, type TransactionRecord } from '../catalogue/catalogue.schemas.ts'
import { collectUnreferencedImages, ImportMedia, type PendingImage } from './import-media.ts'
import { countryKey } from '../catalogue/countries.ts'
import { KIND, projectCredits, type Kind, type LedgerSum, type ProjectCredits } from './ledger-totals.ts'
import { toImportRecord } from '../catalogue/project.mapper.ts'
import * as projectRows from '../catalogue/project-rows.repository.ts'
import * as vocabularyRepository from '../catalogue/vocabularies.repository.ts'
import { bumpCatalogueVersion } from '../catalogue/catalogue-version.repository.ts'
import * as repository from './project-import.repository.ts'
import * as ledgerRepository from './ledger-import.repository.ts'
import { textProblem } from './import-text.ts'
import { isCarbTransaction } from './registries/carb-identity.ts'
import { refreshAllProjectJson, refreshProjectJson } from '../catalogue/project-json.ts'
import { beneficiaryKey } from '../ledger/beneficiary-key.ts'
import { toTransaction } from '../ledger/transaction.mapper.ts'
import type { Transaction } from '../ledger/transactions.schemas.ts'
import { ImportError } from '../catalogue/catalogue.errors.ts'

interface SourcedRecord { value: unknown, line: number | undefined }

/** A JSON array, or NDJSON (one object per line; blank lines skipped). Indexes count from 0. */
function parseImportText (text: string): SourcedRecord[] {
  const body = text.replace(/^\uFEFF/, '')
  if (body.trimStart().startsWith('[')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch (error) {
      throw new ImportError(`the file is not valid JSON: ${(error as Error).message}`)
    }
    return (parsed as unknown[]).map((value) => ({ value, line: undefined }))
  }
  const records: SourcedRecord[] = []
  body.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return
    try {
      records.push({ value: JSON.parse(raw), line: i + 1 })
    } catch (error) {
      throw new ImportError(`not valid JSON: ${(error as Error).message}`, records.length, undefined, i + 1)
    }
  })
  return records
}

const validator = Compile(ImportRecordSchema)
const transactionValidator = Compile(ImportRecordSchema.properties.transactions.items)

/**
 * What validateRecords would say of a record's transaction at `index` (the schema, then the text rules), for a
 * ledger that is staged rather than carried by the record (a registry export's).
 */
export function transactionProblem (transaction: TransactionRecord, index: number):
{ field: string | undefined, message: string } | undefined {
  if (!transactionValidator.Check(transaction)) {
    const first = [...transactionValidator.Errors(transaction)][0]
    const field = fieldPath(`/transactions/${index}${first?.instancePath ?? ''}`)
    return { field, message: first?.message ?? 'is not valid' }
  }
  if (plainText(transaction)) return undefined
  const text = textProblem({ transactions: [transaction] })
  if (text === undefined) return undefined
  return { field: text.field.replace(/^transactions\[0\]/, `transactions[${index}]`), message: text.message }
}

/**
 * Whether every text of a transaction is within the shortest limit a transaction's text has (500) and holds no
 * control character at all: then textProblem has nothing to say, and a million rows skip its walk.
 */
function plainText (transaction: TransactionRecord): boolean {
  const { identity, type, date, beneficiary, reason, note, account, serials } = transaction
  for (const text of [identity, type, date, beneficiary, reason, note, account, serials, transaction.vintage_start,
    transaction.vintage_end, transaction.source?.file]) {
    if (typeof text === 'string' && (text.length > 500 || ANY_CONTROL.test(text))) return false
  }
  return true
}
const ANY_CONTROL = /\p{Cc}/u

/** A project with nothing stated but its identity: what an import starts from for a project it has not seen. */
export function blankRecord (identity: {
  externalId: string, name: string, registry: ImportRecord['registry'], standard: ImportRecord['standard']
}): ImportRecord {
  return {
    id: 0,
    external_id: identity.externalId,
    name: identity.name,
    symbol: identity.externalId,
    vintages: [],
    registry: identity.registry,
    standard: identity.standard,
    credit_type: null,
    short_description: null,
    rating: null,
    certifications: [],
    description: '',
    url: null,
    is_bundle: false,
    bundles: [],
    inventory_price: null,
    location: '',
    latitude: null,
    longitude: null,
    date: null,
    area: null,
    estimated_annual_reductions: null,
    project_developer: '',
    sustainable_development_goals: [],
    co_benefits: '',
    images: [],
    in_sale: false
  }
}

/**
 * Links are returned to API clients, who may put them in a page: only absolute http(s) URLs, written
 * without spaces or control characters (no javascript:, data: or scheme-relative links).
 */
export function isHttpUrl (text: string): boolean {
  if (!/^https?:\/\//i.test(text) || /[\s\p{Cc}]/u.test(text)) return false
  try {
    return new URL(text).hostname !== ''
  } catch {
    return false
  }
}

function fieldPath (instancePath: string): string | undefined {
  const parts = instancePath.split('/').filter((p) => p !== '')
  if (parts.length === 0) return undefined
  return parts.map((p, i) => /^\d+$/.test(p) ? `[${p}]` : (i === 0 ? p : `.${p}`)).join('')
}

/**
 * Checks every record against the import schema and the rules a schema cannot say (unique ids,
 * one verbose name per name_id, bundles). Nothing is written unless every record passes.
 */
function validateRecords (records: readonly SourcedRecord[], sdgNumbers: ReadonlyMap<string,
  number>): ImportRecord[] {
  const ids = new Map<number, number>()
  const externalIds = new Map<string, number>()
  const verboseNames = new Map<string, string>()
  // A transaction's identity is unique within its registry: twice in one file is a mistake, not an update.
  const identities = new Map<string, string>()
  return records.map(({ value, line }, index) => {
    const fail = (message: string, field?: string): never => { throw new ImportError(message, index, field, line) }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('must be a JSON object')
    if (!validator.Check(value)) {
      const first = [...validator.Errors(value)][0]
      if (first === undefined) fail('does not match the import schema')
      if (first!.keyword === 'boolean' || first!.keyword === 'additionalProperties') {
        const extra = (first!.params as { additionalProperties?: string[] }).additionalProperties?.[0]
        fail('is not a field of the import format', fieldPath(first!.instancePath) ?? extra)
      }
      if (first!.keyword === 'required') {
        const missing = (first!.params as { requiredProperties?: string[] }).requiredProperties?.[0]
        const parent = fieldPath(first!.instancePath)
        fail('is required', parent === undefined ? missing : `${parent}.${missing ?? ''}`)
      }
      fail(first!.message, fieldPath(first!.instancePath))
    }
    const record = value as ImportRecord
    const text = textProblem(record)
    if (text !== undefined) fail(text.message, text.field)

    const seenAt = ids.get(record.id)
    if (seenAt !== undefined) fail(`id ${record.id} is already used by record ${seenAt}`, 'id')
    ids.set(record.id, index)
    const externalKey = `${record.registry.name_id}\u0000${record.external_id}`
    const externalAt = externalIds.get(externalKey)
    if (externalAt !== undefined) {
      fail(
      `external_id "${record.external_id}" of ${record.registry.name_id} is already used by record ${externalAt}`,
      'external_id')
    }
    externalIds.set(externalKey, index)

    if (!record.is_bundle && (record.bundles === null || record.bundles.length > 0)) {
      fail('must be [] for a project that is not a bundle', 'bundles')
    }
    if (record.latitude !== null && Math.abs(record.latitude) > 90) fail('must be between -90 and 90', 'latitude')
    if (record.longitude !== null && Math.abs(record.longitude) > 180) fail('must be between -180 and 180', 'longitude')
    if (record.url !== null && !isHttpUrl(record.url)) fail('must be an absolute http(s) URL, or null', 'url')
    if (record.name.trim() === '') fail('must not be empty', 'name')
    if (record.external_id.trim() === '') fail('must not be empty', 'external_id')

    const named: Array<[string, { name_id: string, verbose_name: string } | null]> = [
      ['registry', record.registry], ['standard', record.standard], ['credit_type', record.credit_type],
      ['rating', record.rating],
      ...record.certifications.map((c, i) => [`certifications[${i}]`, c] as [string, typeof c])
    ]
    for (const [field, entry] of named) {
      if (entry === null) continue
      const kind = field.startsWith('certifications') ? 'certifications' : field
      const known = verboseNames.get(`${kind}\u0000${entry.name_id}`)
      if (known !== undefined && known !== entry.verbose_name) {
        fail(`verbose_name "${entry.verbose_name}" differs from "${known}" given earlier for ${entry.name_id}`,
          `${field}.verbose_name`)
      }
      verboseNames.set(`${kind}\u0000${entry.name_id}`, entry.verbose_name)
    }
    record.sustainable_development_goals.forEach((goal, i) => {
      if (!sdgNumbers.has(goal.name_id)) {
        fail(`"${goal.name_id}" is not one of the 17 goals`,
        `sustainable_development_goals[${i}].name_id`)
      }
    })
    if (record.credits !== undefined) {
      const years = record.credits.vintages.map((v) => v.vintage)
      if (new Set(years).size !== years.length) fail('names a vintage twice', 'credits.vintages')
      if ([...years].sort().join() !== [...new Set(record.vintages)].sort().join()) {
        fail('must have the same years as vintages', 'credits.vintages')
      }
    }
    record.transactions?.forEach((transaction, i) => {
      const key = `${record.registry.name_id}\u0000${transaction.identity}`
      const seen = identities.get(key)
      if (seen !== undefined) {
        fail(`identity "${transaction.identity}" of ${record.registry.name_id} is already used by ${seen}`,
          `transactions[${i}].identity`)
      }
      identities.set(key, `record ${index}, transactions[${i}]`)
    })
    return record
  })
}

function toRow (record: ImportRecord, location: string, credits: ProjectCredits): NewProjectRow {
  return {
    id: record.id,
    external_id: record.external_id,
    name: record.name,
    symbol: record.symbol,
    vintages: JSON.stringify(credits.years),
    registry: record.registry.name_id,
    standard: record.standard.name_id,
    credit_type: record.credit_type?.name_id ?? null,
    rating: record.rating?.name_id ?? null,
    short_description: record.short_description,
    description: record.description,
    url: record.url,
    is_bundle: record.is_bundle,
    bundles: record.bundles === null ? null : JSON.stringify(record.bundles),
    inventory_price: record.inventory_price,
    location,
    location_key: location.toLowerCase(),
    latitude: record.latitude,
    longitude: record.longitude,
    date: record.date,
    area: record.area,
    estimated_annual_reductions: record.estimated_annual_reductions,
    project_developer: record.project_developer,
    co_benefits: record.co_benefits,
    in_sale: record.in_sale,
    search_text: [record.name, record.symbol, record.external_id, record.project_developer].join('\n').toLowerCase(),
    credits_issued: credits.totals.issued,
    credits_retired: credits.totals.retired,
    credits_cancelled: credits.totals.cancelled,
    first_issuance_date: credits.firstIssuanceDate,
    first_retirement_date: credits.firstRetirementDate,
    // The record is the whole project: an optional field it leaves out is empty (docs/project-import.md).
    status: record.status ?? null,
    project_type: record.project_type ?? null,
    category: record.category ?? null,
    is_compliance: record.is_compliance ?? null,
    listed_date: record.listed_date ?? null,
    protocol_version: record.protocol_version ?? null,
    source: record.source === undefined || record.source === null ? null : JSON.stringify(record.source)
  }
}

/**
 * Derives the credits of stored projects (not in this import) from their ledger again, their stored credits
 * standing for the record's: for a type they no longer have a transaction of, what was stored stays.
 */
async function deriveAgain (db: Db, ids: readonly number[]): Promise<void> {
  const rows = await projectRows.projectsByIds(db, ids)
  const relations = await projectRows.loadRelations(db, ids)
  const sums = new Map<number, LedgerSum[]>()
  for (const { project_id: projectId, ...sum } of await ledgerRepository.ledgerSums(db, ids)) {
    sums.set(projectId, [...sums.get(projectId) ?? [], sum])
  }
  const derived = rows.map((row) => {
    const record = toImportRecord(row, relations, { media: (key) => key })
    return { row, record, credits: projectCredits(record, sums.get(row.id) ?? []) }
  })
  await repository.upsertProjectRows(db,
    derived.map(({ row, record, credits }) => toRow(record, row.location, credits)))
  await repository.replaceVintages(db, ids, derived.flatMap(({ row, credits }) => vintageRows(row.id, credits)))
}

function vintageRows (id: number, credits: ProjectCredits): repository.ProjectChildren['vintages'] {
  return credits.years.map((vintage) => ({
    project_id: id, vintage, ...credits.vintages.get(vintage)!, corsia_eligible: credits.corsia.get(vintage) ?? null
  }))
}

function vocabulary (records: readonly ImportRecord[],
  pick: (r: ImportRecord) => ReadonlyArray<VocabularyTable | null>): VocabularyTable[] {
  const entries = new Map<string, VocabularyTable>()
  for (const record of records) {
    for (const entry of pick(record)) {
      if (entry !== null) entries.set(entry.name_id, { name_id: entry.name_id, verbose_name: entry.verbose_name })
    }
  }
  return [...entries.values()]
}

interface ImportResult {
  imported: number
  replaced: boolean
  images: number
  /** Of the imported records: projects new to the database, changed, and the same as stored. */
  created: number
  updated: number
  unchanged: number
  /** The id each record was stored under, in record order. */
  ids: number[]
}

/** How long an import waits for another to finish, unless told otherwise (IMPORT_LOCK_WAIT's default). */
const IMPORT_LOCK_WAIT_MS = 300_000

export interface ImportOptions {
  replace: boolean
  /**
   * Match records to stored projects by (registry, external_id) instead of id: each record takes the stored
   * project's id, or a new one after the largest (registry imports, whose records carry placeholder ids).
   */
  idsByExternalId?: boolean
  /** The clock for created_at / updated_at (tests set it). */
  now?: Date
  /** Imports run one at a time: how long to wait for another, and what to say when waiting begins. */
  lock?: Partial<ImportLockOptions>
  /** Folder that relative image paths are resolved against: the import file's folder. */
  baseDir?: string
  /** Where imported image files are copied. */
  media?: MediaStore
  /** The source the records come from (a registry's key, `offsetsdb`): written to project_sources and the ledger. */
  sourceName?: string
  /**
   * The ledger rows of these sources give way, in the projects this import gives transactions for: the last
   * import that gives a project's transactions holds its ledger (docs/registries.md, "Two sources").
   */
  supersedes?: readonly string[]
  /**
   * Writes the ledger another way (the archive's snapshot, a registry's staged rows), after the projects and before
   * their totals are derived; returns the projects whose ledger changed (they count as updated even when their totals
   * do not), and those it took transactions from (derived again).
   */
  ledger?: (trx: Db, records: readonly ImportRecord[]) =>
  Promise<ReadonlySet<number> | { changed: ReadonlySet<number>, movedFrom: readonly number[] }>
}

type ImageRef = { media_key: string, external_url: null } | { media_key: null, external_url: string }

/**
 * The bytes of an image file named by a path relative to the import file's folder (`baseDir`). An
 * import file is data, never a way to reach the server's other files: the path must stay inside the
 * folder, no part of it may be a symbolic link (real paths are compared, and the file is opened
 * with O_NOFOLLOW), and it must be a regular file. Throws a message for the import error.
 */
function readImageFile (baseDir: string, url: string): Buffer {
  const quoted = JSON.stringify(url)
  const lexical = path.resolve(baseDir, url)
  if (!lexical.startsWith(`${baseDir}${path.sep}`)) throw new Error(`${quoted} is outside the import file's folder`)
  let real: string
  try {
    real = realpathSync(lexical)
  } catch {
    throw new Error(`no file at ${quoted} (relative to the import file)`)
  }
  if (real !== path.join(realpathSync(baseDir), path.relative(baseDir, lexical))) {
    throw new Error(`${quoted} is or goes through a symbolic link; links are never followed`)
  }
  let fd: number
  try {
    // O_NONBLOCK: a FIFO planted under an image name must not hang the import.
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOOP') {
      throw new Error(`${quoted} is a symbolic link; links are never followed`)
    }
    throw new Error(`${quoted} cannot be read (${(error as { code?: string }).code ?? 'error'})`)
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw new Error(`${quoted} is not a regular file`)
    if (stats.size > MAX_IMAGE_BYTES) throw new Error(`${quoted} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`)
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * An image `url` is either an absolute http(s) URL (kept as an external link) or a path relative to
 * the import file. Every file is read and checked (its bytes must be the image its name says; SVGs
 * are sanitised) before anything is written; the files are stored inside the import's transaction.
 */
function resolveImages (records: readonly ImportRecord[], sources: readonly SourcedRecord[],
  options: ImportOptions): Array<Array<PendingImage | ImageRef>> {
  const baseDir = options.baseDir === undefined ? undefined : path.resolve(options.baseDir)
  const checked = new Map<string, Buffer>()
  const files: Array<Array<{ content: Buffer, extension: string } | ImageRef>> = records.map((record, index) =>
    record.images.map((image, i) => {
      const fail = (message: string): never => {
        throw new ImportError(message, index, `images[${i}].url`, sources[index]!.line)
      }
      if (/^https?:\/\//i.test(image.url)) {
        if (!isHttpUrl(image.url)) fail('must be an absolute http(s) URL or a path relative to the import file')
        return { media_key: null, external_url: image.url }
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(image.url) || path.isAbsolute(image.url) || /\p{Cc}/u.test(image.url)) {
        fail('must be an absolute http(s) URL or a path relative to the import file')
      }
      if (baseDir === undefined || options.media === undefined) fail('image files can only be imported from a file')
      const extension = path.extname(image.url).toLowerCase()
      if (MEDIA_TYPES[extension] === undefined) {
        fail(
        `has an unsupported type; allowed: ${Object.keys(MEDIA_TYPES).join(', ')}`)
      }
      const key = path.resolve(baseDir!, image.url)
      let content = checked.get(key)
      if (content === undefined) {
        try {
          content = checkedImage(extension, readImageFile(baseDir!, image.url))
        } catch (error) {
          fail(error instanceof ImageContentError
            ? `${JSON.stringify(image.url)} ${error.message}`
            : (error as Error).message)
        }
        checked.set(key, content!)
      }
      return { content: content!, extension }
    }))
  return files
}

/**
 * Parses, validates and writes a whole import file in one transaction: either every record is
 * upserted (by id) or nothing changes. With `replace`, projects absent from the file are removed.
 */
export async function importProjects (db: Db, text: string, options: ImportOptions): Promise<ImportResult> {
  return await importRecords(db, parseImportText(text), options)
}

/**
 * Validates and writes records (from a file, or made by a registry import) in one transaction: all or nothing.
 * Records that depend on what is stored (a registry import merges into the stored projects) are given as a
 * function, called with the import lock held, so that no other import writes between their reading and writing.
 */
export async function importRecords (
  db: Db, given: readonly SourcedRecord[] | ((trx: Db) => Promise<readonly SourcedRecord[]>), options: ImportOptions
): Promise<ImportResult> {
  const now = options.now ?? new Date()
  const sdgNumbers = await vocabularyRepository.sdgNumbersByNameId(db)
  let sources: readonly SourcedRecord[] = typeof given === 'function' ? [] : given
  let records = validateRecords(sources, sdgNumbers)
  let pending = resolveImages(records, sources, options)
  const media = new ImportMedia(options.media)
  let images: ImageRef[][] = []
  const counts = { created: 0, updated: 0 }
  const lock = { waitMs: options.lock?.waitMs ?? IMPORT_LOCK_WAIT_MS, onWait: options.lock?.onWait }
  await withImportLock(db, lock, async (trx) => {
    if (typeof given === 'function') {
      sources = await given(trx)
      records = validateRecords(sources, sdgNumbers)
      pending = resolveImages(records, sources, options)
    }
    // Stored only now, the lock held: content-addressed, so the same image is stored once.
    images = pending.map((files) => files.map((image) =>
      'content' in image ? { media_key: media.store(image), external_url: null } : image))
    const renamed = await writeVocabularies(trx, records)
    const locations = await canonicalLocations(trx, records)
    await assignIds(trx, records, sources, options)
    const ids = records.map((r) => r.id)
    const existing = await repository.existingIds(trx, ids)
    await writeProjects(trx, records, locations, images, sdgNumbers)
    // Replaced after the upsert, so that the projects that stay keep their created_at. The kinds each project had
    // transactions of are read first: one whose transactions the file removed is derived again (0), not kept.
    const before = options.replace ? await ledgerKinds(trx, ids) : new Map<number, Set<Kind>>()
    if (options.replace) await removeMissing(trx, records)
    if (options.sourceName !== undefined) await ledgerRepository.addProjectSources(trx, ids, options.sourceName)
    const written = options.ledger === undefined ? new Set<number>() : await options.ledger(trx, records)
    const ledgerChanged = written instanceof Set ? written : (written as { changed: ReadonlySet<number> }).changed
    const movedFrom = [...written instanceof Set ? [] : (written as { movedFrom: readonly number[] }).movedFrom,
      ...await writeLedger(trx, records, options)]
    await deriveFromLedger(trx, records, locations, before, ledgerChanged.size)
    if (movedFrom.length > 0) await deriveAgain(trx, movedFrom)
    // Stored JSON carries verbose names: a rename touches every project, not only this file's.
    const changed = renamed
      ? (await refreshAllProjectJson(trx, { missingOnly: false, now })).changed
      : await refreshProjectJson(trx, [...ids, ...movedFrom], now, ledgerChanged)
    await bumpCatalogueVersion(trx)
    counts.created = ids.filter((id) => !existing.has(id)).length
    counts.updated = ids.filter((id) => existing.has(id) && changed.has(id)).length
  }).catch((error: unknown) => {
    media.discard()
    throw error instanceof ImportLockTimeout ? new ImportError(error.message) : error
  })
  // Requests that read the version while the transaction was open read the old one: read it again.
  announceCommitted()
  // The import has committed: a collection that fails (another import holds the lock) waits for the next one.
  if (options.media !== undefined) await collectUnreferencedImages(db, options.media, lock).catch(() => 0)
  return {
    imported: records.length,
    replaced: options.replace,
    images: images.flat().filter((i) => i.media_key !== null).length,
    created: counts.created,
    updated: counts.updated,
    unchanged: records.length - counts.created - counts.updated,
    ids: records.map((r) => r.id)
  }
}

// The steps of an import, in order, inside its transaction and lock (importRecords).

/** Adds the file's vocabulary entries; whether any stored verbose name changed (then every project's JSON does). */
async function writeVocabularies (trx: Db, records: readonly ImportRecord[]): Promise<boolean> {
  const vocabularies: Array<[VocabularyName, (r: ImportRecord) => ReadonlyArray<VocabularyTable | null>]> = [
    ['registries', (r) => [r.registry]],
    ['standards', (r) => [r.standard]],
    ['credit_types', (r) => [r.credit_type]],
    ['ratings', (r) => [r.rating]],
    ['certifications', (r) => r.certifications]
  ]
  let renamed = false
  for (const [table, pick] of vocabularies) {
    const entries = vocabulary(records, pick)
    const stored = await vocabularyRepository.vocabularyNames(trx, table, entries.map((e) => e.name_id))
    renamed ||= entries.some((e) => stored.has(e.name_id) && stored.get(e.name_id) !== e.verbose_name)
    await repository.upsertVocabulary(trx, table, entries)
  }
  return renamed
}

/** Each record's country as its canonical name; a name no country has becomes a country of its own. */
async function canonicalLocations (trx: Db, records: readonly ImportRecord[]): Promise<string[]> {
  const keys = new Map(records.filter((r) => r.location !== '').map((r) => [r.location, countryKey(r.location)]))
  const canonical = await vocabularyRepository.countriesByKeys(trx, [...new Set(keys.values())])
  const added: Array<{ name: string, key: string }> = []
  for (const [name, key] of keys) {
    if (!canonical.has(key)) {
      added.push({ name, key })
      canonical.set(key, name)
    }
  }
  await repository.addCountries(trx, added)
  return records.map((r) => r.location === '' ? '' : canonical.get(keys.get(r.location)!)!)
}

/**
 * Registry imports match stored projects by (registry, external id) and number new ones after the largest id;
 * a JSON import keeps its ids, and refuses an external id that belongs to another stored project.
 */
async function assignIds (trx: Db, records: ImportRecord[], sources: readonly SourcedRecord[],
  options: ImportOptions): Promise<void> {
  if (options.idsByExternalId === true) {
    const stored = new Map((await repository.projectsByExternalId(trx, records.map((r) => r.external_id)))
      .map((p) => [`${p.registry}\u0000${p.external_id}`, p.id]))
    let next = await repository.maxProjectId(trx)
    for (const record of records) {
      record.id = stored.get(`${record.registry.name_id}\u0000${record.external_id}`) ?? ++next
    }
    return
  }
  if (options.replace) return
  const indexById = new Map(records.map((r, i) => [r.id, i]))
  const indexByExternal = new Map(records.map((r, i) => [`${r.registry.name_id}\u0000${r.external_id}`, i]))
  for (const existing of await repository.projectsByExternalId(trx,
    [...new Set(records.map((r) => r.external_id))])) {
    const index = indexByExternal.get(`${existing.registry}\u0000${existing.external_id}`)
    if (index !== undefined && records[index]!.id !== existing.id && !indexById.has(existing.id)) {
      throw new ImportError(
        `external_id "${existing.external_id}" of ${existing.registry} already belongs to project ${existing.id}`,
        index, 'external_id', sources[index]!.line)
    }
  }
}

/** The project rows and their lists, with the records' own credits (the ledger, written next, refers to them). */
async function writeProjects (trx: Db, records: readonly ImportRecord[], locations: readonly string[],
  images: readonly ImageRef[][], sdgNumbers: ReadonlyMap<string, number>): Promise<void> {
  const children: repository.ProjectChildren = {
    certifications: [], sdgs: [], images: [], vintages: [], protocols: []
  }
  const recordCredits = records.map((r) => projectCredits(r, []))
  records.forEach((r, index) => {
    children.vintages.push(...vintageRows(r.id, recordCredits[index]!))
    r.certifications.forEach((c, position) =>
      children.certifications.push({ project_id: r.id, position, certification: c.name_id }))
    r.sustainable_development_goals.forEach((g, position) =>
      children.sdgs.push({ project_id: r.id, position, sdg: sdgNumbers.get(g.name_id)! }))
    r.images.forEach((image, position) =>
      children.images.push({ project_id: r.id, position, title: image.title, ...images[index]![position]! }))
    r.protocol?.forEach((protocol, position) => children.protocols!.push({ project_id: r.id, position, protocol }))
  })
  await repository.upsertProjects(trx, records.map((r, i) => toRow(r, locations[i]!, recordCredits[i]!)), children)
}

/** The kinds of transaction each of these projects' stored ledger has. */
async function ledgerKinds (trx: Db, ids: readonly number[]): Promise<Map<number, Set<Kind>>> {
  const kinds = new Map<number, Set<Kind>>()
  for (const sum of await ledgerRepository.ledgerSums(trx, ids)) {
    kinds.set(sum.project_id, (kinds.get(sum.project_id) ?? new Set()).add(KIND[sum.type]))
  }
  return kinds
}

/** --replace: the catalogue and its ledger become exactly the file's. */
async function removeMissing (trx: Db, records: readonly ImportRecord[]): Promise<void> {
  await repository.deleteProjectsExcept(trx, new Set(records.map((r) => r.id)))
  await ledgerRepository.deleteTransactionsExcept(trx, new Set(records.flatMap((r) =>
    (r.transactions ?? []).map((t) => `${r.registry.name_id}\u0000${t.identity}`))))
}

/** A transaction's ledger columns but its project and source: one mapping for every import's writes. */
export function ledgerValues (t: TransactionRecord) {
  return {
    identity: t.identity,
    type: t.type,
    date: t.date,
    vintage: t.vintage,
    quantity: t.quantity,
    beneficiary: t.beneficiary,
    reason: t.reason,
    beneficiary_key: t.beneficiary === null ? null : beneficiaryKey(t.beneficiary),
    account: t.account ?? null,
    note: t.note ?? null,
    serials: t.serials ?? null,
    vintage_start: t.vintage_start ?? null,
    vintage_end: t.vintage_end ?? null,
    from_carb: isCarbTransaction(t)
  }
}

/**
 * Upserts the file's transactions by (registry, identity). A transaction a registry now gives under another
 * project moves to it: returns the projects it left, to be derived again.
 */
async function writeLedger (trx: Db, records: readonly ImportRecord[],
  options: Pick<ImportOptions, 'sourceName' | 'supersedes'>): Promise<number[]> {
  const transactions = records.flatMap((r) => (r.transactions ?? []).map((t) => ({
    project_id: r.id,
    registry: r.registry.name_id,
    ...ledgerValues(t),
    source_file: t.source?.file ?? null,
    source_line: t.source?.line ?? null,
    source_name: options.sourceName ?? null
  })))
  if (options.supersedes !== undefined && options.supersedes.length > 0) {
    const given = records.filter((r) => (r.transactions ?? []).length > 0).map((r) => r.id)
    await ledgerRepository.deleteTransactionsOfSources(trx, given, options.supersedes)
  }
  const inImport = new Set(records.map((r) => r.id))
  const movedFrom = (await ledgerRepository.ownersOf(trx, transactions)).filter((id) => !inImport.has(id))
  await ledgerRepository.upsertTransactions(trx, transactions)
  return movedFrom
}

/**
 * Projects with a ledger (this file's or stored) take their credits from it: written again, those only. A batch
 * at a time: an archive names 10,000 projects, whose ledger sums (a row per project, type and vintage), rows and
 * vintages held at once were most of a million-credit import's peak memory (docs/benchmarks.md).
 */
async function deriveFromLedger (trx: Db, records: readonly ImportRecord[], locations: readonly string[],
  before: ReadonlyMap<number, ReadonlySet<Kind>>, rewritten: number): Promise<void> {
  // One pass over the ledger when this import rewrote the ledgers of a large share of the catalogue (an archive's
  // first import): not for every large import, as its temporary table raised an archive re-import's peak by 25 MB.
  const scanned = await ledgerRepository.scanWorthIt(trx, rewritten)
  if (scanned) await ledgerRepository.scanLedgerSums(trx, records.map((r) => r.id))
  for (let from = 0; from < records.length; from += DERIVE_BATCH) {
    const batch = records.slice(from, from + DERIVE_BATCH)
    const sums = new Map<number, LedgerSum[]>()
    const ids = batch.map((r) => r.id)
    const rows = scanned
      ? await ledgerRepository.scannedLedgerSums(trx, ids)
      : await ledgerRepository.ledgerSums(trx, ids)
    for (const { project_id: projectId, ...sum } of rows) {
      const list = sums.get(projectId)
      if (list === undefined) sums.set(projectId, [sum])
      else list.push(sum)
    }
    const withLedger = batch.flatMap((r, i) => {
      const ledger = sums.get(r.id)
      const emptied = before.get(r.id)
      return ledger === undefined && emptied === undefined
        ? []
        : [{ index: from + i, credits: projectCredits(r, ledger ?? [], emptied) }]
    })
    await repository.upsertProjectRows(trx, withLedger.map(({ index, credits }) =>
      toRow(records[index]!, locations[index]!, credits)))
    await repository.replaceVintages(trx, withLedger.map(({ index }) => records[index]!.id),
      withLedger.flatMap(({ index, credits }) => vintageRows(records[index]!.id, credits)))
  }
  if (scanned) await ledgerRepository.dropLedgerSumsScan(trx)
}
const DERIVE_BATCH = 1000

/** A stored transaction in the import format: the API's transaction (one mapper), by the registry's identity. */
function toTransactionRecord (transaction: Transaction): TransactionRecord {
  const { transaction_id: identity, type, date, vintage, quantity, beneficiary, reason, source } = transaction
  const { note, account, serials, vintage_start: start, vintage_end: end } = transaction
  return {
    identity,
    type,
    date,
    vintage,
    quantity,
    beneficiary,
    reason,
    // The buyer fields are optional in the format: written where known, so older files' shape stays.
    ...note !== null && { note },
    ...account !== null && { account },
    ...serials !== null && { serials },
    ...start !== null && { vintage_start: start },
    ...end !== null && { vintage_end: end },
    source
  }
}

/**
 * Every project in the import format, in id order, a batch at a time, with the media keys of its
 * stored images (export writes those files beside the export file, at `media/KEY`).
 */
export async function * exportProjects (db: Db): AsyncGenerator<{ record: ImportRecord, mediaKeys: string[] }> {
  for await (const rows of projectRows.allProjects(db)) {
    const relations = await projectRows.loadRelations(db, rows.map((r) => r.id))
    const ledgers = await ledgerRepository.transactionsOf(db, rows.map((r) => r.id))
    for (const row of rows) {
      const mediaKeys = (relations.images.get(row.id) ?? []).flatMap((i) => i.media_key === null ? [] : [i.media_key])
      const ledger = ledgers.get(row.id)
      const record = toImportRecord(row, relations)
      // Only a project with a ledger says `transactions`: the field is additive, an empty list would say nothing.
      if (ledger !== undefined) record.transactions = ledger.map((row) => toTransactionRecord(toTransaction(row)))
      yield { record, mediaKeys }
    }
  }
}
