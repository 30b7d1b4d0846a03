import { randomUUID } from 'node:crypto'
import { sql, SqliteAdapter, type SqlBool } from 'kysely'
import { getMeta, setMeta } from '../store/meta.repository.ts'
import type { Db, NewProjectRow, ProjectRow, VocabularyName, VocabularyTable } from '../store/database.ts'
import type { OrderingField } from './catalogue.schemas.ts'

// All catalogue SQL lives here. Functions take the database (or a transaction) first and deal in rows.

export interface ProjectFilters {
  inSale?: boolean
  locationKey?: string
  creditType?: string
  registry?: string
  rating?: string
  /** Lower-case text to find inside `search_text`. */
  search?: string
}

export interface OrderTerm {
  field: OrderingField
  descending: boolean
}

/** A project row with the verbose names of its vocabulary references. */
export interface ProjectRecordRow extends ProjectRow {
  registry_name: string
  standard_name: string
  credit_type_name: string | null
  rating_name: string | null
}

export interface NamedRow { project_id: number, name_id: string, verbose_name: string }
export interface SdgRow extends NamedRow { number: number }
export interface ImageRow { project_id: number, title: string, media_key: string | null, external_url: string | null }

export interface ProjectRelations {
  certifications: Map<number, NamedRow[]>
  sdgs: Map<number, SdgRow[]>
  images: Map<number, ImageRow[]>
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
  if (filters.search !== undefined) {
    if (db.getExecutor().adapter instanceof SqliteAdapter && [...filters.search].length >= 3) {
      // The trigram index (migration 0003) answers substrings of 3+ characters; as an FTS phrase
      // every character is literal. PostgreSQL's trigram index serves the LIKE below as it is.
      const phrase = `"${filters.search.replace(/"/g, '""')}"`
      query = query.where('p.id', 'in', sql<number>`(select rowid from projects_search where projects_search match ${phrase})`)
    } else {
      const pattern = `%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
      query = query.where(sql<SqlBool>`p.search_text like ${pattern} escape '\\'`)
    }
  }
  return query
}

function withNames (db: Db, filters: ProjectFilters) {
  return filteredProjects(db, filters)
    .innerJoin('registries as r', 'r.name_id', 'p.registry')
    .innerJoin('standards as s', 's.name_id', 'p.standard')
    .leftJoin('credit_types as ct', 'ct.name_id', 'p.credit_type')
    .leftJoin('ratings as ra', 'ra.name_id', 'p.rating')
    .selectAll('p')
    .select([
      'r.verbose_name as registry_name',
      's.verbose_name as standard_name',
      'ct.verbose_name as credit_type_name',
      'ra.verbose_name as rating_name'
    ])
}

export async function countProjects (db: Db, filters: ProjectFilters): Promise<number> {
  const row = await filteredProjects(db, filters)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow()
  // PostgreSQL returns count(*) as a bigint string.
  return Number(row.count)
}

/** One page of list items as stored JSON: an indexed query, no joins. */
export async function listProjectJson (
  db: Db, filters: ProjectFilters, ordering: readonly OrderTerm[], limit: number, offset: number
): Promise<Array<{ id: number, item_json: string | null }>> {
  let query = filteredProjects(db, filters).select(['p.id', 'p.item_json'])
  for (const term of ordering) {
    // Nulls last in both directions, on both databases (SQLite would put them first).
    // Location sorts case-insensitively, by the indexed lower-case key the filter uses too.
    const column = term.field === 'location' ? 'location_key' : term.field
    query = query.orderBy(`p.${column}`, (ob) => term.descending ? ob.desc().nullsLast() : ob.asc().nullsLast())
  }
  return await query.limit(limit).offset(offset).execute()
}

export async function findProjectJson (db: Db, id: number): Promise<{ external_id: string, item_json: string | null } | undefined> {
  return await db.selectFrom('projects').select(['external_id', 'item_json']).where('id', '=', id).executeTakeFirst()
}

/** Full rows (with vocabulary names) of these projects, to build their JSON. */
export async function projectsByIds (db: Db, ids: readonly number[]): Promise<ProjectRecordRow[]> {
  const rows: ProjectRecordRow[] = []
  for (let i = 0; i < ids.length; i += CHUNK) {
    rows.push(...await withNames(db, {}).where('p.id', 'in', ids.slice(i, i + CHUNK)).execute())
  }
  return rows
}

export async function setItemJson (db: Db, items: ReadonlyArray<{ id: number, item_json: string }>): Promise<void> {
  for (const item of items) {
    await db.updateTable('projects').set({ item_json: item.item_json }).where('id', '=', item.id).execute()
  }
}

/** Ids after `after`, in order, `batch` at a time; `missingJsonOnly` for an upgraded database. */
export async function projectIdsAfter (db: Db, after: number, batch: number, missingJsonOnly = false): Promise<number[]> {
  let query = db.selectFrom('projects').select('id').where('id', '>', after)
  if (missingJsonOnly) query = query.where('item_json', 'is', null)
  return (await query.orderBy('id').limit(batch).execute()).map((r) => r.id)
}

/** The stored verbose names of these name_ids, to tell which an import renames. */
export async function vocabularyNames (db: Db, table: VocabularyName, nameIds: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  for (let i = 0; i < nameIds.length; i += CHUNK) {
    const rows = await db.selectFrom(table).select(['name_id', 'verbose_name']).where('name_id', 'in', nameIds.slice(i, i + CHUNK)).execute()
    for (const row of rows) names.set(row.name_id, row.verbose_name)
  }
  return names
}

export async function loadRelations (db: Db, ids: readonly number[]): Promise<ProjectRelations> {
  const relations: ProjectRelations = { certifications: new Map(), sdgs: new Map(), images: new Map() }
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK)
    const [certifications, sdgs, images] = await Promise.all([
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
        .execute()
    ])
    groupInto(relations.certifications, certifications)
    groupInto(relations.sdgs, sdgs)
    groupInto(relations.images, images)
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

export async function vocabularyHas (db: Db, table: VocabularyName, nameId: string): Promise<boolean> {
  const row = await db.selectFrom(table).select('name_id').where('name_id', '=', nameId).executeTakeFirst()
  return row !== undefined
}

export async function vocabularyValues (db: Db, table: VocabularyName): Promise<string[]> {
  const rows = await db.selectFrom(table).select('name_id').orderBy('name_id').execute()
  return rows.map((r) => r.name_id)
}

export async function countryByKey (db: Db, nameKey: string): Promise<string | undefined> {
  const row = await db.selectFrom('countries').select('name').where('name_key', '=', nameKey).executeTakeFirst()
  return row?.name
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

export async function upsertVocabulary (db: Db, table: VocabularyName, entries: readonly VocabularyTable[]): Promise<void> {
  for (let i = 0; i < entries.length; i += CHUNK) {
    await db.insertInto(table).values(entries.slice(i, i + CHUNK))
      .onConflict((oc) => oc.column('name_id').doUpdateSet((eb) => ({ verbose_name: eb.ref('excluded.verbose_name') })))
      .execute()
  }
}

/** Adds location names the countries table lacks; existing names (any case) are kept. */
export async function addCountries (db: Db, names: readonly string[]): Promise<void> {
  const rows = names.map((name) => ({ name, name_key: name.toLowerCase(), alpha2: null, alpha3: null }))
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.insertInto('countries').values(rows.slice(i, i + CHUNK)).onConflict((oc) => oc.doNothing()).execute()
  }
}

/** Projects holding one of these (registry, external_id) pairs, to find clashes with other ids. */
export async function projectsByExternalId (db: Db, externalIds: readonly string[]): Promise<Array<{ id: number, registry: string, external_id: string }>> {
  const found: Array<{ id: number, registry: string, external_id: string }> = []
  for (let i = 0; i < externalIds.length; i += CHUNK) {
    found.push(...await db.selectFrom('projects').select(['id', 'registry', 'external_id'])
      .where('external_id', 'in', externalIds.slice(i, i + CHUNK)).execute())
  }
  return found
}

export async function deleteAllProjects (db: Db): Promise<void> {
  // Children first: SQLite cascades only when foreign keys are on, so do not rely on it.
  await db.deleteFrom('project_certifications').execute()
  await db.deleteFrom('project_sdgs').execute()
  await db.deleteFrom('project_images').execute()
  await db.deleteFrom('projects').execute()
}

export interface ProjectChildren {
  certifications: Array<{ project_id: number, position: number, certification: string }>
  sdgs: Array<{ project_id: number, position: number, sdg: number }>
  images: Array<{ project_id: number, position: number, title: string, media_key: string | null, external_url: string | null }>
}

export async function upsertProjects (db: Db, rows: readonly NewProjectRow[], children: ProjectChildren): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK)
    await db.insertInto('projects').values(chunk)
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => {
        const { id: _id, ...columns } = chunk[0]!
        return Object.fromEntries(Object.keys(columns).map((c) => [c, eb.ref(`excluded.${c as keyof NewProjectRow}`)]))
      }))
      .execute()
    const ids = chunk.map((r) => r.id)
    await db.deleteFrom('project_certifications').where('project_id', 'in', ids).execute()
    await db.deleteFrom('project_sdgs').where('project_id', 'in', ids).execute()
    await db.deleteFrom('project_images').where('project_id', 'in', ids).execute()
  }
  await insertChunked(db, 'project_certifications', children.certifications)
  await insertChunked(db, 'project_sdgs', children.sdgs)
  await insertChunked(db, 'project_images', children.images)
}

async function insertChunked<T extends 'project_certifications' | 'project_sdgs' | 'project_images'> (
  db: Db, table: T, rows: ReadonlyArray<ProjectChildren[T extends 'project_certifications' ? 'certifications' : T extends 'project_sdgs' ? 'sdgs' : 'images'][number]>
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.insertInto(table).values(rows.slice(i, i + CHUNK) as never).execute()
  }
}

// --- catalogue version --------------------------------------------------------------------

const VERSION_KEY = 'catalogue_version'

/**
 * A token that changes with every write to the catalogue. Caches (counts) are keyed by it, so an
 * import on any instance invalidates every instance's cache at its next request.
 */
export async function catalogueVersion (db: Db): Promise<string> {
  return await getMeta(db, VERSION_KEY) ?? 'initial'
}

export async function bumpCatalogueVersion (db: Db): Promise<void> {
  await setMeta(db, VERSION_KEY, randomUUID())
}
