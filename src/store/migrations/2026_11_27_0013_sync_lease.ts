import type { Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.
//
// Scheduled sync (issue "the whole market", item 3): exactly one process of every instance sharing the database
// syncs at a time, for as long as the download and the import take. The import lock is held only inside the
// import's transaction, and on SQLite it is the write lock itself (holding it through a download would stop every
// writer), so the sync holds a lease instead: a row naming its holder until an expiry it renews while it works.
// A process that dies leaves the row to expire.

export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createTable('leases')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(200)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('leases').ifExists().execute()
}
