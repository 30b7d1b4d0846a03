import { sql, SqliteAdapter, type Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.

export async function up (db: Kysely<any>): Promise<void> {
  // Each project's list item as JSON, built at import (media links as placeholders, signed per
  // response): a page is then one indexed query and a string join, at any catalogue size.
  await db.schema.alterTable('projects').addColumn('item_json', 'text').execute()

  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    // A trigram full-text index over search_text: `search` finds substrings of 3+ characters
    // without scanning the table. Triggers keep it in step with every write.
    await sql`create virtual table projects_search using fts5(search_text, content='projects', content_rowid='id', tokenize='trigram')`.execute(db)
    await sql`create trigger projects_search_insert after insert on projects begin
      insert into projects_search(rowid, search_text) values (new.id, new.search_text); end`.execute(db)
    await sql`create trigger projects_search_delete after delete on projects begin
      insert into projects_search(projects_search, rowid, search_text) values ('delete', old.id, old.search_text); end`.execute(db)
    await sql`create trigger projects_search_update after update of search_text on projects begin
      insert into projects_search(projects_search, rowid, search_text) values ('delete', old.id, old.search_text);
      insert into projects_search(rowid, search_text) values (new.id, new.search_text); end`.execute(db)
    await sql`insert into projects_search(projects_search) values ('rebuild')`.execute(db)
    return
  }
  // PostgreSQL: a trigram GIN index serves the same LIKE '%term%' query. pg_trgm is a trusted
  // extension (any user who may create in the database can add it); without it search still works, by scan.
  const { rows } = await sql<{ usable: boolean }>`select exists (select 1 from pg_available_extensions where name = 'pg_trgm')
    and has_database_privilege(current_database(), 'CREATE') as usable`.execute(db)
  if (rows[0]?.usable === true) {
    await sql`create extension if not exists pg_trgm`.execute(db)
    await sql`create index projects_search_trgm on projects using gin (search_text gin_trgm_ops)`.execute(db)
  }
}

export async function down (db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const trigger of ['projects_search_insert', 'projects_search_delete', 'projects_search_update']) {
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db)
    }
    await sql`drop table if exists projects_search`.execute(db)
  } else {
    await sql`drop index if exists projects_search_trgm`.execute(db)
  }
  await db.schema.alterTable('projects').dropColumn('item_json').execute()
}
