import type { FastifyInstance } from 'fastify'
import { createInitialKeyOnce } from './access/api-keys.service.ts'
import { buildApp } from './app.ts'
import { loadBundledCatalogueOnce } from './catalogue/bundled-catalogue.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { openStore } from './store/connect.ts'
import { migrateToLatest } from './store/migrate.ts'

/** Opens the database, brings it up to date, builds the app and listens; closes all on SIGINT/SIGTERM. */
export async function startServer (config: Config): Promise<FastifyInstance> {
  const store = await openStore(config)
  await migrateToLatest(store.db)
  const app = await buildApp({ config, store })
  app.addHook('onClose', async () => await store.close())
  if (config.loadBundledCatalogue) {
    const loaded = await loadBundledCatalogueOnce(store.db)
    if (loaded > 0) app.log.info(`loaded the bundled catalogue: ${loaded} projects`)
  }
  if (config.createInitialApiKey) {
    const key = await createInitialKeyOnce(store.db)
    // Printed on the console, never through the logger: keys must not reach the logs.
    if (key !== undefined) {
      console.log(`\nCreated the first API key (${key.id}); it is shown this once:\n\n  ${key.key}\n\n` +
        'Send it as "Authorization: Bearer KEY". Make more with: npx tonne keys create --name NAME\n')
    }
  }
  await app.listen({ host: config.host, port: config.port })
  app.log.info(`API docs at ${config.publicUrl ?? `http://${config.host}:${config.port}`}/docs; database: ${store.location}`)

  let closing = false
  const stop = (signal: string) => {
    if (closing) return
    closing = true
    app.log.info(`${signal} received: finishing in-flight requests`)
    // close() stops accepting, waits for in-flight requests, then runs onClose hooks (the store).
    app.close().then(() => process.exit(0), (error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed')
      process.exit(1)
    })
  }
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
  return app
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
