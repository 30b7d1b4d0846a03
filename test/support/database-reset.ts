import type pg from 'pg'

// A PostgreSQL test database given back after its test is emptied and used again by the next test of the same
// process, rather than dropped and copied anew: a copy and a drop write and unlink every file of a database (about
// 330) and ask for three checkpoints (docs/test-suite.md, "Stop 48"). It is used again only if, after the reset, it
// is checked to be what a fresh copy of the template is: the same schema, the same seeded rows, every other table
// empty, every sequence unused. Anything else, or any error, and it is dropped.

/** What a fresh copy of the migrated template holds, read once from one. */
export interface TemplateState {
  /** The schema's signature (see SCHEMA_SIGNATURE). */
  schema: string
  /** Each table's content signature ('' for an empty table), and each sequence's last value as `seq:schema.name`. */
  contents: Map<string, string>
  /** The seeded tables' rows, as JSON, to put back. */
  seeds: Map<string, string>
  /** For each table, the tables whose foreign keys point at it (TRUNCATE takes them with it). */
  referencedBy: Map<string, string[]>
}

const USER_OBJECT = "nspname not in ('pg_catalog', 'information_schema') and nspname not like 'pg\\_toast%' " +
  "and nspname not like 'pg\\_temp%'"
const USER_NAMESPACES = `(select oid from pg_namespace where ${USER_OBJECT})`
/** A count and a sum of row hashes: any row added, gone or changed changes it (a digest, cheaper than a sort). */
const signature = (rows: string) => `(select count(*) || ':' || coalesce(sum(hashtext(x)), 0) from (${rows}) s(x))`

// The catalog rows that make up the schema, as the server stores them: object ids and stored expression trees stay
// the same in every copy of the template, and no truncation changes them (deparsing them would cost more). The
// database's own settings count too (a test may close it to connections).
export const SCHEMA_SIGNATURE = `select concat_ws(' ',
  ${signature(`select concat_ws(',', oid, nspname) from pg_namespace where ${USER_OBJECT}`)},
  ${signature(`select concat_ws(',', oid, relname, relkind, relpersistence, relnatts, reloptions) from pg_class
    where relnamespace in ${USER_NAMESPACES}`)},
  ${signature(`select concat_ws(',', attrelid, attnum, attname, atttypid, atttypmod, attnotnull, attisdropped,
    attidentity, attgenerated) from pg_attribute where attnum > 0 and attrelid in
    (select oid from pg_class where relnamespace in ${USER_NAMESPACES})`)},
  ${signature('select concat_ws(\',\', adrelid, adnum, adbin) from pg_attrdef')},
  ${signature(`select concat_ws(',', indexrelid, indrelid, indkey, indisunique, indexprs, indpred) from pg_index
    where indrelid in (select oid from pg_class where relnamespace in ${USER_NAMESPACES})`)},
  ${signature(`select concat_ws(',', oid, conname, contype, conrelid, confrelid, conkey, confkey, conbin)
    from pg_constraint where connamespace in ${USER_NAMESPACES}`)},
  ${signature('select concat_ws(\',\', oid, tgname, tgrelid, tgfoid, tgenabled) from pg_trigger')},
  ${signature(`select concat_ws(',', oid, proname, prosrc, proconfig) from pg_proc
    where pronamespace in ${USER_NAMESPACES}`)},
  ${signature(`select concat_ws(',', oid, typname) from pg_type where typnamespace in ${USER_NAMESPACES}`)},
  ${signature('select concat_ws(\',\', enumtypid, enumlabel, enumsortorder) from pg_enum')},
  ${signature('select concat_ws(\',\', oid, extname, extversion) from pg_extension')},
  ${signature('select concat_ws(\',\', ev_class, rulename, ev_action) from pg_rewrite where ev_class in ' +
    `(select oid from pg_class where relnamespace in ${USER_NAMESPACES})`)},
  ${signature(`select concat_ws(',', setrole, setconfig) from pg_db_role_setting
    where setdatabase = (select oid from pg_database where datname = current_database())`)},
  (select concat_ws(',', datconnlimit, datallowconn) from pg_database where datname = current_database())
) as schema`

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`
const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`
/** "schema.name" as two quoted identifiers. */
function qualified (name: string): string {
  const dot = name.indexOf('.')
  return `${quote(name.slice(0, dot))}.${quote(name.slice(dot + 1))}`
}

/**
 * One query for every table's content (a seeded table's signature; for any other, whether it has a row) and every
 * sequence's last value. `size` is each table's file size, which decides how it is emptied.
 */
function contentsQuery (tables: readonly string[], seeded: ReadonlySet<string>): string {
  return [
    ...tables.map((table) => `select ${literal(table)} as name, ` +
      (seeded.has(table)
        ? signature(`select r::text from ${quote(table)} r`)
        : `case when exists (select from ${quote(table)}) then 'rows' else '' end`) +
      ` as content, pg_relation_size(${literal(quote(table))}) as size`),
    "select 'seq:' || schemaname || '.' || sequencename, coalesce(last_value::text, ''), 0 from pg_sequences"
  ].join(' union all ')
}

interface Contents { content: Map<string, string>, size: Map<string, number> }

async function readContents (client: pg.ClientBase, tables: readonly string[],
  seeded: ReadonlySet<string>): Promise<Contents> {
  const { rows } = await client.query<{ name: string, content: string, size: string }>(contentsQuery(tables, seeded))
  return {
    content: new Map(rows.map((row) => [row.name, row.content])),
    size: new Map(rows.map((row) => [row.name, Number(row.size)]))
  }
}

async function schemaSignature (client: pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ schema: string }>(SCHEMA_SIGNATURE)
  return rows[0]?.schema ?? ''
}

/** Reads what a fresh copy of the template holds (from a copy no test has used). */
export async function readTemplateState (client: pg.ClientBase): Promise<TemplateState> {
  const { rows: tableRows } = await client.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public' order by tablename")
  const tables = tableRows.map((row) => row.name)
  // Which tables hold rows in a fresh copy: read without signatures first, then with them for those.
  const seeded = new Set([...(await readContents(client, tables, new Set())).content]
    .filter(([name, content]) => !name.startsWith('seq:') && content !== '').map(([name]) => name))
  const seeds = new Map<string, string>()
  for (const table of seeded) {
    const { rows } = await client.query<{ json: string }>(
      `select coalesce(json_agg(r), '[]')::text as json from ${quote(table)} r`)
    seeds.set(table, rows[0]?.json ?? '[]')
  }
  const { rows: references } = await client.query<{ referenced: string, referencing: string }>(
    'select a.relname as referenced, b.relname as referencing from pg_constraint c join pg_class a on ' +
    "a.oid = c.confrelid join pg_class b on b.oid = c.conrelid where c.contype = 'f' and " +
    "c.connamespace = 'public'::regnamespace")
  const referencedBy = new Map<string, string[]>()
  for (const { referenced, referencing } of references) {
    referencedBy.set(referenced, [...referencedBy.get(referenced) ?? [], referencing])
  }
  return {
    schema: await schemaSignature(client),
    contents: (await readContents(client, tables, seeded)).content,
    seeds,
    referencedBy
  }
}

/** The names whose content differs from the template's (a table or sequence added or gone counts too). */
function differences (template: Map<string, string>, now: Map<string, string>): string[] {
  const names = new Set([...template.keys(), ...now.keys()])
  return [...names].filter((name) => template.get(name) !== now.get(name))
}

// Above this size a table is truncated (new, empty files); below it its rows are deleted, which writes no file: a
// test's few rows cost less to delete than a table's files cost to make anew, and leave a page or two behind.
const DELETE_BELOW_BYTES = 256 * 1024

/**
 * Brings a used test database back to the template's state; true if it is now checked to be, false if it must
 * be dropped instead (its schema changed, or the reset could not make it equal). Nothing may be connected to it.
 */
export async function resetToTemplate (client: pg.ClientBase, template: TemplateState): Promise<boolean> {
  if (await schemaSignature(client) !== template.schema) return false
  const tables = [...template.contents.keys()].filter((name) => !name.startsWith('seq:'))
  const seeded = new Set(template.seeds.keys())
  const now = await readContents(client, tables, seeded)
  const changed = differences(template.contents, now.content)
  if (changed.length === 0) return true

  const emptied = changed.filter((name) => !name.startsWith('seq:'))
  // TRUNCATE needs every table that references one of its tables in the same statement, empty or not.
  const truncated = new Set<string>()
  const truncate = (table: string): void => {
    if (truncated.has(table)) return
    truncated.add(table)
    for (const referencing of template.referencedBy.get(table) ?? []) truncate(referencing)
  }
  for (const table of emptied) if ((now.size.get(table) ?? 0) >= DELETE_BELOW_BYTES) truncate(table)
  await client.query('begin')
  try {
    // Seeded rows go back exactly as they were: no trigger of the schema's runs, nor any foreign key check.
    await client.query('set local session_replication_role = replica')
    if (truncated.size > 0) await client.query(`truncate ${[...truncated].map(quote).join(', ')}`)
    for (const table of emptied) if (!truncated.has(table)) await client.query(`delete from ${quote(table)}`)
    for (const table of new Set([...emptied, ...truncated])) {
      const seed = template.seeds.get(table)
      if (seed === undefined) continue
      await client.query(`insert into ${quote(table)} overriding system value ` +
        `select * from json_populate_recordset(null::${quote(table)}, $1::json)`, [seed])
    }
    // Every sequence a test used starts again, unused, whether or not its table's rows are gone.
    for (const name of changed) {
      if (name.startsWith('seq:')) await client.query(`alter sequence ${qualified(name.slice(4))} restart`)
    }
    await client.query('commit')
  } catch (error) {
    await client.query('rollback').catch(() => undefined)
    throw error
  }
  return differences(template.contents, (await readContents(client, tables, seeded)).content).length === 0
}
