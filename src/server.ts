import cluster from 'node:cluster'
import { createServer, type AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.ts'
import { gatherWorkerMetrics } from './http/metrics.ts'
import { ConfigError, loadConfig, SHUTDOWN_GRACE_MS, type Config } from './config.ts'
import { prepareDatabase, prepareParts } from './startup.ts'
import { BATCH_STATEMENT_TIMEOUT_MS, openStore } from './store/connect.ts'

// Starting and stopping only: start-up work is startup.ts, the app itself app.ts.

/** Workers bind sockets of their own where the kernel spreads connections over them (SO_REUSEPORT). */
const WORKERS_OWN_SOCKETS = process.platform === 'linux'

/** Builds the app over the configured database and listens; stops gracefully on SIGINT/SIGTERM. */
export async function startServer (config: Config,
  options: { prepare: boolean } = { prepare: true }): Promise<FastifyInstance> {
  const notes: string[] = []
  if (options.prepare) {
    // Batch work (migrations, the first catalogue) on a store of its own, with the batch statement timeout.
    const batch = await openStore(config, { statementTimeoutMs: BATCH_STATEMENT_TIMEOUT_MS })
    try {
      await prepareDatabase(config, batch, (line) => notes.push(line))
    } finally {
      await batch.close()
    }
  }
  const store = await openStore(config)
  // A read worker boots on its own thread while this one prepares and builds the app, so the first request
  // does not wait for it (docs/performance.md); tests' apps start theirs on first use.
  const warming = store.warm()
  // Awaited below; until then a failure must not count as an unhandled rejection.
  warming.catch(() => undefined)
  const app = await buildApp(await prepareParts(config, store))
  app.addHook('onClose', async () => await store.close())
  await warming
  for (const note of notes) app.log.info(note)
  // A cluster worker on Linux binds a listening socket of its own (SO_REUSEPORT): closing it stops this
  // worker's accepting at once, with no primary queue in between whose connections would be reset.
  const ownSocket = cluster.isWorker && WORKERS_OWN_SOCKETS ? { exclusive: true, reusePort: true } : {}
  await app.listen({ host: config.host, port: config.port, ...ownSocket })
  // The bound port, not the configured one: PORT=0 picks a free port.
  const base = config.publicUrl ?? `http://${config.host}:${(app.server.address() as { port: number }).port}`
  app.log.info(`Explorer at ${base}/; API docs at ${base}/docs; database: ${store.location}`)
  // Schemas compile after listening (a faster start), and a broken one still stops the server at start.
  app.compileSchemas().catch(async (error: unknown) => {
    app.log.fatal({ err: error }, 'a route schema does not compile; stopping')
    process.exitCode = 1
    await app.close()
  })
  stopOnSignals(async () => await app.close(),
    (message, error) => app.log[error === undefined ? 'info' : 'error']({ err: error }, message))
  return app
}

/**
 * Runs `workers` server processes on one port (node:cluster). The primary prepares the database,
 * then forks; on SIGTERM it asks every worker to finish its requests and exits when they have.
 * On Linux each worker listens on its own socket of the same port, so the primary never holds a
 * connection; elsewhere node:cluster's primary accepts and hands connections on.
 */
export async function startCluster (config: Config, workers: number): Promise<void> {
  const store = await openStore(config, { statementTimeoutMs: BATCH_STATEMENT_TIMEOUT_MS })
  try {
    await prepareDatabase(config, store, (line) => console.log(line))
  } finally {
    await store.close()
  }
  if (config.redisUrl === undefined) {
    console.warn(`Rate limits are counted per worker (${workers} workers): set REDIS_URL to share one count.`)
  }
  gatherWorkerMetrics()
  // PORT=0 means any free port: the workers must all bind the same one, so the primary picks it.
  const env = WORKERS_OWN_SOCKETS ? { PORT: String(config.port === 0 ? await freePort(config.host) : config.port) } : {}
  let stopping = false
  for (let i = 0; i < workers; i++) cluster.fork(env)
  cluster.on('exit', (worker, code) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
      return
    }
    // A worker that dies on its own is replaced, so one crash does not shrink the service.
    console.error(`worker ${worker.process.pid} exited with code ${code}; starting another`)
    cluster.fork(env)
  })
  stopOnSignals(async () => {
    stopping = true
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
    await new Promise(() => undefined)
  }, (message) => console.log(message))
}

async function freePort (host: string): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen({ host, port: 0 }, resolve)
  })
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

function stopOnSignals (close: () => Promise<void>, log: (message: string, error?: unknown) => void): void {
  let closing = false
  const stop = (signal: string) => {
    if (closing) return
    closing = true
    log(`${signal} received: finishing in-flight requests`)
    setTimeout(() => {
      log('shutdown took too long; exiting')
      process.exit(1)
    }, SHUTDOWN_GRACE_MS).unref()
    // close() stops accepting, waits for in-flight requests, then closes the pools.
    close().then(() => process.exit(0), (error: unknown) => {
      log('shutdown failed', error)
      process.exit(1)
    })
  }
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
}

export function exitOnStartupError (error: unknown): never {
  console.error(error instanceof ConfigError ? error.message : `Tonne could not start: ${(error as Error).message}`)
  process.exit(error instanceof ConfigError ? 2 : 1)
}

if (import.meta.main) {
  try {
    await startServer(loadConfig())
  } catch (error) {
    exitOnStartupError(error)
  }
}
