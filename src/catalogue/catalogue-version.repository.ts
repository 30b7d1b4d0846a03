import { randomUUID } from 'node:crypto'
import { announceChange } from '../store/change-feed.ts'
import type { Db } from '../store/database.ts'
import { getMeta, setMeta } from '../store/meta.repository.ts'

const VERSION_KEY = 'catalogue_version'

/**
 * A token that changes with every write to the catalogue. Answers are cached by it; each write is
 * announced (ChangeFeed), so every instance reads the new token within a second.
 */
export async function catalogueVersion (db: Db): Promise<string> {
  return await getMeta(db, VERSION_KEY) ?? 'initial'
}

export async function bumpCatalogueVersion (db: Db): Promise<void> {
  await setMeta(db, VERSION_KEY, randomUUID())
  await announceChange(db, 'catalogue')
}
