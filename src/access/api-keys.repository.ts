import { announceChange } from '../store/change-feed.ts'
import type { ApiKeyTable, Db } from '../store/database.ts'

// All SQL on api_keys lives here.

export async function insertKey (db: Db, row: ApiKeyTable): Promise<void> {
  await db.insertInto('api_keys').values(row).execute()
}

export async function findKey (db: Db, id: string): Promise<ApiKeyTable | undefined> {
  return await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function listKeys (db: Db): Promise<ApiKeyTable[]> {
  return await db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute()
}

/** Marks a key revoked; false when there is no such key or it was already revoked. */
export async function revokeKey (db: Db, id: string, at: string): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: at })
    .where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst()
  const revoked = Number(result.numUpdatedRows) > 0
  // Serving processes hold verified keys in memory: tell them all.
  if (revoked) await announceChange(db, 'keys')
  return revoked
}

export async function countKeys (db: Db): Promise<number> {
  const row = await db.selectFrom('api_keys').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()
  return Number(row.count)
}
