import { sql, SqliteAdapter, type Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.
//
// What the ledger's reads need at a million transactions (docs/performance.md, "The credit ledger"):
// - each filter that picks a column value (project, type, registry, vintage) has an index in each ordering (date,
//   quantity), so a page walks an index instead of sorting every match (a project's retirements by quantity took
//   over a second at 1M, the planner walking the whole (quantity, id) index; a registry by quantity 395 ms, a
//   vintage by date 46 ms, both sorting); (vintage, id) becomes (vintage, date, id);
// - registry and vintage together are one index range (their count read a registry's every row);
// - `search` in beneficiaries: a trigram index, as the projects' search has (migration 0003), so a rare name is
//   found without reading every row.

const INDEXES = [['project_id', 'quantity', 'id'], ['type', 'quantity', 'id'], ['registry', 'quantity', 'id'],
  ['vintage', 'date', 'id'], ['vintage', 'quantity', 'id'], ['registry', 'vintage', 'date', 'id']]

export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('credit_transactions_vintage_id_idx').execute()
  for (const columns of INDEXES) {
    await db.schema.createIndex(`credit_transactions_${columns.join('_')}_idx`).on('credit_transactions')
      .columns(columns).execute()
  }
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    // Rows without a beneficiary (issuances, cancellations) are not indexed; triggers keep the index in step with
    // every write, and `delete` is only ever given a row that was indexed, with the values it was indexed with.
    await sql`create virtual table credit_transactions_search using fts5(beneficiary_key,
      content='credit_transactions', content_rowid='id', tokenize='trigram')`.execute(db)
    await sql`create trigger credit_transactions_search_insert after insert on credit_transactions
      when new.beneficiary_key is not null begin
      insert into credit_transactions_search(rowid, beneficiary_key) values (new.id, new.beneficiary_key); end`
      .execute(db)
    await sql`create trigger credit_transactions_search_delete after delete on credit_transactions
      when old.beneficiary_key is not null begin
      insert into credit_transactions_search(credit_transactions_search, rowid, beneficiary_key)
        values ('delete', old.id, old.beneficiary_key); end`.execute(db)
    await sql`create trigger credit_transactions_search_update after update of beneficiary_key on credit_transactions
      begin
      insert into credit_transactions_search(credit_transactions_search, rowid, beneficiary_key)
        select 'delete', old.id, old.beneficiary_key where old.beneficiary_key is not null;
      insert into credit_transactions_search(rowid, beneficiary_key)
        select new.id, new.beneficiary_key where new.beneficiary_key is not null; end`.execute(db)
    await sql`insert into credit_transactions_search(rowid, beneficiary_key)
      select id, beneficiary_key from credit_transactions where beneficiary_key is not null`.execute(db)
    return
  }
  // PostgreSQL: a trigram GIN index serves LIKE '%term%' as it is, when pg_trgm could be installed (migration 0003).
  const { rows } = await sql<{ installed: boolean }>`select exists (select 1 from pg_extension
    where extname = 'pg_trgm') as installed`.execute(db)
  if (rows[0]?.installed === true) {
    await sql`create index credit_transactions_beneficiary_trgm on credit_transactions
      using gin (beneficiary_key gin_trgm_ops)`.execute(db)
  }
}

export async function down (db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const trigger of ['insert', 'delete', 'update']) {
      await sql`drop trigger if exists ${sql.id(`credit_transactions_search_${trigger}`)}`.execute(db)
    }
    await sql`drop table if exists credit_transactions_search`.execute(db)
  } else {
    await sql`drop index if exists credit_transactions_beneficiary_trgm`.execute(db)
  }
  for (const columns of INDEXES) {
    await db.schema.dropIndex(`credit_transactions_${columns.join('_')}_idx`).ifExists().execute()
  }
  await db.schema.createIndex('credit_transactions_vintage_id_idx').on('credit_transactions')
    .columns(['vintage', 'id']).execute()
}
