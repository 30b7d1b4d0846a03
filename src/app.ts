import type { Socket } from 'node:net'
import Fastify, {
  type FastifyInstance, type FastifyPluginAsync, type FastifyPluginCallback, type FastifyPluginOptions,
  type FastifyRequest
} from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { KeyVerifier } from './access/api-keys.service.ts'
import { STOP_DRAIN_MS, type Config } from './config.ts'
import type { CalculatorData } from './calculator/calculator.data.ts'
import { calculatorRoutes } from './calculator/calculator.routes.ts'
import { catalogueRoutes } from './catalogue/catalogue.routes.ts'
import { catalogueVersion } from './catalogue/catalogue-version.repository.ts'
import { sourcesRoutes } from './catalogue/sources.routes.ts'
import { explorerRoutes } from './explorer/explorer.routes.ts'
import { ledgerRoutes } from './ledger/transactions.routes.ts'
import { AnswerCache } from './http/answer-cache.ts'
import { AnswerPath } from './http/answer-path.ts'
import { compression } from './http/compression.ts'
import { optionalApiKey, requireApiKey } from './http/auth.ts'
import { crossOrigin } from './http/cors.ts'
import { errorHandling, frameworkError } from './http/error-handler.ts'
import { statusText, type ErrorCode } from './http/errors.ts'
import { healthRoutes, type Dependency } from './http/health.routes.ts'
import { serializeRequest } from './http/log-redaction.ts'
import { lazySchemas, schemaCompilation } from './http/lazy-schemas.ts'
import { metrics } from './http/metrics.ts'
import { documentGuardedArea, openApi } from './http/openapi.ts'
import { connectionLimits } from './http/connection-limits.ts'
import { gracefulStop } from './http/graceful-stop.ts'
import { ExpensiveReads } from './http/expensive-reads.ts'
import { queryPolicy } from './http/query-policy.ts'
import { requestId, requestIds } from './http/request-id.ts'
import { requestLineCheck } from './http/request-line.ts'
import { SECURITY_HEADERS, securityHeaders } from './http/security-headers.ts'
import {
  clientAddress, FailedAuthLimiter, RateLimitCounters, rateLimitCounters, registerRateLimit
} from './http/rate-limit.ts'
import type { MediaStore } from './media/media-store.ts'
import { mediaRoutes } from './media/media.routes.ts'
import { signedLinks, type MediaLinker, type MediaSigner } from './media/signing.ts'
import { CachedRead, type ChangeFeed } from './store/change-feed.ts'
import type { Store } from './store/connect.ts'
import type { SyncSchedule } from './ingest/sync/schedule.ts'
import { VERSION } from './version.ts'

/** What the app is built from; startup.ts prepares them (prepareParts), tests may hand in their own. */
export interface AppParts {
  config: Config
  /** A migrated database; its owner closes it after the app. */
  store: Store
  /** The calculator's factor data, loaded and validated. */
  calculatorData: CalculatorData
  /** The media folder, SDG icons already drawn into it. */
  media: MediaStore
  signer: MediaSigner
  /** Changes to keys and the catalogue made by any process, already listening (store.changes). */
  changes: ChangeFeed
  /** Shared rate-limit counters (REDIS_URL); the app disconnects it when it closes. */
  redis?: Redis | undefined
  /** Where log lines go; production writes to stdout, tests may capture them. */
  logStream?: NodeJS.WritableStream
  /** SYNC_SOURCES kept current on a schedule (src/ingest/sync/schedule.ts): started when ready, stopped on close. */
  sync?: SyncSchedule | undefined
}

// The catalogue area: the products (/products/...) and their ledger (/transactions/, /products/{id}/transactions/).
const COMMERCE_PREFIX = '/api/v1/commerce'
const CALCULATOR_PREFIX = '/api/v1/co2-calculator'
/** Longer request targets are refused with 414; headers are capped by Node (16 KiB, then 431). */

/**
 * Builds the whole service from prepared parts: registration only, no file or network I/O (that is
 * startup.ts). Tests build it exactly as the server does: prepareParts, then buildApp.
 */
export async function buildApp (parts: AppParts): Promise<FastifyInstance> {
  const { config, store, calculatorData, media, signer, changes, redis, logStream, sync } = parts
  const schemas = lazySchemas()
  const app = Fastify({
    logger: config.logLevel === 'silent'
      ? false
      : {
          level: config.logLevel,
          // Keys must never reach the logs, even if a serializer someday logs headers.
          redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]'], censor: '[redacted]' },
          // Keys and signatures sent in a URL (refused, but sent all the same) are cut out of it too.
          serializers: { req: serializeRequest },
          ...(logStream !== undefined && { stream: logStream })
        },
    // A hop count trusts that many proxies in front of the service.
    // A caller's X-Request-Id is kept when it is sane, so one id follows a request across services.
    requestIdHeader: false,
    genReqId: requestId,
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    schemaController: { compilersFactory: schemas.compilersFactory },
    ajv: {
      // Query strings are text: coerce to the schema's types, fill defaults, drop unknown keys.
      customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false }
    },
    clientErrorHandler: rawClientError,
    frameworkErrors: frameworkError,
    // Slow or idle clients cannot hold connections: the whole request must arrive within
    // REQUEST_TIMEOUT (headers within HEADERS_TIMEOUT), idle keep-alives close, and Node checks every second.
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: { headersTimeout: config.http.headersTimeoutMs, connectionsCheckingInterval: 1000 }
  }).withTypeProvider<TypeBoxTypeProvider>()

  // What several concerns share: the rate-limit counters (both areas' limits, metrics), the one answer cache
  // (answers and catalogue counts, bounded by ANSWER_CACHE_MB) and the key checks.
  const counters = new RateLimitCounters({ redis, policy: config.rateLimits.onRedisError, log: app.log })
  const answers = new AnswerCache(config.answerCacheBytes)
  const keys = new KeyVerifier(store.db, changes)
  const dependencies: Dependency[] = [{ name: 'database', check: async () => { await store.ping() } }]
  if (redis !== undefined) {
    const optional = config.rateLimits.onRedisError === 'local'
    dependencies.push({ name: 'redis', check: async () => await redis.ping(), optional })
  }
  const areas = { config, store, changes, calculatorData, signer, counters, answers, keys }

  // One plugin per concern, in the one order they are registered: hooks of one kind (onRequest, onSend) run in
  // this order, and an area's own hooks run after the root's.
  const concerns: Concern[] = [
    // Decorates the app with compileSchemas, which the server calls once it listens; order-free.
    concern(schemaCompilation, { compileAll: schemas.compileAll }),
    // Acts on sockets (MAX_CONNECTIONS, per address), before any request is read.
    concern(connectionLimits, {
      maxConnections: config.http.maxConnections,
      perAddress: config.http.maxConnectionsPerAddress,
      firstByteTimeoutMs: config.http.firstByteTimeoutMs
    }),
    // The problem body for every error, and its shared schema: before any route names it or can fail.
    concern(errorHandling, {}),
    // preValidation on every route: unknown or repeated parameters are refused before Fastify validates.
    concern(queryPolicy, {}),
    // Drains connections when the app closes, and marks answers Connection: close meanwhile.
    concern(gracefulStop, { drainMs: STOP_DRAIN_MS }),
    // X-Request-Id on every answer, errors included.
    concern(requestIds, {}),
    // Before the request-line check, so that its 414 carries the security headers as every other answer does.
    concern(securityHeaders, {}),
    // URL length and Host, checked before any key check or route builds anything from them.
    concern(requestLineCheck, {}),
    // Before every route it compresses (pages, docs, CSV streams); kept answers bring their own variants.
    concern(compression, {}),
    // Before the routes, so that preflights are answered and CORS headers reach every answer (CORS_ORIGINS).
    concern(crossOrigin, { origins: config.corsOrigins }),
    // Before the routes it documents: it collects them as they are added.
    concern(openApi, { version: VERSION }),
    // The counters' life (and Redis' outages), before the areas that count with them.
    concern(rateLimitCounters, { counters, redis }),
    // The probes, outside both areas' scopes: no key check or rate limit ever refuses a load balancer.
    concern(healthRoutes, { dependencies }),
    // A root onResponse hook: it counts every answer by route pattern, the probes' included.
    concern(metrics, {
      poolStats: () => store.poolStats(),
      rateLimits: () => ({ localCounts: counters.localCounts, degraded: counters.degraded })
    }),
    // The areas, each in its own scope with its key check and rate limit.
    concern(catalogueArea, { ...areas, prefix: COMMERCE_PREFIX }),
    concern(calculatorArea, { ...areas, prefix: CALCULATOR_PREFIX }),
    // SYNC_SOURCES kept current: started once the app is ready, stopped when it closes.
    concern(syncSchedule, { sync }),
    concern(mediaRoutes, { store: media, signer }),
    concern(explorerRoutes, {})
  ]
  for (const register of concerns) await register(app)
  return app
}

type Concern = (app: FastifyInstance) => Promise<unknown>

/** One registration of the list above: a plugin and its options. */
function concern<O extends FastifyPluginOptions> (
  plugin: FastifyPluginAsync<O> | FastifyPluginCallback<O>, options: O
): Concern {
  return async (app) => await app.register(plugin as FastifyPluginAsync<O>, options)
}

/** What the areas are built from. */
interface AreaParts extends FastifyPluginOptions {
  config: Config
  store: Store
  changes: ChangeFeed
  calculatorData: CalculatorData
  signer: MediaSigner
  counters: RateLimitCounters
  answers: AnswerCache
  keys: KeyVerifier
}

// Private: the catalogue answers API-key holders; a minute of reuse is far inside the media links' lifetime.
const CATALOGUE_ANSWERS = { validator: 'weak', cacheControl: 'private, max-age=60' } as const
// Public: a calculator answer is the same for any caller, key or none. An hour: a new release or new data reaches
// a cache within one, and then costs a 304, not a body.
const CALCULATOR_ANSWERS = { validator: 'strong', cacheControl: 'public, max-age=3600' } as const

/**
 * The catalogue's scope: the products, their ledger and the sources, behind a catalogue:read key. Failed key
 * checks count per address here (the calculator is open: a wrong key there is not counted).
 */
const catalogueArea: FastifyPluginAsync<AreaParts> = async (catalogue, options) => {
  const { config, store, changes, signer, counters, answers, keys } = options
  const failures = new FailedAuthLimiter(counters, config.rateLimits.authFailuresPerMinute)
  catalogue.addHook('onRequest', requireApiKey(keys, 'catalogue:read', failures))
  documentGuardedArea(catalogue, { scope: 'catalogue:read', keyRequired: true, conditional: CATALOGUE_ANSWERS })
  const charge = await registerRateLimit(catalogue, {
    name: 'catalogue',
    counters,
    key: (request) => `key:${request.apiKey?.id ?? ''}`,
    max: (request) => request.apiKey?.rate_limit_per_minute ?? config.rateLimits.cataloguePerMinute,
    workUnitMs: config.rateLimits.workUnitMs
  })
  // Searches, CSV downloads and deep pages, capped per key and in all below the database's read slots.
  const slots = new ExpensiveReads({
    perKey: config.rateLimits.expensiveReadsPerKey, total: config.rateLimits.expensiveReads
  })
  const expensive = (request: FastifyRequest) => slots.acquire(`key:${request.apiKey?.id ?? ''}`)
  // The Host header has been checked (the request-line check).
  const origin = (request: FastifyRequest): string => config.publicUrl ?? `${request.protocol}://${request.host}`
  const links = (request: FastifyRequest, now: number): MediaLinker => signedLinks(signer, origin(request), now)
  // The catalogue's version, read once for the products and their ledger (an import changes both), and only when
  // the change feed says it may have changed.
  const version = new CachedRead(changes, async () => await catalogueVersion(store.readDb))
  const path = new AnswerPath({
    name: 'catalogue', version: async () => await version.get(), answers, charge, expensive, ...CATALOGUE_ANSWERS
  })
  await catalogue.register(catalogueRoutes,
    { prefix: '/products', db: store.readDb, path, origin, links, answers, charge, expensive })
  await catalogue.register(ledgerRoutes, { db: store.readDb, path, origin, charge, expensive })
  await catalogue.register(sourcesRoutes, { db: store.readDb, path })
}

/** The calculator's scope: open to all; a key with calculator:read is counted on its own (and may carry its limit). */
const calculatorArea: FastifyPluginAsync<AreaParts> = async (calculator, options) => {
  const { config, calculatorData, counters, answers, keys } = options
  calculator.addHook('onRequest', optionalApiKey(keys, 'calculator:read'))
  documentGuardedArea(calculator, { scope: 'calculator:read', keyRequired: false, conditional: CALCULATOR_ANSWERS })
  const keyNote = ' No key needed; a key with the `calculator:read` scope is rate-limited per key, not per address.'
  calculator.addHook('onRoute', (route) => {
    // GET and its HEAD share one schema object: note it once.
    if (route.schema === undefined || route.schema.description?.endsWith(keyNote) === true) return
    route.schema.description = `${route.schema.description ?? ''}${keyNote}`
  })
  await registerRateLimit(calculator, {
    name: 'calculator',
    counters,
    key: (request) => request.apiKey !== undefined ? `key:${request.apiKey.id}` : `ip:${clientAddress(request)}`,
    max: (request) => request.apiKey?.rate_limit_per_minute ?? config.rateLimits.calculatorPerMinute
  })
  // An answer is a function of the code (its release) and the data it loaded, besides the request.
  const calculatorVersion = `${VERSION} ${calculatorData.version}`
  const path = new AnswerPath({ name: 'calculator', version: () => calculatorVersion, answers, ...CALCULATOR_ANSWERS })
  await calculator.register(calculatorRoutes, { data: calculatorData, path })
}

/** Starts SYNC_SOURCES' schedule once the app is ready and stops it when the app closes; nothing without one. */
const syncSchedule = fp<{ sync: SyncSchedule | undefined }>(async (app, { sync }) => {
  if (sync === undefined) return
  app.addHook('onReady', async () => { sync.start((level, message) => app.log[level](message)) })
  app.addHook('onClose', async () => { sync.stop() })
}, { name: 'sync-schedule' })

function trustHops (hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops
}

/** Answers connection-level errors (timeouts, oversized headers, malformed requests) in the problem shape. */
function rawClientError (error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return
  // As Node does: never write into an answer that has already begun on this connection.
  const answer = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage
  if (answer?.headersSent === true) {
    socket.destroy()
    return
  }
  const [status, code, detail]: [number, ErrorCode, string] = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ? [408, 'request_timeout', 'The request did not arrive in time.']
    : error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'bad_request', 'The request headers are too large.']
      : [400, 'bad_request', 'The request is malformed.']
  const body = JSON.stringify({ type: 'about:blank', title: statusText(status), status, code, detail })
  const security = Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('')
  socket.end(`HTTP/1.1 ${status} ${statusText(status)}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
    `${security}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
}
