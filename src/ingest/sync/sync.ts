import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { hostname } from 'node:os'
import path from 'node:path'
import { setTimeout as sleepFor } from 'node:timers/promises'
import type { MediaStore } from '../../media/media-store.ts'
import type { Db } from '../../store/database.ts'
import { releaseLease, renewLease, takeLease } from '../../store/leases.repository.ts'
import { countSourceRows, findSource, saveSource } from '../sources.repository.ts'
import { download, REAL_TIMERS, type Timers } from './download.ts'
import type { ImporterTable, SourceImportResult } from './importers.ts'
import { attributionOf, type SyncSource } from './source-kinds.ts'

// One round of sync (`tonne sync`, and `serve` on its schedule): for each source, a conditional download, and an
// import only of bytes not imported before. One process of all those on the database syncs at a time (the `sync`
// lease); another that finds it held skips the round. A source that fails changes nothing in the catalogue (the
// import is all or nothing) and is recorded as failed; the others go on. README, "Keeping the catalogue current".

/** The lease's name, and how long it lasts unless renewed (renewed every LEASE_RENEW_MS while the round runs). */
const LEASE = 'sync'
const LEASE_TTL_MS = 15 * 60_000
const LEASE_RENEW_MS = 60_000
/** Temporary folders of a download, in the data folder (the archive can be larger than a small /tmp). */
const TEMP_PREFIX = '.sync-'

export interface SyncOptions {
  db: Db
  /** The folder the download's temporary folder goes in (DATA_DIR). */
  dataDir: string
  media?: MediaStore
  importers: ImporterTable
  maxBytes: number
  /** How long the import waits for another import's lock (IMPORT_LOCK_WAIT). */
  importLockWaitMs: number
  connectTimeoutMs?: number
  readTimeoutMs?: number
  attempts?: number
  backoffMs?: number
  now?: () => Date
  sleep?: (ms: number) => Promise<void>
  timers?: Timers
  /** Names this process in the lease (default host, pid and a random part). */
  holder?: string
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

type SyncStatus = 'changed' | 'unchanged' | 'not_modified' | 'failed'

interface SourceOutcome {
  name: string
  kind: SyncSource['kind']
  url: string
  status: SyncStatus
  error: string | null
  /** The import's counts, when one ran. */
  imported: SourceImportResult | null
  /** What the catalogue holds from the source afterwards. */
  projects: number | null
  transactions: number | null
}

export type SyncRound = { ran: true, sources: SourceOutcome[] } | { ran: false }

export const DEFAULTS = { connectTimeoutMs: 30_000, readTimeoutMs: 60_000, attempts: 4, backoffMs: 5000 }

/** Runs one round over `sources`, or returns `{ ran: false }` at once when another process is syncing. */
export async function syncSources (options: SyncOptions, sources: readonly SyncSource[]): Promise<SyncRound> {
  const now = options.now ?? (() => new Date())
  const timers = options.timers ?? REAL_TIMERS
  const holder = options.holder ?? `${hostname().slice(0, 100)}:${process.pid}:${randomUUID().slice(0, 8)}`
  const log = options.log ?? (() => undefined)
  if (!await takeLease(options.db, LEASE, holder, now(), LEASE_TTL_MS)) {
    log('info', 'sync: another process is syncing; skipping this round')
    return { ran: false }
  }
  let renewal: unknown
  // Not renewed while an import writes: on SQLite the renewal would wait for the import's write lock. LEASE_TTL_MS
  // covers an import; past it, another process may start a round, and the import lock still orders the imports.
  const state = { importing: false }
  const renew = () => {
    renewal = timers.setTimeout(() => {
      if (state.importing) return renew()
      renewLease(options.db, LEASE, holder, now(), LEASE_TTL_MS).then((held) => {
        if (held) renew()
        else log('warn', 'sync: the sync lease lapsed during the round (another process may sync too)')
      }, () => renew())
    }, LEASE_RENEW_MS)
  }
  renew()
  try {
    await removeLeftovers(options.dataDir)
    const outcomes: SourceOutcome[] = []
    for (const source of sources) outcomes.push(await syncOne(options, source, now, timers, log, state))
    return { ran: true, sources: outcomes }
  } finally {
    timers.clearTimeout(renewal)
    await releaseLease(options.db, LEASE, holder).catch(() => undefined)
  }
}

/** Folders a killed sync left behind; only the lease's holder may remove them. */
async function removeLeftovers (dataDir: string): Promise<void> {
  const entries = await readdir(dataDir).catch(() => [])
  for (const name of entries) {
    if (name.startsWith(TEMP_PREFIX)) await rm(path.join(dataDir, name), { recursive: true, force: true })
  }
}

async function syncOne (options: SyncOptions, source: SyncSource, now: () => Date, timers: Timers,
  log: NonNullable<SyncOptions['log']>, state: { importing: boolean }): Promise<SourceOutcome> {
  const { db } = options
  const name = source.kind
  const checkedAt = now().toISOString()
  const stored = await findSource(db, name)
  // Validators and the digest stand for what was last imported from this URL; another URL starts afresh.
  const sameUrl = stored?.url === source.url
  const base = { name, kind: source.kind, url: source.url, attribution: attributionOf(source.kind) }
  const outcome = (status: SyncStatus, fields: Partial<SourceOutcome> = {}): SourceOutcome =>
    ({ ...base, status, error: null, imported: null, projects: null, transactions: null, ...fields })
  await mkdir(options.dataDir, { recursive: true })
  const folder = await mkdtemp(path.join(options.dataDir, TEMP_PREFIX))
  try {
    const fetched = await download({
      url: source.url,
      etag: sameUrl ? stored.etag : null,
      lastModified: sameUrl ? stored.last_modified : null,
      file: path.join(folder, 'download'),
      maxBytes: options.maxBytes,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
      readTimeoutMs: options.readTimeoutMs ?? DEFAULTS.readTimeoutMs,
      attempts: options.attempts ?? DEFAULTS.attempts,
      backoffMs: options.backoffMs ?? DEFAULTS.backoffMs,
      // Kept referenced: during `tonne sync`'s backoff nothing else may keep the process alive (SQLite).
      sleep: options.sleep ?? (async (ms) => { await sleepFor(ms) }),
      timers,
      onRetry: (attempt, waitMs, reason) => log('warn', `sync ${name}: try ${attempt} failed (${reason}); ` +
        `trying again in ${Math.round(waitMs / 1000)} s`)
    })
    if (fetched.status === 'not_modified') {
      await saveSource(db, name, { ...base, last_checked_at: checkedAt, last_status: 'not_modified', last_error: null })
      log('info', `sync ${name}: not modified since the last download`)
      return outcome('not_modified', await countSourceRows(db, name))
    }
    const validators = { etag: fetched.etag, last_modified: fetched.lastModified }
    if (stored?.sha256 === fetched.sha256) {
      await saveSource(db, name,
        { ...base, ...validators, last_checked_at: checkedAt, last_status: 'unchanged', last_error: null })
      log('info', `sync ${name}: the same bytes as the last import; nothing to import`)
      return outcome('unchanged', await countSourceRows(db, name))
    }
    const label = fileLabel(source.url, name)
    state.importing = true
    const imported = await options.importers[source.kind](db, [{ path: path.join(folder, 'download'), label }], {
      ...(options.media !== undefined && { media: options.media }),
      now: new Date(checkedAt),
      lock: {
        waitMs: options.importLockWaitMs,
        onWait: () => log('info', `sync ${name}: waiting for another import to finish`)
      }
    }).finally(() => { state.importing = false })
    const counts = await countSourceRows(db, name)
    const status = imported.changed ? 'changed' : 'unchanged'
    await saveSource(db, name, {
      ...base,
      ...validators,
      ...counts,
      sha256: fetched.sha256,
      last_checked_at: checkedAt,
      ...(imported.changed && { last_changed_at: checkedAt }),
      data_as_of: imported.data_as_of ?? httpDate(fetched.lastModified) ?? checkedAt,
      last_status: status,
      last_error: null
    })
    log('info', `sync ${name}: imported ${label} (${fetched.bytes} bytes): ${imported.created} new, ` +
      `${imported.updated} updated, ${imported.unchanged} unchanged`)
    return outcome(status, { imported, ...counts })
  } catch (error) {
    const message = (error as Error).message
    // Only the attempt is recorded: the validators and digest stay those of the last import, so it is tried again.
    await saveSource(db, name, { ...base, last_checked_at: checkedAt, last_status: 'failed', last_error: message })
    log('error', `sync ${name}: failed, the catalogue is unchanged: ${message}`)
    return outcome('failed', { error: message })
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/** How reports and projects' `source` name the download: the URL's file name (text only, never a path). */
function fileLabel (url: string, name: string): string {
  const last = (new URL(url).pathname.split('/').pop() ?? '').replace(/[^\w.-]+/g, '_')
  return last === '' || last === '.' || last === '..' ? `${name} download` : `${name}/${last}`
}

/** An HTTP date (Last-Modified) as ISO 8601; undefined when absent or unreadable. */
function httpDate (text: string | null): string | undefined {
  if (text === null) return undefined
  const time = Date.parse(text)
  return Number.isNaN(time) ? undefined : new Date(time).toISOString()
}
