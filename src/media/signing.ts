import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto'
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export const MEDIA_PATH = '/media'

/** Turns a media-store key into an absolute, signed, expiring link at response time; links are never stored. */
export interface MediaLinker {
  media(key: string): string
}

/**
 * Signed, expiring media links: /media/KEY?expires=UNIX_TIME&signature=HMAC-SHA256(KEY \n expires).
 * Instances that share the secret verify each other's links.
 */
export class MediaSigner {
  // A KeyObject made once: handing createHmac a raw secret rebuilds one per call (~8x slower).
  readonly #secret: KeyObject
  readonly ttlSeconds: number

  constructor (secret: string, ttlSeconds: number) {
    this.#secret = createSecretKey(Buffer.from(secret, 'utf8'))
    this.ttlSeconds = ttlSeconds
  }

  #mac (key: string, expires: number): Buffer {
    return createHmac('sha256', this.#secret).update(`${key}\n${expires}`).digest()
  }

  /** The path and query of a link to `key` that expires `ttlSeconds` after `nowMs`. */
  sign (key: string, nowMs = Date.now()): string {
    const expires = Math.floor(nowMs / 1000) + this.ttlSeconds
    return `${MEDIA_PATH}/${key}?expires=${expires}&signature=${this.#mac(key, expires).toString('hex')}`
  }

  /**
   * `expires` must be written canonically (the signed number, no leading zeros) and lie within this
   * service's link lifetime from now: a link cannot outlive MEDIA_LINK_TTL, whoever signed it.
   */
  verify (key: string, expires: string, signature: string, nowMs = Date.now()): 'valid' | 'expired' | 'invalid' {
    if (!/^[1-9]\d{0,11}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid'
    const expected = this.#mac(key, Number(expires))
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid'
    const expiresMs = Number(expires) * 1000
    if (expiresMs <= nowMs) return 'expired'
    return expiresMs > nowMs + this.ttlSeconds * 1000 ? 'invalid' : 'valid'
  }
}

/**
 * Links for one response: `base` (scheme and host) + a signed path expiring relative to `nowMs`.
 * One response links the same SDG icon many times, with the same expiry: each key is signed once.
 */
export function signedLinks (signer: MediaSigner, base: string, nowMs: number): MediaLinker {
  const signed = new Map<string, string>()
  return {
    media: (key) => {
      let link = signed.get(key)
      if (link === undefined) signed.set(key, link = `${base}${signer.sign(key, nowMs)}`)
      return link
    }
  }
}

/** An HMAC key shorter than this is too easy to guess (config.ts asks the same of MEDIA_SIGNING_SECRET). */
const MIN_SECRET_LENGTH = 32

/**
 * The signing secret: MEDIA_SIGNING_SECRET when set, else one generated on first use and kept in
 * DATA_DIR/secrets (mode 0600), so links survive restarts. The primary makes it before forking
 * workers (startup.ts); the file appears whole or not at all, so a racing reader never gets half of it.
 */
export function resolveSigningSecret (configured: string | undefined, dataDir: string): string {
  if (configured !== undefined) return configured
  const file = path.join(dataDir, 'secrets', 'media-signing-secret')
  if (!existsSync(file)) createSecretFile(file)
  const secret = readFileSync(file, 'utf8').trim()
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`the media signing secret in ${file} must be at least ${MIN_SECRET_LENGTH} characters: ` +
      'delete the file to have a new one made, or set MEDIA_SIGNING_SECRET')
  }
  return secret
}

function createSecretFile (file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
  writeFileSync(temporary, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 })
  try {
    chmodSync(temporary, 0o600)
    // A hard link fails if another process got there first (then theirs is kept); rename would replace it.
    linkSync(temporary, file)
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error
  } finally {
    rmSync(temporary, { force: true })
  }
}
