import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify'

/**
 * A size-bounded least-recently-used map for whole response bodies. Used where an answer is a
 * pure function of its key (catalogue version + URL, or calculator URL), so entries never go stale.
 */
export class ResponseCache<V extends { bytes: number }> {
  readonly #entries = new Map<string, V>()
  readonly #maxBytes: number
  #bytes = 0

  constructor (maxBytes: number) {
    this.#maxBytes = maxBytes
  }

  get (key: string): V | undefined {
    const value = this.#entries.get(key)
    if (value !== undefined) {
      // Re-insert: Map keeps insertion order, so the first key is always the least recently used.
      this.#entries.delete(key)
      this.#entries.set(key, value)
    }
    return value
  }

  set (key: string, value: V): void {
    // One entry may use an eighth of the budget at most; a zero budget turns the cache off.
    if (value.bytes > this.#maxBytes / 8) return
    const old = this.#entries.get(key)
    if (old !== undefined) {
      this.#bytes -= old.bytes
      this.#entries.delete(key)
    }
    this.#entries.set(key, value)
    this.#bytes += value.bytes
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break
      this.#entries.delete(oldest)
      this.#bytes -= entry.bytes
    }
  }

  /** Re-accounts an entry whose body grew or shrank in place. */
  resize (key: string, delta: number): void {
    const value = this.#entries.get(key)
    if (value === undefined) return
    value.bytes += delta
    this.#bytes += delta
  }
}

/**
 * Answers a repeated URL from memory: for routes whose 200 answers are pure functions of the URL
 * over data fixed for the process's life (the calculator). Runs after the rate limit (preHandler).
 */
export function cacheAnswersByUrl (app: FastifyInstance, maxBytes: number): void {
  const cache = new ResponseCache<{ body: string, type: string, bytes: number }>(maxBytes)
  const lookup: preHandlerAsyncHookHandler = async (request, reply) => {
    const hit = cache.get(request.url)
    if (hit === undefined) return
    await reply.type(hit.type).send(hit.body)
    // The client left before the answer was written (Fastify then still counts it as unsent): end the
    // request here, or the route would answer a second time into a closed connection.
    if (!reply.sent) reply.hijack()
  }
  // A route-level hook, appended after the rate limiter's own (also route-level), so a cached
  // answer still counts against the limit.
  app.addHook('onRoute', (route) => {
    const existing = route.preHandler === undefined
      ? []
      : Array.isArray(route.preHandler)
        ? route.preHandler
        : [route.preHandler]
    route.preHandler = [...existing, lookup]
  })
  app.addHook('onSend', async (request, reply, payload) => {
    // Compressed answers are streams; only plain bodies are kept, and compressed again on reuse.
    if (reply.statusCode === 200 && typeof payload === 'string') {
      cache.set(request.url,
        { body: payload, type: String(reply.getHeader('content-type')), bytes: payload.length * 2 })
    }
    return payload
  })
}
