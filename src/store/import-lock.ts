import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { databaseKind, type Db } from './database.ts'
import { SQLITE_BUSY_TIMEOUT_MS } from './sqlite-dialect.ts'

/** Another import held the lock for longer than the caller was willing to wait. */
export class ImportLockTimeout extends Error {
  constructor (waitMs: number) {
    super(`another import is running; gave up waiting for it after ${Math.round(waitMs / 1000)} s (IMPORT_LOCK_WAIT).`)
    this.name = 'ImportLockTimeout'
  }
}

export interface ImportLockOptions {
  /** How long to wait for another import before giving up. */
  waitMs: number
  /** Called once, when the lock is taken by someone else and waiting begins. */
  onWait?: () => void
}

// PostgreSQL advisory lock key: two int4 values, 'tonn' and 1 (imports). Any number would do, as long
// as it is this one everywhere.
const LOCK_CLASS = 0x746f6e6e
const LOCK_IMPORTS = 1
const POLL_MS = 250

function isSqliteBusy (error: unknown): boolean {
  return error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message)
}

/**
 * Runs `work` in one transaction that holds the import lock, so that imports run one after the
 * other: on PostgreSQL a transaction-level advisory lock, on SQLite the database's write lock
 * (BEGIN IMMEDIATE). Both are released by the database itself if the process dies. Waits at most
 * `waitMs` for another holder, then throws ImportLockTimeout; nothing has been written then.
 */
export async function withImportLock<T> (
  db: Db, options: ImportLockOptions, work: (trx: Db) => Promise<T>
): Promise<T> {
  const deadline = Date.now() + options.waitMs
  let waiting = false
  const wait = async (pause: boolean): Promise<void> => {
    if (Date.now() >= deadline) throw new ImportLockTimeout(options.waitMs)
    if (!waiting) options.onWait?.()
    waiting = true
    if (pause) await sleep(POLL_MS)
  }

  if (databaseKind(db) === 'postgres') {
    return await db.transaction().execute(async (trx) => {
      for (;;) {
        const { rows } = await sql<{ locked: boolean }>`
          select pg_try_advisory_xact_lock(${LOCK_CLASS}, ${LOCK_IMPORTS}) as locked`.execute(trx)
        if (rows[0]?.locked === true) break
        await wait(true)
      }
      return await work(trx)
    })
  }

  // SQLite has one connection per process; holding it keeps this process's other queries out too.
  return await db.connection().execute(async (connection) => {
    // Short busy waits, so that the deadline and the waiting message are honoured.
    await sql`pragma busy_timeout = ${sql.lit(POLL_MS)}`.execute(connection)
    try {
      for (;;) {
        try {
          await sql`begin immediate`.execute(connection)
          break
        } catch (error) {
          if (!isSqliteBusy(error)) throw error
          await wait(false)
        }
      }
    } finally {
      await sql`pragma busy_timeout = ${sql.lit(SQLITE_BUSY_TIMEOUT_MS)}`.execute(connection)
    }
    try {
      const result = await work(connection)
      await sql`commit`.execute(connection)
      return result
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => undefined)
      throw error
    }
  })
}
