import { SqliteAdapter, type Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.
//
// The credit ledger and the project fields OffsetsDB users have:
// - credit_transactions: every issuance, retirement and cancellation a registry publishes, one row each, keyed by
//   the registry's own identity (a serial range or transaction id, or a digest of the row's content when the
//   export has none), so re-imports upsert instead of duplicating; the source file and line it came from;
// - project_protocols: the methodology ids each project names, as the registry writes them (a filter and facet);
// - imported_files: the digest of every file an import read, so the same bytes under another name change nothing;
// - projects: credits_cancelled, status, project_type, category, is_compliance, listed_date and the first
//   issuance and retirement dates; project_vintages: cancelled credits per vintage.

export async function up (db: Kysely<any>): Promise<void> {
  // SQLite numbers an `integer primary key` itself; PostgreSQL needs an identity column.
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await db.schema.createTable('credit_transactions')
    .addColumn('id', 'integer', (c) => sqlite ? c.primaryKey() : c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // The project's registry, repeated so the whole ledger filters by registry without a join.
    .addColumn('registry', 'varchar(200)', (c) => c.notNull())
    .addColumn('identity', 'varchar(500)', (c) => c.notNull())
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    .addColumn('date', 'varchar(10)')
    .addColumn('vintage', 'integer')
    .addColumn('quantity', 'double precision', (c) => c.notNull())
    .addColumn('beneficiary', 'text')
    .addColumn('reason', 'text')
    // The beneficiary folded (case, accents) for `search`.
    .addColumn('beneficiary_key', 'text')
    .addColumn('source_file', 'varchar(500)')
    .addColumn('source_line', 'integer')
    .addUniqueConstraint('credit_transactions_identity_uq', ['registry', 'identity'])
    .execute()
  // A project's ledger and the whole ledger page by date (then id), filtered by type, registry or vintage.
  for (const columns of [['project_id', 'date', 'id'], ['date', 'id'], ['quantity', 'id'], ['type', 'date', 'id'],
    ['registry', 'date', 'id'], ['vintage', 'id']]) {
    await db.schema.createIndex(`credit_transactions_${columns.join('_')}_idx`).on('credit_transactions')
      .columns(columns).execute()
  }

  await db.schema.createTable('project_protocols')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('protocol', 'varchar(200)', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_protocols_pk', ['project_id', 'position'])
    .execute()
  await db.schema.createIndex('project_protocols_value_idx').on('project_protocols').columns(['protocol', 'project_id'])
    .execute()

  await db.schema.createTable('imported_files')
    .addColumn('registry', 'varchar(200)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(500)', (c) => c.notNull())
    .addColumn('imported_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('imported_files_pk', ['registry', 'sha256'])
    .execute()

  // SQLite adds one column per statement.
  for (const [column, type] of [['credits_cancelled', 'double precision'], ['status', 'varchar(100)'],
    ['project_type', 'varchar(200)'], ['category', 'varchar(100)'], ['is_compliance', 'boolean'],
    ['listed_date', 'varchar(10)'], ['first_issuance_date', 'varchar(10)'], ['first_retirement_date', 'varchar(10)']
  ] as const) {
    await db.schema.alterTable('projects').addColumn(column, type).execute()
  }
  await db.schema.alterTable('project_vintages').addColumn('cancelled', 'double precision').execute()
  for (const column of ['credits_cancelled', 'first_issuance_date', 'first_retirement_date', 'status', 'category']) {
    await db.schema.createIndex(`projects_${column}_idx`).on('projects').columns([column, 'id']).execute()
  }
  // Stored JSON is rebuilt at the next start, with the new fields.
  await db.updateTable('projects').set({ item_json: null }).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  for (const column of ['credits_cancelled', 'first_issuance_date', 'first_retirement_date', 'status', 'category']) {
    await db.schema.dropIndex(`projects_${column}_idx`).ifExists().execute()
  }
  await db.schema.alterTable('project_vintages').dropColumn('cancelled').execute()
  for (const column of ['credits_cancelled', 'status', 'project_type', 'category', 'is_compliance', 'listed_date',
    'first_issuance_date', 'first_retirement_date']) {
    await db.schema.alterTable('projects').dropColumn(column).execute()
  }
  await db.schema.dropTable('imported_files').ifExists().execute()
  await db.schema.dropTable('project_protocols').ifExists().execute()
  await db.schema.dropTable('credit_transactions').ifExists().execute()
}
