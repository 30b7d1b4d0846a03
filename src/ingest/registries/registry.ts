import { PROTOCOL_MAX_LENGTH } from '../../catalogue/catalogue.schemas.ts'
import { countryKey } from '../../catalogue/countries.ts'
import type { ProtocolMappings } from './credit-types.ts'
import type { Drafts, Named, ProjectDraft, RowRef, StatedFields, StatedTransaction } from './project-draft.ts'
import type { RegistryKey } from './registry-keys.ts'
import { cleanText, parseDate, parseQuantity, parseSdgs, type DateOrder } from './values.ts'

// What every registry module describes: its exports (told apart by their columns) and how one row of each
// becomes statements about a project. The modules are pure: rows in, drafts and notes out.

export type { RegistryKey }

export interface Row {
  /** The column's value with outer white space trimmed; '' when the export lacks the column. */
  get(column: string): string
  /** The value as in the file. */
  raw(column: string): string
}

/** Canonical country names by folded key (names, ISO codes and aliases), from the database. */
type CountryNames = ReadonlyMap<string, string>

export interface RowContext extends RowRef {
  readonly drafts: Drafts
  readonly countries: CountryNames
  readonly mappings: ProtocolMappings
  /** A value that could not be read: the field is left empty and the report says so. */
  warn(field: string, reason: string): void
  /** The row is not used; the report says why. */
  skip(reason: string): void
  /** A project export's row states the project (a later row of the same project replaces it, reported). */
  state(draft: ProjectDraft, fields: StatedFields): void
}

export type ExportKind = 'projects' | 'issuances' | 'retirements' | 'cancellations' | 'transactions'

export interface ExportDefinition {
  kind: ExportKind
  /**
   * Columns (white space collapsed) whose presence tells this export; a list names a column's spellings in the
   * registry's current and older layouts (any one will do). The export whose columns match most is chosen.
   */
  columns: ReadonlyArray<string | readonly string[]>
  read(row: Row, context: RowContext): void
}

export interface RegistryDefinition {
  key: RegistryKey
  /** The registry as `registry` names it. */
  registry: Named
  /** Fresh readers for one import (they may remember rows across the import's files). */
  exports(): readonly ExportDefinition[]
  /**
   * A table that adds to other registries' projects (CARB's): their registries by the external id's prefix. Only
   * projects the catalogue has are changed; the registry's own exports create them.
   */
  targets?: ReadonlyArray<{ prefix: string, registry: Named }>
}

/** Country strings that mean "no one country" in some exports (Gold Standard's "International"). */
const NO_COUNTRY = new Set(['international', 'global', 'multiple', 'various', 'n a', 'na'])

/**
 * A country column → its canonical name; blank or "International" → '' (no country). A name the catalogue
 * does not know is kept as written, with a warning (the import adds it as a country of its own).
 */
export function country (context: RowContext, field: string, value: string): string {
  const text = cleanText(value)
  if (text === '' || NO_COUNTRY.has(countryKey(text))) return ''
  const name = context.countries.get(countryKey(text))
  if (name !== undefined) return name
  context.warn(field, `"${text}" is not a known country name or code; kept as written`)
  return text
}

/** A date column; a value that is no date is left empty, with a warning. */
export function date (context: RowContext, field: string, value: string, order: DateOrder): string | null {
  const parsed = parseDate(value, order)
  if (parsed !== undefined) return parsed
  context.warn(field, `"${value.trim()}" is not a date`)
  return null
}

/**
 * A transaction of a day-first export that names it by its serial numbers (Verra's and Gold Standard's): the Serial
 * Number is its identity and its serials, its date is read day first, and its beneficiary, reason and note are these
 * columns' text.
 */
export function serialTransaction (context: RowContext, row: Row,
  stated: Pick<StatedTransaction, 'type' | 'vintage' | 'quantity' | 'vintageStart' | 'vintageEnd'> & { date: string },
  columns: { beneficiary: string, reason: string, note: string }): StatedTransaction {
  return {
    ...stated,
    identity: row.get('Serial Number'),
    date: date(context, 'transactions.date', stated.date, 'day-first'),
    beneficiary: cleanText(row.get(columns.beneficiary)),
    reason: cleanText(row.get(columns.reason)),
    note: cleanText(row.get(columns.note)),
    serials: row.get('Serial Number')
  }
}

/** A quantity column (thousands separators allowed); a value that is no number is left empty, with a warning. */
export function quantity (
  context: RowContext, field: string, value: string, options: { zeroIsUnknown?: boolean } = {}
): number | null {
  const parsed = parseQuantity(value)
  if (parsed === undefined) {
    context.warn(field, `"${value.trim()}" is not a number`)
    return null
  }
  if (parsed !== null && parsed < 0) {
    context.warn(field, `${parsed} is negative`)
    return null
  }
  return options.zeroIsUnknown === true && parsed === 0 ? null : parsed
}

/** An SDG column's goal numbers; parts that name no goal are reported. */
export function sdgNumbers (context: RowContext, value: string): number[] {
  const sdgs = parseSdgs(value)
  for (const part of sdgs.invalid) context.warn('sustainable_development_goals', `"${part}" names no goal 1 to 17`)
  return sdgs.numbers
}

/** A latitude or longitude column; out of range or no number → empty, with a warning. */
export function coordinate (context: RowContext, field: 'latitude' | 'longitude', value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null
  const number = typeof value === 'number' ? value : parseQuantity(String(value))
  const limit = field === 'latitude' ? 90 : 180
  if (typeof number !== 'number' || Math.abs(number) > limit) {
    context.warn(field, `"${String(value)}" is not a ${field}`)
    return null
  }
  return number
}

/** The value of the first of these columns that the row has (a column's spellings across layouts). */
export function either (row: Row, columns: readonly string[]): string {
  for (const column of columns) {
    const value = row.get(column)
    if (value !== '') return value
  }
  return ''
}

/** A transaction's quantity: a positive number, or the row is skipped (returns undefined). */
export function transactionQuantity (context: RowContext, column: string, value: string): number | undefined {
  const parsed = parseQuantity(value)
  if (parsed === undefined || parsed === null) {
    context.skip(`${column} "${value.trim()}" is not a number`)
    return undefined
  }
  if (parsed <= 0) {
    context.skip(`${column} is ${parsed}: no credits`)
    return undefined
  }
  return parsed
}

/**
 * Methodology ids as the registry writes them: "VM0007; VMD0001" → both; one name → itself, whole UNFCCC titles
 * included. One longer than PROTOCOL_MAX_LENGTH is left out with a warning: one long value never refuses a file.
 */
export function protocols (value: string, context?: RowContext): string[] {
  return [...new Set(value.split(';').map(cleanText).filter((p) => {
    if (p.length <= PROTOCOL_MAX_LENGTH) return p !== ''
    context?.warn('protocol', `a methodology of ${p.length} characters is longer than ${PROTOCOL_MAX_LENGTH}; left out`)
    return false
  }))]
}

/**
 * The version a methodology names ("GS TPDDTEC V4.0: …" → "V4.0", "Forestry - MX - Version 3.0" → "Version 3.0"),
 * or the date California's compliance protocols are versioned by ("…, April 25, 2014"); else undefined.
 */
export function protocolVersion (value: string): string | undefined {
  return /\b(?:Version\s*|V)\d+(?:\.\d+)*\b/i.exec(value)?.[0] ??
    /\b(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}$/
      .exec(value.trim())?.[0]
}

/** The standards of registries that also host California (ARB) and Washington (Ecology) compliance projects. */
export function complianceStandard (
  registryNameId: string, programme: 'california' | 'washington' | undefined, voluntary: Named
): Named {
  if (programme === undefined) return voluntary
  const verbose = `${programme === 'california' ? 'California' : 'Washington'} Compliance Offset Protocol`
  return { name_id: `${registryNameId}_${verbose.toUpperCase().replace(/ /g, '_')}`, verbose_name: verbose }
}
