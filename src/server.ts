import cluster from 'node:cluster'
import type { FastifyInstance } from 'fastify'
import { createInitialKeyOnce } from './access/api-keys.service.ts'
import { buildApp } from './app.ts'
import { loadBundledCatalogueOnce } from './catalogue/bundled-catalogue.ts'
import { refreshAllProjectJson } from './catalogue/project-json.ts'
import { gatherWorkerMetrics } from './http/metrics.ts'
import { ConfigError, loadConfig, SHUTDOWN_GRACE_MS, type Config } from './config.ts'
import { BATCH_STATEMENT_TIMEOUT_MS, openStore, type Store } from './store/connect.ts'
import { migrateToLatest } from './store/migrate.ts'

/**
 * One-time work before serving: the schema, the bundled catalogue and the first API key. Done once
 * per start (by the primary when there are workers), so that workers never race each other on it.
 */
export async function prepareDatabase (config: Config, store: Store, log: (line: string) => void): Promise<void> {
  await migrateToLatest(store.db)
  // A database from before stored JSON (migration 0003) gets it once, here.
  const { built } = await refreshAllProjectJson(store.db, { missingOnly: true })
  if (built > 0) log(`built the stored JSON of ${built} projects`)
  if (config.loadBundledCatalogue) {
    const loaded = await loadBundledCatalogueOnce(store.db)
    if (loaded > 0) log(`loaded the bundled catalogue: ${loaded} projects`)
  }
  if (config.createInitialApiKey) {
    const key = await createInitialKeyOnce(store.db)
    // Printed on the console, never through the logger: keys must not reach the logs.
    if (key !== undefined) {
      console.log(`\nCreated the first API key (${key.id}); it is shown this once:\n\n  ${key.key}\n\n` +
        'Send it as "Authorization: Bearer KEY". Make more with: npx tonne keys create --name NAME\n')
    }
  }
}

/** Builds the app over the configured database and listens; stops gracefully on SIGINT/SIGTERM. */
export async function startServer (config: Config, options: { prepare: boolean } = { prepare: true }): Promise<FastifyInstance> {
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
  const app = await buildApp({ config, store })
  app.addHook('onClose', async () => await store.close())
  for (const note of notes) app.log.info(note)
  await app.listen({ host: config.host, port: config.port })
  app.log.info(`API docs at ${config.publicUrl ?? `http://${config.host}:${config.port}`}/docs; database: ${store.location}`)
  stopOnSignals(async () => await app.close(), (message, error) => app.log[error === undefined ? 'info' : 'error']({ err: error }, message))
  return app
}

/**
 * Runs `workers` server processes on one port (node:cluster). The primary prepares the database,
 * then forks; on SIGTERM it asks every worker to finish its requests and exits when they have.
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
  let stopping = false
  for (let i = 0; i < workers; i++) cluster.fork()
  cluster.on('exit', (worker, code) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
      return
    }
    // A worker that dies on its own is replaced, so one crash does not shrink the service.
    console.error(`worker ${worker.process.pid} exited with code ${code}; starting another`)
    cluster.fork()
  })
  stopOnSignals(async () => {
    stopping = true
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
    await new Promise(() => undefined)
  }, (message) => console.log(message))
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
