import type { Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.
//
// - project_sources.digest: what a source last said of a project's ledger (OffsetsDB's archive: a digest of its
//   credits, whatever their order), so a new snapshot compares one value per project and touches only the ledgers
//   that changed;
// - a project's detail names the sources that state it (`sources`) and its content digest leaves out which files
//   and lines it was read from: the stored JSON is rebuilt at the next start, with the field.

export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_sources').addColumn('digest', 'varchar(100)').execute()
  await db.updateTable('projects').set({ item_json: null }).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project_sources').dropColumn('digest').execute()
  await db.updateTable('projects').set({ item_json: null }).execute()
}
