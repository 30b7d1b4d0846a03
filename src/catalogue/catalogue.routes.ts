import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { errorResponses } from '../http/schemas.ts'
import { pageLinks } from '../http/pagination.ts'
import type { Db } from '../store/database.ts'
import { ProjectListQuerySchema, ProjectPageSchema, ProjectParamsSchema, ProjectSchema } from './catalogue.schemas.ts'
import type { MediaLinker } from './project.mapper.ts'
import { CatalogueResponses } from './catalogue.responses.ts'
import { signLinks } from './project-json.ts'
import { catalogueVersion } from './projects.repository.ts'
import { getProjectJson, listProjectPage } from './projects.service.ts'

export interface CatalogueOptions {
  db: Db
  /** The absolute URL of the request as the client sees it (PUBLIC_URL or the Host header). */
  requestUrl: (request: FastifyRequest) => URL
  /** Signed links for media keys, expiring relative to `nowMs`. */
  links: (request: FastifyRequest, nowMs: number) => MediaLinker
  /** Keep built answers in memory (ANSWER_CACHE). */
  answerCache: boolean
}

/** GET /api/v1/commerce/products/ and /:id/ (registered with that prefix; trailing slash optional). */
export const catalogueRoutes: FastifyPluginAsyncTypebox<CatalogueOptions> = async (app, { db, requestUrl, links, answerCache }) => {
  const responses = new CatalogueResponses(answerCache)
  const sign = (request: FastifyRequest) => (json: string, nowMs: number) => signLinks(json, links(request, nowMs))

  app.get('/', {
    // Register /products/ as the spec writes it; the router also answers /products.
    prefixTrailingSlash: 'slash',
    schema: {
      tags: ['catalogue'],
      summary: 'List projects',
      description: 'A page of projects matching every given filter (AND). Unknown query parameters are ignored.',
      querystring: ProjectListQuerySchema,
      response: { 200: ProjectPageSchema, ...errorResponses(400) }
    }
  }, async (request, reply) => {
    const version = await catalogueVersion(db)
    const url = requestUrl(request)
    return await responses.send(request, reply, `${version} ${url.href}`, async () => {
      const { limit, offset } = request.query
      const page = await listProjectPage(db, request.query, version)
      const { next, previous } = pageLinks(url, limit, offset, page.count)
      // Assembled from each project's stored JSON; the schema above documents the same shape.
      return `{"count":${page.count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":[${page.items.join(',')}]}`
    }, sign(request))
  })

  app.get('/:id/', {
    schema: {
      tags: ['catalogue'],
      summary: 'Get one project',
      description: 'The full project, including external_id. An unknown or malformed id is 404.',
      params: ProjectParamsSchema,
      response: { 200: ProjectSchema, ...errorResponses(404) }
    }
  }, async (request, reply) => {
    const version = await catalogueVersion(db)
    return await responses.send(request, reply, `${version} ${requestUrl(request).origin} ${request.params.id}`,
      async () => await getProjectJson(db, request.params.id), sign(request))
  })
}
