import negotiate from '@fastify/accept-negotiator'
import compress from '@fastify/compress'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** Bodies under this many bytes go as they are (compression would save little and cost a header). */
const COMPRESS_THRESHOLD = 1024
/** Brotli at a quality that costs about what gzip does. */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }

/**
 * Bodies of 1 KiB or more are compressed for clients that ask (Accept-Encoding). Kept answers keep their own compressed
 * variants (EncodedBody below); the plugin compresses the rest (pages, docs, CSV streams).
 */
export const compression = fp(async (app) => {
  await app.register(compress, {
    // Every route is a GET: there is never a request body to decompress, so no decompression hook runs.
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip', 'deflate'],
    brotliOptions: BROTLI_OPTIONS
  })
}, { name: 'compression' })

type Coding = 'br' | 'gzip'
const CODINGS: Coding[] = ['br', 'gzip']
// As @fastify/compress reads the header: "*" and "x-gzip" stand for gzip.
const GZIP_ALIAS = /\*|x-gzip/g

/**
 * The bytes in memory of their own. Node cuts zlib's output from 64 KiB chunks and small buffers from shared
 * 8 KiB slabs; a kept answer that pinned its chunk would hold many times the bytes the answer cache counts.
 */
function own (buffer: Buffer): Buffer {
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length) return buffer
  const copy = Buffer.allocUnsafeSlow(buffer.length)
  buffer.copy(copy)
  return copy
}

/** The coding a client takes that an answer is kept in, by its Accept-Encoding; undefined for none of them. */
function acceptedCoding (request: FastifyRequest): Coding | undefined {
  const header = request.headers['accept-encoding']
  if (header === undefined || request.headers['x-no-compression'] !== undefined) return undefined
  return negotiate(header.toLowerCase().replace(GZIP_ALIAS, 'gzip'), CODINGS) ?? undefined
}

/**
 * An answer's body with its compressed variants, each made on the first request that asks for it and then
 * kept with the answer (in the answer cache): a cached answer is compressed once, not on every request. The
 * compress plugin leaves a body that already has a Content-Encoding alone, and still compresses what this
 * does not keep (deflate, answers built per request).
 */
export class EncodedBody {
  readonly identity: Buffer
  readonly #variants = new Map<Coding, Buffer>()

  constructor (body: Buffer | string) {
    this.identity = own(typeof body === 'string' ? Buffer.from(body) : body)
  }

  /** Bytes kept, variants included (the answer cache's accounting). */
  get bytes (): number {
    let bytes = this.identity.length
    for (const variant of this.#variants.values()) bytes += variant.length
    return bytes
  }

  /** The coding this body goes out in for `request`: undefined for the body as it is. */
  codingFor (request: FastifyRequest): Coding | undefined {
    return this.identity.length >= COMPRESS_THRESHOLD ? acceptedCoding(request) : undefined
  }

  /**
   * Sets Vary: Accept-Encoding when the coding depends on it (a body past the threshold), whichever coding this
   * request gets, so that a cache keeps the plain and compressed answers apart (the compress plugin's check for an
   * existing value keeps it from being listed twice).
   */
  vary (reply: FastifyReply): void {
    if (this.identity.length < COMPRESS_THRESHOLD) return
    const vary = reply.getHeader('vary')
    if (vary === undefined) reply.header('vary', 'accept-encoding')
    else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`)
  }

  /**
   * Sends the variant the client takes (setting Content-Encoding and Vary) or the body as it is: `coding` when the
   * caller has already negotiated it. Returns the bytes newly kept, for the cache to account.
   */
  send (request: FastifyRequest, reply: FastifyReply, type: string, coding = this.codingFor(request)): number {
    reply.type(type)
    this.vary(reply)
    if (coding === undefined) {
      reply.send(this.identity)
      return 0
    }
    let variant = this.#variants.get(coding)
    let grew = 0
    if (variant === undefined) {
      variant = own(coding === 'br' ? brotliCompressSync(this.identity, BROTLI_OPTIONS) : gzipSync(this.identity))
      this.#variants.set(coding, variant)
      grew = variant.length
    }
    reply.header('content-encoding', coding).send(variant)
    return grew
  }
}
