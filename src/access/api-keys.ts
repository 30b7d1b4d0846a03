import { hash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Scopes a key can hold. The catalogue needs `catalogue:read`; the calculator is open, and a key with
 * `calculator:read` is rate-limited on it per key instead of per address.
 */
export const SCOPES = ['catalogue:read', 'calculator:read'] as const
export type Scope = typeof SCOPES[number]

// tonne_<12 hex: public id>_<43 base64url: 256 random bits>
const KEY_PATTERN = /^tonne_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/

interface NewKey { id: string, key: string, hash: string }

export function generateKey (): NewKey {
  const id = randomBytes(6).toString('hex')
  const key = `tonne_${id}_${randomBytes(32).toString('base64url')}`
  return { id, key, hash: hashKey(key) }
}

function hashKey (key: string): string {
  // A key carries 256 random bits, so a fast unsalted hash cannot be brute-forced.
  return hash('sha256', key, 'hex')
}

/** The public id of a well-formed key, or undefined for anything else. */
export function keyId (presented: string): string | undefined {
  return KEY_PATTERN.exec(presented)?.[1]
}

/** The SHA-256 of a presented key (one-shot: no hash object per request). */
export function presentedHash (presented: string): Buffer {
  return hash('sha256', presented, 'buffer')
}

export function hashMatches (presented: string | Buffer, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex')
  const actual = typeof presented === 'string' ? presentedHash(presented) : presented
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/** `600` or `600/min` → 600; anything else → undefined. */
export function parseRateLimit (text: string): number | undefined {
  const match = /^(\d{1,7})(?:\/min)?$/.exec(text.trim())
  const value = match === null ? NaN : Number(match[1])
  return value >= 1 ? value : undefined
}

export function parseScopes (text: string): Scope[] | string {
  const scopes = [...new Set(text.split(',').map((s) => s.trim()).filter((s) => s !== ''))]
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s))
  if (unknown.length > 0) return `unknown scope ${unknown.join(', ')}; known scopes: ${SCOPES.join(', ')}`
  if (scopes.length === 0) return 'at least one scope is needed'
  return scopes as Scope[]
}
