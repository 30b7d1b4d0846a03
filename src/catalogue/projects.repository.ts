import { randomUUID } from 'node:crypto'
import { sql, type SqlBool } from 'kysely'
import { announceChange } from '../store/change-feed.ts'
import { getMeta, setMeta } from '../store/meta.repository.ts'
import {
  databaseKind, type CreditTransactionRow, type Db, type NewCreditTransactionRow, type NewProjectRow, type ProjectRow,
  type VocabularyName, type VocabularyTable
} from '../store/database.ts'
import type { Facet, OrderingField } from './catalogue.schemas.ts'
import type { LedgerSum } from './ledger-totals.ts'

// All catalogue SQL lives here. Functions take the database (or a transaction) first and deal in rows.

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

/** A project row with the verbose names of its vocabulary references and its country's ISO codes. */
export interface ProjectRecordRow extends ProjectRow {
  registry_name: string
  standard_name: string
  credit_type_name: string | null
  rating_name: string | null
  location_alpha2: string | null
  location_alpha3: string | null
}

interface NamedRow { project_id: number, name_id: string, verbose_name: string }
interface SdgRow extends NamedRow { number: number }
interface ImageRow { project_id: number, title: string, media_key: string | null, external_url: string | null }
interface VintageRow {
  project_id: number
  vintage: number
  issued: number | null
  retired: number | null
  cancelled: number | null
  /** SQLite gives 0/1. */
  corsia_eligible: number | boolean | null
}
interface ProtocolRow { project_id: number, protocol: string }

export interface ProjectRelations {
  certifications: Map<number, NamedRow[]>
  sdgs: Map<number, SdgRow[]>
  images: Map<number, ImageRow[]>
  vintages: Map<number, VintageRow[]>
  protocols: Map<number, ProtocolRow[]>
  /** The sources that state each project (project_sources), by name. */
  sources: Map<number, Array<{ project_id: number, source_name: string }>>
}

/** Rows per INSERT: keeps every statement under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 400

function filteredProjects (db: Db, filters: ProjectFilters) {
  let query = db.selectFrom('projects as p')
  if (filters.inSale !== undefined) query = query.where('p.in_sale', '=', filters.inSale)
  if (filters.locationKey !== undefined) query = query.where('p.location_key', '=', filters.locationKey)
  if (filters.creditType !== undefined) query = query.where('p.credit_type', '=', filters.creditType)
  if (filters.registry !== undefined) query = query.where('p.registry', '=', filters.registry)
  if (filters.rating !== undefined) query = query.where('p.rating', '=', filters.rating)
  if (filters.status !== undefined) query = query.where('p.status', 'in', filters.status)
  if (filters.category !== undefined) query = query.where('p.category', 'in', filters.category)
  if (filters.isCompliance !== undefined) query = query.where('p.is_compliance', '=', filters.isCompliance)
  const { vintage, certification, sdg, updatedSince, bbox, protocol } = filters
  if (protocol !== undefined) {
    query = query.where(({ exists, selectFrom }) => exists(selectFrom('project_protocols as pp')
      .select('pp.position').whereRef('pp.project_id', '=', 'p.id').where('pp.protocol', 'in', protocol)))
  }
  if (vintage !== undefined) {
    query = query.where(({ exists, selectFrom }) => exists(selectFrom('project_vintages as pv').select('pv.vintage')
      .whereRef('pv.project_id', '=', 'p.id').where('pv.vintage', '=', vintage)))
  }
  if (certification !== undefined) {
    query = query.where(({ exists, selectFrom }) => exists(selectFrom('project_certifications as pc')
      .select('pc.position').whereRef('pc.project_id', '=', 'p.id').where('pc.certification', '=', certification)))
  }
  if (sdg !== undefined) {
    query = query.where(({ exists, selectFrom }) => exists(selectFrom('project_sdgs as ps').select('ps.position')
      .whereRef('ps.project_id', '=', 'p.id').where('ps.sdg', '=', sdg)))
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

function withNames (db: Db, filters: ProjectFilters) {
  return filteredProjects(db, filters)
    .innerJoin('registries as r', 'r.name_id', 'p.registry')
    .innerJoin('standards as s', 's.name_id', 'p.standard')
    .leftJoin('credit_types as ct', 'ct.name_id', 'p.credit_type')
    .leftJoin('ratings as ra', 'ra.name_id', 'p.rating')
    .leftJoin('countries as co', 'co.name', 'p.location')
    .selectAll('p')
    .select([
      'r.verbose_name as registry_name',
      's.verbose_name as standard_name',
      'ct.verbose_name as credit_type_name',
      'ra.verbose_name as rating_name',
      'co.alpha2 as location_alpha2',
      'co.alpha3 as location_alpha3'
    ])
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

interface FacetRow { value: string | number | boolean, label: string | number | boolean, count: number | string }

const COUNT = sql<number>`count(*)`.as('count')
/** A project with a value twice (two positions of one certification) counts once. */
const COUNT_PROJECTS = sql<number>`count(distinct p.id)`.as('count')

/** Matching projects per value of one facet (values no project has never appear). */
export async function facetCounts (db: Db, filters: ProjectFilters, facet: Facet): Promise<FacetRow[]> {
  const base = filteredProjects(db, filters)
  switch (facet) {
    case 'registry':
    case 'credit_type':
    case 'rating': {
      const table = ({ registry: 'registries', credit_type: 'credit_types', rating: 'ratings' } as const)[facet]
      return await base.innerJoin(`${table} as v`, 'v.name_id', `p.${facet}`)
        .select(['v.name_id as value', 'v.verbose_name as label', COUNT])
        .groupBy(['v.name_id', 'v.verbose_name']).execute()
    }
    case 'location':
      return await base.where('p.location', '<>', '')
        .select(['p.location as value', 'p.location as label', COUNT])
        .groupBy('p.location').execute()
    case 'in_sale':
      return await base.select(['p.in_sale as value', 'p.in_sale as label', COUNT])
        .groupBy('p.in_sale').execute()
    case 'vintage':
      return await base.innerJoin('project_vintages as pv', 'pv.project_id', 'p.id')
        .select(['pv.vintage as value', 'pv.vintage as label', COUNT])
        .groupBy('pv.vintage').execute()
    case 'certification':
      return await base.innerJoin('project_certifications as pc', 'pc.project_id', 'p.id')
        .innerJoin('certifications as c', 'c.name_id', 'pc.certification')
        .select(['c.name_id as value', 'c.verbose_name as label', COUNT_PROJECTS])
        .groupBy(['c.name_id', 'c.verbose_name']).execute()
    case 'sdg':
      return await base.innerJoin('project_sdgs as ps', 'ps.project_id', 'p.id')
        .innerJoin('sdgs as s', 's.number', 'ps.sdg')
        .select(['s.name_id as value', 's.verbose_name as label', COUNT_PROJECTS])
        .groupBy(['s.name_id', 's.verbose_name']).execute()
    // Spellings that differ only in case are one value, as for the filter: counted once, shown in one spelling.
    case 'status':
    case 'category': {
      const column = sql.ref(`p.${facet}`)
      return await base.where(`p.${facet}`, 'is not', null)
        .select([sql<string>`min(${column})`.as('value'), sql<string>`min(${column})`.as('label'), COUNT])
        .groupBy(sql`lower(${column})`).execute()
    }
    case 'is_compliance':
      return await base.where('p.is_compliance', 'is not', null)
        .select(['p.is_compliance as value', 'p.is_compliance as label', COUNT]).groupBy('p.is_compliance')
        .execute() as FacetRow[]
    case 'protocol':
      return await base.innerJoin('project_protocols as pp', 'pp.project_id', 'p.id')
        .select([sql<string>`min(pp.protocol)`.as('value'), sql<string>`min(pp.protocol)`.as('label'),
          COUNT_PROJECTS])
        .groupBy(sql`lower(pp.protocol)`).execute()
  }
}

export async function findProjectJson (
  db: Db, id: number
): Promise<{ external_id: string, item_json: string | null, detail_json: string | null } | undefined> {
  return await db.selectFrom('projects').select(['external_id', 'item_json', 'detail_json']).where('id', '=', id)
    .executeTakeFirst()
}

/** Full rows (with vocabulary names) of these projects, to build their JSON. */
export async function projectsByIds (db: Db, ids: readonly number[]): Promise<ProjectRecordRow[]> {
  const rows: ProjectRecordRow[] = []
  for (let i = 0; i < ids.length; i += CHUNK) {
    rows.push(...await withNames(db, {}).where('p.id', 'in', ids.slice(i, i + CHUNK)).execute())
  }
  return rows
}

export interface StoredJson {
  id: number
  item_json: string
  detail_json: string
  content_hash: string
  created_at: string
  updated_at: string
}

export async function setStoredJson (db: Db, items: readonly StoredJson[]): Promise<void> {
  for (const { id, ...columns } of items) {
    await db.updateTable('projects').set(columns).where('id', '=', id).execute()
  }
}

/** Ids after `after`, in order, `batch` at a time; `missingJsonOnly` for an upgraded database. */
export async function projectIdsAfter (db: Db, after: number, batch: number,
  missingJsonOnly = false): Promise<number[]> {
  let query = db.selectFrom('projects').select('id').where('id', '>', after)
  if (missingJsonOnly) query = query.where('item_json', 'is', null)
  return (await query.orderBy('id').limit(batch).execute()).map((r) => r.id)
}

/** The stored verbose names of these name_ids, to tell which an import renames. */
export async function vocabularyNames (db: Db, table: VocabularyName, nameIds: readonly string[]): Promise<Map<string,
  string>> {
  const names = new Map<string, string>()
  for (let i = 0; i < nameIds.length; i += CHUNK) {
    const rows = await db.selectFrom(table).select(['name_id', 'verbose_name']).where('name_id', 'in',
      nameIds.slice(i, i + CHUNK)).execute()
    for (const row of rows) names.set(row.name_id, row.verbose_name)
  }
  return names
}

export async function loadRelations (db: Db, ids: readonly number[]): Promise<ProjectRelations> {
  const relations: ProjectRelations = {
    certifications: new Map(),
    sdgs: new Map(),
    images: new Map(),
    vintages: new Map(),
    protocols: new Map(),
    sources: new Map()
  }
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK)
    const [certifications, sdgs, images, vintages, protocols, sources] = await Promise.all([
      db.selectFrom('project_certifications as pc')
        .innerJoin('certifications as c', 'c.name_id', 'pc.certification')
        .select(['pc.project_id', 'c.name_id', 'c.verbose_name'])
        .where('pc.project_id', 'in', chunk)
        .orderBy('pc.project_id').orderBy('pc.position')
        .execute(),
      db.selectFrom('project_sdgs as ps')
        .innerJoin('sdgs as s', 's.number', 'ps.sdg')
        .select(['ps.project_id', 's.number', 's.name_id', 's.verbose_name'])
        .where('ps.project_id', 'in', chunk)
        .orderBy('ps.project_id').orderBy('ps.position')
        .execute(),
      db.selectFrom('project_images')
        .select(['project_id', 'title', 'media_key', 'external_url'])
        .where('project_id', 'in', chunk)
        .orderBy('project_id').orderBy('position')
        .execute(),
      db.selectFrom('project_vintages')
        .select(['project_id', 'vintage', 'issued', 'retired', 'cancelled', 'corsia_eligible'])
        .where('project_id', 'in', chunk)
        .orderBy('project_id').orderBy('vintage')
        .execute(),
      db.selectFrom('project_protocols')
        .select(['project_id', 'protocol'])
        .where('project_id', 'in', chunk)
        .orderBy('project_id').orderBy('position')
        .execute(),
      db.selectFrom('project_sources')
        .select(['project_id', 'source_name'])
        .where('project_id', 'in', chunk)
        .orderBy('project_id').orderBy('source_name')
        .execute()
    ])
    groupInto(relations.certifications, certifications)
    groupInto(relations.sdgs, sdgs)
    groupInto(relations.images, images)
    groupInto(relations.vintages, vintages)
    groupInto(relations.protocols, protocols)
    groupInto(relations.sources, sources)
  }
  return relations
}

function groupInto<T extends { project_id: number }> (map: Map<number, T[]>, rows: T[]): void {
  for (const row of rows) {
    const list = map.get(row.project_id)
    if (list === undefined) map.set(row.project_id, [row])
    else list.push(row)
  }
}

/** Every project in id order, `batch` at a time (export). */
export async function * allProjects (db: Db, batch = 1000): AsyncGenerator<ProjectRecordRow[]> {
  let after = 0
  for (;;) {
    const rows = await withNames(db, {}).where('p.id', '>', after).orderBy('p.id').limit(batch).execute()
    if (rows.length === 0) return
    yield rows
    after = rows[rows.length - 1]!.id
  }
}

// --- vocabularies -------------------------------------------------------------------------

/** The stored name_id this value names: itself if stored as written, else the one equal ignoring case. */
export async function vocabularyNameId (db: Db, table: VocabularyName, value: string): Promise<string | undefined> {
  const rows = await db.selectFrom(table).select('name_id')
    .where((eb) => eb.or([eb('name_id', '=', value), eb(eb.fn('lower', ['name_id']), '=', value.toLowerCase())]))
    .execute()
  return (rows.find((row) => row.name_id === value) ?? rows[0])?.name_id
}

export async function vocabularyValues (db: Db, table: VocabularyName): Promise<string[]> {
  const rows = await db.selectFrom(table).select('name_id').orderBy('name_id').execute()
  return rows.map((r) => r.name_id)
}

/** Every stored spelling of a status or category, or of a methodology id (a filter's values). */
export async function distinctValues (db: Db, field: 'status' | 'category' | 'protocol'): Promise<string[]> {
  const rows = field === 'protocol'
    ? await db.selectFrom('project_protocols').select('protocol as value').distinct().execute()
    : await db.selectFrom('projects').select(`${field} as value`).distinct().where(field, 'is not', null).execute()
  return rows.map((row) => row.value!).sort()
}

/** The canonical country name that this folded key (a name, code or alias) stands for. */
export async function countryByKey (db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('country_aliases').select('name').where('alias_key', '=', key).executeTakeFirst()
  return row?.name
}

/** Every spelling the catalogue knows, by folded key (small: about three per country). */
export async function countryAliases (db: Db): Promise<Array<{ alias_key: string, name: string }>> {
  return await db.selectFrom('country_aliases').select(['alias_key', 'name']).orderBy('alias_key').execute()
}

export async function countryNames (db: Db): Promise<string[]> {
  const rows = await db.selectFrom('countries').select('name').orderBy('name_key').execute()
  return rows.map((r) => r.name)
}

export async function sdgNumbersByNameId (db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom('sdgs').select(['number', 'name_id']).execute()
  return new Map(rows.map((r) => [r.name_id, r.number]))
}

export async function sdgColours (db: Db): Promise<Array<{ number: number, verbose_name: string, colour: string }>> {
  return await db.selectFrom('sdgs').select(['number', 'verbose_name', 'colour']).orderBy('number').execute()
}

// --- writes (import) ----------------------------------------------------------------------

export async function upsertVocabulary (db: Db, table: VocabularyName,
  entries: readonly VocabularyTable[]): Promise<void> {
  for (let i = 0; i < entries.length; i += CHUNK) {
    await db.insertInto(table).values(entries.slice(i, i + CHUNK))
      .onConflict((oc) => oc.column('name_id').doUpdateSet((eb) => ({ verbose_name: eb.ref('excluded.verbose_name') })))
      .execute()
  }
}

/**
 * Adds location names that name no known country, each as a country of its own (no ISO codes) and its own
 * alias; `key` is its folded name. Names whose key is taken are left alone.
 */
export async function addCountries (db: Db, names: ReadonlyArray<{ name: string, key: string }>): Promise<void> {
  const rows = names.map(({ name, key }) => ({ name, name_key: key, alpha2: null, alpha3: null }))
  const aliases = names.map(({ name, key }) => ({ alias_key: key, alias: name, name }))
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.insertInto('countries').values(rows.slice(i, i + CHUNK)).onConflict((oc) => oc.doNothing()).execute()
    await db.insertInto('country_aliases').values(aliases.slice(i, i + CHUNK)).onConflict((oc) => oc.doNothing())
      .execute()
  }
}

/** The canonical names of these folded keys, where known. */
export async function countriesByKeys (db: Db, keys: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  for (let i = 0; i < keys.length; i += CHUNK) {
    const rows = await db.selectFrom('country_aliases').select(['alias_key', 'name'])
      .where('alias_key', 'in', keys.slice(i, i + CHUNK)).execute()
    for (const row of rows) found.set(row.alias_key, row.name)
  }
  return found
}

/** Projects holding one of these (registry, external_id) pairs, to find clashes with other ids. */
export async function projectsByExternalId (db: Db, externalIds: readonly string[]): Promise<Array<{
  id: number,
  registry: string,
  external_id: string
}>> {
  const found: Array<{ id: number, registry: string, external_id: string }> = []
  for (let i = 0; i < externalIds.length; i += CHUNK) {
    found.push(...await db.selectFrom('projects').select(['id', 'registry', 'external_id'])
      .where('external_id', 'in', externalIds.slice(i, i + CHUNK)).execute())
  }
  return found
}

/** Removes every project whose id is not in `keep` (an import with --replace), with its ledger. */
export async function deleteProjectsExcept (db: Db, keep: ReadonlySet<number>): Promise<void> {
  const gone = (await db.selectFrom('projects').select('id').execute()).map((r) => r.id).filter((id) => !keep.has(id))
  for (let i = 0; i < gone.length; i += CHUNK) {
    const ids = gone.slice(i, i + CHUNK)
    // Children first: SQLite cascades only when foreign keys are on, so do not rely on it.
    for (const table of [...CHILD_TABLES, 'credit_transactions'] as const) {
      await db.deleteFrom(table).where('project_id', 'in', ids).execute()
    }
    await db.deleteFrom('projects').where('id', 'in', ids).execute()
  }
}

/** Which of these ids exist. */
export async function existingIds (db: Db, ids: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>()
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db.selectFrom('projects').select('id').where('id', 'in', ids.slice(i, i + CHUNK)).execute()
    for (const row of rows) found.add(row.id)
  }
  return found
}

export async function maxProjectId (db: Db): Promise<number> {
  const row = await db.selectFrom('projects').select((eb) => eb.fn.max('id').as('max')).executeTakeFirst()
  return Number(row?.max ?? 0)
}

/** Full rows of one registry's projects with these external ids (registry imports merge into them). */
export async function projectsOfRegistry (
  db: Db, registry: string, externalIds: readonly string[]
): Promise<ProjectRecordRow[]> {
  const rows: ProjectRecordRow[] = []
  for (let i = 0; i < externalIds.length; i += CHUNK) {
    rows.push(...await withNames(db, {}).where('p.registry', '=', registry)
      .where('p.external_id', 'in', externalIds.slice(i, i + CHUNK)).execute())
  }
  return rows
}

const CHILD_TABLES = ['project_certifications', 'project_sdgs', 'project_images', 'project_vintages',
  'project_protocols'] as const

export interface ProjectChildren {
  certifications: Array<{ project_id: number, position: number, certification: string }>
  sdgs: Array<{ project_id: number, position: number, sdg: number }>
  images: Array<{
    project_id: number,
    position: number,
    title: string,
    media_key: string | null,
    external_url: string | null
  }>
  vintages: Array<{
    project_id: number,
    vintage: number,
    issued: number | null,
    retired: number | null,
    cancelled?: number | null,
    corsia_eligible?: boolean | null
  }>
  protocols?: Array<{ project_id: number, position: number, protocol: string }>
}

/** Writes these projects' rows and replaces their children (certifications, goals, images, vintages, protocols). */
export async function upsertProjects (db: Db, rows: readonly NewProjectRow[],
  children: ProjectChildren): Promise<void> {
  await upsertProjectRows(db, rows)
  await replaceChildren(db, rows.map((r) => r.id), children)
}

/** Inserts or overwrites whole project rows, by id. */
export async function upsertProjectRows (db: Db, rows: readonly NewProjectRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK)
    await db.insertInto('projects').values(chunk)
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => {
        const { id: _id, ...columns } = chunk[0]!
        return Object.fromEntries(Object.keys(columns).map((c) => [c, eb.ref(`excluded.${c as keyof NewProjectRow}`)]))
      }))
      .execute()
  }
}

/** Replaces the children of these projects with the given ones. */
async function replaceChildren (db: Db, ids: readonly number[], children: ProjectChildren): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK)
    for (const table of CHILD_TABLES) await db.deleteFrom(table).where('project_id', 'in', chunk).execute()
  }
  await insertChunked(db, 'project_certifications', children.certifications)
  await insertChunked(db, 'project_sdgs', children.sdgs)
  await insertChunked(db, 'project_images', children.images)
  await insertChunked(db, 'project_vintages', children.vintages)
  await insertChunked(db, 'project_protocols', children.protocols ?? [])
}

/** Replaces the vintages of these projects (their credits, once derived from the ledger). */
export async function replaceVintages (db: Db, ids: readonly number[],
  vintages: ProjectChildren['vintages']): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    await db.deleteFrom('project_vintages').where('project_id', 'in', ids.slice(i, i + CHUNK)).execute()
  }
  await insertChunked(db, 'project_vintages', vintages)
}

async function insertChunked (db: Db, table: typeof CHILD_TABLES[number], rows: readonly object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.insertInto(table).values(rows.slice(i, i + CHUNK) as never).execute()
  }
}

// --- the ledger (import) --------------------------------------------------------------------

/** Transactions per INSERT: 18 values each, under SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
const LEDGER_CHUNK = 1000
const LEDGER_COLUMNS = ['project_id', 'type', 'date', 'vintage', 'quantity', 'beneficiary', 'reason',
  'beneficiary_key', 'source_file', 'source_line', 'account', 'note', 'serials', 'vintage_start', 'vintage_end',
  'source_name'] as const

/**
 * Inserts these transactions, or overwrites the stored one of the same (registry, identity): its id stays, so
 * a re-import neither duplicates nor renumbers. A transaction a registry moves to another project moves with it.
 */
export async function upsertTransactions (db: Db, rows: readonly NewCreditTransactionRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += LEDGER_CHUNK) {
    await db.insertInto('credit_transactions').values(rows.slice(i, i + LEDGER_CHUNK))
      .onConflict((oc) => oc.columns(['registry', 'identity']).doUpdateSet((eb) => ({
        project_id: eb.ref('excluded.project_id'),
        type: eb.ref('excluded.type'),
        date: eb.ref('excluded.date'),
        vintage: eb.ref('excluded.vintage'),
        quantity: eb.ref('excluded.quantity'),
        beneficiary: eb.ref('excluded.beneficiary'),
        reason: eb.ref('excluded.reason'),
        beneficiary_key: eb.ref('excluded.beneficiary_key'),
        source_file: eb.ref('excluded.source_file'),
        source_line: eb.ref('excluded.source_line'),
        account: eb.ref('excluded.account'),
        note: eb.ref('excluded.note'),
        serials: eb.ref('excluded.serials'),
        vintage_start: eb.ref('excluded.vintage_start'),
        vintage_end: eb.ref('excluded.vintage_end'),
        source_name: eb.ref('excluded.source_name')
      })).where((eb) => eb.or(LEDGER_COLUMNS.map((column) =>
        // A row that is the same is not written again: a re-import writes (and on PostgreSQL, bloats) nothing.
        eb(`credit_transactions.${column}`, 'is distinct from', eb.ref(`excluded.${column}`))))))
      .execute()
  }
}

/** Records that a source states these projects (kept: a project stays listed under every source that named it). */
export async function addProjectSources (db: Db, ids: readonly number[], source: string): Promise<void> {
  for (let i = 0; i < ids.length; i += LEDGER_CHUNK) {
    const rows = ids.slice(i, i + LEDGER_CHUNK).map((id) => ({ project_id: id, source_name: source }))
    if (rows.length > 0) {
      await db.insertInto('project_sources').values(rows)
        .onConflict((oc) => oc.columns(['project_id', 'source_name']).doNothing()).execute()
    }
  }
}

/** Removes the ledger rows these sources hold for these projects (another source takes their ledger over). */
export async function deleteTransactionsOfSources (db: Db, ids: readonly number[], sources: readonly string[]):
Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    await db.deleteFrom('credit_transactions').where('project_id', 'in', ids.slice(i, i + CHUNK))
      .where('source_name', 'in', sources).execute()
  }
}

/** The projects that hold these transactions now (by registry and identity). */
export async function ownersOf (db: Db, transactions: ReadonlyArray<{ registry: string, identity: string }>):
Promise<number[]> {
  const owners = new Set<number>()
  const byRegistry = new Map<string, string[]>()
  for (const { registry, identity } of transactions) {
    const list = byRegistry.get(registry)
    if (list === undefined) byRegistry.set(registry, [identity])
    else list.push(identity)
  }
  for (const [registry, identities] of byRegistry) {
    for (let i = 0; i < identities.length; i += LEDGER_CHUNK) {
      const rows = await db.selectFrom('credit_transactions').select('project_id').distinct()
        .where('registry', '=', registry).where('identity', 'in', identities.slice(i, i + LEDGER_CHUNK)).execute()
      for (const row of rows) owners.add(row.project_id)
    }
  }
  return [...owners]
}

/**
 * Removes every stored transaction whose (registry, identity) is not in `keep` (keys `registry NUL identity`):
 * an import with --replace. Walks the ledger by id, a batch at a time.
 */
export async function deleteTransactionsExcept (db: Db, keep: ReadonlySet<string>): Promise<void> {
  for (let after = 0; ;) {
    const rows = await db.selectFrom('credit_transactions').select(['id', 'registry', 'identity'])
      .where('id', '>', after).orderBy('id').limit(10_000).execute()
    if (rows.length === 0) return
    const gone = rows.filter((r) => !keep.has(`${r.registry}\u0000${r.identity}`)).map((r) => r.id)
    for (let i = 0; i < gone.length; i += CHUNK) {
      await db.deleteFrom('credit_transactions').where('id', 'in', gone.slice(i, i + CHUNK)).execute()
    }
    after = rows[rows.length - 1]!.id
  }
}

/** The ledgers of these projects, each in id order (the order they were first stored in): export. */
export async function transactionsOf (db: Db, ids: readonly number[]): Promise<Map<number, TransactionRow[]>> {
  const ledgers = new Map<number, TransactionRow[]>()
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db.selectFrom('credit_transactions')
      .select(['project_id', 'identity', 'type', 'date', 'vintage', 'quantity', 'beneficiary', 'reason', 'source_file',
        'source_line', 'account', 'note', 'serials', 'vintage_start', 'vintage_end'])
      .where('project_id', 'in', ids.slice(i, i + CHUNK)).orderBy('project_id').orderBy('id').execute()
    groupInto(ledgers, rows)
  }
  return ledgers
}

/** A stored transaction as the import format carries it: the registry's identity, not this database's id. */
export type TransactionRow = Omit<CreditTransactionRow, 'id' | 'registry' | 'beneficiary_key' | 'url' |
  'beneficiary_harmonised' | 'source_name'>

interface LedgerSumRow extends LedgerSum { project_id: number }

/** The ledger of these projects summed by type and vintage, with the earliest date of each. */
export async function ledgerSums (db: Db, ids: readonly number[]): Promise<LedgerSumRow[]> {
  const sums: LedgerSumRow[] = []
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK)
    // CARB's issuance table is the authority on the California compliance projects it names (as OffsetsDB's
    // merge_with_arb): their totals come from its transactions (identities `TYPE:arb:…`, registries/arb.ts),
    // the registry's own (ROC issuances, conversions to ARB credits) stay in the ledger but do not count.
    // Which projects those are is read first: asked per row (a correlated NOT EXISTS), it was quadratic in a
    // project's ledger (5,201 transactions took seconds and hit PostgreSQL's statement timeout).
    const carb = (await db.selectFrom('credit_transactions').select('project_id').distinct()
      .where('project_id', 'in', chunk).where('identity', 'like', '%:arb:%').execute()).map((row) => row.project_id)
    let query = db.selectFrom('credit_transactions')
      .select(['project_id', 'type', 'vintage', (eb) => eb.fn.sum<number | string>('quantity').as('quantity'),
        (eb) => eb.fn.min('date').as('first_date')])
      .where('project_id', 'in', chunk)
    if (carb.length > 0) {
      query = query.where((eb) => eb.or([eb('identity', 'like', '%:arb:%'), eb('project_id', 'not in', carb)]))
    }
    const rows = await query.groupBy(['project_id', 'type', 'vintage']).execute()
    // PostgreSQL may hand sums over as text.
    for (const row of rows) sums.push({ ...row, quantity: Number(row.quantity) })
  }
  return sums
}

// --- catalogue version --------------------------------------------------------------------

const VERSION_KEY = 'catalogue_version'

/**
 * A token that changes with every write to the catalogue. Answers are cached by it; each write is
 * announced (ChangeFeed), so every instance reads the new token within a second.
 */
export async function catalogueVersion (db: Db): Promise<string> {
  return await getMeta(db, VERSION_KEY) ?? 'initial'
}

export async function bumpCatalogueVersion (db: Db): Promise<void> {
  await setMeta(db, VERSION_KEY, randomUUID())
  await announceChange(db, 'catalogue')
}

/** Every media key a project image refers to. */
export async function referencedMediaKeys (db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('project_images').select('media_key').distinct()
    .where('media_key', 'is not', null).execute()
  return new Set(rows.map((row) => row.media_key!))
}
