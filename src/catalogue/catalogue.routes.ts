import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sendCsv, wantsCsv } from '../http/csv.ts'
import { etagMatches } from '../http/etag.ts'
import { AppError } from '../http/errors.ts'
import { ResponseCache } from '../http/response-cache.ts'
import { errorResponses } from '../http/schemas.ts'
import type { MediaLinker } from '../media/signing.ts'
import { pageLinks } from '../http/pagination.ts'
import { CachedRead, type ChangeFeed } from '../store/change-feed.ts'
import type { Db } from '../store/database.ts'
import { InvalidParameterError, ProjectNotFoundError } from './catalogue.errors.ts'
import {
  FacetsSchema, GeoJsonQuerySchema, GeoJsonSchema, ProjectFilterQuerySchema, ProjectListQuerySchema, ProjectPageSchema,
  ProjectParamsSchema, ProjectSchema
} from './catalogue.schemas.ts'
import { signLinks } from './project-json.ts'
import { catalogueVersion } from './projects.repository.ts'
import {
  allMatchingProjects, getProjectJson, listProjectPage, projectFacets, projectFeatures, resolveProjectFilters
} from './projects.service.ts'
import { PROJECT_CSV_COLUMNS, PROJECT_CSV_EXAMPLE } from './project-csv.ts'

export interface CatalogueOptions {
  db: Db
  /** Writes to the catalogue anywhere, so its version is read only when it may have changed. */
  changes: ChangeFeed
  /** The absolute URL of the request as the client sees it (PUBLIC_URL or the Host header). */
  requestUrl: (request: FastifyRequest) => URL
  /** Signed links for media keys, expiring relative to `nowMs`. */
  links: (request: FastifyRequest, nowMs: number) => MediaLinker
  /** Keep built answers in memory (ANSWER_CACHE). */
  answerCache: boolean
}

/** The catalogue's domain errors as the service's one problem body. */
function toHttpError (error: unknown): unknown {
  if (error instanceof InvalidParameterError) {
    return AppError.invalidParameter(error.parameter, error.message, error.allowedValues)
  }
  if (error instanceof ProjectNotFoundError) return AppError.notFound(error.message)
  return error
}

const SCOPE_NOTE = ' Needs an API key with the `catalogue:read` scope.'
const security = [{ apiKey: ['catalogue:read'] }]

interface Answer {
  unsigned: string
  /** The body with links signed during `second`: every answer in that second carries the same links. */
  signed: Buffer | undefined
  second: number
  bytes: number
}

/** Memory the catalogue may spend on answers it has built, whatever the catalogue's size. */
const CACHE_BYTES = 64 * 1024 * 1024
const JSON_TYPE = 'application/json; charset=utf-8'

/** GET /api/v1/commerce/products/, /:id/, /facets/, /geojson/ (under that prefix; the trailing slash is optional). */
export const catalogueRoutes: FastifyPluginAsyncTypebox<CatalogueOptions> = async (app, options) => {
  const { db, changes, requestUrl, links, answerCache } = options
  const current = new CachedRead(changes, async () => await catalogueVersion(db))
  const answers = new ResponseCache<Answer>(answerCache ? CACHE_BYTES : 0)

  /**
   * Every catalogue answer goes through here. An answer is a function of the catalogue version and the
   * URL (`key`), so the ETag is derived from those, without the body: a revalidation is a 304 before any
   * query. Bodies are kept by that key; their media links are signed anew each second.
   */
  const send = async (
    request: FastifyRequest, reply: FastifyReply, key: string,
    build: (version: string) => Promise<string>, type = JSON_TYPE
  ): Promise<FastifyReply> => {
    const version = await current.get()
    const versioned = `${version} ${key}`
    const etag = `W/"${createHash('sha1').update(versioned).digest('base64url')}"`
    // Private: the catalogue answers API-key holders; a minute of reuse is far inside the links' lifetime.
    reply.header('etag', etag).header('cache-control', 'private, max-age=60')
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send()
    let answer = answers.get(versioned)
    if (answer === undefined) {
      let unsigned: string
      try {
        unsigned = await build(version)
      } catch (error) {
        throw toHttpError(error)
      }
      answer = { unsigned, signed: undefined, second: 0, bytes: unsigned.length * 2 }
      answers.set(versioned, answer)
    }
    const second = Math.floor(Date.now() / 1000)
    if (answer.signed === undefined || answer.second !== second) {
      const previous = answer.signed?.length ?? 0
      answer.signed = Buffer.from(signLinks(answer.unsigned, links(request, second * 1000)))
      answer.second = second
      answers.resize(versioned, answer.signed.length - previous)
    }
    return reply.type(type).send(answer.signed)
  }

  app.get('/', {
    // Register /products/ as the spec writes it; the router also answers /products.
    prefixTrailingSlash: 'slash',
    schema: {
      tags: ['catalogue'],
      summary: 'List projects',
      description: 'A page of projects matching every given filter (AND). Unknown query parameters are ignored. ' +
        'With `format=csv` (or `Accept: text/csv`), every matching project as CSV instead, streamed, in the same ' +
        'order (`limit` and `offset` do not apply; see docs/api.md, "CSV").' + SCOPE_NOTE,
      security,
      querystring: ProjectListQuerySchema,
      response: {
        200: {
          description: 'A page of projects (JSON), or every matching project (CSV).',
          content: {
            'application/json': { schema: ProjectPageSchema },
            'text/csv': { schema: { type: 'string' }, example: PROJECT_CSV_EXAMPLE }
          }
        },
        ...errorResponses(400, 401, 403, 429)
      }
    }
  }, async (request, reply) => {
    // One URL, two representations: caches keep them apart by Accept.
    const vary = reply.getHeader('vary')
    reply.header('vary', vary === undefined ? 'Accept' : `${String(vary)}, Accept`)
    if (wantsCsv(request, request.query.format)) {
      await resolveProjectFilters(db, request.query).catch((error: unknown) => { throw toHttpError(error) })
      return await sendCsv(reply, 'projects.csv', PROJECT_CSV_COLUMNS, allMatchingProjects(db, request.query))
    }
    const url = requestUrl(request)
    return await send(request, reply, url.href, async (version) => {
      const { limit, offset, include } = request.query
      const [page, facets] = await Promise.all([listProjectPage(db, request.query, version),
        include === 'facets' ? projectFacets(db, request.query, version) : undefined])
      const { next, previous } = pageLinks(url, limit, offset, page.count)
      const extra = facets === undefined
        ? ''
        : `,"facets":${JSON.stringify({ facets: facets.facets, with_value: facets.with_value })}`
      // Assembled from each project's stored JSON; the schema above documents the same shape.
      return `{"count":${page.count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(
        previous)},"results":[${page.items.join(',')}]${extra}}`
    })
  })

  app.get('/facets/', {
    schema: {
      tags: ['catalogue'],
      summary: 'Count projects per filter value',
      description: 'For the projects matching the list\'s filters: per registry, country, credit type, rating, ' +
        'in_sale, vintage, certification and SDG, how many have each value, each facet counted with its own filter ' +
        'left out. ' +
        `An addition beyond the original contract.${SCOPE_NOTE}`,
      security,
      querystring: ProjectFilterQuerySchema,
      response: { 200: FacetsSchema, ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request, reply) => await send(request, reply, requestUrl(request).href,
    async (version) => JSON.stringify(await projectFacets(db, request.query, version))))

  app.get('/geojson/', {
    schema: {
      tags: ['catalogue'],
      summary: 'Matching projects as GeoJSON',
      description: 'The matching projects that have a position, as a GeoJSON FeatureCollection (RFC 7946) of points, ' +
        'paged like the list (`count`, `next`, `previous` beside `features`; up to 10000 per page). ' +
        `An addition beyond the original contract.${SCOPE_NOTE}`,
      security,
      querystring: GeoJsonQuerySchema,
      response: {
        200: { content: { 'application/geo+json': { schema: GeoJsonSchema } } },
        ...errorResponses(400, 401, 403, 429)
      }
    }
  }, async (request, reply) => {
    const url = requestUrl(request)
    return await send(request, reply, url.href, async (version) => {
      const { limit, offset } = request.query
      const { count, features } = await projectFeatures(db, request.query, version)
      const { next, previous } = pageLinks(url, limit, offset, count)
      return `{"type":"FeatureCollection","count":${count},"next":${JSON.stringify(next)},` +
        `"previous":${JSON.stringify(previous)},"features":[${features.join(',')}]}`
    }, 'application/geo+json; charset=utf-8')
  })

  app.get('/:id/', {
    schema: {
      tags: ['catalogue'],
      summary: 'Get one project',
      description: 'The full project, including external_id, credits and source. An unknown or malformed id is 404.' +
        SCOPE_NOTE,
      security,
      params: ProjectParamsSchema,
      response: { 200: ProjectSchema, ...errorResponses(401, 403, 404, 429) }
    }
  }, async (request, reply) => await send(request, reply, `${requestUrl(request).origin} ${request.params.id}`,
    async () => await getProjectJson(db, request.params.id)))
}
