import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AnswerCache } from '../http/answer-cache.ts'
import type { AnswerPath } from '../http/answer-path.ts'
import { csvFilename, sendCsv, varyOnAccept, wantsCsv } from '../http/csv.ts'
import {
  countingRows, CSV_ROWS_PER_REQUEST, type ExpensiveRead
} from '../http/expensive-reads.ts'
import { pageLinks } from '../http/pagination.ts'
import { answerKey, knownQuery } from '../http/query-policy.ts'
import { errorResponses } from '../http/schemas.ts'
import type { MediaLinker } from '../media/signing.ts'
import type { Db } from '../store/database.ts'
import {
  FacetsSchema, GeoJsonQuerySchema, GeoJsonSchema, NoQuerySchema, ProjectFilterQuerySchema, ProjectListQuerySchema,
  PROJECT_CSV_COLUMNS, PROJECT_CSV_EXAMPLE, PROJECT_CSV_NAMING, ProjectPageSchema, ProjectParamsSchema, ProjectSchema
} from './catalogue.schemas.ts'
import { mediaTemplate, signTemplate } from './project-json.ts'
import {
  allMatchingProjects, getProjectJson, listProjectPage, projectFacets, projectFeatures, resolveProjectFilters,
  type CountMemo
} from './projects.service.ts'

interface CatalogueOptions {
  db: Db
  /** The catalogue's answer path (version, key, cache, ETag, compression), shared with the ledger. */
  path: AnswerPath
  /** Scheme, host and port of the service as the client sees it (PUBLIC_URL or a validated Host header). */
  origin: (request: FastifyRequest) => string
  /** Signed links for media keys, expiring relative to `nowMs`. */
  links: (request: FastifyRequest, nowMs: number) => MediaLinker
  /** The service's one answer cache (for counts; answers are kept by `path`). */
  answers: AnswerCache
  /** Counts `units` more requests against the caller's rate limit (the request itself counted one). */
  charge: (request: FastifyRequest, units: number) => Promise<void>
  /** Takes an expensive read's slot (search, CSV, deep pages); refuses with 429 past the caps. */
  expensive: ExpensiveRead
}

const SCOPE_NOTE = ' Needs an API key with the `catalogue:read` scope.'
const security = [{ apiKey: ['catalogue:read'] }]

/**
 * What an answer costs against the caller's per-minute limit when it has to be built: a page or a detail 1
 * (one indexed read, like a cached answer), a page with `search` 5 (a full-text match and its count), facets
 * 10 (nine grouped counts). A cached answer costs 1. So a key that makes every request a miss on purpose
 * gets a tenth of the facets a cached client gets (SECURITY.md, "Cost limits").
 */
const BUILD_COST = { page: 1, search: 5, facets: 10 } as const

const JSON_TYPE = 'application/json; charset=utf-8'

// The 200 answers are JSON assembled from each project's stored JSON, so the 200 schemas below document the
// shape and do not serialise (tests check the bodies against them); the error schemas do serialise.

/** GET /api/v1/commerce/products/, /:id/, /facets/, /geojson/ (under that prefix; the trailing slash is optional). */
export const catalogueRoutes: FastifyPluginAsyncTypebox<CatalogueOptions> = async (app, options) => {
  const { db, path, origin, links, answers, charge, expensive } = options

  /** Counts kept in the answer cache by catalogue version: a count is a fact of the version. */
  const countsAt = (version: string): CountMemo => async (name, count) =>
    (await answers.getOrBuild(`count ${version} ${name}`, count, () => 64)).value

  /**
   * Every catalogue answer goes through the one answer path (http/answer-path.ts), named by the catalogue version
   * and its key (origin, path and the operation's known parameters). The body is kept cut at its media
   * placeholders, and its links are signed anew each second.
   */
  const send = async (
    request: FastifyRequest, reply: FastifyReply, cost: number,
    build: (counts: CountMemo) => Promise<string>, type = JSON_TYPE
  ): Promise<FastifyReply> => await path.send(request, reply, {
    cost,
    type,
    key: `${origin(request)}${answerKey(request)}`,
    build: async (version) => mediaTemplate(await build(countsAt(version))),
    render: {
      stamp: () => Math.floor(Date.now() / 1000),
      text: (template, request, second) => signTemplate(template, links(request, second * 1000)),
      bytes: (template) => template.literals.reduce((sum, text) => sum + text.length * 2, 0)
    }
  })

  /** Page links: the request's own path with its known parameters only. */
  const pages = (request: FastifyRequest, limit: number, offset: number, count: number) =>
    pageLinks(`${origin(request)}${request.url.split('?', 1)[0]!}`, knownQuery(request), limit, offset, count)

  const pageCost = (search: string | undefined): number =>
    search !== undefined && search.trim() !== '' ? BUILD_COST.search : BUILD_COST.page

  app.get('/', {
    // Register /products/ as the spec writes it; the router also answers /products.
    prefixTrailingSlash: 'slash',
    schema: {
      operationId: 'listProjects',
      tags: ['catalogue'],
      summary: 'List projects',
      description: 'A page of projects matching every given filter (AND). An unknown query parameter is a 400. ' +
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
    varyOnAccept(reply)
    if (wantsCsv(request, request.query.format)) {
      // A bad filter is refused (400, by the error handler) before anything streams.
      await resolveProjectFilters(db, request.query)
      // It reads every match, as a search does, and is priced so (the ledger's CSV alike).
      await charge(request, BUILD_COST.search - 1)
      const filename = csvFilename('projects', request.query, PROJECT_CSV_NAMING.names, PROJECT_CSV_NAMING.bare)
      // A download holds its expensive read's slot until its answer ends or its client goes.
      const release = await expensive(request)
      // A client that left while its read waited for a slot gives it back at once.
      if (reply.raw.destroyed || request.raw.socket.destroyed) release()
      else reply.raw.once('close', release)
      const rows = countingRows(allMatchingProjects(db, request.query), (count) => {
        const units = Math.floor(count / CSV_ROWS_PER_REQUEST)
        if (units > 0) charge(request, units).catch(() => undefined)
      })
      return await sendCsv(reply, filename, PROJECT_CSV_COLUMNS, rows)
    }
    return await send(request, reply, pageCost(request.query.search), async (counts) => {
      const { limit, offset, include } = request.query
      const [page, facets] = await Promise.all([listProjectPage(db, request.query, counts),
        include === 'facets' ? projectFacets(db, request.query, counts) : undefined])
      const { next, previous } = pages(request, limit, offset, page.count)
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
      operationId: 'getProjectFacets',
      tags: ['catalogue'],
      summary: 'Count projects per filter value',
      description: 'For the projects matching the list\'s filters: per registry, country, credit type, rating, ' +
        'in_sale, vintage, certification, SDG, status, category, protocol and compliance, how many have each value, ' +
        'each facet counted with its own filter left out. ' +
        `An addition beyond the original contract.${SCOPE_NOTE}`,
      security,
      querystring: ProjectFilterQuerySchema,
      response: { 200: FacetsSchema, ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request, reply) => await send(request, reply, BUILD_COST.facets,
    async (counts) => JSON.stringify(await projectFacets(db, request.query, counts))))

  app.get('/geojson/', {
    schema: {
      operationId: 'getProjectsGeoJson',
      tags: ['catalogue'],
      summary: 'Matching projects as GeoJSON',
      description: 'The matching projects that have a position, as a GeoJSON FeatureCollection (RFC 7946) of points, ' +
        'paged like the list (`count`, `next`, `previous` beside `features`; up to 10000 per page), and the ' +
        'matching projects that have a country but no position, counted per country (`unlocated_by_country`, the ' +
        'same on every page), so a map can show every project with a country. ' +
        `An addition beyond the original contract.${SCOPE_NOTE}`,
      security,
      querystring: GeoJsonQuerySchema,
      response: {
        200: { content: { 'application/geo+json': { schema: GeoJsonSchema } } },
        ...errorResponses(400, 401, 403, 429)
      }
    }
  }, async (request, reply) => await send(request, reply, pageCost(request.query.search), async (counts) => {
    const { limit, offset } = request.query
    const { count, features, countries } = await projectFeatures(db, request.query, counts)
    const { next, previous } = pages(request, limit, offset, count)
    return `{"type":"FeatureCollection","count":${count},"next":${JSON.stringify(next)},` +
      `"previous":${JSON.stringify(previous)},"features":[${features.join(',')}],` +
      `"unlocated_by_country":${JSON.stringify(countries)}}`
  }, 'application/geo+json; charset=utf-8'))

  app.get('/:id/', {
    schema: {
      operationId: 'getProject',
      tags: ['catalogue'],
      summary: 'Get one project',
      description: 'The full project, including external_id, credits and source. An unknown or malformed id is 404.' +
        SCOPE_NOTE,
      security,
      params: ProjectParamsSchema,
      querystring: NoQuerySchema,
      response: { 200: ProjectSchema, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request, reply) => await send(request, reply, BUILD_COST.page,
    async () => await getProjectJson(db, request.params.id)))
}
