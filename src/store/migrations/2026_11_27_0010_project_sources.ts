import type { Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.
//
// A project's detail names the sources that state it (`sources`, from project_sources) and its content digest
// leaves out which files and lines it was read from: the stored JSON is rebuilt at the next start, with the field.

export async function up (db: Kysely<any>): Promise<void> {
  await db.updateTable('projects').set({ item_json: null }).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.updateTable('projects').set({ item_json: null }).execute()
}
