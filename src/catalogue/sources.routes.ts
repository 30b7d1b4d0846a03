import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { createHash } from 'node:crypto'
import { Type } from 'typebox'
import type { AnswerPath } from '../http/answer-path.ts'
import { errorResponses } from '../http/schemas.ts'
import type { Db } from '../store/database.ts'
import { listSources } from './sources.repository.ts'
import { SourceListSchema, type Source } from './sources.schemas.ts'

interface SourcesOptions {
  /** The catalogue's database (its read side). */
  db: Db
  /** The catalogue's answer path (version, key, cache, ETag, compression). */
  path: AnswerPath
}

/**
 * GET /api/v1/commerce/sources/: where the catalogue's data comes from, and what its last sync or import did. A sync
 * that finds nothing new records its check without a new catalogue version, so the list (a few rows) is read on
 * every request, and its content's digest, not the version alone, names the answer.
 */
export const sourcesRoutes: FastifyPluginAsyncTypebox<SourcesOptions> = async (app, options) => {
  const { db, path } = options
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
      response: { 200: SourceListSchema, ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request, reply) => {
    const results: Source[] = (await listSources(db)).map((row) => ({
      ...row,
      last_status: row.last_status as Source['last_status'],
      projects: row.projects === null ? null : Number(row.projects),
      transactions: row.transactions === null ? null : Number(row.transactions)
    })).map(({ last_modified: _validator, ...source }) => source)
    const body = JSON.stringify({ count: results.length, results })
    const digest = createHash('sha1').update(body).digest('base64url')
    return await path.send(request, reply, { key: `sources ${digest}`, expensive: false, build: () => body })
  })
}
