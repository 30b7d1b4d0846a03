import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { createHash } from 'node:crypto'
import { Type } from 'typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { EncodedBody } from '../http/compression.ts'
import { etagMatches } from '../http/etag.ts'
import { errorResponses } from '../http/schemas.ts'
import type { Db } from '../store/database.ts'
import { listSources } from './sources.repository.ts'
import { SourceListSchema, type Source } from './sources.schemas.ts'

interface SourcesOptions {
  /** The catalogue's database (its read side). */
  db: Db
}

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * GET /api/v1/commerce/sources/: where the catalogue's data comes from, and what its last sync or import did. A sync
 * that finds nothing new still records its check, so the list is read on every request (a few rows) rather than
 * cached by the catalogue version; its ETag is its content's.
 */
export const sourcesRoutes: FastifyPluginAsyncTypebox<SourcesOptions> = async (app, options) => {
  const { db } = options
  /** Sends the list with its content's ETag, or a 304 when the client holds it (the docs' 304 is the area's). */
  const send = (request: FastifyRequest, reply: FastifyReply, results: Source[]): FastifyReply => {
    const body = JSON.stringify({ count: results.length, results })
    const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`
    reply.header('etag', etag).header('cache-control', 'private, max-age=60')
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send()
    new EncodedBody(body).send(request, reply, JSON_TYPE)
    return reply
  }
  app.get('/sources/', {
    schema: {
      tags: ['catalogue'],
      operationId: 'listSources',
      summary: 'List the catalogue\'s data sources',
      description: 'Every source the catalogue is filled from (OffsetsDB\'s archive, a registry\'s exports), with ' +
        'when it was last checked and changed, the date its data describes, the last attempt\'s status and error, ' +
        'what the catalogue holds from it, and the attribution or terms to show with its data. An addition beyond ' +
        'the original contract. Needs an API key with the `catalogue:read` scope.',
      // No parameters: the one query policy refuses any (a misspelt filter is never silently ignored).
      querystring: Type.Object({}),
      response: { 200: SourceListSchema, ...errorResponses(401, 403, 429) }
    }
  }, async (request, reply) => {
    const results: Source[] = (await listSources(db)).map((row) => ({
      ...row,
      last_status: row.last_status as Source['last_status'],
      projects: row.projects === null ? null : Number(row.projects),
      transactions: row.transactions === null ? null : Number(row.transactions)
    })).map(({ last_modified: _validator, ...source }) => source)
    return send(request, reply, results)
  })
}
