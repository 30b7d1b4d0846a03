import type { Db } from './database.ts'

// Named leases (table `leases`, migration 0013): one holder at a time across every process on the database, for
// work longer than a transaction (a sync's download and import). A lease lapses at its expiry unless renewed.

/** Takes the lease if it is free, lapsed or already ours; returns whether we hold it now. */
export async function takeLease (db: Db, name: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs).toISOString()
  await db.insertInto('leases').values({ name, holder, expires_at: expiresAt })
    .onConflict((oc) => oc.column('name').doUpdateSet({ holder, expires_at: expiresAt })
      .where((eb) => eb.or([eb('leases.expires_at', '<', now.toISOString()), eb('leases.holder', '=', holder)])))
    .execute()
  return (await leaseHolder(db, name)) === holder
}

/** Extends our lease; false when it is no longer ours (it lapsed and another took it). */
export async function renewLease (db: Db, name: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
  const result = await db.updateTable('leases').set({ expires_at: new Date(now.getTime() + ttlMs).toISOString() })
    .where('name', '=', name).where('holder', '=', holder).executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function releaseLease (db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute()
}

async function leaseHolder (db: Db, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('leases').select('holder').where('name', '=', name).executeTakeFirst()
  return row?.holder
}
