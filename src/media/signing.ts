import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
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

/**
 * The signing secret: MEDIA_SIGNING_SECRET when set, else one generated on first use and kept in
 * DATA_DIR/secrets (mode 0600), so links survive restarts.
 */
export function resolveSigningSecret (configured: string | undefined, dataDir: string): string {
  if (configured !== undefined) return configured
  const dir = path.join(dataDir, 'secrets')
  const file = path.join(dir, 'media-signing-secret')
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const secret = randomBytes(32).toString('base64url')
    // 'wx' fails if another process created it meanwhile; then read theirs.
    try {
      writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 })
      chmodSync(file, 0o600)
      return secret
    } catch {
      return readFileSync(file, 'utf8').trim()
    }
  }
}
