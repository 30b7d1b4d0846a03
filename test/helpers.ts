import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestContext } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app.ts'
import { loadBundledCatalogueOnce } from '../src/catalogue/bundled-catalogue.ts'
import { importProjects } from '../src/catalogue/projects.import.ts'
import { loadConfig, type Config } from '../src/config.ts'
import { openStore, type Store } from '../src/store/connect.ts'
import { migrateToLatest } from '../src/store/migrate.ts'

export const REPO_ROOT = path.join(import.meta.dirname, '..')

export interface TestApp {
  app: FastifyInstance
  store: Store
  config: Config
  dataDir: string
}

export interface TestAppOptions {
  /** Load the bundled real catalogue, as a first `tonne serve` does. */
  bundled?: boolean
  /** Import these records (the import format) before the app starts. */
  records?: readonly object[]
  /** Extra environment settings, as an operator would give them. */
  env?: Record<string, string>
}

/** A fresh data directory under the OS temp folder, removed after the test. */
export function tempDir (t: TestContext, prefix = 'tonne-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Builds the real app exactly as `tonne serve` does (config from env settings, a database built by
 * the real migrations), in a fresh data directory; everything is closed after the test.
 */
export async function buildTestApp (t: TestContext, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = tempDir(t)
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...options.env })
  const store = await openStore(config)
  await migrateToLatest(store.db)
  if (options.bundled === true) await loadBundledCatalogueOnce(store.db)
  if (options.records !== undefined) {
    await importProjects(store.db, JSON.stringify(options.records), { replace: false })
  }
  const app = await buildApp({ config, store })
  t.after(async () => {
    await app.close()
    await store.close().catch(() => undefined)
  })
  await app.ready()
  return { app, store, config, dataDir }
}
