import type { Db, SourceTable } from '../store/database.ts'

// The read side of `sources`: what GET /sources/ lists (the sync and the imports write it, src/ingest/).

export async function listSources (db: Db): Promise<SourceTable[]> {
  return await db.selectFrom('sources').selectAll().orderBy('name').execute()
}
