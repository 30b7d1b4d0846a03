import type { FastifyReply, FastifyRequest } from 'fastify'
import { etagMatches, weakEtag } from '../http/etag.ts'
import { ResponseCache } from '../http/response-cache.ts'

interface Entry {
  etag: string
  unsigned: string
  /** The body with links signed during `second`: every answer in that second carries the same links. */
  signed: Buffer | undefined
  second: number
  bytes: number
}

/** Memory the catalogue may spend on answers it has built, whatever the catalogue's size. */
const CACHE_BYTES = 64 * 1024 * 1024

/**
 * Catalogue answers: a weak ETag on the unsigned body (304 on If-None-Match), bodies cached by
 * catalogue version and URL (an import anywhere starts a new version), links signed once per second.
 */
export class CatalogueResponses {
  readonly #cache: ResponseCache<Entry>

  constructor (cache: boolean) {
    this.#cache = new ResponseCache<Entry>(cache ? CACHE_BYTES : 0)
  }

  async send (
    request: FastifyRequest, reply: FastifyReply, key: string,
    build: () => Promise<string>, sign: (unsigned: string, nowMs: number) => string,
    type = 'application/json; charset=utf-8'
  ): Promise<FastifyReply> {
    let entry = this.#cache.get(key)
    if (entry === undefined) {
      const unsigned = await build()
      entry = { etag: weakEtag(unsigned), unsigned, signed: undefined, second: 0, bytes: unsigned.length * 2 }
      this.#cache.set(key, entry)
    }
    // Private: the catalogue answers API-key holders; a minute of reuse is far inside the links' lifetime.
    reply.header('etag', entry.etag).header('cache-control', 'private, max-age=60')
    if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send()
    const second = Math.floor(Date.now() / 1000)
    if (entry.signed === undefined || entry.second !== second) {
      const previous = entry.signed?.length ?? 0
      entry.signed = Buffer.from(sign(entry.unsigned, second * 1000))
      entry.second = second
      this.#cache.resize(key, entry.signed.length - previous)
    }
    return reply.type(type).send(entry.signed)
  }
}
