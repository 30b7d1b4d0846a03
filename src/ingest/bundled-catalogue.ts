import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Db } from '../store/database.ts'
import { countProjects } from '../catalogue/project-list.repository.ts'
import { getMeta, setMeta } from '../store/meta.repository.ts'

export const BUNDLED_CATALOGUE_FILE = path.join(import.meta.dirname, '..', '..', 'data', 'catalogue', 'projects.ndjson')
const LOADED_KEY = 'bundled_catalogue_loaded_at'

/**
 * Loads the bundled real catalogue into a database that has never had one, once: an operator
 * who later empties the catalogue or imports their own does not get it back.
 * Returns the number of projects loaded (0 when nothing was done).
 */
export async function loadBundledCatalogueOnce (db: Db, file = BUNDLED_CATALOGUE_FILE): Promise<number> {
  if (await getMeta(db, LOADED_KEY) !== undefined) return 0
  let loaded = 0
  if (await countProjects(db, {}) === 0) {
    // Loaded only here, once per database: serving never needs the importer (docs/performance.md, start time).
    const { importProjects } = await import('./projects.import.ts')
    loaded = (await importProjects(db, readFileSync(file, 'utf8'), { replace: false })).imported
  }
  await setMeta(db, LOADED_KEY, new Date().toISOString())
  return loaded
}
