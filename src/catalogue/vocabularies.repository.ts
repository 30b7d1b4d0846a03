import { CHUNK, type Db, type VocabularyName } from '../store/database.ts'

// The vocabularies' SQL: registries, standards, credit types, ratings, certifications, goals, countries and their
// aliases, and the free-text values (status, category, methodology) a filter accepts.

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
