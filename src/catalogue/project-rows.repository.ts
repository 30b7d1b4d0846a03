import { CHUNK, type Db, type ProjectRow, type ProjectVintageTable } from '../store/database.ts'

// The rows a project's JSON is built from: the project with its vocabulary names, its relations (certifications,
// goals, images, vintages, methodologies, sources), and the stored JSON itself.

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
type VintageRow = ProjectVintageTable
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

function withNames (db: Db) {
  return db.selectFrom('projects as p')
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

/** Full rows (with vocabulary names) of these projects, to build their JSON. */
export async function projectsByIds (db: Db, ids: readonly number[]): Promise<ProjectRecordRow[]> {
  const rows: ProjectRecordRow[] = []
  for (let i = 0; i < ids.length; i += CHUNK) {
    rows.push(...await withNames(db).where('p.id', 'in', ids.slice(i, i + CHUNK)).execute())
  }
  return rows
}

/** Full rows of one registry's projects with these external ids (registry imports merge into them). */
export async function projectsOfRegistry (
  db: Db, registry: string, externalIds: readonly string[]
): Promise<ProjectRecordRow[]> {
  const rows: ProjectRecordRow[] = []
  for (let i = 0; i < externalIds.length; i += CHUNK) {
    rows.push(...await withNames(db).where('p.registry', '=', registry)
      .where('p.external_id', 'in', externalIds.slice(i, i + CHUNK)).execute())
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

/** Rows grouped by their project, in the order given. */
export function groupInto<T extends { project_id: number }> (map: Map<number, T[]>, rows: T[]): void {
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
    const rows = await withNames(db).where('p.id', '>', after).orderBy('p.id').limit(batch).execute()
    if (rows.length === 0) return
    yield rows
    after = rows[rows.length - 1]!.id
  }
}
