import { createHash } from 'node:crypto'
import type { MediaLinker } from '../media/signing.ts'
import type { Db } from '../store/database.ts'
import { toDetailExtras, toListItem } from './project.mapper.ts'
import * as repository from './project-rows.repository.ts'

// Each project's list item is stored as JSON, built from its row by the one mapper. Media links
// cannot be stored (they are signed per response), so the JSON holds placeholders instead.

const PLACEHOLDER = 'tonne-media:'
const placeholders: MediaLinker = { media: (key) => `${PLACEHOLDER}${key}` }
const OPENING = `"${PLACEHOLDER}`

/**
 * An answer body cut once, when it is built, at its media placeholders: `literals` around `keys`. Signing
 * it is then a join, with no search through the JSON text each time its links are renewed.
 */
export interface MediaTemplate { literals: string[], keys: string[] }

export function mediaTemplate (json: string): MediaTemplate {
  const literals: string[] = []
  const keys: string[] = []
  let from = 0
  for (let at = json.indexOf(OPENING); at !== -1; at = json.indexOf(OPENING, at + 1)) {
    // A placeholder is a whole string value (after `:`, `,` or `[` in compact JSON); the same letters
    // inside some text (`\"tonne-media:…`) are text.
    if (!':,['.includes(json[at - 1] ?? '')) continue
    const end = json.indexOf('"', at + OPENING.length)
    literals.push(json.slice(from, at))
    keys.push(json.slice(at + OPENING.length, end))
    from = end + 1
  }
  literals.push(json.slice(from))
  return { literals, keys }
}

/** The body with signed links where the placeholders were. */
export function signTemplate (template: MediaTemplate, links: MediaLinker): string {
  let out = template.literals[0]!
  for (let i = 0; i < template.keys.length; i++) {
    out += JSON.stringify(links.media(template.keys[i]!)) + template.literals[i + 1]!
  }
  return out
}

/**
 * The detail JSON from the stored list item and detail-only JSON: external_id goes right after id
 * (spec 2.1 order), the detail-only fields (credits, source) after every list field.
 */
export function detailJson (itemJson: string, externalId: string, extrasJson: string): string {
  const afterId = itemJson.indexOf(',')
  const listFields = itemJson.slice(afterId, -1)
  return `${itemJson.slice(0, afterId)},"external_id":${JSON.stringify(externalId)}${listFields},${extrasJson.slice(1)}`
}

const REFRESH_BATCH = 1000

/**
 * Builds and stores the JSON of these projects (after an import wrote their rows). A project whose JSON
 * (timestamps aside) differs from what was stored, or that had none, gets `updated_at = now` (and
 * `created_at` if it had none). Returns the ids of those changed projects.
 */
export async function refreshProjectJson (
  db: Db, ids: readonly number[], now: Date = new Date(), touched: ReadonlySet<number> = new Set()
): Promise<Set<number>> {
  // A batch at a time: an archive names 10,000 projects, whose rows and JSON need not be in memory at once.
  if (ids.length > REFRESH_BATCH) {
    const changed = new Set<number>()
    for (let i = 0; i < ids.length; i += REFRESH_BATCH) {
      for (const id of await refreshProjectJson(db, ids.slice(i, i + REFRESH_BATCH), now, touched)) changed.add(id)
    }
    return changed
  }
  const rows = await repository.projectsByIds(db, ids)
  const relations = await repository.loadRelations(db, ids)
  const at = now.toISOString()
  const changed = new Set<number>()
  const stored: repository.StoredJson[] = rows.map((row) => {
    const { created_at: _created, updated_at: _updated, ...item } = toListItem(row, relations, placeholders)
    const detail = toDetailExtras(row, relations)
    const { source: _source, ...content } = detail
    const extras = JSON.stringify(detail)
    const shown = JSON.stringify(item)
    // What a client can see of the project, in_sale included (a filter). Timestamps are not content, nor is
    // `source` (which files, which lines): the same data under another file name or row order is no change.
    const hash = createHash('sha256')
      .update(`${row.external_id}\n${String(Boolean(row.in_sale))}\n${shown}\n${JSON.stringify(content)}`)
      .digest('hex')
    const isChange = hash !== row.content_hash || touched.has(row.id)
    if (isChange) changed.add(row.id)
    const createdAt = row.created_at ?? at
    const updatedAt = isChange || row.updated_at === null ? at : row.updated_at
    const stamps = `,"created_at":${JSON.stringify(createdAt)},"updated_at":${JSON.stringify(updatedAt)}}`
    return {
      id: row.id,
      item_json: `${shown.slice(0, -1)}${stamps}`,
      detail_json: extras,
      content_hash: hash,
      created_at: createdAt,
      updated_at: updatedAt
    }
  })
  await repository.setStoredJson(db, stored)
  return changed
}

/**
 * Rebuilds every project's JSON (after a vocabulary rename), or only the missing ones (after an upgrade).
 * Returns how many were built and which of them changed.
 */
export async function refreshAllProjectJson (
  db: Db, options: { missingOnly: boolean, now?: Date }
): Promise<{ built: number, changed: Set<number> }> {
  const changed = new Set<number>()
  let built = 0
  for (let after = 0; ;) {
    const ids = await repository.projectIdsAfter(db, options.missingOnly ? 0 : after, 1000, options.missingOnly)
    if (ids.length === 0) return { built, changed }
    for (const id of await refreshProjectJson(db, ids, options.now)) changed.add(id)
    built += ids.length
    after = ids[ids.length - 1]!
  }
}
