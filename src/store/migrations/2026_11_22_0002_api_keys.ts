import type { Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.

export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('api_keys')
    // The key's public prefix: it identifies the key in logs, lists and `keys revoke`.
    .addColumn('id', 'varchar(12)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    // SHA-256 of the whole key: the key itself is shown once and never stored.
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('scopes', 'varchar(500)', (c) => c.notNull())
    .addColumn('rate_limit_per_minute', 'integer')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(30)')
    .execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute()
}
