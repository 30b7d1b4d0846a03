import { copyFileSync, createWriteStream, mkdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { finished } from 'node:stream/promises'
import { parseArgs } from 'node:util'
import { exportProjects, ImportError, importProjects } from './catalogue/projects.import.ts'
import {
  ExportFileError, importRegistryExports, REGISTRY_KEYS, type RegistryImportReport
} from './catalogue/registries/registry-import.ts'
import type { RegistryKey } from './catalogue/registries/registry.ts'
import { refreshAllProjectJson } from './catalogue/project-json.ts'
import { parseRateLimit, parseScopes, SCOPES } from './access/api-keys.ts'
import { createKey, listKeys, revokeKey } from './access/api-keys.service.ts'
import { exportedMediaPath } from './catalogue/project.mapper.ts'
import { loadConfig, type Config } from './config.ts'
import { MediaStore } from './media/media-store.ts'
import cluster from 'node:cluster'
import { availableParallelism } from 'node:os'
import { exitOnStartupError, startCluster, startServer } from './server.ts'
import { BATCH_STATEMENT_TIMEOUT_MS, openStore, type Store } from './store/connect.ts'
import { migrateToLatest } from './store/migrate.ts'
import { VERSION } from './version.ts'

const HELP = `tonne ${VERSION}: carbon-offset catalogue and footprint calculator API

Usage:
  tonne serve [--workers N|auto]
                               start the HTTP server (migrates the database first);
                               --workers runs N processes on one port (default 1; auto = one per core)
  tonne migrate                bring the database schema up to date
  tonne import FILE [--replace]
                               upsert projects by id from a JSON array or NDJSON file; all or nothing.
                               --replace also removes every project not in the file
                               image paths are relative to FILE; their files go into the media store
  tonne import --from REGISTRY FILE... [--json]
                               import a registry's own CSV exports (project list, issuances or transactions;
                               told apart by their columns): ${REGISTRY_KEYS.join(', ')}.
                               Projects are matched by (registry, external id): ids stay, fields the files
                               do not give stay. All or nothing; prints new, updated, unchanged and every
                               skipped row with its line and reason (--json: the report as JSON)
  tonne export [FILE]          write every project as a JSON array (to stdout without FILE);
                               stored images are written beside FILE, under media/
  tonne keys create --name NAME [--scopes ${SCOPES.join(',')}] [--rate-limit N/min] [--json]
                               create an API key; it is shown once, only its hash is kept.
                               Scopes (comma-separated, default catalogue:read): catalogue:read for
                               /api/v1/commerce/products/ (without it: 403); calculator:read for a
                               per-key rate limit on the calculator (open without a key)
  tonne keys list [--json]     list keys (never the keys themselves)
  tonne keys revoke ID         revoke a key at once
  tonne --help | --version

Settings come from environment variables (README, "Configuration").`

/** Opens the configured database, brings it to the latest schema, runs `work`, and always closes it. */
async function withStore<T> (work: (store: Store, migrated: string[]) => Promise<T>): Promise<T> {
  const store = await openStore(loadConfig(), { statementTimeoutMs: BATCH_STATEMENT_TIMEOUT_MS })
  try {
    const { applied } = await migrateToLatest(store.db)
    // A migration may leave stored JSON to rebuild (0005 adds fields); done here as the server does at start.
    await refreshAllProjectJson(store.db, { missingOnly: true })
    return await work(store, applied)
  } finally {
    await store.close()
  }
}

async function main (argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      replace: { type: 'boolean', default: false },
      from: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string', default: 'catalogue:read' },
      'rate-limit': { type: 'string' },
      json: { type: 'boolean', default: false },
      workers: { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'v', default: false }
    }
  })
  const [command, ...rest] = positionals
  if (values.version) return console.log(VERSION)
  if (values.help || command === undefined || command === 'help') return console.log(HELP)

  switch (command) {
    case 'serve': {
      const workers = values.workers === 'auto' ? availableParallelism() : Number(values.workers)
      if (!Number.isInteger(workers) || workers < 1 ||
        workers > 64) throw new UsageError('--workers must be a whole number from 1 to 64, or auto')
      // A forked worker runs this same command; it only serves (the primary prepared the database).
      if (cluster.isWorker) await startServer(loadConfig(), { prepare: false })
      else if (workers === 1) await startServer(loadConfig())
      else await startCluster(loadConfig(), workers)
      return
    }
    case 'migrate': {
      const applied = await withStore(async (_store, migrated) => migrated)
      console.log(applied.length === 0 ? 'The database schema is up to date.' : `Applied: ${applied.join(', ')}`)
      return
    }
    case 'import': {
      if (values.from !== undefined) return await importFromRegistry(values.from, rest, values)
      const file = rest[0]
      if (file === undefined) throw new UsageError('import needs a FILE')
      const text = await readFile(file, 'utf8')
      const config = loadConfig()
      const media = new MediaStore(config.media.dir)
      const lock = importLock(config)
      const result = await withStore(async (store) =>
        await importProjects(store.db, text,
          { replace: values.replace, baseDir: path.dirname(path.resolve(file)), media, lock }))
      const images = result.images > 0 ? ` and ${result.images} image files` : ''
      console.log(`Imported ${result.imported} projects${images}` +
        `${result.replaced ? ' (the catalogue was replaced)' : ''}: ${result.created} new, ` +
        `${result.updated} updated, ${result.unchanged} unchanged.`)
      return
    }
    case 'export': {
      const file = rest[0]
      const out = file === undefined ? process.stdout : createWriteStream(file)
      const media = new MediaStore(loadConfig().media.dir)
      let skippedImages = 0
      const count = await withStore(async (store) => {
        let n = 0
        out.write('[')
        for await (const { record, mediaKeys } of exportProjects(store.db)) {
          for (const key of mediaKeys) {
            // Images go beside the export file, where the records' relative urls point.
            if (file === undefined) { skippedImages++; continue }
            const target = path.join(path.dirname(path.resolve(file)), ...exportedMediaPath(key).split('/'))
            mkdirSync(path.dirname(target), { recursive: true })
            copyFileSync(path.join(media.dir, ...key.split('/')), target)
          }
          out.write(`${n === 0 ? '' : ','}\n${JSON.stringify(record)}`)
          n++
        }
        out.write('\n]\n')
        return n
      })
      if (out !== process.stdout) {
        out.end()
        await finished(out)
      }
      console.error(`Exported ${count} projects.`)
      if (skippedImages > 0) {
        console.error(
        `Warning: ${skippedImages} image files were not written; give a FILE to export them beside it.`)
      }
      return
    }
    case 'keys':
      await keysCommand(rest, values)
      return
    default:
      throw new UsageError(`unknown command "${command}"`)
  }
}

class UsageError extends Error {}

/** Imports run one at a time; the second says it is waiting, on stderr. */
function importLock (config: Config): { waitMs: number, onWait: () => void } {
  return {
    waitMs: config.importLockWaitMs,
    onWait: () => console.error('Another import is running; waiting for it to finish ' +
      `(at most ${config.importLockWaitMs / 1000} s, IMPORT_LOCK_WAIT)…`)
  }
}

async function importFromRegistry (
  registry: string, files: string[], options: { replace: boolean, json: boolean }
): Promise<void> {
  if (!(REGISTRY_KEYS as string[]).includes(registry)) {
    throw new UsageError(`--from: unknown registry "${registry}"; known: ${REGISTRY_KEYS.join(', ')}`)
  }
  if (files.length === 0) throw new UsageError('import --from needs at least one export FILE')
  if (options.replace) throw new UsageError('--replace works with a JSON or NDJSON file, not with --from')
  const config = loadConfig()
  const media = new MediaStore(config.media.dir)
  const exports = files.map((file) => ({ path: file, label: path.basename(file) }))
  const report = await withStore(async (store) =>
    await importRegistryExports(store.db, registry as RegistryKey, exports, { media, lock: importLock(config) }))
  if (options.json) return console.log(JSON.stringify(report, null, 2))
  console.log(reportText(report))
}

function reportText (report: RegistryImportReport): string {
  const total = report.created + report.updated + report.unchanged
  const files = report.files.map((f) => `${f.file}: ${f.export}, ${f.rows} rows`).join('; ')
  const lines = [
    `Imported ${total} projects from ${report.registry} exports (${files}): ` +
      `${report.created} new, ${report.updated} updated, ${report.unchanged} unchanged.`
  ]
  if (report.skipped.length > 0) {
    lines.push(`Skipped ${report.skipped.length} rows:`,
      ...report.skipped.map((s) => `  ${s.file} line ${s.line}: ${s.reason}`))
  }
  if (report.warnings.length > 0) {
    lines.push(`${report.warnings.length} values could not be read and were left empty:`,
      ...report.warnings.map((w) => `  ${w.file} line ${w.line}, ${w.field}: ${w.reason}`))
  }
  return lines.join('\n')
}

async function keysCommand (args: string[],
  options: { name?: string, scopes: string, 'rate-limit'?: string, json: boolean }): Promise<void> {
  const [action, id] = args
  switch (action) {
    case 'create': {
      if (options.name === undefined ||
        options.name.trim() === '') throw new UsageError('keys create needs --name NAME')
      const scopes = parseScopes(options.scopes)
      if (typeof scopes === 'string') throw new UsageError(`--scopes: ${scopes}`)
      const limit = options['rate-limit'] === undefined ? undefined : parseRateLimit(options['rate-limit'])
      if (limit === undefined &&
        options['rate-limit'] !== undefined) throw new UsageError('--rate-limit must look like 600/min')
      const created = await withStore(async (store) =>
        await createKey(store.db,
          { name: options.name!.trim(), scopes, ...(limit !== undefined && { rateLimitPerMinute: limit }) }))
      if (options.json) {
        return console.log(JSON.stringify({
          id: created.id,
          key: created.key,
          name: created.name,
          scopes: created.scopes,
          rate_limit_per_minute: created.rate_limit_per_minute
        }))
      }
      const perMinute = created.rate_limit_per_minute === null ? '' : `, ${created.rate_limit_per_minute} requests/min`
      console.log(`Created API key ${created.id} ("${created.name}", scopes ${created.scopes.join(', ')}` +
        `${perMinute}).\n\n  ${created.key}\n\n` +
        'It is shown this once: only its hash is stored. Send it as "Authorization: Bearer KEY".')
      return
    }
    case 'list': {
      const keys = await withStore(async (store) => await listKeys(store.db))
      if (options.json) return console.log(JSON.stringify(keys))
      if (keys.length === 0) return console.log('No API keys. Create one with: tonne keys create --name NAME')
      for (const k of keys) {
        console.log([k.id, k.revoked_at === null ? 'active ' : 'revoked', k.scopes.join(','),
          k.rate_limit_per_minute === null ? 'default limit' : `${k.rate_limit_per_minute}/min`, k.created_at,
          k.name].join('  '))
      }
      return
    }
    case 'revoke': {
      if (id === undefined) throw new UsageError('keys revoke needs an ID (see tonne keys list)')
      const revoked = await withStore(async (store) => await revokeKey(store.db, id))
      if (!revoked) {
        console.error(`tonne keys: no active key with id ${id}.`)
        process.exit(1)
      }
      console.log(`Revoked API key ${id}.`)
      return
    }
    default:
      throw new UsageError('keys needs create, list or revoke')
  }
}

try {
  await main(process.argv.slice(2))
} catch (error) {
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    console.error(`tonne: ${(error as Error).message}\n\n${HELP}`)
    process.exit(2)
  }
  if (error instanceof ImportError || error instanceof ExportFileError) {
    console.error(`tonne import: nothing was changed. ${error.message}`)
    process.exit(1)
  }
  exitOnStartupError(error)
}
