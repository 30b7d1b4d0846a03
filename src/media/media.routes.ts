import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type, type Static } from 'typebox'
import { AppError } from '../http/errors.ts'
import { errorResponses } from '../http/schemas.ts'
import { MEDIA_TYPES, type MediaStore } from './media-store.ts'
import { MEDIA_PATH, type MediaSigner } from './signing.ts'

/**
 * Media answers run nothing, whatever a file holds (an SVG stored before import sanitised them, say):
 * no script, no subresource, a sandbox with an opaque origin. Inline styles only, which SVGs use.
 */
const MEDIA_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

/**
 * GET /media/KEY?expires=…&signature=…: a tampered, expired or over-long link is 403, an unknown key
 * 404; a good link gets the file, cacheable for no longer than the link lives.
 */
export const mediaRoutes: FastifyPluginAsyncTypebox<{ store: MediaStore, signer: MediaSigner }> = async (
  app, { store, signer }
) => {
  // This plugin's own context: these headers cover every media answer (errors too) and nothing else.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('content-security-policy', MEDIA_CSP)
    // Signed links exist to be embedded (<img>) by partners' pages on other origins.
    reply.header('cross-origin-resource-policy', 'cross-origin')
  })
  const query = Type.Object({
    expires: Type.String({ maxLength: 20, description: 'Unix time after which the link is refused.' }),
    signature: Type.String({ maxLength: 128, description: 'HMAC-SHA256 of the key and expiry.' })
  })
  const serve = async (key: string, { expires, signature }: Static<typeof query>, reply: FastifyReply) => {
    const verdict = signer.verify(key, expires, signature)
    if (verdict !== 'valid') {
      throw new AppError(403, 'forbidden', verdict === 'expired'
        ? 'This media link has expired; fetch a fresh one from the API.'
        : 'This media link is not valid.')
    }
    const file = await store.read(key)
    if (file === undefined) throw AppError.notFound('No such media.')
    const maxAge = Math.max(0, Number(expires) - Math.floor(Date.now() / 1000))
    return reply.type(file.contentType)
      .header('cache-control', `private, max-age=${maxAge}`)
      .header('x-content-type-options', 'nosniff')
      .send(file.content)
  }
  // Every key the service makes is FOLDER/FILE (sdg/13.svg, images/HASH.png): documented as an OpenAPI path
  // template. Any other path under /media/ gets the same checks, undocumented (its links are never made).
  app.get(`${MEDIA_PATH}/:folder/:file`, {
    schema: {
      tags: ['media'],
      operationId: 'getMedia',
      // Links are signed by the service: /docs shows how to take one from a project's answer (docs/api.md).
      'x-sample-link': { from: '/api/v1/commerce/products/71/', field: 'icon' },
      summary: 'A project image or SDG icon, through a signed link',
      description: 'Links come from catalogue responses and expire (default 3600 s). Treat them as opaque.',
      params: Type.Object({
        folder: Type.String({ description: 'The media folder: `sdg` or `images`.', examples: ['sdg'] }),
        file: Type.String({ description: 'The file in it.', examples: ['13.svg'] })
      }),
      querystring: query,
      response: {
        200: {
          description: 'The file, with its own content type (SVG, PNG, JPEG, GIF, WebP or AVIF).',
          content: Object.fromEntries(Object.values(MEDIA_TYPES).map((type) => [type, { schema: {} }]))
        },
        ...errorResponses(400, 403, 404),
        403: { ...errorResponses(403)[403], description: 'The link is not valid (tampered, malformed) or has expired.' }
      }
    }
  }, async (request, reply) => await serve(`${request.params.folder}/${request.params.file}`, request.query, reply))
  app.get(`${MEDIA_PATH}/*`, { schema: { hide: true, querystring: query } },
    async (request, reply) => await serve((request.params as { '*': string })['*'], request.query, reply))
}
