import type { Db } from '../store/database.ts'
import { toListItem, type MediaLinker } from './project.mapper.ts'
import * as repository from './projects.repository.ts'

// Each project's list item is stored as JSON, built from its row by the one mapper. Media links
// cannot be stored (they are signed per response), so the JSON holds placeholders instead.

const PLACEHOLDER = 'tonne-media:'
const PLACEHOLDER_STRING = /"tonne-media:([a-z0-9/._-]+)"/g
const placeholders: MediaLinker = { media: (key) => `${PLACEHOLDER}${key}` }

/** Puts signed links where the stored JSON has media placeholders. */
export function signLinks (json: string, links: MediaLinker): string {
  return json.replace(PLACEHOLDER_STRING, (_match, key: string) => JSON.stringify(links.media(key)))
}

/** The detail JSON from the stored list item: external_id goes right after id (spec 2.1 order). */
export function detailJson (itemJson: string, externalId: string): string {
  const afterId = itemJson.indexOf(',')
  return `${itemJson.slice(0, afterId)},"external_id":${JSON.stringify(externalId)}${itemJson.slice(afterId)}`
}

/** Builds and stores the JSON of these projects (after an import wrote their rows). */
export async function refreshProjectJson (db: Db, ids: readonly number[]): Promise<void> {
  const rows = await repository.projectsByIds(db, ids)
  const relations = await repository.loadRelations(db, ids)
  await repository.setItemJson(db, rows.map((row) => ({ id: row.id, item_json: JSON.stringify(toListItem(row, relations, placeholders)) })))
}

/** Rebuilds every project's JSON (after a vocabulary rename), or only the missing ones (after an upgrade). */
export async function refreshAllProjectJson (db: Db, options: { missingOnly: boolean }): Promise<number> {
  let done = 0
  for (let after = 0; ;) {
    const ids = await repository.projectIdsAfter(db, options.missingOnly ? 0 : after, 1000, options.missingOnly)
    if (ids.length === 0) return done
    await refreshProjectJson(db, ids)
    done += ids.length
    after = ids[ids.length - 1]!
  }
}
