import type { Redis } from 'ioredis'
import { createInitialKeyOnce } from './access/api-keys.service.ts'
import type { AppParts } from './app.ts'
import { loadCalculatorData, type CalculatorData } from './calculator/calculator.data.ts'
import { refreshAllProjectJson } from './catalogue/project-json.ts'
import { writeSdgIcons } from './catalogue/sdg-icons.ts'
import type { Config } from './config.ts'
import { MediaStore } from './media/media-store.ts'
import { MediaSigner, resolveSigningSecret } from './media/signing.ts'
import type { Store } from './store/connect.ts'
import { migrateToLatest } from './store/migrate.ts'

// Start-up work: everything that reads files, writes files or opens connections before the app is
// built. buildApp (app.ts) only registers what this prepares, so a test can hand it parts of its own.

/**
 * One-time work before serving: the schema, the bundled catalogue, the first API key and the media
 * signing secret. Done once per start (by the primary when there are workers), so that workers never
 * race each other on it.
 */
export async function prepareDatabase (config: Config, store: Store, log: (line: string) => void): Promise<void> {
  resolveSigningSecret(config.media.signingSecret, config.dataDir)
  await migrateToLatest(store.db)
  // A database from before stored JSON (migration 0003) gets it once, here.
  const { built } = await refreshAllProjectJson(store.db, { missingOnly: true })
  if (built > 0) log(`built the stored JSON of ${built} projects`)
  if (config.loadBundledCatalogue) {
    const { loadBundledCatalogueOnce } = await import('./ingest/bundled-catalogue.ts')
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

/**
 * The parts of one app over a migrated store: the calculator's data (read and validated now, so a
 * bad file stops the start, never a request), the SDG icons drawn into the media store, the media
 * signing secret, and Redis when REDIS_URL is set. The app closes the Redis client it is given.
 */
export async function prepareParts (
  config: Config, store: Store,
  options: { logStream?: NodeJS.WritableStream, calculatorData?: CalculatorData } = {}
): Promise<AppParts> {
  // The data is read-only once loaded: a process that builds many apps (the tests) may hand in one it loaded.
  const calculatorData = options.calculatorData ?? loadCalculatorData()
  const media = new MediaStore(config.media.dir)
  await writeSdgIcons(store.db, media)
  const signer = new MediaSigner(resolveSigningSecret(config.media.signingSecret, config.dataDir),
    config.media.linkTtlSeconds)
  const redis = config.redisUrl === undefined ? undefined : await connectRedis(config.redisUrl)
  // The change feed starts listening here (a PostgreSQL LISTEN connection or SQLite's change counter).
  const changes = store.changes
  // Loaded only with SYNC_SOURCES: a server that never syncs never loads an importer.
  const sync = config.sync.sources.length === 0
    ? undefined
    : (await import('./ingest/sync/schedule.ts')).createSyncSchedule({ config, db: store.db })
  const logStream = options.logStream !== undefined ? { logStream: options.logStream } : {}
  return { config, store, calculatorData, media, signer, changes, redis, sync, ...logStream }
}

/**
 * Redis for shared rate-limit counters. Commands fail at once while it is away (no offline queue),
 * so a request never waits for it; the client reconnects by itself. A first connection that fails
 * is not an error here: the app logs the outage and counts locally (or denies) until Redis is back.
 */
async function connectRedis (url: string): Promise<Redis> {
  // Loaded only with REDIS_URL: a start without it loads no Redis client (docs/performance.md).
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A command written just before the line dropped would otherwise wait for a reconnect.
    commandTimeout: 1000,
    autoResendUnfulfilledCommands: false,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000)
  })
  // Until the app listens (and logs), an error event must not go unheard.
  redis.on('error', () => undefined)
  await redis.connect().catch(() => undefined)
  return redis
}
