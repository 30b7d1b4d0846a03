import { sql } from 'kysely'
import { databaseKind, type Db } from '../store/database.ts'

// A bulk write of the ledger (credit_transactions): when an import adds about as many rows as the ledger holds (a
// first import of OffsetsDB's million credits), entering each row into a dozen secondary indexes and the
// beneficiary trigram index one at a time costs most of the import; building them after the rows are in is several
// times cheaper. So, inside the import's transaction (a refused or killed import leaves them as they were), the
// ledger's secondary indexes are dropped, the rows written, and the indexes created again from the definitions the
// database itself held a moment before (sqlite_master, pg_indexes): they cannot drift from the migrations'. Indexes
// that back a constraint (the primary key, the (registry, identity) unique key) stay: the write checks them.
//
// SQLite's per-row triggers on the ledger (the trigram search table of migration 0008, the counts of migration
// 0012) are dropped and recreated the same way, and what they would have done is done once, for the new rows, by
// one statement each. A trigger not named here stays and fires as usual. PostgreSQL's ledger_counts triggers fire
// once per statement (one grouped upsert for the whole write) and stay.

/** SQLite's per-row triggers whose work `applyForNewRows` does for a bulk write. */
const SQLITE_TRIGGERS = ['credit_transactions_search_insert', 'ledger_counts_insert']

interface Definition { kind: 'index' | 'trigger', name: string, sql: string }

/** Rows a write must add, at least and as a share of the ledger, to go the bulk path (docs/benchmarks.md). */
export const BULK_MIN_ROWS = 1000
export const BULK_MIN_SHARE = 0.5

/** Whether adding `rows` to the ledger is cheaper with its indexes built afterwards, and blocks no reader. */
export async function bulkWorthIt (db: Db, rows: number): Promise<boolean> {
  if (rows < BULK_MIN_ROWS) return false
  const stored = await db.selectFrom('credit_transactions').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst()
  const held = Number(stored?.n ?? 0)
  // On PostgreSQL, DROP INDEX locks the ledger until the import commits: readers of a ledger that holds rows would
  // wait for the whole import. So the bulk path there is for an empty ledger only (the first import); SQLite's
  // readers keep their snapshot (WAL) and never wait.
  if (databaseKind(db) === 'postgres' && held > 0) return false
  return rows >= BULK_MIN_SHARE * held
}

async function definitions (db: Db): Promise<Definition[]> {
  if (databaseKind(db) === 'sqlite') {
    // Constraint indexes (sqlite_autoindex_…) have no sql and stay.
    const { rows } = await sql<{ type: 'index' | 'trigger', name: string, sql: string }>`select type, name, sql
      from sqlite_master where tbl_name = 'credit_transactions' and sql is not null
      and (type = 'index' or (type = 'trigger' and name in (${sql.join(SQLITE_TRIGGERS)})))
      order by type, name`.execute(db)
    return rows.map((r) => ({ kind: r.type, name: r.name, sql: r.sql }))
  }
  const { rows } = await sql<{ indexname: string, indexdef: string }>`select i.indexname, i.indexdef
    from pg_indexes i join pg_class c on c.relname = i.indexname
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = i.schemaname
    where i.schemaname = current_schema() and i.tablename = 'credit_transactions'
    and not exists (select 1 from pg_constraint k where k.conindid = c.oid)
    order by i.indexname`.execute(db)
  return rows.map((r) => ({ kind: 'index', name: r.indexname, sql: r.indexdef }))
}

/**
 * Runs `write` (which only adds rows to credit_transactions) with the ledger's secondary indexes and SQLite's
 * per-row triggers out of the way, then puts them back exactly as they were and does the triggers' work for the
 * new rows. Must run inside a transaction.
 */
export async function withLedgerIndexesAfter (db: Db, write: () => Promise<void>): Promise<void> {
  const sqlite = databaseKind(db) === 'sqlite'
  const saved = await definitions(db)
  const last = await db.selectFrom('credit_transactions').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst()
  // New rows take ids past every stored one (SQLite's rowid, PostgreSQL's identity; only imports write, one at a
  // time under the import lock), so they are the rows past this one.
  const after = Number(last?.id ?? 0)
  for (const d of saved) {
    if (d.kind === 'trigger') await sql`drop trigger ${sql.id(d.name)}`.execute(db)
    else await sql`drop index ${sql.id(d.name)}`.execute(db)
  }
  await write()
  if (!sqlite) await sql`set local maintenance_work_mem = '256MB'`.execute(db)
  for (const d of saved.filter((d) => d.kind === 'index')) await sql.raw(d.sql).execute(db)
  if (sqlite) await applyForNewRows(db, saved, after)
  for (const d of saved.filter((d) => d.kind === 'trigger')) await sql.raw(d.sql).execute(db)
}

/** What migration 0008's and 0012's SQLite insert triggers do, once for every row past `after`. */
async function applyForNewRows (db: Db, dropped: readonly Definition[], after: number): Promise<void> {
  const has = (name: string) => dropped.some((d) => d.name === name)
  if (has('credit_transactions_search_insert')) {
    await sql`insert into credit_transactions_search (rowid, beneficiary_key)
      select id, beneficiary_key from credit_transactions where id > ${after} and beneficiary_key is not null`
      .execute(db)
  }
  if (has('ledger_counts_insert')) {
    await sql`insert into ledger_counts (registry, type, vintage, month, count)
      select registry, type, coalesce(vintage, 0), coalesce(substr(date, 1, 7), ''), count(*)
      from credit_transactions where id > ${after}
      group by registry, type, coalesce(vintage, 0), coalesce(substr(date, 1, 7), '')
      on conflict (registry, type, vintage, month) do update set count = ledger_counts.count + excluded.count`
      .execute(db)
  }
}
