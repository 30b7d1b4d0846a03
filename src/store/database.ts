import type { Kysely, Selectable, Insertable } from 'kysely'

/** A row of a vocabulary table: registries, standards, credit types, ratings, certifications. */
export interface VocabularyTable {
  name_id: string
  verbose_name: string
}

export interface SdgTable {
  number: number
  name_id: string
  verbose_name: string
  colour: string
}

export interface CountryTable {
  name: string
  /** Lower-case name: the location filter is case-insensitive. */
  name_key: string
  alpha2: string | null
  alpha3: string | null
}

export interface ProjectTable {
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
}

export interface ProjectCertificationTable {
  project_id: number
  position: number
  certification: string
}

export interface ProjectSdgTable {
  project_id: number
  position: number
  sdg: number
}

export interface ProjectImageTable {
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

export interface MetaTable {
  key: string
  value: string
}

export interface Database {
  registries: VocabularyTable
  standards: VocabularyTable
  credit_types: VocabularyTable
  ratings: VocabularyTable
  certifications: VocabularyTable
  sdgs: SdgTable
  countries: CountryTable
  projects: ProjectTable
  project_certifications: ProjectCertificationTable
  project_sdgs: ProjectSdgTable
  project_images: ProjectImageTable
  meta: MetaTable
  api_keys: ApiKeyTable
}

export type Db = Kysely<Database>
export type ProjectRow = Selectable<ProjectTable>
export type NewProjectRow = Insertable<ProjectTable>

/** The vocabulary tables that share the `{name_id, verbose_name}` shape. */
export const VOCABULARY_TABLES = ['registries', 'standards', 'credit_types', 'ratings', 'certifications'] as const
export type VocabularyName = typeof VOCABULARY_TABLES[number]
