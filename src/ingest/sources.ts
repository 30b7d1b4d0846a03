import type { Db } from '../store/database.ts'
import { attributionOf, type SourceKind } from './sync/source-kinds.ts'
import { countSourceRows, saveSource } from './sources.repository.ts'

/**
 * Records a manual `tonne import --from KIND` in the source's row (no URL: the files came from the operator), with
 * what the catalogue now holds from it. The validators and digest of an earlier sync are dropped, so the next sync
 * of that kind downloads and compares afresh.
 */
export async function recordManualImport (db: Db, kind: SourceKind, changed: boolean, now: Date): Promise<void> {
  const at = now.toISOString()
  await saveSource(db, kind, {
    kind,
    url: null,
    sha256: null,
    etag: null,
    last_modified: null,
    last_checked_at: at,
    ...(changed && { last_changed_at: at }),
    last_status: changed ? 'changed' : 'unchanged',
    last_error: null,
    ...await countSourceRows(db, kind),
    attribution: attributionOf(kind)
  })
}
