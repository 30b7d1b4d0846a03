import { sql, SqliteAdapter, type Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.

export async function up (db: Kysely<any>): Promise<void> {
  // SQLite keeps each row (stored JSON included) in its rowid table, so `OFFSET n` in id order read n whole
  // rows. An index of ids alone is a few bytes a row: a page's ids are found there, then n rows are not
  // read at all (286 ms -> 3 ms at offset 199,900 of 200,000; docs/performance.md). It also serves count(*).
  // PostgreSQL's primary key index already is such an index.
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`create index projects_id_only on projects (id)`.execute(db)
  }
}

export async function down (db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) await sql`drop index if exists projects_id_only`.execute(db)
}
