import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * Sends a JSON body with a weak ETag computed on its unsigned form (signed media links change
 * with every response, the content they point at does not) and answers If-None-Match with 304.
 */
export function sendWithEtag (request: FastifyRequest, reply: FastifyReply, unsigned: string, sign: (json: string) => string): FastifyReply {
  const etag = `W/"${createHash('sha1').update(unsigned).digest('base64url')}"`
  // Private: the catalogue answers API-key holders; a minute of reuse is far inside the links' lifetime.
  reply.header('etag', etag).header('cache-control', 'private, max-age=60')
  if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send()
  return reply.type('application/json; charset=utf-8').send(sign(unsigned))
}

function matches (header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  const opaque = etag.slice(2)
  return header.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag === etag || tag === opaque || tag === `W/${opaque}`
  })
}
