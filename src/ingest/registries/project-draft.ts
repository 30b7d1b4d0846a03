import { createHash } from 'node:crypto'
import type { Credits, Source, TransactionRecord, TransactionType } from '../../catalogue/catalogue.schemas.ts'
import { named } from './values.ts'

// What one import's files say about each project, gathered row by row. A project export's row states the
// project's fields; issuance rows add credits, SDGs and certifications, and fill the fields of a project
// that only they describe. A field no row states stays undefined: the import keeps what the catalogue had.

export interface Named { name_id: string, verbose_name: string }

const CORSIA = named('CORSIA Eligible')

/** The Project fields a registry export can state (undefined: the files given do not say). */
export interface StatedFields {
  name?: string
  symbol?: string
  standard?: Named
  credit_type?: Named | null
  url?: string | null
  location?: string
  latitude?: number | null
  longitude?: number | null
  date?: string | null
  area?: number | null
  estimated_annual_reductions?: number | null
  project_developer?: string
  description?: string
  short_description?: string | null
  protocol?: string[]
  status?: string | null
  project_type?: string | null
  category?: string | null
  is_compliance?: boolean | null
  listed_date?: string | null
  /** The methodology's version as the registry writes it ("Version 1.0", "V4.0"). */
  protocol_version?: string | null
}

/** A transaction as a reader states it; the identity is the registry's own, or a digest of what the row says. */
export interface StatedTransaction {
  type: TransactionType
  /** The registry's serial range or transaction id; undefined: none in the export (a digest is used). */
  identity?: string
  date: string | null
  vintage: number | null
  quantity: number
  beneficiary?: string | null
  /** Why (the registry's reason), and the free text beside it (its details or purpose), apart. */
  reason?: string | null
  note?: string | null
  /** The account holder that retired or cancelled the credits. */
  account?: string | null
  /** The serial numbers or block range, as the registry writes them. */
  serials?: string | null
  /** The vintage's (monitoring or assignment period's) first and last day, YYYY-MM-DD. */
  vintageStart?: string | null
  vintageEnd?: string | null
}

export interface RowRef { file: string, line: number }

export interface SkippedRow extends RowRef { reason: string }
export interface RowWarning extends RowRef { field: string, reason: string }

interface VintageCredits { issued: number | null, retired: number | null }

/**
 * Where a large import's transactions go instead of the drafts' memory (registry-import.ts stages them in the
 * database): the spool settles identities later, as the draft would (the last row of an identity is used).
 */
export interface TransactionSpool {
  add(externalId: string, transaction: TransactionRecord & { source: RowRef }): void
}

/** A staged ledger summed by type and vintage, with its latest date: what the draft needs of it. */
export interface LedgerSummary {
  sums: ReadonlyArray<{ type: TransactionType, vintage: number | null, quantity: number }>
  latest: string | null
}

export class ProjectDraft {
  readonly externalId: string
  #projectRow: { fields: StatedFields, at: RowRef } | undefined
  readonly #issuanceFields: StatedFields = {}
  #sdgs: Set<number> | undefined
  #certifications: Map<string, Named> | undefined
  #vintages: Map<number, VintageCredits> | undefined
  #totals: { issued: number | null, retired: number | null } | undefined
  /** CORSIA eligibility per vintage, as issuance rows state it (a vintage any row calls eligible is eligible). */
  readonly #corsia = new Map<number, boolean>()
  readonly #lines = new Map<string, Lines>()
  readonly #transactions = new Map<string, TransactionRecord & { source: RowRef | null }>()
  /** Rows whose transaction a later row of the same identity replaced (reported as skipped). */
  readonly replacedRows: Array<SkippedRow> = []
  /** Types of transaction the files list in full for the project (none of a type there: 0, not unknown). */
  readonly #listed = new Set<TransactionType>()
  /** How often each digest occurred in each file: rows that say the same are told apart by their order. */
  readonly #digests = new Map<string, number>()
  readonly #spool: TransactionSpool | undefined
  /** Transactions handed to the spool, and their settled ledger's summary once the files are read. */
  #spooled = 0
  #summary: LedgerSummary | undefined

  constructor (externalId: string, spool?: TransactionSpool) {
    this.externalId = externalId
    this.#spool = spool
  }

  /** Records that this row speaks of the project (its source). */
  seenAt (at: RowRef): void {
    let lines = this.#lines.get(at.file)
    if (lines === undefined) this.#lines.set(at.file, lines = new Lines())
    lines.add(at.line)
  }

  /** A project export's row: it states the fields; a later row of the same project replaces it (returned). */
  stateFields (fields: StatedFields, at: RowRef): RowRef | undefined {
    const replaced = this.#projectRow?.at
    if (replaced !== undefined) this.#lines.get(replaced.file)?.delete(replaced.line)
    this.#projectRow = { fields, at }
    this.seenAt(at)
    return replaced
  }

  /** Fields a ledger row repeats about its project: used where no project row states them; the first row wins. */
  fillFields (fields: StatedFields): void {
    for (const [key, value] of Object.entries(fields) as Array<[keyof StatedFields, unknown]>) {
      // A row that does not know (null) leaves the field to a later row that does.
      if (value === undefined || value === null || this.#issuanceFields[key] !== undefined) continue
      ;(this.#issuanceFields as Record<string, unknown>)[key] = value
    }
  }

  /** These files say which SDGs the project serves (possibly none). */
  addSdgs (numbers: readonly number[]): void {
    this.#sdgs ??= new Set()
    for (const n of numbers) this.#sdgs.add(n)
  }

  /** These files say which certifications the project holds (possibly none); the first label of a name_id wins. */
  addCertifications (labels: readonly string[]): void {
    this.#certifications ??= new Map()
    for (const label of labels) {
      const entry = named(label)
      if (entry.name_id === '' || this.#certifications.has(entry.name_id)) continue
      this.#certifications.set(entry.name_id, entry)
    }
  }

  /**
   * Adds credits of a vintage (null: the row does not say; a known amount adds to what is known). Only a draft
   * with no transaction uses them (`credits()`): Verra's rows that add no transaction, such as a block of no total.
   */
  addCredits (vintage: number, issued: number | null, retired: number | null): void {
    this.#vintages ??= new Map()
    const known = this.#vintages.get(vintage) ?? { issued: null, retired: null }
    const add = (a: number | null, b: number | null) => a === null ? b : b === null ? a : a + b
    this.#vintages.set(vintage, { issued: add(known.issued, issued), retired: add(known.retired, retired) })
  }

  /** These files list the project's issuances, possibly none (Cercarbono embeds them in the project row). */
  knowCredits (): void {
    this.#vintages ??= new Map()
  }

  /** An issuance row states whether its vintage is CORSIA eligible. */
  corsiaEligible (vintage: number, eligible: boolean): void {
    this.#corsia.set(vintage, eligible || this.#corsia.get(vintage) === true)
  }

  /** Whether the registry states the project's totals itself (Isometric's project export). */
  statesTotals (): boolean {
    return this.#totals !== undefined
  }

  /** Totals the registry states for the project (Isometric): used for a type whose export the import does not read. */
  stateTotals (issued: number | null, retired: number | null): void {
    this.#totals = { issued, retired }
  }

  /**
   * A transaction of the project's ledger. Its identity: the registry's own, prefixed by the type (a serial range
   * is issued, then retired); else a digest of the project and what the row states, never of the file or line, so
   * the same row in another file, layout or export is the same transaction.
   */
  addTransaction (stated: StatedTransaction, at: RowRef): void {
    const orNull = (value: string | null | undefined) => value === undefined || value === '' ? null : value
    const beneficiary = orNull(stated.beneficiary)
    const reason = orNull(stated.reason)
    const note = orNull(stated.note)
    let identity: string
    if (stated.identity !== undefined && stated.identity !== '') {
      identity = `${stated.type}:${stated.identity}`
    } else {
      // Reason and note joined as one text, as before they were apart: stored digests stay the same.
      const said = [reason, note].filter((r) => r !== null).join(': ') || null
      const digest = createHash('sha256').update(JSON.stringify([this.externalId, stated.date, stated.vintage,
        stated.quantity, beneficiary, said])).digest('hex').slice(0, 32)
      const occurrence = (this.#digests.get(`${at.file}\u0000${digest}`) ?? 0) + 1
      this.#digests.set(`${at.file}\u0000${digest}`, occurrence)
      identity = `${stated.type}:sha256:${digest}${occurrence === 1 ? '' : `#${occurrence}`}`
    }
    this.seenAt(at)
    const record: TransactionRecord & { source: RowRef } = {
      identity,
      type: stated.type,
      date: stated.date,
      vintage: stated.vintage,
      quantity: stated.quantity,
      beneficiary,
      reason,
      note,
      account: orNull(stated.account),
      serials: orNull(stated.serials),
      vintage_start: stated.vintageStart ?? null,
      vintage_end: stated.vintageEnd ?? null,
      source: { file: at.file, line: at.line }
    }
    if (this.#spool !== undefined) {
      this.#spooled++
      this.#spool.add(this.externalId, record)
      return
    }
    // One identity twice in an import, saying something else (not Cercarbono's serial in both of its files): the
    // later row is used, the earlier one reported.
    const earlier = this.#transactions.get(identity)
    if (earlier?.source != null && (earlier.quantity !== stated.quantity || earlier.vintage !== stated.vintage)) {
      const reason = `${identity} again at ${at.file} line ${at.line}, which is used instead`
      this.replacedRows.push({ ...earlier.source, reason })
    }
    this.#transactions.set(identity, record)
  }

  /** The spooled transactions, settled: their sums and latest date (the ledger itself is written from the spool). */
  settleSpool (summary: LedgerSummary): void {
    this.#summary = summary
  }

  /** These files list the project's transactions of these types (Verra's export: issuances and retirements). */
  listsTypes (types: readonly TransactionType[]): void {
    for (const type of types) this.#listed.add(type)
  }

  /**
   * The ledger these files give, for a draft without a spool (undefined: they say nothing of transactions). The
   * import always spools; the readers' unit tests read each reader's transactions here, with no database.
   */
  transactions (): TransactionRecord[] | undefined {
    return this.#transactions.size === 0 ? undefined : [...this.#transactions.values()]
  }

  fields (): StatedFields {
    return { ...this.#issuanceFields, ...this.#projectRow?.fields }
  }

  /** The project export's row that states the project, if one does. */
  statedAt (): RowRef | undefined {
    return this.#projectRow?.at
  }

  /** Whether a project export's row states the project (else only ledger rows speak of it). */
  stated (): boolean {
    return this.#projectRow !== undefined
  }

  /** The fields a project export's row states. */
  projectFields (): StatedFields {
    return { ...this.#projectRow?.fields }
  }

  /** The fields ledger rows repeat about the project. */
  ledgerFields (): StatedFields {
    return { ...this.#issuanceFields }
  }

  /** The latest date of this import's transactions of the project (null: none dated). */
  latestDate (): string | null {
    if (this.#summary !== undefined) return this.#summary.latest
    let latest: string | null = null
    for (const t of this.#transactions.values()) {
      if (t.date !== null && (latest === null || t.date > latest)) latest = t.date
    }
    return latest
  }

  sdgs (): number[] | undefined {
    return this.#sdgs === undefined ? undefined : [...this.#sdgs].sort((a, b) => a - b)
  }

  /**
   * The labels, with "CORSIA Eligible" when every vintage whose issuance rows state CORSIA eligibility is eligible
   * (ART102's 2023 vintage says No: the project is not labelled; each vintage says its own, `corsia_eligible`).
   */
  certifications (): Named[] | undefined {
    const corsia = this.#corsia.size > 0 && [...this.#corsia.values()].every((eligible) => eligible)
    if (this.#certifications === undefined && !corsia) return undefined
    const labels = [...this.#certifications?.values() ?? []].filter((c) => c.name_id !== CORSIA.name_id)
    return corsia ? [...labels, CORSIA] : labels
  }

  /** Credits, when the files say anything about them. */
  credits (): Credits | undefined {
    // One rule for every registry (docs/registries.md, "Totals: one rule"): per type, the rows where the import
    // reads that type's export; a total the registry states only for a type whose export it does not read.
    if (this.#transactions.size > 0 || this.#spooled > 0) return this.#ledgerCredits()
    if (this.#vintages === undefined && this.#totals === undefined) return undefined
    const vintages = [...this.#vintages ?? []].sort(([a], [b]) => a - b)
      .map(([vintage, q]) => ({ vintage, ...q, ...this.#corsiaOf(vintage) }))
    return { issued: this.#totals?.issued ?? null, retired: this.#totals?.retired ?? null, vintages }
  }

  /** Issued and retired per vintage from this import's ledger, each transaction once (by identity). */
  #ledgerCredits (): Credits {
    const vintages = new Map<number, { issued: number | null, retired: number | null }>()
    const ledger = this.#summary?.sums ?? [...this.#transactions.values()]
    const types = new Set([...this.#listed, ...ledger.map((t) => t.type)])
    for (const t of ledger) {
      if (t.vintage === null || t.type === 'cancellation') continue
      const known = vintages.get(t.vintage) ??
        { issued: types.has('issuance') ? 0 : null, retired: types.has('retirement') ? 0 : null }
      if (t.type === 'issuance') known.issued = (known.issued ?? 0) + t.quantity
      else known.retired = (known.retired ?? 0) + t.quantity
      vintages.set(t.vintage, known)
    }
    // Per type: rows where these files list the type (none of them: 0); else what the registry states, if it does.
    const rows = new Set(ledger.map((t) => t.type))
    const total = (type: TransactionType, stated: number | null | undefined) =>
      types.has(type) ? (rows.has(type) ? null : 0) : stated ?? null
    return {
      issued: total('issuance', this.#totals?.issued),
      retired: total('retirement', this.#totals?.retired),
      vintages: [...vintages].sort(([a], [b]) => a - b)
        .map(([vintage, q]) => ({ vintage, ...q, ...this.#corsiaOf(vintage) }))
    }
  }

  /** The vintage's CORSIA eligibility where a row states it (else the field is left out: not stated). */
  #corsiaOf (vintage: number): { corsia_eligible?: boolean } {
    const eligible = this.#corsia.get(vintage)
    return eligible === undefined ? {} : { corsia_eligible: eligible }
  }

  /** The files and lines that speak of the project, but `without` (a row whose statements are not used). */
  source (without?: RowRef): NonNullable<Source> {
    const kept = (file: string, line: number) => without === undefined || without.file !== file || without.line !== line
    return [...this.#lines].map(([file, lines]) => ({ file, lines: lines.sorted().filter((line) => kept(file, line)) }))
      .filter(({ lines }) => lines.length > 0)
  }

  /** The first row that spoke of the project, to point at in reports. */
  firstRow (): RowRef | undefined {
    const [file, lines] = [...this.#lines].find(([, l]) => l.size > 0) ?? []
    return file === undefined ? undefined : { file, line: lines!.first()! }
  }
}

/**
 * The lines of one file that speak of a project, 4 bytes each: a million-row export gave its projects a million
 * entries of Sets (about 40 MB of heap). A file is read in order, so lines come ascending (one row may add its line
 * twice); a line given out of order is inserted in place.
 */
export class Lines {
  #lines = new Uint32Array(4)
  #size = 0

  get size (): number {
    return this.#size
  }

  add (line: number): void {
    const last = this.#size === 0 ? -1 : this.#lines[this.#size - 1]!
    if (line === last) return
    if (line < last) {
      const at = this.#search(line)
      if (at < this.#size && this.#lines[at] === line) return
      this.#reserve()
      this.#lines.copyWithin(at + 1, at, this.#size)
      this.#lines[at] = line
    } else {
      this.#reserve()
      this.#lines[this.#size] = line
    }
    this.#size++
  }

  delete (line: number): void {
    const at = this.#search(line)
    if (at >= this.#size || this.#lines[at] !== line) return
    this.#lines.copyWithin(at, at + 1, this.#size)
    this.#size--
  }

  first (): number | undefined {
    return this.#size === 0 ? undefined : this.#lines[0]
  }

  sorted (): number[] {
    return Array.from(this.#lines.subarray(0, this.#size))
  }

  /** The first position whose line is not below `line`. */
  #search (line: number): number {
    let low = 0
    let high = this.#size
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.#lines[middle]! < line) low = middle + 1
      else high = middle
    }
    return low
  }

  #reserve (): void {
    if (this.#size < this.#lines.length) return
    const grown = new Uint32Array(this.#lines.length * 2)
    grown.set(this.#lines)
    this.#lines = grown
  }
}

/** The drafts of one import, by external id, in the order the files first name them. */
export class Drafts {
  readonly #drafts = new Map<string, ProjectDraft>()
  readonly #spool: TransactionSpool | undefined

  /** With a spool, the drafts' transactions go there rather than into memory. */
  constructor (spool?: TransactionSpool) {
    this.#spool = spool
  }

  get (externalId: string): ProjectDraft {
    let draft = this.#drafts.get(externalId)
    if (draft === undefined) this.#drafts.set(externalId, draft = new ProjectDraft(externalId, this.#spool))
    return draft
  }

  find (externalId: string): ProjectDraft | undefined {
    return this.#drafts.get(externalId)
  }

  all (): ProjectDraft[] {
    return [...this.#drafts.values()]
  }
}
