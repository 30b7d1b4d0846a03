import type { Config } from '../../config.ts'
import type { Db } from '../../store/database.ts'
import { REAL_TIMERS, type Timers } from './download.ts'
import { workerImporters, type ImporterTable } from './importers.ts'
import { syncSources, type SyncOptions, type SyncRound } from './sync.ts'

// `serve` keeps SYNC_SOURCES current: a round when the app is ready, then one SYNC_INTERVAL after each round ends
// (rounds never overlap). Every serving process runs the schedule; the sync lease lets one of them sync a round
// and the others skip it, so workers and instances on one database need no other coordination.

type SyncLog = (level: 'info' | 'warn' | 'error', message: string) => void

/** A started schedule stops with the app; a round under way when it stops is abandoned (its import rolls back). */
export interface SyncSchedule {
  start: (log: SyncLog) => void
  stop: () => void
}

interface ScheduleOptions {
  config: Config
  db: Db
  /** The imports, each on a worker thread by default (importers.ts), which opens the media folder itself. */
  importers?: ImporterTable
  timers?: Timers
  /** Passed to each round (download timeouts, retries, clock): tests set them. */
  round?: Partial<SyncOptions>
  /** Told after each round (tests wait on it). */
  onRound?: (round: SyncRound) => void
}

export function createSyncSchedule (options: ScheduleOptions): SyncSchedule {
  const { config, db } = options
  const timers = options.timers ?? REAL_TIMERS
  // Off the serving thread (importers.ts): other clients' answers do not wait for the import.
  const importers = options.importers ?? workerImporters(config)
  let timer: unknown
  let stopped = false
  const round = async (log: SyncLog) => {
    try {
      const result = await syncSources({
        db,
        dataDir: config.dataDir,
        importers,
        maxBytes: config.sync.maxBytes,
        importLockWaitMs: config.importLockWaitMs,
        timers,
        log,
        ...options.round
      }, config.sync.sources)
      if (result.ran) {
        const failed = result.sources.filter((s) => s.status === 'failed').length
        log(failed > 0 ? 'warn' : 'info', `sync round finished: ${result.sources.map((s) =>
          `${s.name} ${s.status}`).join(', ')}`)
      }
      options.onRound?.(result)
    } catch (error) {
      // The database itself failed (the sources could not even be recorded): the next round tries again.
      log('error', `sync round failed: ${(error as Error).message}`)
    }
  }
  const next = (log: SyncLog, delayMs: number) => {
    if (stopped) return
    timer = timers.setTimeout(() => {
      round(log).finally(() => next(log, config.sync.intervalMs)).catch(() => undefined)
    }, delayMs)
  }
  return {
    start: (log) => next(log, 0),
    stop: () => {
      stopped = true
      timers.clearTimeout(timer)
    }
  }
}
