import { sql, SqliteAdapter, type Kysely } from 'kysely'

// Migration 0012: the ledger's counts kept beside it (issue 34). A page's exact `count` over a million transactions
// took 50 to 150 ms of scanning; a summary built when a version is first read took seconds under load. So the
// database keeps, in the same transaction as every write, how many transactions each (registry, type, vintage,
// month) holds: triggers on credit_transactions, per row on SQLite (where a row trigger costs microseconds) and per
// statement on PostgreSQL (one grouped upsert per INSERT, so an import of a million rows pays one pass). Undated
// transactions count under month '' and those without a vintage under vintage 0 (a unique key has no nulls).

const GROUP = sql`registry, type, coalesce(vintage, 0), coalesce(substr(date, 1, 7), '')`

export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('ledger_counts')
    .addColumn('registry', 'varchar(200)', (c) => c.notNull())
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    .addColumn('vintage', 'integer', (c) => c.notNull())
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_counts_pk', ['registry', 'type', 'vintage', 'month'])
    .execute()
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    const change = (row: 'new' | 'old', step: number) => sql`insert into ledger_counts
      (registry, type, vintage, month, count) values (${sql.raw(row)}.registry, ${sql.raw(row)}.type,
        coalesce(${sql.raw(row)}.vintage, 0), coalesce(substr(${sql.raw(row)}.date, 1, 7), ''), ${sql.lit(step)})
      on conflict (registry, type, vintage, month) do update set count = count + ${sql.lit(step)};`
    await sql`create trigger ledger_counts_insert after insert on credit_transactions begin ${change('new', 1)} end`
      .execute(db)
    await sql`create trigger ledger_counts_delete after delete on credit_transactions begin ${change('old', -1)} end`
      .execute(db)
    await sql`create trigger ledger_counts_update after update of registry, type, vintage, date on credit_transactions
      begin ${change('old', -1)} ${change('new', 1)} end`.execute(db)
  } else {
    const apply = (rows: string, sign: '+' | '-') => sql`insert into ledger_counts (registry, type, vintage, month,
      count) select ${GROUP}, ${sql.raw(sign)}count(*) from ${sql.raw(rows)} group by ${GROUP}
      on conflict (registry, type, vintage, month) do update set count = ledger_counts.count + excluded.count;`
    const fn = (name: string, body: ReturnType<typeof sql>) => sql`create function ${sql.raw(name)}() returns trigger
      language plpgsql as $$ begin ${body} return null; end $$`
    await fn('ledger_counts_insert', apply('new_rows', '+')).execute(db)
    await fn('ledger_counts_delete', apply('old_rows', '-')).execute(db)
    await fn('ledger_counts_update', sql`${apply('old_rows', '-')} ${apply('new_rows', '+')}`).execute(db)
    await sql`create trigger ledger_counts_insert after insert on credit_transactions
      referencing new table as new_rows for each statement execute function ledger_counts_insert()`.execute(db)
    await sql`create trigger ledger_counts_delete after delete on credit_transactions
      referencing old table as old_rows for each statement execute function ledger_counts_delete()`.execute(db)
    await sql`create trigger ledger_counts_update after update on credit_transactions
      referencing old table as old_rows new table as new_rows for each statement
      execute function ledger_counts_update()`.execute(db)
  }
  await sql`insert into ledger_counts (registry, type, vintage, month, count)
    select ${GROUP}, count(*) from credit_transactions group by ${GROUP}`.execute(db)
}

export async function down (db: Kysely<any>): Promise<void> {
  for (const trigger of ['insert', 'delete', 'update']) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`drop trigger if exists ${sql.id(`ledger_counts_${trigger}`)}`.execute(db)
    } else {
      await sql`drop trigger if exists ${sql.id(`ledger_counts_${trigger}`)} on credit_transactions`.execute(db)
      await sql`drop function if exists ${sql.id(`ledger_counts_${trigger}`)}()`.execute(db)
    }
  }
  await db.schema.dropTable('ledger_counts').ifExists().execute()
}
