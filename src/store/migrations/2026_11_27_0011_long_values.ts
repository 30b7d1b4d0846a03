import { sql, SqliteAdapter, type Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.
//
// Field limits that fit real data: registries write whole UNFCCC titles as a project's methodology (a Gold Standard
// issuance export has one of 213 characters), and varchar(200) refused the whole file on PostgreSQL. The import
// schema allows 1,000 characters (PROTOCOL_MAX_LENGTH); the column holds any text. SQLite does not enforce varchar
// lengths: nothing to change there.
//
// project_export_dates: how recent the project export was that last stated each registry project (its rows' latest
// date), so an older export read later does not undo newer fields (docs/registries.md, "Older exports").

export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('project_export_dates')
    .addColumn('registry', 'varchar(200)', (c) => c.notNull())
    .addColumn('external_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('as_of', 'varchar(10)', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_export_dates_pk', ['registry', 'external_id'])
    .execute()
  if (db.getExecutor().adapter instanceof SqliteAdapter) return
  await db.schema.alterTable('project_protocols').alterColumn('protocol', (c) => c.setDataType('text')).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('project_export_dates').ifExists().execute()
  if (db.getExecutor().adapter instanceof SqliteAdapter) return
  // Values longer than 200 characters are cut: the older schema cannot hold them.
  await db.updateTable('project_protocols').set({ protocol: sql`substr(protocol, 1, 200)` }).execute()
  await db.schema.alterTable('project_protocols').alterColumn('protocol', (c) => c.setDataType('varchar(200)'))
    .execute()
}
