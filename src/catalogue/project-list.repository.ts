import { sql, type SqlBool } from 'kysely'
import { databaseKind, type Db } from '../store/database.ts'
import type { OrderingField } from './catalogue.schemas.ts'

// The list's SQL: which projects match the filters, how many, in which order, and one page of them.

export interface ProjectFilters {
  inSale?: boolean
  locationKey?: string
  creditType?: string
  registry?: string
  rating?: string
  /** A vintage year with credits. */
  vintage?: number
  certification?: string
  /** An SDG number, 1 to 17. */
  sdg?: number
  /** ISO 8601 UTC, the stored format: updated_at at or after it. */
  updatedSince?: string
  /** Degrees; minLon > maxLon crosses the antimeridian. */
  bbox?: { minLon: number, minLat: number, maxLon: number, maxLat: number }
  /** Lower-case text to find inside `search_text`. */
  search?: string
  /** The stored spellings of one status, category or methodology id (a filter ignores case). */
  status?: string[]
  category?: string[]
  protocol?: string[]
  isCompliance?: boolean
}

export interface OrderTerm {
  field: OrderingField
  descending: boolean
}

/**
 * The filters a project meets when one of its rows in a table of its lists has the value (any of the values): its
 * methodologies, vintages, certifications and SDGs.
 */
const LIST_FILTERS = [
  ['protocol', 'project_protocols', 'protocol'],
  ['vintage', 'project_vintages', 'vintage'],
  ['certification', 'project_certifications', 'certification'],
  ['sdg', 'project_sdgs', 'sdg']
] as const

/** The projects that match these filters (the list, the map and the facets count over it). */
export function filteredProjects (db: Db, filters: ProjectFilters) {
  let query = db.selectFrom('projects as p')
  if (filters.inSale !== undefined) query = query.where('p.in_sale', '=', filters.inSale)
  if (filters.locationKey !== undefined) query = query.where('p.location_key', '=', filters.locationKey)
  if (filters.creditType !== undefined) query = query.where('p.credit_type', '=', filters.creditType)
  if (filters.registry !== undefined) query = query.where('p.registry', '=', filters.registry)
  if (filters.rating !== undefined) query = query.where('p.rating', '=', filters.rating)
  if (filters.status !== undefined) query = query.where('p.status', 'in', filters.status)
  if (filters.category !== undefined) query = query.where('p.category', 'in', filters.category)
  if (filters.isCompliance !== undefined) query = query.where('p.is_compliance', '=', filters.isCompliance)
  const { updatedSince, bbox } = filters
  for (const [filter, table, column] of LIST_FILTERS) {
    const value = filters[filter]
    if (value === undefined) continue
    query = query.where(({ exists, selectFrom }) => exists(selectFrom(table).select('project_id')
      .whereRef('project_id', '=', 'p.id').where(column, 'in', typeof value === 'object' ? value : [value])))
  }
  if (updatedSince !== undefined) query = query.where('p.updated_at', '>=', updatedSince)
  if (bbox !== undefined) {
    query = query.where('p.latitude', '>=', bbox.minLat).where('p.latitude', '<=', bbox.maxLat)
    query = bbox.minLon <= bbox.maxLon
      ? query.where('p.longitude', '>=', bbox.minLon).where('p.longitude', '<=', bbox.maxLon)
      : query.where((eb) => eb.or([eb('p.longitude', '>=', bbox.minLon), eb('p.longitude', '<=', bbox.maxLon)]))
  }
  if (filters.search !== undefined) {
    const phrase = trigramPhrase(db, filters)
    if (phrase !== undefined) {
      query = query.where('p.id', 'in',
        sql<number>`(select rowid from projects_search where projects_search match ${phrase})`)
    } else {
      const pattern = `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
      query = query.where(sql<SqlBool>`p.search_text like ${pattern} escape '\\'`)
    }
  }
  return query
}

/**
 * On SQLite, the trigram index (migration 0003) answers substrings of 3+ characters; as an FTS phrase every
 * character is literal. PostgreSQL's trigram index serves a LIKE as it is (undefined here).
 */
function trigramPhrase (db: Db, filters: ProjectFilters): string | undefined {
  if (filters.search === undefined || databaseKind(db) !== 'sqlite') return undefined
  return [...filters.search].length >= 3 ? `"${filters.search.replace(/"/g, '""')}"` : undefined
}

/** The ids of one page: OFFSET walks every row it skips, so it walks ids only (an index, migration 0006). */
function pageIds (db: Db, filters: ProjectFilters, ordering: readonly OrderTerm[], limit: number, offset: number) {
  const phrase = trigramPhrase(db, filters)
  const byId = ordering.length === 1 && ordering[0]!.field === 'id'
  if (phrase === undefined || !byId) {
    return ordered(filteredProjects(db, filters).select('p.id'), ordering).limit(limit).offset(offset)
  }
  // FTS5 yields its matches in rowid order: joined and ordered by rowid, a page stops at its last match
  // instead of collecting every match first (a first page at 200,000 projects: 27 -> 0.6 ms).
  const { search: _search, ...others } = filters
  return filteredProjects(db, others)
    .innerJoin(sql`projects_search`.as('s'), (join) => join.on(sql<SqlBool>`s.rowid = p.id`))
    .where(sql<SqlBool>`projects_search match ${phrase}`)
    .select('p.id')
    .orderBy(sql`s.rowid`, ordering[0]!.descending ? 'desc' : 'asc')
    .limit(limit).offset(offset)
}

export async function countProjects (db: Db, filters: ProjectFilters): Promise<number> {
  const row = await filteredProjects(db, filters)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow()
  // PostgreSQL returns count(*) as a bigint string.
  return Number(row.count)
}

type ProjectQuery = ReturnType<typeof filteredProjects>

function ordered<Q extends Pick<ProjectQuery, 'orderBy'>> (query: Q, ordering: readonly OrderTerm[]): Q {
  for (const term of ordering) {
    // Nulls last in both directions, on both databases (SQLite would put them first).
    // Location sorts case-insensitively, by the indexed lower-case key the filter uses too.
    const column = term.field === 'location' ? 'location_key' : term.field
    query = query.orderBy(`p.${column}`, (ob) => term.descending ? ob.desc().nullsLast() : ob.asc().nullsLast()) as
      unknown as Q
  }
  return query
}

/** One page of list items as stored JSON: an indexed query, no joins. */
export async function listProjectJson (
  db: Db, filters: ProjectFilters, ordering: readonly OrderTerm[], limit: number, offset: number
): Promise<Array<{ id: number, external_id: string, item_json: string | null }>> {
  // The page's ids first, then the JSON of those rows only.
  const page = pageIds(db, filters, ordering, limit, offset)
  const query = db.selectFrom('projects as p').select(['p.id', 'p.external_id', 'p.item_json'])
    .where('p.id', 'in', page)
  return await ordered(query, ordering).execute()
}

function located (db: Db, filters: ProjectFilters) {
  return filteredProjects(db, filters).where('p.latitude', 'is not', null).where('p.longitude', 'is not', null)
}

interface LocatedRow {
  id: number
  name: string
  registry: string
  credit_type: string | null
  credits_issued: number | null
  credits_retired: number | null
  latitude: number | null
  longitude: number | null
}

/** A page of the matching projects that have a position (GeoJSON), in the list's order. */
export async function listLocated (
  db: Db, filters: ProjectFilters, ordering: readonly OrderTerm[], limit: number, offset: number
): Promise<LocatedRow[]> {
  const query = located(db, filters)
    .select(['p.id', 'p.name', 'p.registry', 'p.credit_type', 'p.credits_issued', 'p.credits_retired', 'p.latitude',
      'p.longitude'])
  return await ordered(query, ordering).limit(limit).offset(offset).execute()
}

/** Matching projects with a country but no position, per country (the map shows them by their country). */
export async function countUnlocatedByCountry (
  db: Db, filters: ProjectFilters
): Promise<Array<{ location: string, alpha2: string | null, count: number }>> {
  const rows = await filteredProjects(db, filters)
    .where((eb) => eb.or([eb('p.latitude', 'is', null), eb('p.longitude', 'is', null)]))
    .where('p.location', '<>', '')
    .leftJoin('countries as co', 'co.name', 'p.location')
    .select((eb) => ['p.location', 'co.alpha2', eb.fn.countAll().as('count')])
    .groupBy(['p.location', 'co.alpha2'])
    .orderBy('p.location')
    .execute()
  // PostgreSQL returns count(*) as a bigint string.
  return rows.map((row) => ({ location: row.location, alpha2: row.alpha2, count: Number(row.count) }))
}

export async function countLocated (db: Db, filters: ProjectFilters): Promise<number> {
  const row = await located(db, filters).select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Optional fields the list can order by: how many matching projects have a value for each (SQL count skips nulls). */
export async function countWithValues<F extends string> (
  db: Db, filters: ProjectFilters, fields: readonly F[]
): Promise<Record<F, number>> {
  const row = await filteredProjects(db, filters)
    .select((eb) => fields.map((field) => eb.fn.count(`p.${field}` as 'p.date').as(field)))
    .executeTakeFirstOrThrow() as Record<string, number | string>
  return Object.fromEntries(fields.map((field) => [field, Number(row[field])])) as Record<F, number>
}

export async function findProjectJson (
  db: Db, id: number
): Promise<{ external_id: string, item_json: string | null, detail_json: string | null } | undefined> {
  return await db.selectFrom('projects').select(['external_id', 'item_json', 'detail_json']).where('id', '=', id)
    .executeTakeFirst()
}
