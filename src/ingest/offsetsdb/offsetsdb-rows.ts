import { createHash } from 'node:crypto'
import type { TransactionType } from '../../catalogue/catalogue.schemas.ts'
import { parsePythonLiteral } from '../registries/python-literal.ts'
import type { Named } from '../registries/project-draft.ts'
import {
  ACR, ACR_STANDARD, ART, CAR, CAR_STANDARD, CERCARBONO, CERCARBONO_STANDARD, GOLD_STANDARD, GOLD_STANDARD_STANDARD,
  ISOMETRIC, ISOMETRIC_STANDARD, VERRA, VERRA_STANDARD
} from '../registries/registry-names.ts'

// One row of OffsetsDB's projects or credits table as Tonne's fields. CSV gives every value as text (dates as
// `2021-03-04 00:00:00+00:00`, booleans as True/False, the protocol list as a Python literal); Parquet gives them
// typed (Date, boolean, number or bigint, a list). Both read to the same values, so the same archive in either
// format is the same content. Pure: values in, fields out.

export interface ArchiveProject {
  /** OffsetsDB's id (VCS191, GLD1234, ACR123). */
  projectId: string
  registry: string
  name: string | null
  proponent: string | null
  protocol: string[]
  category: string | null
  projectType: string | null
  status: string | null
  country: string | null
  listedAt: string | null
  isCompliance: boolean | null
  issued: number | null
  retired: number | null
  projectUrl: string | null
}

export interface ArchiveCredit {
  projectId: string
  type: TransactionType
  quantity: number
  vintage: number | null
  date: string | null
  account: string | null
  beneficiary: string | null
  harmonised: string | null
  reason: string | null
  note: string | null
  url: string | null
}

/** A value as trimmed text; null when absent, empty or NaN. */
export function text (value: unknown): string | null {
  if (value === undefined || value === null) return null
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  if (typeof value === 'number' && Number.isNaN(value)) return null
  const string = String(value).trim()
  return string === '' || string === 'nan' || string === 'NaN' || string === 'None' ? null : string
}

/** A date or timestamp as YYYY-MM-DD (UTC); null when it is none. */
export function isoDate (value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10)
  const string = text(value)
  const match = string === null ? null : /^(\d{4}-\d{2}-\d{2})/.exec(string)
  return match === null ? null : match[1]!
}

export function number (value: unknown): number | null {
  if (typeof value === 'bigint') return Number(value)
  const string = typeof value === 'number' ? value : text(value)
  if (string === null) return null
  const parsed = typeof string === 'number' ? string : Number(string)
  return Number.isFinite(parsed) ? parsed : null
}

export function boolean (value: unknown): boolean | null {
  if (typeof value === 'boolean') return value
  const string = text(value)?.toLowerCase()
  if (string === 'true' || string === '1') return true
  if (string === 'false' || string === '0') return false
  return null
}

/** A list: Parquet's list, or CSV's Python literal (`['vm0042']`); a bare string is one item. */
export function list (value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => text(v) ?? [])
  const string = text(value)
  if (string === null) return []
  if (!string.startsWith('[') && !string.startsWith('(')) return [string]
  try {
    const parsed = parsePythonLiteral(string)
    return Array.isArray(parsed) ? parsed.flatMap((v) => text(v) ?? []) : []
  } catch {
    return [string]
  }
}

export function projectOf (values: Record<string, unknown>): ArchiveProject | string {
  const projectId = text(values.project_id)
  if (projectId === null) return 'no project_id'
  return {
    projectId,
    registry: text(values.registry) ?? '',
    name: text(values.name),
    proponent: text(values.proponent),
    protocol: list(values.protocol),
    category: text(values.category),
    projectType: text(values.project_type),
    status: text(values.status),
    country: text(values.country),
    listedAt: isoDate(values.listed_at),
    isCompliance: boolean(values.is_compliance),
    issued: number(values.issued),
    retired: number(values.retired),
    projectUrl: text(values.project_url)
  }
}

function transactionType (value: unknown): TransactionType | null {
  const string = text(value)?.toLowerCase() ?? ''
  if (string.startsWith('issu')) return 'issuance'
  if (string.startsWith('retire')) return 'retirement'
  if (string.startsWith('cancel')) return 'cancellation'
  return null
}

export function creditOf (values: Record<string, unknown>): ArchiveCredit | string {
  const projectId = text(values.project_id)
  if (projectId === null) return 'no project_id'
  const type = transactionType(values.transaction_type)
  if (type === null) return `transaction_type "${text(values.transaction_type) ?? ''}" is not one Tonne reads`
  const quantity = number(values.quantity)
  if (quantity === null || quantity < 0) return `quantity "${text(values.quantity) ?? ''}" is not a quantity`
  const vintage = number(values.vintage)
  return {
    projectId,
    type,
    quantity,
    vintage: vintage !== null && Number.isInteger(vintage) && vintage >= 1000 && vintage <= 9999 ? vintage : null,
    date: isoDate(values.transaction_date),
    account: text(values.retirement_account),
    beneficiary: text(values.retirement_beneficiary),
    harmonised: text(values.retirement_beneficiary_harmonized),
    reason: text(values.retirement_reason),
    note: text(values.retirement_note),
    url: text(values.transaction_url)
  }
}

/**
 * The credit's content as a digest: its identity (with an occurrence number for identical rows), since OffsetsDB
 * gives credits no id. The same row in CSV or Parquet, anywhere in the table, has the same digest.
 */
export function creditDigest (credit: ArchiveCredit): string {
  return createHash('sha256').update(JSON.stringify([credit.projectId, credit.type, credit.quantity, credit.vintage,
    credit.date, credit.account, credit.beneficiary, credit.harmonised, credit.reason, credit.note, credit.url]))
    .digest('base64url').slice(0, 24)
}

export interface Target {
  registry: Named
  /** The standard a new project gets (a stored project keeps its own). */
  standard: Named
  externalId: string
}

interface RegistryTarget { registry: Named, standard: Named, externalId: (id: string) => string }

const upperSnake = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '')

// OffsetsDB's registry names and id prefixes → the registries Tonne's own readers write (their name_ids and
// external ids, so that a project imported from both is one project). docs/registries.md, "OffsetsDB's archive".
const REGISTRIES: Readonly<Record<string, RegistryTarget>> = {
  verra: { registry: VERRA, standard: VERRA_STANDARD, externalId: (id) => id },
  'gold-standard': {
    registry: GOLD_STANDARD, standard: GOLD_STANDARD_STANDARD, externalId: (id) => id.replace(/^GLD/, 'GS')
  },
  'american-carbon-registry': { registry: ACR, standard: ACR_STANDARD, externalId: (id) => id },
  'climate-action-reserve': { registry: CAR, standard: CAR_STANDARD, externalId: (id) => id },
  // Tonne's ART reader names the standard as each programme states it; OffsetsDB does not say, so TREES.
  'art-trees': { registry: ART, standard: { name_id: 'ART_TREES', verbose_name: 'TREES' }, externalId: (id) => id },
  isometric: { registry: ISOMETRIC, standard: ISOMETRIC_STANDARD, externalId: (id) => id.replace(/^ISO/, '') },
  cercarbono: { registry: CERCARBONO, standard: CERCARBONO_STANDARD, externalId: (id) => id }
}

const PREFIXES: ReadonlyArray<[string, string]> = [['VCS', 'verra'], ['GLD', 'gold-standard'],
  ['ACR', 'american-carbon-registry'], ['CAR', 'climate-action-reserve'], ['ART', 'art-trees'],
  ['ISO', 'isometric'], ['CCB', 'cercarbono']]

/**
 * Where an OffsetsDB project goes in Tonne: its registry (from the projects table, or for a credit whose project
 * is missing there, from the id's prefix), a new project's standard, and the external id Tonne's reader gives it.
 */
export function targetOf (projectId: string, registry: string | undefined): Target {
  const key = registry !== undefined && registry !== ''
    ? registry.toLowerCase()
    : PREFIXES.find(([prefix]) => projectId.startsWith(prefix))?.[1] ?? 'none'
  const known = REGISTRIES[key]
  if (known !== undefined) return { ...known, externalId: known.externalId(projectId) }
  const nameId = `OFFSETSDB_${upperSnake(key) || 'NONE'}`
  const named = { name_id: nameId, verbose_name: key === 'none' ? 'Unknown registry (OffsetsDB)' : key }
  const standard = { name_id: `${nameId}_STANDARD`, verbose_name: named.verbose_name }
  return { registry: named, standard, externalId: projectId }
}
