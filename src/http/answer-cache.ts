/**
 * The service's one answer cache: values that are pure functions of their key (a catalogue version or the
 * calculator's fixed data, plus an operation's canonical parameters), so an entry never goes stale, only
 * cold. Handlers call `getOrBuild` explicitly; nothing is cached behind their back. Bounded in bytes by one
 * setting (ANSWER_CACHE_MB); the least recently used entries go first. Concurrent misses of one key share
 * one build, and a build that throws stores nothing (errors are never cached).
 */
export class AnswerCache {
  readonly #entries = new Map<string, { value: unknown, bytes: number }>()
  readonly #building = new Map<string, Promise<unknown>>()
  readonly #maxBytes: number
  #bytes = 0

  constructor (maxBytes: number) {
    this.#maxBytes = maxBytes
  }

  /** Bytes the entries are accounted at (a metric and a test's view). */
  get bytes (): number {
    return this.#bytes
  }

  /**
   * The value kept for `key`, else `build()`'s, kept at `bytes(value)` bytes. `built` says whether this
   * call paid for the build (a cost the rate limit counts).
   */
  async getOrBuild<T> (
    key: string, build: () => Promise<T> | T, bytes: (value: T) => number
  ): Promise<{ value: T, built: boolean }> {
    const entry = this.#entries.get(key)
    if (entry !== undefined) {
      // Re-insert: Map keeps insertion order, so the first key is always the least recently used.
      this.#entries.delete(key)
      this.#entries.set(key, entry)
      return { value: entry.value as T, built: false }
    }
    const pending = this.#building.get(key)
    if (pending !== undefined) return { value: await pending as T, built: false }
    const building = (async () => await build())()
    this.#building.set(key, building)
    try {
      const value = await building
      this.#store(key, value, bytes(value) + key.length * 2)
      return { value, built: true }
    } finally {
      this.#building.delete(key)
    }
  }

  /** Re-accounts an entry whose value grew or shrank in place. */
  resize (key: string, delta: number): void {
    const entry = this.#entries.get(key)
    if (entry === undefined) return
    entry.bytes += delta
    this.#bytes += delta
    this.#evict()
  }

  #store (key: string, value: unknown, bytes: number): void {
    // One entry may use an eighth of the budget at most; a zero budget turns the cache off.
    if (bytes > this.#maxBytes / 8) return
    this.#entries.set(key, { value, bytes })
    this.#bytes += bytes
    this.#evict()
  }

  #evict (): void {
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break
      this.#entries.delete(oldest)
      this.#bytes -= entry.bytes
    }
  }
}
