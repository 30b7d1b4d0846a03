import { once } from 'node:events'
import { copyFileSync, createWriteStream, mkdirSync, openSync, statSync, WriteStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { finished } from 'node:stream/promises'
import { parseArgs } from 'node:util'
import cluster from 'node:cluster'
import { availableParallelism } from 'node:os'
import { parseRateLimit, parseScopes, SCOPES } from './access/api-keys.ts'
import { ExportFileError, ImportError } from './catalogue/catalogue.errors.ts'
import type { RegistryImportReport } from './ingest/registries/registry-import.ts'
import type { OffsetsDbImportReport } from './ingest/offsetsdb/offsetsdb.import.ts'
import { REGISTRY_KEYS, type RegistryKey } from './ingest/registries/registry-keys.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import type { Store } from './store/connect.ts'
import type { Db } from './store/database.ts'
import { VERSION } from './version.ts'

// Each command loads what it needs when it runs (import()): `tonne --version` or `keys list` does not load the
// server, and `serve` does not load the importers. Module loading is most of the start (docs/performance.md).

// Each command's usage, printed by `tonne COMMAND --help` and after that command's usage errors.
const USAGE: Record<string, string> = {
  serve: `  tonne serve [--workers N|auto]
                               start the HTTP server (migrates the database first);
                               --workers runs N processes on one port (default 1; auto = one per core)`,
  migrate: '  tonne migrate                bring the database schema up to date',
  import: `  tonne import FILE [--replace]
                               upsert projects by id from a JSON array or NDJSON file; all or nothing.
                               --replace also removes every project not in the file
                               image paths are relative to FILE; their files go into the media store
  tonne import --from REGISTRY FILE... [--json]
                               import a registry's own CSV exports (projects, issuances, retirements,
                               cancellations, transactions; told apart by their columns):
                               ${REGISTRY_KEYS.join(', ')} (arb: CARB's issuance table, added to the ACR, CAR
                               and Verra projects it names). Projects are matched by (registry, external id):
                               ids stay, fields the files do not give stay; transactions are added to the
                               ledger by identity. A file imported before (same bytes) is not read again.
                               All or nothing; prints new, updated, unchanged and every skipped row with its
                               line and reason (--json: the report as JSON)
  tonne import --from offsetsdb FILE... [--json]
                               import OffsetsDB's archive (offsets-db.csv.zip or .parquet.zip, or its projects
                               and credits tables as CSV or Parquet files, told apart by their columns) as a
                               snapshot: the ledger of every project it names becomes exactly the archive's,
                               in one transaction. The same bytes again change nothing`,
  sync: `  tonne sync [KIND=URL...]    download each source (default: SYNC_SOURCES) if it changed since the last sync,
                               and import it: offsetsdb=URL (OffsetsDB's archive; a bare URL means it) or
                               KIND=URL, a registry's export, KIND one of:
                               ${REGISTRY_KEYS.join(', ')}.
                               Prints what each source did; exits 1 if one failed (the catalogue keeps what
                               it had from it). Another process syncing: says so and does nothing`,
  export: `  tonne export [FILE]          write every project as a JSON array (to stdout without FILE);
                               stored images are written beside FILE, under media/`,
  'keys create': `  tonne keys create --name NAME [--scopes ${SCOPES.join(',')}] [--rate-limit N/min] [--json]
                               create an API key; it is shown once, only its hash is kept.
                               Scopes (comma-separated, default catalogue:read): catalogue:read for
                               /api/v1/commerce/products/ (without it: 403); calculator:read for a
                               per-key rate limit on the calculator (open without a key)`,
  'keys list': '  tonne keys list [--json]     list keys (never the keys themselves)',
  'keys revoke': '  tonne keys revoke ID         revoke a key at once'
}

const HELP = `tonne ${VERSION}: carbon-offset catalogue and footprint calculator API

Usage:
${Object.values(USAGE).join('\n')}
  tonne --help | --version
  tonne COMMAND --help         the usage of one command

Settings come from environment variables (README, "Configuration").`

/** The usage of a command (`keys` alone: every keys command); the whole help for anything else. */
function usageOf (command: string | undefined): string {
  const lines = Object.entries(USAGE).filter(([name]) => command !== undefined &&
    (name === command || name.startsWith(`${command} `))).map(([, text]) => text)
  return lines.length === 0 ? HELP : `Usage:\n${lines.join('\n')}`
}

/** Where a command writes, and the settings it reads: the process's own, or a test's (main's second argument). */
interface CliIo {
  stdout: { write: (text: string) => unknown }
  stderr: { write: (text: string) => unknown }
  env: NodeJS.ProcessEnv
}

const PROCESS_IO: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }

/** Opens the configured database, brings it to the latest schema, runs `work`, and always closes it. */
async function withStore<T> (config: Config,
  work: (store: Store, migrated: string[]) => Promise<T>): Promise<T> {
  const [{ BATCH_STATEMENT_TIMEOUT_MS, openStore }, { migrateToLatest }, { refreshAllProjectJson }] =
    await Promise.all([import('./store/connect.ts'), import('./store/migrate.ts'),
      import('./catalogue/project-json.ts')])
  const store = await openStore(config, { statementTimeoutMs: BATCH_STATEMENT_TIMEOUT_MS })
  try {
    const { applied } = await migrateToLatest(store.db)
    // A migration may leave stored JSON to rebuild (0005 adds fields); done here as the server does at start.
    await refreshAllProjectJson(store.db, { missingOnly: true })
    return await work(store, applied)
  } finally {
    await store.close()
  }
}

/**
 * Runs one `tonne` command and returns its exit code (0 success, 1 failure, 2 usage or configuration error).
 * bin/tonne.js calls it with the process's streams and environment; tests call it with their own. `serve`
 * returns once the server listens, which keeps the process running.
 */
export async function main (argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  const say = (text: string) => io.stdout.write(`${text}\n`)
  const complain = (text: string) => io.stderr.write(`${text}\n`)
  let command: string | undefined
  try {
    command = argv.find((arg) => !arg.startsWith('-'))
    await run(argv, io, say, complain)
    return 0
  } catch (error) {
    if (error instanceof UsageError || PARSE_ERRORS.has((error as { code?: string }).code ?? '')) {
      const usageCommand = error instanceof UsageError ? error.command ?? command : command
      complain(`tonne: ${(error as Error).message}\n\n${usageOf(usageCommand)}`)
      return 2
    }
    if (error instanceof ImportError || error instanceof ExportFileError) {
      complain(`tonne import: nothing was changed. ${error.message}`)
      return 1
    }
    if (error instanceof CommandFailed) {
      complain(error.message)
      return 1
    }
    if (error instanceof ConfigError) {
      complain(error.message)
      return 2
    }
    complain(`Tonne could not start: ${(error as Error).message}`)
    return 1
  }
}

// node:util parseArgs's errors for an unknown option, a missing value and the like: usage errors.
const PARSE_ERRORS = new Set(['ERR_PARSE_ARGS_UNKNOWN_OPTION', 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
  'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'])

async function run (argv: string[], io: CliIo, say: (text: string) => void,
  complain: (text: string) => void): Promise<void> {
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
  if (values.version) return say(VERSION)
  if (command === 'help') return say(usageOf(rest.join(' ') || undefined))
  if (values.help || command === undefined) {
    return say(usageOf(command === 'keys' && rest[0] !== undefined ? `keys ${rest[0]}` : command))
  }
  const config = () => loadConfig(io.env)

  switch (command) {
    case 'serve': {
      const workers = values.workers === 'auto' ? availableParallelism() : Number(values.workers)
      if (!Number.isInteger(workers) || workers < 1 ||
        workers > 64) throw new UsageError('--workers must be a whole number from 1 to 64, or auto')
      const [{ startCluster, startServer }, { detectMemoryLimit }] =
        await Promise.all([import('./server.ts'), import('./sizing.ts')])
      // Only the server sizes itself for the container's memory limit (MEMORY_LIMIT_MB overrides it).
      const sized = () => loadConfig(io.env, undefined, detectMemoryLimit())
      // A forked worker runs this same command; it only serves (the primary prepared the database).
      if (cluster.isWorker) await startServer(sized(), { prepare: false })
      else if (workers === 1) await startServer(sized())
      else await startCluster(sized(), workers)
      return
    }
    case 'migrate': {
      const applied = await withStore(config(), async (_store, migrated) => migrated)
      say(applied.length === 0 ? 'The database schema is up to date.' : `Applied: ${applied.join(', ')}`)
      return
    }
    case 'import': {
      if (values.from !== undefined) return await importFromRegistry(values.from, rest, values, config(), say, complain)
      const file = rest[0]
      if (file === undefined) throw new UsageError('import needs a FILE')
      const settings = config()
      const text = await readFile(file, 'utf8').catch((error: unknown) => {
        throw new CommandFailed(`tonne import: nothing was changed. Could not read ${file}: ${fileProblem(error)}.`)
      })
      // JSON starts with [ and NDJSON with {: anything else (a registry's CSV) is meant for --from.
      if (!/^\s*([[{]|$)/.test(text.replace(/^\uFEFF/, ''))) {
        throw new UsageError(`${file} is not JSON or NDJSON (Tonne's import format). A registry's own export ` +
          `(CSV) is read with --from REGISTRY: tonne import --from REGISTRY ${file}; registries: ` +
          `${REGISTRY_KEYS.join(', ')}.`)
      }
      const [{ importProjects }, { MediaStore }] = await Promise.all([
        import('./ingest/projects.import.ts'), import('./media/media-store.ts')])
      const media = new MediaStore(settings.media.dir)
      const lock = importLock(settings, complain)
      const result = await withStore(settings, async (store) =>
        await importProjects(store.db, text,
          { replace: values.replace, baseDir: path.dirname(path.resolve(file)), media, lock }))
      const images = result.images > 0 ? ` and ${result.images} image files` : ''
      say(`Imported ${result.imported} projects${images}` +
        `${result.replaced ? ' (the catalogue was replaced)' : ''}: ${result.created} new, ` +
        `${result.updated} updated, ${result.unchanged} unchanged.`)
      return
    }
    case 'sync':
      return await syncCommand(rest, config(), say, complain)
    case 'export': {
      const file = rest[0]
      const settings = config()
      // Opened before the database, so an unwritable FILE is said at once and in those words.
      let fd: number | undefined
      if (file !== undefined) {
        try {
          fd = openSync(file, 'w')
        } catch (error) {
          throw new CommandFailed(`tonne export: could not write ${file}: ${fileProblem(error)}.`)
        }
      }
      const out = fd === undefined ? io.stdout : createWriteStream('', { fd })
      const [{ exportProjects }, { exportedMediaPath }, { MediaStore }] = await Promise.all([
        import('./ingest/projects.import.ts'), import('./catalogue/project.mapper.ts'),
        import('./media/media-store.ts')])
      const media = new MediaStore(settings.media.dir)
      let skippedImages = 0
      const count = await withStore(settings, async (store) => {
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
          // A ledger makes records large: wait for the file to take each before reading on.
          if (!out.write(`${n === 0 ? '' : ','}\n${JSON.stringify(record)}`) && out instanceof WriteStream) {
            await once(out, 'drain')
          }
          n++
        }
        out.write('\n]\n')
        return n
      }).finally(async () => {
        if (out instanceof WriteStream) {
          out.end()
          await finished(out)
        }
      })
      complain(`Exported ${count} projects.`)
      if (skippedImages > 0) {
        complain(`Warning: ${skippedImages} image files were not written; give a FILE to export them beside it.`)
      }
      return
    }
    case 'keys':
      await keysCommand(rest, values, config, say)
      return
    default:
      throw new UsageError(`unknown command "${command}"`, '')
  }
}

/** A usage error: the message, then the usage of `command` (default: the command given; '' the whole help). */
class UsageError extends Error {
  readonly command: string | undefined
  constructor (message: string, command?: string) {
    super(message)
    this.command = command
  }
}

/** A command that failed for a reason it states in full (exit code 1). */
class CommandFailed extends Error {}

/** "no such file or directory" and the like, from a file system error. */
function fileProblem (error: unknown): string {
  const code = (error as { code?: string }).code
  const known: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'it is a directory',
    ENOTDIR: 'a part of the path is not a directory'
  }
  return (code !== undefined ? known[code] : undefined) ?? (error as Error).message
}

/** Imports run one at a time; the second says it is waiting, on stderr. */
function importLock (config: Config, complain: (text: string) => void): { waitMs: number, onWait: () => void } {
  return {
    waitMs: config.importLockWaitMs,
    onWait: () => complain('Another import is running; waiting for it to finish ' +
      `(at most ${config.importLockWaitMs / 1000} s, IMPORT_LOCK_WAIT)…`)
  }
}

async function importFromRegistry (
  registry: string, files: string[], options: { replace: boolean, json: boolean }, config: Config,
  say: (text: string) => void, complain: (text: string) => void
): Promise<void> {
  if (!(REGISTRY_KEYS as readonly string[]).includes(registry) && registry !== 'offsetsdb') {
    throw new UsageError(`--from: unknown registry "${registry}"; known: ${REGISTRY_KEYS.join(', ')}, offsetsdb`)
  }
  if (files.length === 0) throw new UsageError('import --from needs at least one export FILE')
  if (options.replace) throw new UsageError('--replace works with a JSON or NDJSON file, not with --from')
  for (const file of files) {
    let problem: string | undefined
    try {
      if (!statSync(file).isFile()) problem = 'it is not a file'
    } catch (error) {
      problem = fileProblem(error)
    }
    if (problem !== undefined) throw new CommandFailed(`tonne import: nothing was changed. ${file}: ${problem}`)
  }
  const exports = files.map((file) => ({ path: file, label: path.basename(file) }))
  const [{ MediaStore }, { recordManualImport }] = await Promise.all([
    import('./media/media-store.ts'), import('./ingest/sources.ts')])
  const media = new MediaStore(config.media.dir)
  // The source's row (GET /sources/) says what the catalogue now holds from it; the import has committed already.
  const record = async (db: Db, kind: 'offsetsdb' | RegistryKey, changed: boolean) =>
    await recordManualImport(db, kind, changed, new Date())
      .catch((error: unknown) => complain(`Warning: imported, but the source's row was not updated: ${
        (error as Error).message}`))
  if (registry === 'offsetsdb') {
    const { importOffsetsDbArchive } = await import('./ingest/offsetsdb/offsetsdb.import.ts')
    const report = await withStore(config, async (store) => {
      const done = await importOffsetsDbArchive(store.db, exports, { media, lock: importLock(config, complain) })
      await record(store.db, 'offsetsdb', done.created + done.updated > 0)
      return done
    })
    return say(options.json ? JSON.stringify(report, null, 2) : archiveReportText(report))
  }
  const { importRegistryExports } = await import('./ingest/registries/registry-import.ts')
  const report = await withStore(config, async (store) => {
    const done = await importRegistryExports(store.db, registry as RegistryKey, exports,
      { media, lock: importLock(config, complain) })
    await record(store.db, registry as RegistryKey, done.created + done.updated > 0)
    return done
  })
  if (options.json) return say(JSON.stringify(report, null, 2))
  say(reportText(report))
}

async function syncCommand (args: string[], config: Config, say: (text: string) => void,
  complain: (text: string) => void): Promise<void> {
  const [{ parseSyncSources }, { syncSources }, { IMPORTERS }, { MediaStore }] = await Promise.all([
    import('./ingest/sync/source-kinds.ts'), import('./ingest/sync/sync.ts'), import('./ingest/sync/importers.ts'),
    import('./media/media-store.ts')])
  const given = parseSyncSources(args)
  if (given.problems.length > 0) throw new UsageError(given.problems.join('; '))
  const sources = args.length > 0 ? given.sources : config.sync.sources
  if (sources.length === 0) throw new UsageError('sync needs KIND=URL arguments, or SYNC_SOURCES set')
  const round = await withStore(config, async (store) => await syncSources({
    db: store.db,
    dataDir: config.dataDir,
    media: new MediaStore(config.media.dir),
    importers: IMPORTERS,
    maxBytes: config.sync.maxBytes,
    importLockWaitMs: config.importLockWaitMs,
    log: (level, message) => { if (level !== 'info') complain(message) }
  }, sources))
  if (!round.ran) return complain('Another process is syncing; this round was skipped.')
  for (const source of round.sources) {
    const held = source.projects === null
      ? ''
      : `; the catalogue holds ${source.projects} projects and ${source.transactions} transactions from it`
    const imported = source.imported === null
      ? ''
      : ` (${source.imported.created} new, ${source.imported.updated} updated, ${source.imported.unchanged} unchanged)`
    const said = {
      changed: `imported${imported}`,
      unchanged: source.imported === null
        ? 'unchanged: the same bytes as the last import'
        : `imported; no project changed${imported}`,
      not_modified: 'not modified since the last sync',
      failed: `FAILED, nothing was changed: ${source.error ?? ''}`
    }[source.status]
    say(`${source.name} (${source.url}): ${said}${held}.`)
  }
  const failed = round.sources.filter((s) => s.status === 'failed').length
  if (failed > 0) throw new CommandFailed(`tonne sync: ${failed} of ${round.sources.length} sources failed.`)
}

/** Appends a list line by line: a spread of 128,000 skipped rows into one call overflows the stack. */
function append (lines: string[], heading: string, items: readonly string[]): void {
  lines.push(heading)
  for (const item of items) lines.push(item)
}

function archiveReportText (report: OffsetsDbImportReport): string {
  if (report.already_imported) {
    return `Not read again: the same bytes were imported before (sha256 ${report.sha256}); nothing changed.`
  }
  const tables = report.files.map((f) => `${f.file}: ${f.table}, ${f.rows} rows`).join('; ')
  const lines = [`Imported OffsetsDB's archive (${tables}), data as of ${report.data_as_of ?? 'unknown'}: ` +
    `${report.projects} projects (${report.created} new, ${report.updated} updated, ${report.unchanged} ` +
    `unchanged), ${report.transactions} transactions.`]
  if (report.missing_projects.length > 0) {
    append(lines, `${report.missing_projects.length} projects have credits but no row in the projects table; ` +
      'they were kept under a minimal project:',
    report.missing_projects.slice(0, 100).map((m) => `  ${m.project_id}: ${m.credits} credits`))
  }
  if (report.ignored.length > 0) {
    append(lines, 'Not read:', report.ignored.map((i) => `  ${i.label}: ${i.reason}`))
  }
  if (report.skipped_count > 0) {
    append(lines, `Skipped ${report.skipped_count} rows:`,
      report.skipped.map((s) => `  ${s.file} line ${s.line}: ${s.reason}`))
  }
  return lines.join('\n')
}

function reportText (report: RegistryImportReport): string {
  const total = report.created + report.updated + report.unchanged
  const files = report.files.map((f) => `${f.file}: ${f.export}, ${f.rows} rows`).join('; ')
  const lines = [
    `Imported ${total} projects from ${report.registry} exports (${files}): ` +
      `${report.created} new, ${report.updated} updated, ${report.unchanged} unchanged.`
  ]
  if (report.already_imported.length > 0) {
    append(lines, 'Not read again (the same bytes were imported before):',
      report.already_imported.map((f) => `  ${f.file}: as ${f.as}`))
  }
  if (report.skipped.length > 0) {
    append(lines, `Skipped ${report.skipped.length} rows:`,
      report.skipped.map((s) => `  ${s.file} line ${s.line}: ${s.reason}`))
  }
  if (report.warnings.length > 0) {
    append(lines, `${report.warnings.length} values could not be read and were left empty:`,
      report.warnings.map((w) => `  ${w.file} line ${w.line}, ${w.field}: ${w.reason}`))
  }
  return lines.join('\n')
}

async function keysCommand (args: string[],
  options: { name?: string, scopes: string, 'rate-limit'?: string, json: boolean }, config: () => Config,
  say: (text: string) => void): Promise<void> {
  const [action, id] = args
  const { createKey, listKeys, revokeKey } = await import('./access/api-keys.service.ts')
  switch (action) {
    case 'create': {
      if (options.name === undefined ||
        options.name.trim() === '') throw new UsageError('keys create needs --name NAME', 'keys create')
      const scopes = parseScopes(options.scopes)
      if (typeof scopes === 'string') throw new UsageError(`--scopes: ${scopes}`, 'keys create')
      const limit = options['rate-limit'] === undefined ? undefined : parseRateLimit(options['rate-limit'])
      if (limit === undefined &&
        options['rate-limit'] !== undefined) throw new UsageError('--rate-limit must look like 600/min', 'keys create')
      const created = await withStore(config(), async (store) =>
        await createKey(store.db,
          { name: options.name!.trim(), scopes, ...(limit !== undefined && { rateLimitPerMinute: limit }) }))
      if (options.json) {
        return say(JSON.stringify({
          id: created.id,
          key: created.key,
          name: created.name,
          scopes: created.scopes,
          rate_limit_per_minute: created.rate_limit_per_minute
        }))
      }
      const perMinute = created.rate_limit_per_minute === null ? '' : `, ${created.rate_limit_per_minute} requests/min`
      say(`Created API key ${created.id} ("${created.name}", scopes ${created.scopes.join(', ')}` +
        `${perMinute}).\n\n  ${created.key}\n\n` +
        'It is shown this once: only its hash is stored. Send it as "Authorization: Bearer KEY".')
      return
    }
    case 'list': {
      const keys = await withStore(config(), async (store) => await listKeys(store.db))
      if (options.json) return say(JSON.stringify(keys))
      if (keys.length === 0) return say('No API keys. Create one with: tonne keys create --name NAME')
      for (const k of keys) {
        say([k.id, k.revoked_at === null ? 'active ' : 'revoked', k.scopes.join(','),
          k.rate_limit_per_minute === null ? 'default limit' : `${k.rate_limit_per_minute}/min`, k.created_at,
          k.name].join('  '))
      }
      return
    }
    case 'revoke': {
      if (id === undefined) throw new UsageError('keys revoke needs an ID (see tonne keys list)', 'keys revoke')
      const revoked = await withStore(config(), async (store) => await revokeKey(store.db, id))
      if (!revoked) {
        throw new CommandFailed(`tonne keys: no active key with id ${id}.`)
      }
      say(`Revoked API key ${id}.`)
      return
    }
    default:
      throw new UsageError('keys needs create, list or revoke', 'keys')
  }
}
