import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { errorResponses } from '../http/schemas.ts'
import { pageLinks } from '../http/pagination.ts'
import type { Db } from '../store/database.ts'
import { ProjectListQuerySchema, ProjectPageSchema, ProjectParamsSchema, ProjectSchema } from './catalogue.schemas.ts'
import type { MediaLinker } from './project.mapper.ts'
import { sendWithEtag } from '../http/etag.ts'
import { signLinks } from './project-json.ts'
import { getProjectJson, listProjectPage } from './projects.service.ts'

export interface CatalogueOptions {
  db: Db
  /** The absolute URL of the request as the client sees it (PUBLIC_URL or the Host header). */
  requestUrl: (request: FastifyRequest) => URL
  links: (request: FastifyRequest) => MediaLinker
}

/** GET /api/v1/commerce/products/ and /:id/ (registered with that prefix; trailing slash optional). */
export const catalogueRoutes: FastifyPluginAsyncTypebox<CatalogueOptions> = async (app, { db, requestUrl, links }) => {
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
    const { limit, offset } = request.query
    const page = await listProjectPage(db, request.query)
    const { next, previous } = pageLinks(requestUrl(request), limit, offset, page.count)
    // Assembled from each project's stored JSON; the schema above documents the same shape.
    const body = `{"count":${page.count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":[${page.items.join(',')}]}`
    return sendWithEtag(request, reply, body, (json) => signLinks(json, links(request)))
  })

  app.get('/:id/', {
    schema: {
      tags: ['catalogue'],
      summary: 'Get one project',
      description: 'The full project, including external_id. An unknown or malformed id is 404.',
      params: ProjectParamsSchema,
      response: { 200: ProjectSchema, ...errorResponses(404) }
    }
  }, async (request, reply) =>
    sendWithEtag(request, reply, await getProjectJson(db, request.params.id), (json) => signLinks(json, links(request))))
}
