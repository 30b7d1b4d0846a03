import { isIP } from 'node:net'
import path from 'node:path'
import { parseSyncSources, type SyncSource } from './ingest/sync/source-kinds.ts'
import { sizeFor, UNSIZED, type MemoryLimit, type Sizing } from './sizing.ts'

/**
 * The service's settings. This module is the only reader of `process.env`: everything
 * else receives a `Config`. Bad values stop the start with one message listing every problem.
 */
export interface Config {
  readonly host: string
  readonly port: number
  /** Everything the service writes lives here: the SQLite database, the media store (unless MEDIA_DIR), secrets. */
  readonly dataDir: string
  /** `postgres://…` selects PostgreSQL; unset keeps the embedded SQLite database in `dataDir`. */
  readonly databaseUrl: string | undefined
  /** PostgreSQL statement timeout for requests; shorter than the shutdown grace, so a stop never cuts one off. */
  readonly databaseStatementTimeoutMs: number
  /** PostgreSQL connections one process may hold; the server's max_connections is shared by every process. */
  readonly databasePoolSize: number
  /** Threads that answer SQLite reads for requests (SQLITE_READ_WORKERS; by default from the memory limit). */
  readonly sqliteReadWorkers: number
  /**
   * The memory limit Tonne sized itself for (MEMORY_LIMIT_MB, else the container's) and the choices for it
   * (src/sizing.ts); `explicit` names the settings given that won over those choices.
   */
  readonly memory: {
    readonly limit: MemoryLimit | undefined
    readonly sizing: Sizing
    readonly explicit: readonly string[]
    /** NODE_OPTIONS, whose V8 flags win over the sizing's as the command line's do (bin/tonne.js). */
    readonly nodeOptions: string | undefined
    /** glibc's MALLOC_ARENA_MAX as this process got it (bin/tonne.js sets it for a small limit). */
    readonly mallocArenas: string | undefined
  }
  readonly logLevel: LogLevel
  /** Base for absolute links (pagination); unset means "derive from the request's Host". */
  readonly publicUrl: string | undefined
  /** Load the bundled real catalogue into an empty database on first start. */
  readonly loadBundledCatalogue: boolean
  /** On the first start of a database without keys, create and print one API key. */
  readonly createInitialApiKey: boolean
  /** `redis://…`: rate-limit counters shared by every instance; unset keeps them in memory. */
  readonly redisUrl: string | undefined
  /**
   * Requests per minute: per API key on the catalogue, per client address on the calculator; failed
   * API key checks per client address; and what to do when Redis fails (`local` counters or `deny`).
   */
  readonly rateLimits: {
    readonly cataloguePerMinute: number
    readonly calculatorPerMinute: number
    readonly authFailuresPerMinute: number
    readonly onRedisError: RedisErrorPolicy
    /** Milliseconds of an answer's time that count as one request (RATE_LIMIT_WORK_UNIT_MS). */
    readonly workUnitMs: number
    /** Expensive reads (search, CSV, deep pages) one key may run at once (EXPENSIVE_READS_PER_KEY). */
    readonly expensiveReadsPerKey: number
    /** Expensive reads of all keys at once (EXPENSIVE_READS): below the pool, so cheap reads find a connection. */
    readonly expensiveReads: number
  }
  /** Fastify's trustProxy: false (use the socket address), true (any proxy), a hop count, or trusted addresses. */
  readonly trustProxy: boolean | number | string
  readonly media: {
    readonly dir: string
    /** Unset: generated once and kept in DATA_DIR/secrets. Instances that share links must share it. */
    readonly signingSecret: string | undefined
    readonly linkTtlSeconds: number
  }
  /** Allowed CORS origins; empty turns CORS off, ['*'] allows any origin. */
  readonly corsOrigins: readonly string[]
  /**
   * Bytes the one answer cache may hold (ANSWER_CACHE_MB; 0, or ANSWER_CACHE=false, turns it off, only to
   * measure the uncached path).
   */
  readonly answerCacheBytes: number
  /** How long `tonne import` waits for another import to finish before giving up. */
  readonly importLockWaitMs: number
  /** What `serve` keeps current on a schedule and `tonne sync` syncs once (README, "Keeping the catalogue current"). */
  readonly sync: {
    /** SYNC_SOURCES; none by default. */
    readonly sources: readonly SyncSource[]
    /** SYNC_INTERVAL: between the end of one round and the start of the next. */
    readonly intervalMs: number
    /** SYNC_MAX_MB: a download larger than this is abandoned (and the sync fails, changing nothing). */
    readonly maxBytes: number
  }
  /** Limits on client connections, so that slow or idle clients cannot hold the server. */
  readonly http: {
    /** The whole request (headers and body) must arrive within this; else 408 and the connection closes. */
    readonly requestTimeoutMs: number
    /** The request headers must arrive within this (at most requestTimeoutMs). */
    readonly headersTimeoutMs: number
    /** An idle keep-alive connection is closed after this. */
    readonly keepAliveTimeoutMs: number
    /** Open connections per process; further ones are closed at once. */
    readonly maxConnections: number
    /** Open connections per client (socket) address; 0: no limit (the default behind a proxy). */
    readonly maxConnectionsPerAddress: number
    /** A new connection must send its first bytes within this, else it is closed. */
    readonly firstByteTimeoutMs: number
  }
}

/** PostgreSQL connections of one process when DATABASE_POOL_SIZE does not say (also scripts that open a store). */
export const DEFAULT_DATABASE_POOL_SIZE = 10
/** SQLite read threads when SQLITE_READ_WORKERS does not say and there is no memory limit (also scripts). */
export const DEFAULT_SQLITE_READ_WORKERS = UNSIZED.readWorkers

/** How long a graceful stop may take before the process exits anyway (server.ts). */
export const SHUTDOWN_GRACE_MS = 10_000

/**
 * With --workers, how long the primary waits for every worker to close its listening socket before it tells
 * them to finish their requests anyway (server.ts); only a worker whose event loop is stuck takes this long.
 */
export const STOP_ACCEPTING_WAIT_MS = 5000

/**
 * While stopping, how long kept-alive connections stay open for a last request before idle ones are
 * closed (app.ts); well inside SHUTDOWN_GRACE_MS, and requests in flight go on after it.
 */
export const STOP_DRAIN_MS = 2000

/** When Redis fails: count rate limits in this process (`local`) or answer 503 (`deny`). */
const REDIS_ERROR_POLICIES = ['local', 'deny'] as const
export type RedisErrorPolicy = typeof REDIS_ERROR_POLICIES[number]

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
type LogLevel = typeof LOG_LEVELS[number]

export class ConfigError extends Error {
  readonly problems: string[]
  constructor (problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

type Env = Readonly<Record<string, string | undefined>>

/**
 * Documented in the README's configuration table; keep the two in step. `detected` is the container's memory
 * limit (src/sizing.ts; `tonne serve` reads it), which MEMORY_LIMIT_MB overrides; without either, no limit.
 */
export function loadConfig (env: Env = process.env, cwd = process.cwd(), detected?: MemoryLimit): Config {
  const problems: string[] = []
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }

  const port = parseInteger(read('PORT') ?? '3000', 0, 65535)
  if (port === undefined) problems.push(`PORT must be an integer from 0 to 65535, got "${read('PORT')}"`)

  const logLevel = read('LOG_LEVEL') ?? 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  }

  const databaseUrl = read('DATABASE_URL')
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(
      'DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)')
  }

  const publicUrl = read('PUBLIC_URL')
  if (publicUrl !== undefined && !isHttpUrl(publicUrl)) {
    problems.push(`PUBLIC_URL must be an absolute http(s) URL, got "${publicUrl}"`)
  }

  const loadBundledCatalogue = parseBoolean(read('LOAD_BUNDLED_CATALOGUE') ?? 'true')
  if (loadBundledCatalogue === undefined) {
    problems.push(`LOAD_BUNDLED_CATALOGUE must be true or false, got "${read('LOAD_BUNDLED_CATALOGUE')}"`)
  }

  const createInitialApiKey = parseBoolean(read('CREATE_INITIAL_API_KEY') ?? 'true')
  if (createInitialApiKey === undefined) {
    problems.push(`CREATE_INITIAL_API_KEY must be true or false, got "${read('CREATE_INITIAL_API_KEY')}"`)
  }

  const redisUrl = read('REDIS_URL')
  if (redisUrl !== undefined &&
    !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must be a redis:// or rediss:// URL')

  const perMinute = (name: string, fallback: number): number => {
    const text = read(name) ?? String(fallback)
    const match = /^(\d{1,7})(?:\/min)?$/.exec(text)
    const value = match === null ? 0 : Number(match[1])
    if (value < 1) problems.push(`${name} must be a number of requests per minute (e.g. 600 or 600/min), got "${text}"`)
    return value
  }
  const onRedisError = read('RATE_LIMIT_ON_REDIS_ERROR') ?? 'local'
  if (!(REDIS_ERROR_POLICIES as readonly string[]).includes(onRedisError)) {
    problems.push(`RATE_LIMIT_ON_REDIS_ERROR must be one of ${REDIS_ERROR_POLICIES.join(', ')}, got "${onRedisError}"`)
  }
  const rateLimits = {
    cataloguePerMinute: perMinute('RATE_LIMIT_CATALOGUE', 600),
    calculatorPerMinute: perMinute('RATE_LIMIT_CALCULATOR', 300),
    authFailuresPerMinute: perMinute('AUTH_FAILURE_LIMIT', 30),
    onRedisError: onRedisError as RedisErrorPolicy,
    ...fairUse(read, problems)
  }

  const trustProxy = parseTrustProxy(read('TRUST_PROXY') ?? 'false')
  if (trustProxy === undefined) {
    problems.push('TRUST_PROXY must be true, false, a hop count (0 to 99) or a comma list of proxy addresses/CIDRs ' +
      `(or loopback, linklocal, uniquelocal), got "${read('TRUST_PROXY')}"`)
  }

  const signingSecret = read('MEDIA_SIGNING_SECRET')
  if (signingSecret !== undefined && signingSecret.length < 32) {
    problems.push('MEDIA_SIGNING_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)')
  }
  const linkTtl = parseInteger(read('MEDIA_LINK_TTL') ?? '3600', 60, 7 * 24 * 3600)
  if (linkTtl === undefined) {
    problems.push(
    `MEDIA_LINK_TTL must be a number of seconds from 60 to 604800, got "${read('MEDIA_LINK_TTL')}"`)
  }

  const corsOrigins = (read('CORS_ORIGINS') ?? '').split(',').map((o) => o.trim()).filter((o) => o !== '')
  for (const origin of corsOrigins) {
    if (origin !== '*' &&
      !isHttpUrl(origin)) problems.push(`CORS_ORIGINS entries must be * or http(s) origins, got "${origin}"`)
  }

  const limitText = read('MEMORY_LIMIT_MB')
  const memoryLimitMb = limitText === undefined ? undefined : parseInteger(limitText, 16, 1_048_576)
  if (limitText !== undefined && memoryLimitMb === undefined) {
    problems.push(`MEMORY_LIMIT_MB must be a whole number of megabytes from 16 to 1048576, got "${limitText}"`)
  }
  const limit: MemoryLimit | undefined = memoryLimitMb === undefined
    ? detected
    : { bytes: memoryLimitMb * 1024 * 1024, source: 'MEMORY_LIMIT_MB' }
  const sizing = sizeFor(limit === undefined ? undefined : Math.floor(limit.bytes / 1024 / 1024))
  const explicit = ['SQLITE_READ_WORKERS', 'ANSWER_CACHE_MB', 'ANSWER_CACHE'].filter((name) => read(name) !== undefined)

  const answerCache = parseBoolean(read('ANSWER_CACHE') ?? 'true')
  if (answerCache === undefined) problems.push(`ANSWER_CACHE must be true or false, got "${read('ANSWER_CACHE')}"`)
  // 32 MB without a limit kept the whole process under 200 MB resident after a bench run (docs/performance.md).
  const answerCacheMb = parseInteger(read('ANSWER_CACHE_MB') ?? String(sizing.answerCacheMb), 0, 4096)
  if (answerCacheMb === undefined) {
    problems.push('ANSWER_CACHE_MB must be a whole number of megabytes from 0 to 4096, ' +
      `got "${read('ANSWER_CACHE_MB')}"`)
  }

  const seconds = (name: string, fallback: number, max: number): number => {
    const text = read(name) ?? String(fallback)
    const value = parseInteger(text, 1, max)
    if (value === undefined) problems.push(`${name} must be a whole number of seconds from 1 to ${max}, got "${text}"`)
    return (value ?? fallback) * 1000
  }
  const requestTimeoutMs = seconds('REQUEST_TIMEOUT', 30, 3600)
  const headersTimeoutMs = seconds('HEADERS_TIMEOUT', 10, 3600)
  if (headersTimeoutMs > requestTimeoutMs) problems.push('HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT')
  const keepAliveTimeoutMs = seconds('KEEP_ALIVE_TIMEOUT', 72, 3600)
  const importLockWaitMs = seconds('IMPORT_LOCK_WAIT', 300, 86_400)
  // The client gives a silent server one second more than the statement timeout: both under the 10 s grace.
  const databaseStatementTimeoutMs = seconds('DATABASE_STATEMENT_TIMEOUT', 5, (SHUTDOWN_GRACE_MS - 2000) / 1000)
  const databasePoolSize = parseInteger(read('DATABASE_POOL_SIZE') ?? String(DEFAULT_DATABASE_POOL_SIZE), 1, 1000)
  if (databasePoolSize === undefined) {
    problems.push(`DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got "${read('DATABASE_POOL_SIZE')}"`)
  }
  const sqliteReadWorkers = parseInteger(read('SQLITE_READ_WORKERS') ?? String(sizing.readWorkers), 0, 64)
  if (sqliteReadWorkers === undefined) {
    problems.push(`SQLITE_READ_WORKERS must be a whole number from 0 to 64, got "${read('SQLITE_READ_WORKERS')}"`)
  }
  const maxConnections = parseInteger(read('MAX_CONNECTIONS') ?? '1000', 1, 1_000_000)
  if (maxConnections === undefined) {
    problems.push(`MAX_CONNECTIONS must be a whole number from 1 to 1000000, got "${read('MAX_CONNECTIONS')}"`)
  }

  // Behind a proxy every connection comes from the proxy: there the proxy limits clients (deploy/nginx.conf).
  const perAddressDefault = trustProxy === false || trustProxy === 0 ? '100' : '0'
  const maxConnectionsPerAddress = parseInteger(read('MAX_CONNECTIONS_PER_ADDRESS') ?? perAddressDefault, 0, 1_000_000)
  if (maxConnectionsPerAddress === undefined) {
    problems.push('MAX_CONNECTIONS_PER_ADDRESS must be a whole number from 0 (no limit) to 1000000, ' +
      `got "${read('MAX_CONNECTIONS_PER_ADDRESS')}"`)
  }
  const firstByteTimeoutMs = seconds('FIRST_BYTE_TIMEOUT', Math.min(5, headersTimeoutMs / 1000), 3600)
  if (firstByteTimeoutMs > headersTimeoutMs) problems.push('FIRST_BYTE_TIMEOUT must not be longer than HEADERS_TIMEOUT')

  const syncSources = parseSyncSources([read('SYNC_SOURCES') ?? ''])
  problems.push(...syncSources.problems.map((p) => `SYNC_SOURCES: ${p}`))
  const syncIntervalMs = parseDuration(read('SYNC_INTERVAL') ?? '6h')
  // At most a week: a timer's delay must fit 32 bits (24.8 days).
  if (syncIntervalMs === undefined || syncIntervalMs < 60_000 || syncIntervalMs > 7 * 86_400_000) {
    problems.push('SYNC_INTERVAL must be seconds or a duration such as 90s, 30m, 6h or 1d, from 60 s to 7 days, ' +
      `got "${read('SYNC_INTERVAL')}"`)
  }
  const syncMaxMb = parseInteger(read('SYNC_MAX_MB') ?? '1024', 1, 1_048_576)
  if (syncMaxMb === undefined) {
    problems.push(`SYNC_MAX_MB must be a whole number of megabytes from 1 to 1048576, got "${read('SYNC_MAX_MB')}"`)
  }

  if (problems.length > 0) throw new ConfigError(problems)
  const dataDir = path.resolve(cwd, read('DATA_DIR') ?? './var')

  return Object.freeze({
    host: read('HOST') ?? '127.0.0.1',
    port: port!,
    dataDir,
    databaseUrl,
    databaseStatementTimeoutMs,
    databasePoolSize: databasePoolSize!,
    sqliteReadWorkers: sqliteReadWorkers!,
    memory: { limit, sizing, explicit, nodeOptions: read('NODE_OPTIONS'), mallocArenas: read('MALLOC_ARENA_MAX') },
    logLevel: logLevel as LogLevel,
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    loadBundledCatalogue: loadBundledCatalogue!,
    createInitialApiKey: createInitialApiKey!,
    redisUrl,
    rateLimits,
    trustProxy: trustProxy!,
    media: {
      dir: path.resolve(cwd, read('MEDIA_DIR') ?? path.join(dataDir, 'media')),
      signingSecret,
      linkTtlSeconds: linkTtl!
    },
    corsOrigins,
    answerCacheBytes: answerCache === false ? 0 : (answerCacheMb ?? 0) * 1024 * 1024,
    importLockWaitMs,
    sync: { sources: syncSources.sources, intervalMs: syncIntervalMs!, maxBytes: syncMaxMb! * 1024 * 1024 },
    http: {
      requestTimeoutMs,
      headersTimeoutMs,
      keepAliveTimeoutMs,
      maxConnections: maxConnections!,
      maxConnectionsPerAddress: maxConnectionsPerAddress!,
      firstByteTimeoutMs
    }
  })
}

function parseInteger (text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined
  const value = Number(text)
  return value >= min && value <= max ? value : undefined
}

const DURATION_UNITS: Readonly<Record<string, number>> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `3600` (seconds), `90s`, `30m`, `6h` or `1d`, in milliseconds. */
export function parseDuration (text: string): number | undefined {
  const match = /^(\d{1,9})\s*([smhd]?)$/i.exec(text)
  return match === null ? undefined : Number(match[1]) * DURATION_UNITS[match[2]!.toLowerCase()]!
}

function parseBoolean (text: string): boolean | undefined {
  const lower = text.toLowerCase()
  if (['true', '1', 'yes'].includes(lower)) return true
  if (['false', '0', 'no'].includes(lower)) return false
  return undefined
}

/**
 * Digits are a hop count ("1" trusts only the nearest proxy), never a boolean: `true` believes the
 * left-most X-Forwarded-For entry, which the client writes itself.
 */
function parseTrustProxy (text: string): boolean | number | string | undefined {
  const lower = text.toLowerCase()
  if (lower === 'true' || lower === 'false') return lower === 'true'
  if (/^\d{1,2}$/.test(text)) return Number(text)
  const entries = text.split(',').map((entry) => entry.trim())
  const named = ['loopback', 'linklocal', 'uniquelocal']
  return entries.every((entry) => named.includes(entry) || isAddressOrCidr(entry)) ? entries.join(',') : undefined
}

function isAddressOrCidr (text: string): boolean {
  const [address = '', bits, ...rest] = text.split('/')
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
}

function isHttpUrl (text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * Fair use of the database (docs/api.md, "Rate limits"): an answer's price follows its time, and expensive reads
 * run at most so many at once, per key and in all, always fewer than the read slots (PostgreSQL connections or
 * SQLite read workers) when there is more than one, so cheap reads find one.
 */
function fairUse (read: (name: string) => string | undefined, problems: string[]) {
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const value = parseInteger(read(name) ?? String(fallback), min, max)
    if (value === undefined) problems.push(`${name} must be a whole number from ${min} to ${max}, got "${read(name)}"`)
    return value ?? fallback
  }
  const slots = read('DATABASE_URL') !== undefined
    ? parseInteger(read('DATABASE_POOL_SIZE') ?? String(DEFAULT_DATABASE_POOL_SIZE), 1, 1000) ?? 1
    : parseInteger(read('SQLITE_READ_WORKERS') ?? String(DEFAULT_SQLITE_READ_WORKERS), 1, 64) ?? 1
  const below = Math.max(1, slots - 1)
  const expensiveReads = number('EXPENSIVE_READS', Math.max(1, Math.floor(slots / 2)), 1, below)
  return {
    workUnitMs: number('RATE_LIMIT_WORK_UNIT_MS', 20, 1, 60_000),
    expensiveReads,
    expensiveReadsPerKey: number('EXPENSIVE_READS_PER_KEY', 1, 1, expensiveReads)
  }
}
