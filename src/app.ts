import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import compress from '@fastify/compress'
import cors from '@fastify/cors'
import type { Redis } from 'ioredis'
import { KeyVerifier } from './access/api-keys.service.ts'
import { STOP_DRAIN_MS, type Config } from './config.ts'
import type { CalculatorData } from './calculator/calculator.data.ts'
import { calculatorRoutes } from './calculator/calculator.routes.ts'
import { catalogueRoutes } from './catalogue/catalogue.routes.ts'
import { sourcesRoutes } from './catalogue/sources.routes.ts'
import { explorerRoutes } from './explorer/explorer.routes.ts'
import { catalogueVersion } from './catalogue/projects.repository.ts'
import { ledgerRoutes } from './ledger/transactions.routes.ts'
import { AnswerCache } from './http/answer-cache.ts'
import { AnswerPath } from './http/answer-path.ts'
import { BROTLI_OPTIONS, COMPRESS_THRESHOLD } from './http/compression.ts'
import { optionalApiKey, requireApiKey } from './http/auth.ts'
import { frameworkError, installErrorHandling } from './http/error-handler.ts'
import { ProblemSchema, statusText, type ErrorCode } from './http/errors.ts'
import { healthRoutes, type Dependency } from './http/health.routes.ts'
import { serializeRequest } from './http/log-redaction.ts'
import { lazySchemas } from './http/lazy-schemas.ts'
import { registerMetrics } from './http/metrics.ts'
import { documentGuardedArea, registerOpenApi } from './http/openapi.ts'
import { limitConnections } from './http/connection-limits.ts'
import { drainConnections } from './http/graceful-stop.ts'
import { ExpensiveReads } from './http/expensive-reads.ts'
import { enforceQueryPolicy } from './http/query-policy.ts'
import { requestLineProblem } from './http/request-line.ts'
import { addSecurityHeaders, SECURITY_HEADERS } from './http/security-headers.ts'
import { clientAddress, FailedAuthLimiter, RateLimitCounters, registerRateLimit } from './http/rate-limit.ts'
import type { MediaStore } from './media/media-store.ts'
import { mediaRoutes } from './media/media.routes.ts'
import { signedLinks, type MediaSigner } from './media/signing.ts'
import { CachedRead, type ChangeFeed } from './store/change-feed.ts'
import type { Store } from './store/connect.ts'
import type { SyncSchedule } from './ingest/sync/schedule.ts'
import { VERSION } from './version.ts'

/** What the app is built from; startup.ts prepares them (prepareParts), tests may hand in their own. */
declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles the route schemas not used yet (src/http/lazy-schemas.ts): call once the server listens. */
    compileSchemas: () => Promise<number>
  }
}

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
  const { config, store, calculatorData, media, signer, changes, redis, logStream } = parts
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
  app.server.maxConnections = config.http.maxConnections
  limitConnections(app.server, {
    perAddress: config.http.maxConnectionsPerAddress, firstByteTimeoutMs: config.http.firstByteTimeoutMs
  })

  installErrorHandling(app)
  app.addSchema(ProblemSchema)
  enforceQueryPolicy(app)
  // While stopping, answers close their connection so a keep-alive client cannot hold the exit; kept-alive
  // sockets may carry one more request (Fastify answers it 503) before the rest are closed.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
    await drainConnections(app.server, STOP_DRAIN_MS)
  })
  // Hooks on every request take a callback, not a promise: an async hook costs a promise and a microtask turn.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id)
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
  // Before the request-line check, so that its 414 carries the security headers as every other answer does.
  addSecurityHeaders(app)
  app.addHook('onRequest', (request, _reply, done) => {
    done(requestLineProblem(request))
  })
  // Bodies over 1 KiB are compressed for clients that ask (Accept-Encoding). Cached answers keep their own
  // compressed variants (http/compression.ts); the plugin compresses the rest (pages, docs, CSV streams).
  await app.register(compress, {
    // Every route is a GET: there is never a request body to decompress, so no decompression hook runs.
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip', 'deflate'],
    brotliOptions: BROTLI_OPTIONS
  })
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins.includes('*') ? '*' : [...config.corsOrigins],
      methods: ['GET', 'HEAD'],
      allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type'],
      exposedHeaders: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id'],
      maxAge: 600
    })
  }
  await registerOpenApi(app, VERSION)

  if (redis !== undefined) watchRedis(app, redis)
  const counters = new RateLimitCounters({ redis, policy: config.rateLimits.onRedisError, log: app.log })
  app.addHook('onClose', async () => { counters.close() })
  const dependencies: Dependency[] = [{ name: 'database', check: async () => { await store.ping() } }]
  if (redis !== undefined) {
    const optional = config.rateLimits.onRedisError === 'local'
    dependencies.push({ name: 'redis', check: async () => await redis.ping(), optional })
  }
  await app.register(healthRoutes, { dependencies })
  registerMetrics(app, () => store.poolStats(),
    () => ({ localCounts: counters.localCounts, degraded: counters.degraded }))

  // The Host header has been checked (onRequest above).
  const origin = (request: FastifyRequest): string => config.publicUrl ?? `${request.protocol}://${request.host}`
  const links = (request: FastifyRequest, now: number) => signedLinks(signer, origin(request), now)
  // One answer cache for both areas (answers and catalogue counts), bounded by ANSWER_CACHE_MB.
  const answers = new AnswerCache(config.answerCacheBytes)
  // Private: the catalogue answers API-key holders; a minute of reuse is far inside the media links' lifetime.
  const catalogueAnswers = { validator: 'weak', cacheControl: 'private, max-age=60' } as const
  // Public: the answer is the same for any caller, key or none. An hour: a new release or data reaches a cache
  // within one, and then costs a 304, not a body.
  const calculatorAnswers = { validator: 'strong', cacheControl: 'public, max-age=3600' } as const
  // The catalogue's version, read once for the products and their ledger (an import changes both), and only when
  // the change feed says it may have changed.
  const version = new CachedRead(changes, async () => await catalogueVersion(store.readDb))

  // Failed key checks count per address on the catalogue (the calculator is open: a wrong key there is not counted).
  const failures = new FailedAuthLimiter(counters, config.rateLimits.authFailuresPerMinute)
  const keys = new KeyVerifier(store.db, changes)
  await app.register(async (catalogue) => {
    catalogue.addHook('onRequest', requireApiKey(keys, 'catalogue:read', failures))
    documentGuardedArea(catalogue, { scope: 'catalogue:read', keyRequired: true, conditional: catalogueAnswers })
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
    const path = new AnswerPath({
      name: 'catalogue', version: async () => await version.get(), answers, charge, expensive, ...catalogueAnswers
    })
    await catalogue.register(catalogueRoutes,
      { prefix: '/products', db: store.readDb, path, origin, links, answers, charge, expensive })
    await catalogue.register(ledgerRoutes, { db: store.readDb, path, origin, charge, expensive })
    await catalogue.register(sourcesRoutes, { db: store.readDb })
  }, { prefix: COMMERCE_PREFIX })

  await app.register(async (calculator) => {
    // Open to all; a key with calculator:read is counted on its own (and may carry its own limit).
    calculator.addHook('onRequest', optionalApiKey(keys, 'calculator:read'))
    documentGuardedArea(calculator, { scope: 'calculator:read', keyRequired: false, conditional: calculatorAnswers })
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
    const path = new AnswerPath({ name: 'calculator', version: () => calculatorVersion, answers, ...calculatorAnswers })
    await calculator.register(calculatorRoutes, { data: calculatorData, path })
  }, { prefix: CALCULATOR_PREFIX })

  if (parts.sync !== undefined) {
    const sync = parts.sync
    app.addHook('onReady', async () => { sync.start((level, message) => app.log[level](message)) })
    app.addHook('onClose', async () => { sync.stop() })
  }
  await app.register(mediaRoutes, { store: media, signer })
  await app.register(explorerRoutes)
  app.decorate('compileSchemas', schemas.compileAll)
  return app
}

/** Logs a Redis outage once (the client reconnects by itself) and disconnects when the app closes. */
function watchRedis (app: FastifyInstance, redis: Redis): void {
  let down = redis.status !== 'ready'
  if (down) app.log.error('redis is not reachable yet; retrying')
  redis.on('error', (error: Error) => {
    if (!down) app.log.warn({ err: error }, 'redis connection error; reconnecting')
    down = true
  })
  redis.on('ready', () => { down = false })
  app.addHook('onClose', async () => { redis.disconnect() })
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

function requestId (request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
}

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
