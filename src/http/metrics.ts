import cluster from 'node:cluster'
import fp from 'fastify-plugin'
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { PoolStats } from '../store/connect.ts'

/** Rate-limit counters' state, read at scrape time. */
interface RateLimitState { localCounts: number, degraded: boolean }

/**
 * Prometheus metrics at /metrics: requests by route, method and status, a latency histogram,
 * database pool use, rate limits counted without Redis, and the process defaults. One registry per
 * app, so tests never share one.
 */
export const metrics = fp<{ poolStats: () => PoolStats, rateLimits: () => RateLimitState }>(async (app, options) => {
  const { poolStats, rateLimits } = options
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'tonne_' })
  const requests = new Counter({
    name: 'tonne_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry]
  })
  const duration = new Histogram({
    name: 'tonne_http_request_duration_seconds',
    help: 'Time from request to response, by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry]
  })
  // The gauge registers itself and is read through the registry at scrape time; nothing holds it.
  // eslint-disable-next-line no-new
  new Gauge({
    name: 'tonne_db_pool_connections',
    help: 'Database pool connections by state (total, idle, waiting requests) and the pool maximum.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect () {
      const stats = poolStats()
      for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, stats[state])
    }
  })

  // eslint-disable-next-line no-new
  new Counter({
    name: 'tonne_rate_limit_local_total',
    help: 'Rate-limit checks counted in this process because Redis did not answer (RATE_LIMIT_ON_REDIS_ERROR=local).',
    registers: [registry],
    collect () {
      // The count lives with the counters; the metric reports it as it is at scrape time.
      this.reset()
      const { localCounts } = rateLimits()
      if (localCounts > 0) this.inc(localCounts)
    }
  })
  // eslint-disable-next-line no-new
  new Gauge({
    name: 'tonne_rate_limit_redis_degraded',
    help: '1 while Redis is configured but unreachable and rate limits are counted in this process, else 0.',
    registers: [registry],
    // With workers: 1 when any of them counts alone.
    aggregator: 'max',
    collect () { this.set(rateLimits().degraded ? 1 : 0) }
  })

  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: ids and query strings would explode the label set.
    const route = request.routeOptions.url ?? 'unmatched'
    requests.inc({ route, method: request.method, status: reply.statusCode })
    duration.observe({ route, method: request.method }, reply.elapsedTime / 1000)
    done()
  })
  // A worker answers for the whole server: whichever worker takes the scrape, it reports them all.
  const scrape = cluster.isWorker ? askPrimary(registry) : async () => await registry.metrics()
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
    await reply.type(registry.contentType).send(await scrape()))
}, { name: 'metrics' })

const SCRAPE = 'tonne:metrics-scrape'
const SCRAPED = 'tonne:metrics-scraped'

interface ScrapeMessage { type: typeof SCRAPE, id: number }
interface ScrapedMessage { type: typeof SCRAPED, id: number, text?: string, error?: string }

/**
 * In a worker: answers the primary's requests for this worker's metrics (prom-client's cluster
 * protocol), and scrapes by asking the primary to gather and add up every worker's.
 */
function askPrimary (registry: Registry): () => Promise<string> {
  // eslint-disable-next-line no-new
  new AggregatorRegistry()
  AggregatorRegistry.setRegistries([registry])
  const waiting = new Map<number, { resolve: (text: string) => void, reject: (error: Error) => void }>()
  let next = 0
  process.on('message', (message: Partial<ScrapedMessage>) => {
    if (message?.type !== SCRAPED || message.id === undefined) return
    const scrape = waiting.get(message.id)
    waiting.delete(message.id)
    if (message.text !== undefined) scrape?.resolve(message.text)
    else scrape?.reject(new Error(`metrics from the workers: ${message.error ?? 'no answer'}`))
  })
  return async () => await new Promise<string>((resolve, reject) => {
    const id = next++
    waiting.set(id, { resolve, reject })
    process.send?.({ type: SCRAPE, id } satisfies ScrapeMessage)
  })
}

/** In the primary of `--workers N`: gathers every worker's metrics for the worker that was scraped. */
export function gatherWorkerMetrics (): void {
  const aggregator = new AggregatorRegistry()
  cluster.on('message', (worker, message: Partial<ScrapeMessage>) => {
    if (message?.type !== SCRAPE || message.id === undefined) return
    const id = message.id
    // prom-client gives up on workers that do not answer within 5 s.
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: SCRAPED, id, text } satisfies ScrapedMessage),
      (error: Error) => worker.send({ type: SCRAPED, id, error: error.message } satisfies ScrapedMessage))
  })
}
