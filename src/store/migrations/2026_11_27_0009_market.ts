import type { Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.
//
// What a buyer needs per transaction and what holding the whole market needs (issue "the whole market"):
// - credit_transactions: the retirement account holder, the retirement note apart from the reason, serial numbers
//   or block ranges, the vintage's start and end dates, the registry's own page for the transaction, the
//   beneficiary as OffsetsDB harmonises it, and which source holds the row (`source_name`: a registry's key for its
//   own exports, `offsetsdb` for the archive), so a source's snapshot replaces its own rows and no other's;
// - projects: the methodology version; project_vintages: CORSIA eligibility per vintage (null: not stated);
// - sources: every source the catalogue is filled from, with what its last download and import said;
// - project_sources: which sources state each project.

export async function up (db: Kysely<any>): Promise<void> {
  for (const [column, type] of [['account', 'text'], ['note', 'text'], ['serials', 'text'],
    ['vintage_start', 'varchar(10)'], ['vintage_end', 'varchar(10)'], ['url', 'text'],
    ['beneficiary_harmonised', 'text'], ['source_name', 'varchar(200)']] as const) {
    await db.schema.alterTable('credit_transactions').addColumn(column, type).execute()
  }
  await db.schema.createIndex('credit_transactions_source_name_project_id_idx').on('credit_transactions')
    .columns(['source_name', 'project_id']).execute()
  await db.schema.alterTable('projects').addColumn('protocol_version', 'varchar(200)').execute()
  await db.schema.alterTable('project_vintages').addColumn('corsia_eligible', 'boolean').execute()

  await db.schema.createTable('sources')
    .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(50)', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('last_checked_at', 'varchar(30)')
    .addColumn('last_changed_at', 'varchar(30)')
    .addColumn('data_as_of', 'varchar(30)')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .addColumn('last_status', 'varchar(20)')
    .addColumn('last_error', 'text')
    .addColumn('projects', 'integer')
    .addColumn('transactions', 'integer')
    .addColumn('attribution', 'text')
    .execute()

  await db.schema.createTable('project_sources')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('source_name', 'varchar(200)', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_sources_pk', ['project_id', 'source_name'])
    .execute()
  await db.schema.createIndex('project_sources_source_name_idx').on('project_sources')
    .columns(['source_name', 'project_id']).execute()
  // Stored JSON is rebuilt at the next start, with the new fields.
  await db.updateTable('projects').set({ item_json: null }).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('project_sources').ifExists().execute()
  await db.schema.dropTable('sources').ifExists().execute()
  await db.schema.alterTable('project_vintages').dropColumn('corsia_eligible').execute()
  await db.schema.alterTable('projects').dropColumn('protocol_version').execute()
  await db.schema.dropIndex('credit_transactions_source_name_project_id_idx').ifExists().execute()
  for (const column of ['account', 'note', 'serials', 'vintage_start', 'vintage_end', 'url',
    'beneficiary_harmonised', 'source_name']) {
    await db.schema.alterTable('credit_transactions').dropColumn(column).execute()
  }
}
