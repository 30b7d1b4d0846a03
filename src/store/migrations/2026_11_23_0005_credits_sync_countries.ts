import type { Kysely } from 'kysely'
import { ALIASES_2026_11_23, SHORT_NAMES_2026_11_23 } from './data/2026_11_23_0005_country_names.ts'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.
//
// Credits per vintage, change timestamps for syncing, and one canonical name per country:
// - project_vintages: issued and retired credits per project and vintage year (null = not reported);
// - projects: credit totals, created_at/updated_at (ISO 8601 UTC), a hash of what the API shows (to tell a
//   real change from a re-import of the same data), the detail-only JSON (credits, source) and the source;
// - country_aliases: every spelling the location filter and the importers accept (names, ISO codes, aliases),
//   keyed by a case-, accent- and punctuation-folded key; each project's location becomes the canonical name.

const CHUNK = 400

/** This migration's own copy of the folding rule (the live one may change; what was stored here must not). */
function countryKey (text: string): string {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/&/g, ' and ')
    .replace(/['’‘`´]/g, '').replace(/[^a-z0-9]+/g, ' ').trim()
  return folded === '' ? text.trim().toLowerCase() : folded
}

export async function up (db: Kysely<any>): Promise<void> {
  // SQLite adds one column per statement.
  for (const [column, type] of [['credits_issued', 'double precision'], ['credits_retired', 'double precision'],
    ['created_at', 'varchar(30)'], ['updated_at', 'varchar(30)'], ['content_hash', 'varchar(64)'],
    ['detail_json', 'text'], ['source', 'text']] as const) {
    await db.schema.alterTable('projects').addColumn(column, type).execute()
  }
  await db.schema.createTable('project_vintages')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('vintage', 'integer', (c) => c.notNull())
    .addColumn('issued', 'double precision')
    .addColumn('retired', 'double precision')
    .addPrimaryKeyConstraint('project_vintages_pk', ['project_id', 'vintage'])
    .execute()
  // The vintage, certification and SDG filters (and facets) look projects up by value.
  await db.schema.createIndex('project_vintages_vintage_idx').on('project_vintages').columns(['vintage', 'project_id'])
    .execute()
  await db.schema.createIndex('project_certifications_value_idx').on('project_certifications')
    .columns(['certification', 'project_id']).execute()
  await db.schema.createIndex('project_sdgs_value_idx').on('project_sdgs').columns(['sdg', 'project_id']).execute()
  for (const column of ['credits_issued', 'credits_retired', 'updated_at', 'latitude']) {
    await db.schema.createIndex(`projects_${column}_idx`).on('projects').columns([column, 'id']).execute()
  }

  // Existing projects: their vintages become rows (quantities unknown), and their stored JSON is rebuilt
  // at the next start (it gains the new fields).
  const now = new Date().toISOString()
  await db.updateTable('projects').set({ created_at: now, updated_at: now, item_json: null }).execute()
  for (let after = 0; ;) {
    const rows: Array<{ id: number, vintages: string }> = await db.selectFrom('projects').select(['id', 'vintages'])
      .where('id', '>', after).orderBy('id').limit(1000).execute()
    if (rows.length === 0) break
    const vintages = rows.flatMap((r) => [...new Set(JSON.parse(r.vintages) as number[])]
      .map((vintage) => ({ project_id: r.id, vintage, issued: null, retired: null })))
    for (let i = 0; i < vintages.length; i += CHUNK) {
      await db.insertInto('project_vintages').values(vintages.slice(i, i + CHUNK)).execute()
    }
    after = rows[rows.length - 1]!.id
  }

  await settleCountryNames(db)
}

async function settleCountryNames (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('country_aliases')
    .addColumn('alias_key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('alias', 'varchar(200)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('country_aliases_name_idx').on('country_aliases').column('name').execute()

  type Country = { name: string, alpha2: string | null, alpha3: string | null }
  const countries: Country[] = await db.selectFrom('countries').select(['name', 'alpha2', 'alpha3']).execute()
  const aliases = new Map<string, { alias: string, name: string }>()
  const alias = (text: string, name: string) => {
    const key = countryKey(text)
    const known = aliases.get(key)
    if (known !== undefined && known.name !== name) {
      throw new Error(`"${text}" would name both ${known.name} and ${name}`)
    }
    if (known === undefined && key !== '') aliases.set(key, { alias: text, name })
  }

  const canonicalByAlpha2 = new Map<string, string>()
  for (const country of countries.filter((c) => c.alpha2 !== null)) {
    const canonical = SHORT_NAMES_2026_11_23[country.alpha2!] ?? country.name
    canonicalByAlpha2.set(country.alpha2!, canonical)
    for (const text of [canonical, country.name, country.alpha2!, country.alpha3!]) alias(text, canonical)
    if (canonical !== country.name) {
      // An import may already have added the short name as a country of its own, without codes.
      await db.deleteFrom('countries').where('name', '=', canonical).where('alpha2', 'is', null).execute()
      await db.updateTable('countries').set({ name: canonical }).where('alpha2', '=', country.alpha2).execute()
    }
  }
  for (const [alpha2, text] of ALIASES_2026_11_23) alias(text, canonicalByAlpha2.get(alpha2)!)

  // Names that imports added (no ISO codes): an alias of a known country merges into it; the rest stay.
  for (const custom of countries.filter((c) => c.alpha2 === null)) {
    const known = aliases.get(countryKey(custom.name))
    if (known === undefined) {
      alias(custom.name, custom.name)
    } else if (known.name !== custom.name) {
      await db.deleteFrom('countries').where('name', '=', custom.name).where('alpha2', 'is', null).execute()
    }
  }
  // Keys become folded; a temporary unique key first, so no row ever holds another's key mid-way.
  const remaining = await db.selectFrom('countries').select('name').orderBy('name').execute() as Array<{ name: string }>
  for (const [i, row] of remaining.entries()) {
    await db.updateTable('countries').set({ name_key: `#${i}` }).where('name', '=', row.name).execute()
  }
  for (const row of remaining) {
    await db.updateTable('countries').set({ name_key: countryKey(row.name) }).where('name', '=', row.name).execute()
  }
  const entries = [...aliases].map(([key, value]) => ({ alias_key: key, alias: value.alias, name: value.name }))
  for (let i = 0; i < entries.length; i += CHUNK) {
    await db.insertInto('country_aliases').values(entries.slice(i, i + CHUNK)).execute()
  }

  // Every project carries the canonical name of its country.
  const locations: Array<{ location: string }> = await db.selectFrom('projects').select('location').distinct().execute()
  for (const { location } of locations) {
    const canonical = aliases.get(countryKey(location))?.name
    if (canonical !== undefined && canonical !== location) {
      await db.updateTable('projects').set({ location: canonical, location_key: canonical.toLowerCase() })
        .where('location', '=', location).execute()
    }
  }
}

export async function down (db: Kysely<any>): Promise<void> {
  // Structure only: renamed countries and projects keep their canonical names.
  await db.schema.dropTable('country_aliases').execute()
  await db.schema.dropTable('project_vintages').execute()
  for (const index of ['projects_credits_issued_idx', 'projects_credits_retired_idx', 'projects_updated_at_idx',
    'projects_latitude_idx', 'project_certifications_value_idx', 'project_sdgs_value_idx']) {
    await db.schema.dropIndex(index).execute()
  }
  for (const column of ['credits_issued', 'credits_retired', 'created_at', 'updated_at', 'content_hash', 'detail_json',
    'source']) {
    await db.schema.alterTable('projects').dropColumn(column).execute()
  }
}
