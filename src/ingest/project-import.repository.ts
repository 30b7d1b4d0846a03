import { CHUNK, type Db, type NewProjectRow, type VocabularyName, type VocabularyTable } from '../store/database.ts'

// The import's SQL over projects: vocabularies and countries it adds, the ids it assigns, the rows and children it
// writes, and what --replace removes. The serving side never writes (src/catalogue/ reads only).

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

/** Every media key a project image refers to. */
export async function referencedMediaKeys (db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('project_images').select('media_key').distinct()
    .where('media_key', 'is not', null).execute()
  return new Set(rows.map((row) => row.media_key!))
}
