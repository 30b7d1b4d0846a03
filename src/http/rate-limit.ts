import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import rateLimit, { normalizeIP } from '@fastify/rate-limit'
import LocalStore from '@fastify/rate-limit/store/LocalStore.js'
import RedisStore from '@fastify/rate-limit/store/RedisStore.js'
import type { Redis } from 'ioredis'
import type { RedisErrorPolicy } from '../config.ts'
import { AppError } from './errors.ts'

/** Every limit of the service counts in fixed windows of one minute. */
const WINDOW_MS = 60_000
/** Keys a process remembers counts for (least recently used go first). */
const LOCAL_KEYS = 10_000
const PROBE_INTERVAL_MS = 1000

interface CounterState { current: number, ttl: number }
type Callback = (error: Error | null, state: CounterState | null) => void

/** A fixed-window counter store, in the shape @fastify/rate-limit calls. */
interface CounterStore {
  incr (key: string, callback: Callback, timeWindow: number, max: number): void
  read (key: string, callback: Callback, timeWindow: number, max: number): void
  child (): CounterStore
}

/** The client's address as a counter key: IPv6 addresses count per /64 (one client's range). */
export function clientAddress (request: FastifyRequest): string {
  return request.ip.includes(':') ? normalizeIP(request.ip) : request.ip
}

/**
 * Where the counters of every limit live: in Redis when it is configured (one count for every
 * instance), else in this process. A rate limiter must not take the service down with it: when Redis
 * fails, policy `local` counts in this process instead (logged once) until Redis answers again
 * (probed every second, logged once), and `deny` lets the failure through as a 503.
 */
export class RateLimitCounters {
  readonly #redis: Redis | undefined
  readonly #policy: RedisErrorPolicy
  readonly #log: FastifyBaseLogger
  #probe: NodeJS.Timeout | undefined
  /** Checks counted in this process because Redis failed (a metric). */
  localCounts = 0

  constructor (options: { redis: Redis | undefined, policy: RedisErrorPolicy, log: FastifyBaseLogger }) {
    this.#redis = options.redis
    this.#policy = options.policy
    this.#log = options.log
  }

  /** True while Redis is configured but the counters live in this process. */
  get degraded (): boolean {
    return this.#probe !== undefined
  }

  /** The counters of one namespace (one limit); the same key in two namespaces never shares a count. */
  store (namespace: string): CounterStore {
    const local = new LocalStore(false, false, LOCAL_KEYS)
    const redis = this.#redis === undefined ? undefined : new RedisStore(false, false, this.#redis, namespace)
    const count = (method: 'incr' | 'read') => (key: string, callback: Callback, timeWindow: number, max: number) => {
      if (redis === undefined) return local[method](key, callback, timeWindow, max)
      if (this.degraded) {
        this.localCounts++
        return local[method](key, callback, timeWindow, max)
      }
      redis[method](key, (error, state) => {
        if (error === null) return callback(null, state)
        if (this.#policy === 'deny') return callback(error, null)
        this.#fallBack(error)
        this.localCounts++
        local[method](key, callback, timeWindow, max)
      }, timeWindow, max)
    }
    const store: CounterStore = { incr: count('incr'), read: count('read'), child: () => store }
    return store
  }

  #fallBack (error: Error): void {
    if (this.degraded) return
    this.#log.warn({ err: error },
      'Redis is unreachable: rate limits are counted in this process until it answers again')
    this.#probe = setInterval(() => {
      this.#redis!.ping().then(() => {
        if (!this.degraded) return
        clearInterval(this.#probe)
        this.#probe = undefined
        this.#log.info('Redis answers again: rate limits are shared by every instance again')
      }, () => undefined)
    }, PROBE_INTERVAL_MS).unref()
  }

  close (): void {
    clearInterval(this.#probe)
    this.#probe = undefined
  }
}

interface RateLimitOptions {
  /** Counter name, so that areas never share counters. */
  name: string
  /** Requests allowed per minute for this request's key. */
  max: (request: FastifyRequest) => number
  /** Whose counter a request counts against. */
  key: (request: FastifyRequest) => string
  counters: RateLimitCounters
  /**
   * Milliseconds of a failed answer's time (from its arrival to its last byte) that count as one request: a 5xx
   * (a statement timeout, a database away) is charged its time when it ends, minus what was already counted.
   */
  workUnitMs?: number
}

/** Counts more of a request's cost against its caller's limit: `units` requests beyond the one counted. */
export type Charge = (request: FastifyRequest, units: number) => Promise<void>

/**
 * Fixed one-minute windows through @fastify/rate-limit. Every answer after the key check carries
 * RateLimit-Limit, -Remaining and -Reset, 400s included; a 429 also carries Retry-After and the service's
 * problem body. Runs as a preParsing hook: after the API key check (onRequest) has identified the caller,
 * before the query is checked and validated. Returns how a route charges a request's further cost.
 */
export async function registerRateLimit (app: FastifyInstance, options: RateLimitOptions): Promise<Charge> {
  const store = options.counters.store(`tonne-rate-limit:${options.name}:`)
  await app.register(rateLimit, {
    global: true,
    hook: 'preParsing',
    timeWindow: WINDOW_MS,
    max: async (request) => options.max(request),
    keyGenerator: options.key,
    // The plugin constructs its store; this one is shared with the counters' fallback logic.
    store: function useStore () { return store } as never,
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) => new AppError(429, 'rate_limited',
      `Too many requests: the limit is ${context.max} per minute. Retry in ${context.after}.`)
  })
  const charged = new WeakMap<FastifyRequest, number>()
  const charge: Charge = async (request, units) => {
    const key = options.key(request)
    const max = options.max(request)
    charged.set(request, (charged.get(request) ?? 0) + units)
    // A counter that cannot be reached is the plugin's concern on the next request, not this answer's.
    await Promise.all(Array.from({ length: Math.min(units, max) }, async () =>
      await new Promise<void>((resolve) => { store.incr(key, () => { resolve() }, WINDOW_MS, max) })))
  }
  const { workUnitMs } = options
  if (workUnitMs !== undefined) {
    // A failed or timed-out answer is priced by its time: a statement that ran into its timeout cost the database
    // all that time, and a success's price (its rows, docs/api.md) was never charged.
    app.addHook('onResponse', (request, reply, done) => {
      // Only requests the limit counted (the key check passed): the others have no key to charge.
      if (reply.statusCode >= 500 && reply.getHeader('ratelimit-limit') !== undefined) {
        const units = failedAnswerUnits(reply.elapsedTime, workUnitMs, charged.get(request) ?? 0)
        if (units > 0) charge(request, units).catch(() => undefined)
      }
      done()
    })
  }
  return charge
}

/**
 * What a failed answer still owes, in requests: its time in work units, a part of one counted whole, less the one
 * request the limit counted on arrival and what the route charged since (its rows).
 */
export function failedAnswerUnits (elapsedMs: number, workUnitMs: number, alreadyCharged: number): number {
  return Math.ceil(elapsedMs / workUnitMs) - 1 - alreadyCharged
}

/**
 * The counters' life beside the app's: a Redis outage is logged once and its end once (the client reconnects by
 * itself), and the counters and the Redis client are closed with the app.
 */
export const rateLimitCounters = fp<{ counters: RateLimitCounters, redis: Redis | undefined }>(
  async (app, { counters, redis }) => {
    if (redis !== undefined) watchRedis(app, redis)
    app.addHook('onClose', async () => { counters.close() })
  }, { name: 'rate-limit-counters' })

function watchRedis (app: FastifyInstance, redis: Redis): void {
  let down = redis.status !== 'ready'
  if (down) app.log.error('redis is not reachable yet; retrying')
  redis.on('error', (error: Error) => {
    if (!down) app.log.warn({ err: error }, 'redis connection error; reconnecting')
    down = true
  })
  // A connection dropped without an error (the server or the line went away) is an outage too; its end is said
  // as well, so an operator (or a test) reading the log sees both edges.
  redis.on('close', () => {
    if (!down) app.log.warn('redis connection lost; reconnecting')
    down = true
  })
  redis.on('ready', () => {
    if (down) app.log.info('redis is reachable again')
    down = false
  })
  app.addHook('onClose', async () => { redis.disconnect() })
}

/**
 * Failed API key checks per client address: past `max` in one window, the address gets 429 (with
 * Retry-After) until the window ends, before its key is even looked up. Counted in the shared
 * counters; each process remembers the addresses it has seen go over, so they cost nothing more.
 */
export class FailedAuthLimiter {
  readonly #store: CounterStore
  readonly #max: number
  readonly #blockedUntil = new Map<string, number>()

  constructor (counters: RateLimitCounters, max: number) {
    this.#store = counters.store('tonne-auth-failures:')
    this.#max = max
  }

  get max (): number {
    return this.#max
  }

  /** Seconds until this address may try again; 0 when it may now. */
  retryAfter (address: string): number {
    const until = this.#blockedUntil.get(address)
    if (until === undefined) return 0
    const left = until - Date.now()
    if (left > 0) return Math.ceil(left / 1000)
    this.#blockedUntil.delete(address)
    return 0
  }

  /** Counts a failure; returns the seconds to wait when the address has now gone over the limit, else 0. */
  async failed (address: string): Promise<number> {
    const state = await new Promise<CounterState>((resolve, reject) => {
      this.#store.incr(address, (error, counted) => {
        if (error === null) resolve(counted!)
        else reject(error)
      }, WINDOW_MS, this.#max)
    })
    if (state.current <= this.#max) return 0
    if (this.#blockedUntil.size >= LOCAL_KEYS) this.#blockedUntil.clear()
    this.#blockedUntil.set(address, Date.now() + state.ttl)
    return Math.max(1, Math.ceil(state.ttl / 1000))
  }
}
