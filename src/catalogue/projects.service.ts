import type { Db, VocabularyName } from '../store/database.ts'
import { InvalidParameterError, ProjectNotFoundError } from './catalogue.errors.ts'
import { isCalendarDay } from '../domain/calendar.ts'
import {
  FACETS, OPTIONAL_ORDERING_FIELDS, type OptionalOrderingField, ORDERING_FIELDS, type Facet, type GeoJsonQuery,
  type OrderingField, type ProjectCsvRow, type ProjectFilterQuery, type ProjectListItem, type ProjectListQuery
} from './catalogue.schemas.ts'
import { closestCountry, countryKey } from './countries.ts'
import { detailJson } from './project-json.ts'
import * as projectList from './project-list.repository.ts'
import { facetCounts } from './project-facets.repository.ts'
import * as vocabularies from './vocabularies.repository.ts'

type VocabularyFilter = 'creditType' | 'registry' | 'rating' | 'certification'

type VocabularyParameter = 'credit_type' | 'registry' | 'rating' | 'certification'

const VOCABULARY_FILTERS: ReadonlyArray<[VocabularyFilter, VocabularyParameter, VocabularyName]> = [
  ['creditType', 'credit_type', 'credit_types'],
  ['registry', 'registry', 'registries'],
  ['rating', 'rating', 'ratings'],
  ['certification', 'certification', 'certifications']
]

/** Validates the filters against the vocabularies in the database and normalises them. */
async function resolveFilters (db: Db, query: ProjectFilterQuery): Promise<projectList.ProjectFilters> {
  const filters: projectList.ProjectFilters = {}
  if (query.in_sale !== undefined) filters.inSale = ['true', 'True', '1'].includes(query.in_sale)
  if (query.location !== undefined) filters.locationKey = (await resolveCountry(db, query.location)).toLowerCase()
  for (const [key, parameter, table] of VOCABULARY_FILTERS) {
    const value = query[parameter]
    if (value === undefined) continue
    // Case does not matter, as for location: registry=verra is VERRA.
    const nameId = await vocabularies.vocabularyNameId(db, table, value)
    if (nameId === undefined) {
      const allowed = await vocabularies.vocabularyValues(db, table)
      throw new InvalidParameterError(parameter,
        `${parameter} "${value}" is not a known value; valid values: ${allowed.join(', ')}.`, allowed)
    }
    filters[key] = nameId
  }
  for (const field of ['status', 'category', 'protocol'] as const) {
    const value = query[field]
    if (value !== undefined) filters[field] = await resolveText(db, field, value)
  }
  if (query.is_compliance !== undefined) filters.isCompliance = ['true', 'True', '1'].includes(query.is_compliance)
  if (query.vintage !== undefined) filters.vintage = query.vintage
  if (query.sdg !== undefined) filters.sdg = await resolveSdg(db, query.sdg)
  if (query.updated_since !== undefined) filters.updatedSince = parseTimestamp(query.updated_since)
  if (query.bbox !== undefined) filters.bbox = parseBbox(query.bbox)
  const search = query.search?.trim().toLowerCase()
  if (search !== undefined && search !== '') filters.search = search
  return filters
}

/**
 * A status, category or methodology id, matched ignoring case (as the vocabularies are) → every stored spelling
 * of it; unknown → a 400 with the stored values.
 */
async function resolveText (db: Db, field: 'status' | 'category' | 'protocol', value: string): Promise<string[]> {
  const stored = await vocabularies.distinctValues(db, field)
  const wanted = value.trim().toLowerCase()
  const spellings = stored.filter((s) => s.toLowerCase() === wanted)
  if (spellings.length === 0) {
    throw new InvalidParameterError(field, `${field} "${value}" is not a known value; valid values: ` +
      `${stored.join(', ')}.`, stored)
  }
  return spellings
}

/** A country name, ISO code or alias → the canonical name; unknown → the names, and the closest one. */
async function resolveCountry (db: Db, text: string): Promise<string> {
  const name = await vocabularies.countryByKey(db, countryKey(text))
  if (name !== undefined) return name
  const closest = closestCountry(text, await vocabularies.countryAliases(db))
  throw new InvalidParameterError('location',
    `location "${text}" is not a known country${closest === undefined ? '' : `; did you mean "${closest}"?`} ` +
    'Give a country name, an ISO 3166 alpha-2 or alpha-3 code; allowed_values lists the names.',
    await vocabularies.countryNames(db))
}

async function resolveSdg (db: Db, text: string): Promise<number> {
  const goals = await vocabularies.sdgNumbersByNameId(db)
  const wanted = text.trim().toUpperCase()
  for (const [nameId, number] of goals) {
    if (nameId === wanted || String(number) === wanted.replace(/^0+(?=\d)/, '')) return number
  }
  const allowed = [...goals.keys()]
  throw new InvalidParameterError('sdg', `sdg "${text}" is not a goal: give its number (1 to 17) or name_id.`, allowed)
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/i

/**
 * An ISO 8601 date (midnight UTC) or date-time with a zone → the stored form (UTC, milliseconds). A "+" that a
 * query string turned into a space is read back as "+".
 */
function parseTimestamp (text: string): string {
  const match = TIMESTAMP.exec(text.trim().replace(/ (\d{2}:?\d{2})$/, '+$1'))
  const fail = (): never => {
    throw new InvalidParameterError('updated_since', `updated_since "${text}" is not an ISO 8601 date (2026-11-23) ` +
      'or date-time with a time zone (2026-11-23T10:00:00Z).')
  }
  if (match === null) return fail()
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match
  const offset = zone.toUpperCase() === 'Z' ? '+00:00' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')
  const millis = fraction === '' ? '' : fraction.slice(0, 4).padEnd(4, '0')
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${millis}${offset}`)
  const realDay = isCalendarDay(Number(year), Number(month), Number(day))
  const realTime = Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 59
  if (Number.isNaN(date.getTime()) || !realDay || !realTime) return fail()
  return date.toISOString()
}

/** `minLon,minLat,maxLon,maxLat` in degrees; minLon > maxLon crosses the antimeridian. */
function parseBbox (text: string): NonNullable<projectList.ProjectFilters['bbox']> {
  const parts = text.split(',').map((p) => p.trim())
  const numbers = parts.map((p) => /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(p) ? Number(p) : NaN)
  const fail = (why: string): never => {
    throw new InvalidParameterError('bbox',
      `bbox "${text}" ${why}: give minLon,minLat,maxLon,maxLat in degrees, e.g. -10,35,30,60.`)
  }
  if (numbers.length !== 4 || numbers.some((n) => !Number.isFinite(n))) return fail('is not four numbers')
  const [minLon, minLat, maxLon, maxLat] = numbers as [number, number, number, number]
  if ([minLon, maxLon].some((lon) => lon < -180 || lon > 180)) return fail('has a longitude outside -180 to 180')
  if ([minLat, maxLat].some((lat) => lat < -90 || lat > 90)) return fail('has a latitude outside -90 to 90')
  if (minLat > maxLat) return fail('has minLat greater than maxLat')
  return { minLon, minLat, maxLon, maxLat }
}

/** `ordering=name,-date` → terms, with id appended as the tie-breaker so pages are stable. */
function parseOrdering (text: string | undefined): projectList.OrderTerm[] {
  const terms: projectList.OrderTerm[] = []
  for (const part of (text ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const descending = part.startsWith('-')
    const field = descending ? part.slice(1) : part
    if (!(ORDERING_FIELDS as readonly string[]).includes(field)) {
      throw new InvalidParameterError('ordering', `ordering field "${field}" is not allowed; valid fields: ` +
        `${ORDERING_FIELDS.join(', ')} (prefix "-" for descending).`, [...ORDERING_FIELDS])
    }
    if (terms.some((t) => t.field === field)) {
      throw new InvalidParameterError('ordering', `ordering names "${field}" twice.`)
    }
    terms.push({ field: field as OrderingField, descending })
  }
  if (!terms.some((t) => t.field === 'id')) terms.push({ field: 'id', descending: false })
  return terms
}

/**
 * Where counts are remembered: the route hands in the service's one answer cache, keyed by the catalogue
 * version, so a page after the first of a filter costs no count and any import starts afresh.
 */
export type CountMemo = (key: string, count: () => Promise<number>) => Promise<number>

type Counter = (db: Db, filters: projectList.ProjectFilters) => Promise<number>

async function cachedCount (
  db: Db, memo: CountMemo, name: 'projects' | 'located', filters: projectList.ProjectFilters
): Promise<number> {
  const count: Counter = name === 'projects' ? projectList.countProjects : projectList.countLocated
  // resolveFilters builds the filters in one fixed order, so equal filters give equal text.
  return await memo(`${name} ${JSON.stringify(filters)}`, async () => await count(db, filters))
}

/** A page as unsigned JSON parts: the total and each item's stored JSON (media placeholders unsigned). */
export async function listProjectPage (db: Db, query: ProjectListQuery, counts: CountMemo): Promise<{
  count: number,
  items: string[]
}> {
  const filters = await resolveFilters(db, query)
  const ordering = parseOrdering(query.ordering)
  const [count, rows] = await Promise.all([
    cachedCount(db, counts, 'projects', filters),
    projectList.listProjectJson(db, filters, ordering, query.limit, query.offset)
  ])
  return { count, items: rows.map((row) => row.item_json ?? missingJson(row.id)) }
}

/** Checks the filters (a bad one throws its domain error) before an answer starts streaming. */
export async function resolveProjectFilters (db: Db, query: ProjectFilterQuery): Promise<void> {
  await resolveFilters(db, query)
}

/** Projects read per query while a CSV streams: memory stays bounded whatever the catalogue's size. */
const CSV_BATCH = 500

/** Every project matching the filters, in the list's order (limit and offset do not apply), as list items. */
export async function * allMatchingProjects (
  db: Db, query: ProjectFilterQuery & { ordering?: string | undefined }
): AsyncGenerator<ProjectCsvRow> {
  const filters = await resolveFilters(db, query)
  const ordering = parseOrdering(query.ordering)
  for (let offset = 0; ; offset += CSV_BATCH) {
    const rows = await projectList.listProjectJson(db, filters, ordering, CSV_BATCH, offset)
    for (const row of rows) {
      yield { ...JSON.parse(row.item_json ?? missingJson(row.id)) as ProjectListItem, external_id: row.external_id }
    }
    if (rows.length < CSV_BATCH) return
  }
}

/** The detail as unsigned JSON. */
export async function getProjectJson (db: Db, id: number): Promise<string> {
  const row = await projectList.findProjectJson(db, id)
  if (row === undefined) throw new ProjectNotFoundError(id)
  return detailJson(row.item_json ?? missingJson(id), row.external_id, row.detail_json ?? missingJson(id))
}

function missingJson (id: number): never {
  // Imports build the JSON and start-up fills any gap, so this is a bug, reported as a 500.
  throw new Error(`project ${id} has no stored JSON`)
}

const FILTER_OF_FACET: Record<Facet, keyof projectList.ProjectFilters> = {
  registry: 'registry',
  location: 'locationKey',
  credit_type: 'creditType',
  rating: 'rating',
  in_sale: 'inSale',
  vintage: 'vintage',
  certification: 'certification',
  sdg: 'sdg',
  status: 'status',
  category: 'category',
  protocol: 'protocol',
  is_compliance: 'isCompliance'
}

/** The yes/no facets: labels of true and false (SQLite stores booleans as 0/1). */
const BOOLEAN_LABELS: Partial<Record<Facet, readonly [string, string]>> = {
  in_sale: ['In sale', 'Not in sale'],
  is_compliance: ['Compliance', 'Voluntary']
}

interface FacetValue { value: string, label: string, count: number }
interface ProjectFacets {
  count: number
  facets: Record<Facet, FacetValue[]>
  /** Per optional field the list can order by, how many matching projects have a value (an ordering UI offers it). */
  with_value: Record<OptionalOrderingField, number>
}

/**
 * For the projects matching the filters: their count, and per facet the count of each value, computed with
 * the facet's own filter left out (so a filter panel can offer the other values). Values of no project are absent.
 */
export async function projectFacets (
  db: Db, query: ProjectFilterQuery, counts: CountMemo
): Promise<ProjectFacets> {
  const filters = await resolveFilters(db, query)
  const facets = {} as Record<Facet, FacetValue[]>
  for (const facet of FACETS) {
    const { [FILTER_OF_FACET[facet]]: _own, ...others } = filters
    const values = (await facetCounts(db, others, facet)).map((row) => ({
      value: BOOLEAN_LABELS[facet] === undefined ? String(row.value) : String(Boolean(row.value)),
      label: BOOLEAN_LABELS[facet]?.[row.value ? 0 : 1] ?? String(row.label),
      count: Number(row.count)
    }))
    facets[facet] = values.sort(facet === 'vintage'
      ? (a, b) => Number(a.value) - Number(b.value)
      : (a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
  }
  return {
    count: await cachedCount(db, counts, 'projects', filters),
    facets,
    with_value: await projectList.countWithValues(db, filters, OPTIONAL_ORDERING_FIELDS)
  }
}

/** Matching projects with a country and no position in one country. */
type CountryCount = Awaited<ReturnType<typeof projectList.countUnlocatedByCountry>>[number]

/**
 * A page of the matching located projects as GeoJSON Feature strings, in the list's order, and their total; and the
 * matching projects without a position, per country, for a map to show by their country.
 */
export async function projectFeatures (
  db: Db, query: GeoJsonQuery, counts: CountMemo
): Promise<{ count: number, features: string[], countries: CountryCount[] }> {
  const filters = await resolveFilters(db, query)
  const ordering = parseOrdering(query.ordering)
  const [count, rows, countries] = await Promise.all([
    cachedCount(db, counts, 'located', filters),
    projectList.listLocated(db, filters, ordering, query.limit, query.offset),
    projectList.countUnlocatedByCountry(db, filters)
  ])
  return {
    count,
    countries,
    features: rows.map((row) => JSON.stringify({
      type: 'Feature',
      id: row.id,
      geometry: { type: 'Point', coordinates: [row.longitude, row.latitude] },
      properties: {
        id: row.id,
        name: row.name,
        registry: row.registry,
        credit_type: row.credit_type,
        credits_issued: row.credits_issued,
        credits_retired: row.credits_retired
      }
    }))
  }
}
