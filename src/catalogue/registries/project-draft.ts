import type { Credits, Source } from '../catalogue.schemas.ts'
import { named } from './values.ts'

// What one import's files say about each project, gathered row by row. A project export's row states the
// project's fields; issuance rows add credits, SDGs and certifications, and fill the fields of a project
// that only they describe. A field no row states stays undefined: the import keeps what the catalogue had.

export interface Named { name_id: string, verbose_name: string }

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
}

export interface RowRef { file: string, line: number }

export interface SkippedRow extends RowRef { reason: string }
export interface RowWarning extends RowRef { field: string, reason: string }

interface VintageCredits { issued: number | null, retired: number | null }

export class ProjectDraft {
  readonly externalId: string
  #projectRow: { fields: StatedFields, at: RowRef } | undefined
  readonly #issuanceFields: StatedFields = {}
  #sdgs: Set<number> | undefined
  #certifications: Map<string, Named> | undefined
  #vintages: Map<number, VintageCredits> | undefined
  #totals: { issued: number | null, retired: number | null } | undefined
  readonly #lines = new Map<string, Set<number>>()

  constructor (externalId: string) {
    this.externalId = externalId
  }

  /** Records that this row speaks of the project (its source). */
  seenAt (at: RowRef): void {
    const lines = this.#lines.get(at.file) ?? new Set<number>()
    lines.add(at.line)
    this.#lines.set(at.file, lines)
  }

  /** A project export's row: it states the fields; a later row of the same project replaces it (returned). */
  stateFields (fields: StatedFields, at: RowRef): RowRef | undefined {
    const replaced = this.#projectRow?.at
    if (replaced !== undefined) this.#lines.get(replaced.file)?.delete(replaced.line)
    this.#projectRow = { fields, at }
    this.seenAt(at)
    return replaced
  }

  /** Fields an issuance row repeats about its project: used where no project row states them; the first row wins. */
  fillFields (fields: StatedFields): void {
    for (const [key, value] of Object.entries(fields) as Array<[keyof StatedFields, unknown]>) {
      if (value === undefined || this.#issuanceFields[key] !== undefined) continue
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

  /** Adds credits of a vintage (null: the row does not say; a known amount adds to what is known). */
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

  /** Totals the registry states for the project (Isometric), whatever its vintages add up to. */
  stateTotals (issued: number | null, retired: number | null): void {
    this.#totals = { issued, retired }
  }

  fields (): StatedFields {
    return { ...this.#issuanceFields, ...this.#projectRow?.fields }
  }

  sdgs (): number[] | undefined {
    return this.#sdgs === undefined ? undefined : [...this.#sdgs].sort((a, b) => a - b)
  }

  certifications (): Named[] | undefined {
    return this.#certifications === undefined ? undefined : [...this.#certifications.values()]
  }

  /** Credits, when the files say anything about them. */
  credits (): Credits | undefined {
    if (this.#vintages === undefined && this.#totals === undefined) return undefined
    const vintages = [...this.#vintages ?? []].sort(([a], [b]) => a - b).map(([vintage, q]) => ({ vintage, ...q }))
    return { issued: this.#totals?.issued ?? null, retired: this.#totals?.retired ?? null, vintages }
  }

  source (): NonNullable<Source> {
    return [...this.#lines].filter(([, lines]) => lines.size > 0)
      .map(([file, lines]) => ({ file, lines: [...lines].sort((a, b) => a - b) }))
  }

  /** The first row that spoke of the project, to point at in reports. */
  firstRow (): RowRef | undefined {
    const [file, lines] = [...this.#lines].find(([, l]) => l.size > 0) ?? []
    return file === undefined ? undefined : { file, line: Math.min(...lines!) }
  }
}

/** The drafts of one import, by external id, in the order the files first name them. */
export class Drafts {
  readonly #drafts = new Map<string, ProjectDraft>()

  get (externalId: string): ProjectDraft {
    let draft = this.#drafts.get(externalId)
    if (draft === undefined) this.#drafts.set(externalId, draft = new ProjectDraft(externalId))
    return draft
  }

  find (externalId: string): ProjectDraft | undefined {
    return this.#drafts.get(externalId)
  }

  all (): ProjectDraft[] {
    return [...this.#drafts.values()]
  }
}
