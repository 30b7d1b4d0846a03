import type { ApiKeyTable, Db } from '../store/database.ts'
import type { ChangeFeed } from '../store/change-feed.ts'
import { generateKey, hashMatches, keyId, presentedHash, type Scope } from './api-keys.ts'
import * as repository from './api-keys.repository.ts'
import { getMeta, setMeta } from '../store/meta.repository.ts'

export interface ApiKeyInfo {
  id: string
  name: string
  scopes: string[]
  rate_limit_per_minute: number | null
  created_at: string
  revoked_at: string | null
}

const toInfo = (row: ApiKeyTable): ApiKeyInfo => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes.split(','),
  rate_limit_per_minute: row.rate_limit_per_minute,
  created_at: row.created_at,
  revoked_at: row.revoked_at
})

/** Creates a key; the returned `key` is the only time the secret exists outside its holder. */
export async function createKey (db: Db,
  options: {
    name: string,
    scopes: readonly Scope[],
    rateLimitPerMinute?: number
  }): Promise<ApiKeyInfo & { key: string }> {
  const { id, key, hash } = generateKey()
  const row: ApiKeyTable = {
    id,
    name: options.name,
    key_hash: hash,
    scopes: options.scopes.join(','),
    rate_limit_per_minute: options.rateLimitPerMinute ?? null,
    created_at: new Date().toISOString(),
    revoked_at: null
  }
  await repository.insertKey(db, row)
  return { ...toInfo(row), key }
}

export async function listKeys (db: Db): Promise<ApiKeyInfo[]> {
  return (await repository.listKeys(db)).map(toInfo)
}

export async function revokeKey (db: Db, id: string): Promise<boolean> {
  return await repository.revokeKey(db, id, new Date().toISOString())
}

type Authentication =
  | { ok: true, key: ApiKeyInfo }
  | { ok: false, reason: 'malformed' | 'unknown' | 'revoked' }

/** Checks a presented key: looked up by its public id, then compared by hash in constant time. */
async function authenticate (
  db: Db, presented: string, hash = presentedHash(presented)
): Promise<Authentication> {
  const id = keyId(presented)
  if (id === undefined) return { ok: false, reason: 'malformed' }
  const row = await repository.findKey(db, id)
  if (row === undefined || !hashMatches(hash, row.key_hash)) return { ok: false, reason: 'unknown' }
  if (row.revoked_at !== null) return { ok: false, reason: 'revoked' }
  return { ok: true, key: toInfo(row) }
}

/** More verified keys than this and the memory is cleared: a bound, far above any real key count. */
const VERIFIED_KEYS_LIMIT = 10_000

/**
 * Checks presented keys, holding the verified ones in memory by the presented key, so a known key
 * costs one map lookup: no hash and no query. Any change to keys anywhere (a revocation through the CLI on
 * another machine) empties the memory within a second (see ChangeFeed). Refusals are not held: they
 * are rare, and counted against the caller's address.
 */
export class KeyVerifier {
  readonly #db: Db
  readonly #changes: ChangeFeed
  readonly #verified = new Map<string, ApiKeyInfo>()
  #generation = -1

  constructor (db: Db, changes: ChangeFeed) {
    this.#db = db
    this.#changes = changes
  }

  async authenticate (presented: string): Promise<Authentication> {
    // Keyed by the presented key itself: a SHA-256 through OpenSSL cost ~10 µs, the largest part of a
    // cached answer's key check. Only keys that verified are held; the request held the same text anyway.
    if (this.#changes.fresh(this.#generation)) {
      const known = this.#verified.get(presented)
      if (known !== undefined) return { ok: true, key: known }
    } else {
      this.#verified.clear()
    }
    const generation = this.#changes.generation
    const result = await authenticate(this.#db, presented, presentedHash(presented))
    if (result.ok) {
      // Only when nothing changed during the lookup; otherwise the next request reads again.
      if (generation !== this.#generation) {
        this.#verified.clear()
        this.#generation = generation
      }
      if (this.#verified.size >= VERIFIED_KEYS_LIMIT) this.#verified.clear()
      this.#verified.set(presented, result.key)
    }
    return result
  }
}

const INITIAL_KEY_META = 'initial_api_key_created_at'

/**
 * On the very first start of a database without keys, creates one key with both scopes (the operator's).
 * Returns it once; never again for this database, even after it is revoked.
 */
export async function createInitialKeyOnce (db: Db): Promise<(ApiKeyInfo & { key: string }) | undefined> {
  if (await getMeta(db, INITIAL_KEY_META) !== undefined) return undefined
  const created = await repository.countKeys(db) === 0
    ? await createKey(db, { name: 'initial key', scopes: ['catalogue:read', 'calculator:read'] })
    : undefined
  await setMeta(db, INITIAL_KEY_META, new Date().toISOString())
  return created
}
