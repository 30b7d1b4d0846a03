import { SqliteAdapter, type Generated, type Kysely, type Selectable, type Insertable } from 'kysely'

/** A row of a vocabulary table: registries, standards, credit types, ratings, certifications. */
export interface VocabularyTable {
  name_id: string
  verbose_name: string
}

interface SdgTable {
  number: number
  name_id: string
  verbose_name: string
  colour: string
}

interface CountryTable {
  /** The canonical name: the one every project with this country carries. */
  name: string
  /** The name folded (case, accents, punctuation): see countryKey(). */
  name_key: string
  alpha2: string | null
  alpha3: string | null
}

/** Every spelling that names a country: its name, ISO codes and aliases, by folded key. */
interface CountryAliasTable {
  alias_key: string
  alias: string
  /** The canonical name (countries.name). */
  name: string
}

interface ProjectTable {
  id: number
  external_id: string
  name: string
  symbol: string
  /** JSON array of integers: vintages are only ever returned whole. */
  vintages: string
  registry: string
  standard: string
  credit_type: string | null
  rating: string | null
  short_description: string | null
  description: string
  url: string | null
  /** 0/1 in SQLite, boolean in PostgreSQL: read through `Boolean()`. */
  is_bundle: number | boolean
  /** JSON array, or null for a bundle without listed bundles. */
  bundles: string | null
  inventory_price: number | null
  location: string
  location_key: string
  latitude: number | null
  longitude: number | null
  /** YYYY-MM-DD as text on both databases, so it sorts and round-trips unchanged. */
  date: string | null
  area: number | null
  estimated_annual_reductions: number | null
  project_developer: string
  co_benefits: string
  in_sale: number | boolean
  /** Lower-case name, symbol, external id and developer, for the `search` filter. */
  search_text: string
  /** The list item as JSON with media placeholders, built at import (null only before a refresh). */
  item_json: string | null
  /** Totals of credits issued and retired; null when the imported data does not say. */
  credits_issued: number | null
  credits_retired: number | null
  /** ISO 8601 UTC (`2026-11-23T10:00:00.000Z`): when this database first had the project, and last saw it change. */
  created_at: string | null
  updated_at: string | null
  /** SHA-256 of what the API shows of the project (timestamps aside): a re-import of the same data is no change. */
  content_hash: string | null
  /** The detail-only fields (credits, source) as one JSON object, built with item_json. */
  detail_json: string | null
  /** JSON array of {file, lines}: where the project's data came from; null when not given. */
  source: string | null
  credits_cancelled: number | null
  /** As the registry writes it (e.g. "Registered", "Listed"); null when no export says. */
  status: string | null
  project_type: string | null
  category: string | null
  /** 0/1 in SQLite, boolean in PostgreSQL (null: unknown): read through `Boolean()`. */
  is_compliance: number | boolean | null
  /** ISO dates (YYYY-MM-DD). */
  listed_date: string | null
  first_issuance_date: string | null
  first_retirement_date: string | null
  /** The methodology version the registry states (e.g. "v1.0"); null when not stated. */
  protocol_version: string | null
}

export interface ProjectVintageTable {
  project_id: number
  vintage: number
  /** Credits issued and retired in this vintage; null when the imported data does not say. */
  issued: number | null
  retired: number | null
  cancelled: number | null
  /** Whether the registry states this vintage CORSIA-eligible; null when it does not say. */
  corsia_eligible: number | boolean | null
}

interface ProjectCertificationTable {
  project_id: number
  position: number
  certification: string
}

/** The methodology ids a project names, in the registry's order. */
interface ProjectProtocolTable {
  project_id: number
  position: number
  protocol: string
}

/** One issuance, retirement or cancellation, as a registry published it. */
/** How many transactions each (registry, type, vintage, month) holds, kept by triggers (migration 0012). */
interface LedgerCountsTable {
  registry: string
  type: string
  /** 0: no vintage. */
  vintage: number
  /** YYYY-MM; '': undated. */
  month: string
  count: number
}

export interface CreditTransactionTable {
  id: Generated<number>
  project_id: number
  /** The project's registry, repeated so the whole ledger filters without a join. */
  registry: string
  /** The registry's own identity (serial range, transaction id), or a digest of the row when it gives none. */
  identity: string
  type: 'issuance' | 'retirement' | 'cancellation'
  /** ISO date (YYYY-MM-DD). */
  date: string | null
  vintage: number | null
  quantity: number
  beneficiary: string | null
  reason: string | null
  /** The beneficiary folded (case, accents) for `search`. */
  beneficiary_key: string | null
  source_file: string | null
  source_line: number | null
  /** The retirement account holder, as the registry names it. */
  account: string | null
  /** The retirement note (free text), apart from the reason. */
  note: string | null
  /** Serial numbers or block range(s), as the registry writes them. */
  serials: string | null
  /** The vintage's monitoring period (ISO dates), where the registry states it. */
  vintage_start: string | null
  vintage_end: string | null
  /** The registry's own page for this transaction. */
  url: string | null
  /** The beneficiary as OffsetsDB harmonises it. */
  beneficiary_harmonised: string | null
  /** Which source holds the row: a registry's key for its own exports, `offsetsdb` for the archive. */
  source_name: string | null
  /**
   * Stated by CARB's issuance table (migration 0014): a project with any such transaction counts only those in its
   * totals (ingest/ledger-import.repository.ts ledgerSums). SQLite gives 0/1.
   */
  from_carb: Generated<boolean | number>
}

/** Every file an import read, by content: the same bytes under another name are the same file. */
interface ImportedFileTable {
  registry: string
  sha256: string
  name: string
  imported_at: string
}

interface ProjectSdgTable {
  project_id: number
  position: number
  sdg: number
}

interface ProjectImageTable {
  project_id: number
  position: number
  title: string
  /** A file in the media store, linked with a signed URL at response time. */
  media_key: string | null
  /** An image hosted elsewhere (absolute https URL in the import), returned as given. */
  external_url: string | null
}

export interface ApiKeyTable {
  id: string
  name: string
  key_hash: string
  /** Comma-separated scopes, e.g. "catalogue:read". */
  scopes: string
  rate_limit_per_minute: number | null
  created_at: string
  revoked_at: string | null
}

/** A source the catalogue is filled from (a registry's exports, OffsetsDB's archive), and its last sync. */
export interface SourceTable {
  name: string
  /** `offsetsdb` or a registry key. */
  kind: string
  url: string | null
  /** ISO 8601 UTC. */
  last_checked_at: string | null
  last_changed_at: string | null
  /** The date the source's data describes (the archive's snapshot date), ISO 8601. */
  data_as_of: string | null
  sha256: string | null
  etag: string | null
  last_modified: string | null
  /** What the last attempt did: `changed`, `unchanged`, `not_modified` or `failed`. */
  last_status: string | null
  last_error: string | null
  projects: number | null
  transactions: number | null
  /** The attribution or terms to show with the source's data. */
  attribution: string | null
}

/** Which sources state each project. */
interface ProjectSourceTable {
  project_id: number
  source_name: string
  /** What the source last said of the project's ledger (a digest of OffsetsDB's credits); null: not kept. */
  digest: string | null
}

/** A named lease (`sync`): who holds it, until when (ISO 8601 UTC); the holder renews it while it works. */
interface LeaseTable {
  name: string
  holder: string
  expires_at: string
}

interface MetaTable {
  key: string
  value: string
}

/** Migration 0011: the date of the project export that last stated each registry project. */
interface ProjectExportDateTable {
  registry: string
  external_id: string
  as_of: string
}

export interface Database {
  registries: VocabularyTable
  standards: VocabularyTable
  credit_types: VocabularyTable
  ratings: VocabularyTable
  certifications: VocabularyTable
  sdgs: SdgTable
  countries: CountryTable
  country_aliases: CountryAliasTable
  projects: ProjectTable
  project_vintages: ProjectVintageTable
  project_certifications: ProjectCertificationTable
  project_sdgs: ProjectSdgTable
  project_images: ProjectImageTable
  project_protocols: ProjectProtocolTable
  credit_transactions: CreditTransactionTable
  ledger_counts: LedgerCountsTable
  imported_files: ImportedFileTable
  project_export_dates: ProjectExportDateTable
  sources: SourceTable
  project_sources: ProjectSourceTable
  leases: LeaseTable
  meta: MetaTable
  api_keys: ApiKeyTable
}

export type Db = Kysely<Database>
export type ProjectRow = Selectable<ProjectTable>
export type NewProjectRow = Insertable<ProjectTable>
export type NewCreditTransactionRow = Insertable<CreditTransactionTable>
export type CreditTransactionRow = Selectable<CreditTransactionTable>

/** Rows per statement (an INSERT's values, an IN list): under SQLite's and PostgreSQL's parameter limits. */
export const CHUNK = 400

/** The vocabulary tables that share the `{name_id, verbose_name}` shape. */
export type VocabularyName = 'registries' | 'standards' | 'credit_types' | 'ratings' | 'certifications'

/**
 * Which database `db` runs on; the one place that asks (the search and the import lock differ by
 * kind). Released migrations keep their own check, as they were written.
 */
export function databaseKind (db: Db): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres'
}
