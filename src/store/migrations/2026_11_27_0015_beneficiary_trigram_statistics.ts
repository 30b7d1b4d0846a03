import { sql, SqliteAdapter, type Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.
//
// Beneficiary search at a million transactions (issue 34). On PostgreSQL the trigram GIN index (migration 0008)
// answered LIKE '%term%' by reading every trigram's posting list, the commonest ones (in every retirement) too:
// 150-220 ms for one name. A search now asks the index for its rarest trigrams only, and which are rarest is read
// from statistics ANALYZE keeps of each beneficiary's pg_trgm trigrams (their most common elements and
// frequencies). Only where pg_trgm (and so the index) exists; SQLite probes its own trigram index instead.

export async function up (db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return
  const { rows } = await sql<{ installed: boolean }>`select exists (select 1 from pg_extension
    where extname = 'pg_trgm') as installed`.execute(db)
  if (rows[0]?.installed !== true) return
  await sql`create statistics credit_transactions_beneficiary_trigrams on (show_trgm(beneficiary_key))
    from credit_transactions`.execute(db)
}

export async function down (db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return
  await sql`drop statistics if exists credit_transactions_beneficiary_trigrams`.execute(db)
}
