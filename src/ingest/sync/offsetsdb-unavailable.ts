import type { MediaStore } from '../../media/media-store.ts'
import type { Db } from '../../store/database.ts'
import type { ImportLockOptions } from '../../store/import-lock.ts'

// Stands in for the OffsetsDB archive import (src/ingest/offsetsdb/offsetsdb.import.ts) in a build without it:
// importers.ts loads whichever module its ARCHIVE_IMPORT line names. Same signature, so the sync's use of it is
// type-checked either way.

export async function importOffsetsDbArchive (
  _db: Db, _files: ReadonlyArray<{ path: string, label: string }>,
  _options: { media?: MediaStore, now?: Date, lock?: ImportLockOptions }
): Promise<{ created: number, updated: number, unchanged: number, data_as_of: string | null }> {
  throw new Error('OffsetsDB import is not available in this build')
}
