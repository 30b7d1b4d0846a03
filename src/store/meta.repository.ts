import type { Db } from './database.ts'

// Small facts about the database itself ("the bundled catalogue was loaded at …").

export async function getMeta (db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', key).executeTakeFirst()
  return row?.value
}

export async function setMeta (db: Db, key: string, value: string): Promise<void> {
  await db.insertInto('meta').values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute()
}
