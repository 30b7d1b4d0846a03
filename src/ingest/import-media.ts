import type { MediaStore } from '../media/media-store.ts'
import type { Db } from '../store/database.ts'
import { withImportLock, type ImportLockOptions } from '../store/import-lock.ts'
import { referencedMediaKeys } from './project-import.repository.ts'

/** An image file of an import, read and checked, not yet in the media store. */
export interface PendingImage { content: Buffer, extension: string }

/**
 * The media files one import writes. They are written inside the import's transaction (its lock held),
 * and removed again if that transaction fails: a refused import leaves the media store as it was.
 */
export class ImportMedia {
  readonly #media: MediaStore | undefined
  readonly #created: string[] = []

  constructor (media: MediaStore | undefined) {
    this.#media = media
  }

  /** Stores the file (content-addressed: an image already there is not written again) and gives its key. */
  store (image: PendingImage): string {
    const { key, created } = this.#media!.putNewContent(image.content, image.extension)
    if (created) this.#created.push(key)
    return key
  }

  /** Removes the files this import created (its transaction failed). */
  discard (): void {
    for (const key of this.#created.splice(0)) this.#media?.remove(key)
  }
}

/**
 * Removes image files no project refers to (left by projects removed or replaced). Run after each
 * successful import, under the import lock, so that no other import's files are in flight meanwhile.
 * Only `images/`: SDG icons are drawn at start-up and referenced by no row. Returns how many were removed.
 */
export async function collectUnreferencedImages (db: Db, media: MediaStore,
  lock: ImportLockOptions): Promise<number> {
  return await withImportLock(db, lock, async (trx) => {
    const referenced = await referencedMediaKeys(trx)
    const unreferenced = media.keysIn('images').filter((key) => !referenced.has(key))
    for (const key of unreferenced) media.remove(key)
    return unreferenced.length
  })
}
