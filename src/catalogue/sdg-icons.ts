import { drawSdgIcon } from '../media/sdg-icons.ts'
import type { MediaStore } from '../media/media-store.ts'
import type { Db } from '../store/database.ts'
import { sdgIconKey } from './project.mapper.ts'
import { sdgColours } from './vocabularies.repository.ts'

/** Draws the 17 goal icons into the media store (idempotent: same content, same file). Run at start-up. */
export async function writeSdgIcons (db: Db, media: MediaStore): Promise<void> {
  for (const goal of await sdgColours(db)) {
    media.put(sdgIconKey(goal.number), drawSdgIcon(goal.number, goal.verbose_name, goal.colour))
  }
}
