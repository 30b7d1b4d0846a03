import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'

/** Content types the store serves, by file extension. Anything else is refused at import. */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml'
}

// Keys are relative paths of lower-case letters, digits and dashes: never "..", never absolute.
const KEY_PATTERN = /^[a-z0-9-]+(\/[a-z0-9-]+)*\.[a-z0-9]+$/

function isMediaKey (key: string): boolean {
  return key.length <= 200 && KEY_PATTERN.test(key) && MEDIA_TYPES[path.extname(key)] !== undefined
}

/**
 * Files addressed by key in a folder (MEDIA_DIR, by default DATA_DIR/media). Writes go to a
 * temporary name and are renamed into place, so a reader never sees half a file.
 */
export class MediaStore {
  readonly dir: string

  constructor (dir: string) {
    this.dir = dir
    mkdirSync(dir, { recursive: true })
  }

  #file (key: string): string {
    if (!isMediaKey(key)) throw new Error(`not a media key: ${key}`)
    return path.join(this.dir, ...key.split('/'))
  }

  put (key: string, content: Buffer | string): void {
    const file = this.#file(key)
    mkdirSync(path.dirname(file), { recursive: true })
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
    writeFileSync(temporary, content)
    renameSync(temporary, file)
  }

  /** Stores content under a key derived from its hash: the same image imported twice is stored once. */
  putContent (content: Buffer, extension: string, folder = 'images'): string {
    return this.putNewContent(content, extension, folder).key
  }

  /** As putContent, and says whether this call created the file (so a failed import removes only its own). */
  putNewContent (content: Buffer, extension: string, folder = 'images'): { key: string, created: boolean } {
    const key = `${folder}/${createHash('sha256').update(content).digest('hex').slice(0, 32)}${extension.toLowerCase()}`
    if (this.has(key)) return { key, created: false }
    this.put(key, content)
    return { key, created: true }
  }

  /** The keys of the files directly in `folder` (temporary files of writes under way are not keys). */
  keysIn (folder: string): string[] {
    try {
      return readdirSync(path.join(this.dir, folder)).map((name) => `${folder}/${name}`).filter(isMediaKey)
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return []
      throw error
    }
  }

  remove (key: string): void {
    rmSync(this.#file(key), { force: true })
  }

  has (key: string): boolean {
    try {
      return statSync(this.#file(key)).isFile()
    } catch {
      return false
    }
  }

  /**
   * The file under `key`, or undefined when there is none. Any other failure (a damaged store, no
   * permission, no descriptors left) is thrown: it is the server's fault, not a missing file.
   */
  async read (key: string): Promise<{ content: Buffer, contentType: string } | undefined> {
    if (!isMediaKey(key)) return undefined
    try {
      return { content: await readFile(this.#file(key)), contentType: MEDIA_TYPES[path.extname(key)]! }
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return undefined
      throw error
    }
  }
}
