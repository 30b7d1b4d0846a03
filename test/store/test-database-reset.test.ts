import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import pg from 'pg'
import { createPostgresDatabase, TEST_DATABASES } from '../databases.ts'
import { readTemplateState, resetToTemplate } from '../support/database-reset.ts'

// A PostgreSQL test database is emptied after its test and given to the next (test/support/database-reset.ts).
// Every test trusts that what it gets is a fresh copy of the template, so the reset is checked here against one,
// with a comparison of its own: every row of every table, every sequence, and the schema as PostgreSQL prints it.

const skip = !TEST_DATABASES.includes('postgres') && 'PostgreSQL suites are off (TONNE_TEST_DATABASES)'

async function connect (t: TestContext, url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  t.after(async () => await client.end())
  return client
}

/** Everything a test could see in a database, in one text: its schema, each table's rows and each sequence. */
async function everything (client: pg.Client): Promise<string> {
  const { rows: tables } = await client.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public' order by 1")
  const parts: string[] = []
  for (const { name } of tables) {
    const { rows } = await client.query<{ text: string }>(
      `select coalesce(string_agg(r::text, E'\\n' order by r::text), '') as text from "${name}" r`)
    parts.push(`table ${name}\n${rows[0]?.text}`)
  }
  const { rows: more } = await client.query<{ text: string }>(`select string_agg(x, E'\\n' order by x) as text from (
    select format('sequence %s %s %s', sequencename, last_value, start_value) as x from pg_sequences
    union all select pg_get_indexdef(indexrelid) from pg_index where indrelid in
      (select oid from pg_class where relnamespace = 'public'::regnamespace)
    union all select format('constraint %s %s', conname, pg_get_constraintdef(oid)) from pg_constraint
      where connamespace = 'public'::regnamespace
    union all select format('column %s.%s %s %s %s', table_name, column_name, data_type, is_nullable,
      column_default) from information_schema.columns where table_schema = 'public'
    union all select pg_get_triggerdef(oid) from pg_trigger where not tgisinternal
  ) s`)
  parts.push(more[0]?.text ?? '')
  return parts.join('\n')
}

test('a used test database is reset to exactly what a fresh copy of the template holds', { skip }, async (t) => {
  const fresh = await connect(t, await createPostgresDatabase(t))
  const used = await connect(t, await createPostgresDatabase(t))
  const state = await readTemplateState(fresh)
  const expected = await everything(fresh)
  assert.equal(await everything(used), expected)

  // What tests do: rows added to empty tables, seeded rows changed and removed, a sequence moved on by rows since
  // deleted, and a table grown past the size at which it is truncated rather than emptied row by row, together
  // with the tables that reference it (foreign keys off in this session, as the rows are made up).
  await used.query('set session_replication_role = replica')
  await used.query("insert into api_keys values ('k1', 'key', 'hash', 'read', 60, '2026-11-28', null)")
  await used.query("update countries set name = 'Somewhere else' where alpha2 = 'DE'")
  await used.query('delete from country_aliases where alias_key in (select alias_key from country_aliases limit 3)')
  await used.query('insert into credit_transactions (project_id, registry, identity, type, quantity, from_carb) ' +
    "select 1, 'verra', 'i' || n, 'issuance', n, false from generate_series(1, 5) n")
  await used.query('delete from credit_transactions')
  await used.query('insert into projects (id, external_id, name, symbol, vintages, registry, standard, description, ' +
    'is_bundle, location, location_key, project_developer, co_benefits, in_sale, search_text) ' +
    "select n, 'x' || n, repeat('name ', 40), 's', '', 'verra', 'vcs', repeat('text ', 100), false, 'DE', 'de', " +
    "'p', '', true, 's' from generate_series(1, 2000) n")
  await used.query('insert into project_vintages (project_id, vintage, issued, retired, cancelled) ' +
    'values (1, 2020, 1, 0, 0)')
  await used.query('reset session_replication_role')
  assert.notEqual(await everything(used), expected)

  assert.equal(await resetToTemplate(used, state), true)
  assert.equal(await everything(used), expected)
  // And again, from that state: nothing to do, still the same.
  assert.equal(await resetToTemplate(used, state), true)
  assert.equal(await everything(used), expected)
})

test('a test database whose schema a test changed is not used again', { skip }, async (t) => {
  const fresh = await connect(t, await createPostgresDatabase(t))
  const state = await readTemplateState(fresh)
  const changes = [
    'alter table meta add column extra text',
    "alter table meta alter column value set default 'x'",
    'alter table credit_transactions alter column from_carb set default true',
    'create index meta_value on meta (value)',
    'create table extra (id int)',
    'alter table api_keys drop constraint if exists api_keys_pkey cascade',
    'create function extra () returns int language sql as $$ select 1 $$'
  ]
  for (const change of changes) {
    const used = await connect(t, await createPostgresDatabase(t))
    await used.query(change)
    assert.equal(await resetToTemplate(used, state), false, change)
  }
})
