import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../http/errors.ts'
import { errorResponses } from '../http/schemas.ts'
import { pageLinks } from '../http/pagination.ts'
import { CachedRead, type ChangeFeed } from '../store/change-feed.ts'
import type { Db } from '../store/database.ts'
import { InvalidParameterError, ProjectNotFoundError } from './catalogue.errors.ts'
import {
  FacetsSchema, GeoJsonQuerySchema, GeoJsonSchema, ProjectFilterQuerySchema, ProjectListQuerySchema, ProjectPageSchema,
  ProjectParamsSchema, ProjectSchema
} from './catalogue.schemas.ts'
import type { MediaLinker } from './project.mapper.ts'
import { CatalogueResponses } from './catalogue.responses.ts'
import { signLinks } from './project-json.ts'
import { catalogueVersion } from './projects.repository.ts'
import { getProjectJson, listProjectPage, projectFacets, projectFeatures } from './projects.service.ts'

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

/** GET /api/v1/commerce/products/, /:id/, /facets/, /geojson/ (under that prefix; the trailing slash is optional). */
export const catalogueRoutes: FastifyPluginAsyncTypebox<CatalogueOptions> = async (app, { db, changes, requestUrl, links, answerCache }) => {
  const current = new CachedRead(changes, async () => await catalogueVersion(db))
  const responses = new CatalogueResponses(answerCache)
  const sign = (request: FastifyRequest) => (json: string, nowMs: number) => signLinks(json, links(request, nowMs))
  const send = async (
    request: FastifyRequest, reply: FastifyReply, key: string, build: () => Promise<string>, type?: string
  ) => {
    try {
      return await responses.send(request, reply, key, build, sign(request), type)
    } catch (error) {
      throw toHttpError(error)
    }
  }

  app.get('/', {
    // Register /products/ as the spec writes it; the router also answers /products.
    prefixTrailingSlash: 'slash',
    schema: {
      tags: ['catalogue'],
      summary: 'List projects',
      description: 'A page of projects matching every given filter (AND). Unknown query parameters are ignored.' +
        SCOPE_NOTE,
      security,
      querystring: ProjectListQuerySchema,
      response: { 200: ProjectPageSchema, ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request, reply) => {
    const version = await current.get()
    const url = requestUrl(request)
    return await send(request, reply, `${version} ${url.href}`, async () => {
      const { limit, offset } = request.query
      const page = await listProjectPage(db, request.query, version)
      const { next, previous } = pageLinks(url, limit, offset, page.count)
      // Assembled from each project's stored JSON; the schema above documents the same shape.
      return `{"count":${page.count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":[${page.items.join(',')}]}`
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
  }, async (request, reply) => {
    const version = await current.get()
    return await send(request, reply, `${version} ${requestUrl(request).href}`,
      async () => JSON.stringify(await projectFacets(db, request.query, version)))
  })

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
    const version = await current.get()
    const url = requestUrl(request)
    return await send(request, reply, `${version} ${url.href}`, async () => {
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
  }, async (request, reply) => {
    const version = await current.get()
    return await send(request, reply, `${version} ${requestUrl(request).origin} ${request.params.id}`,
      async () => await getProjectJson(db, request.params.id))
  })
}
