import { EventEmitter } from 'node:events'
import { sql, SqliteAdapter } from 'kysely'
import type pg from 'pg'
import type { Db } from './database.ts'

/**
 * Tells the caches of a serving process (verified API keys, the catalogue version) that what they hold
 * may have changed: on this process at once, and on every other process within a second, without a
 * query per request. A cache remembers the `generation` it read at and trusts itself only while
 * `fresh(generation)` holds.
 */
export interface ChangeFeed {
  readonly generation: number
  /** Whether a value read at `generation` may still be served (nothing changed, and the feed can tell). */
  fresh (generation: number): boolean
  close (): void
}

const CHANGE_CHANNEL = 'tonne_changes'
/** How often SQLite's change counter is read; within a second, as revocations must be. */
const SQLITE_POLL_MS = 250
const HEARTBEAT_MS = 2000
/** The `application_name` of each process's listening connection. */
const LISTENER_NAME = 'tonne-changes'
const RECONNECT_MAX_MS = 2000

// Writes made by this process: a connection does not see its own writes in PRAGMA data_version, and a
// PostgreSQL notification comes back a little later than the caller's next request.
const local = new EventEmitter().setMaxListeners(0)

/**
 * Announces a write to API keys or the catalogue. On PostgreSQL the NOTIFY is sent by the writer's
 * connection, so inside a transaction it reaches the listeners at commit (and never on rollback).
 */
export async function announceChange (db: Db, topic: 'keys' | 'catalogue'): Promise<void> {
  local.emit('change')
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`select pg_notify(${CHANGE_CHANNEL}, ${topic})`.execute(db)
  }
}

/** Announces, in this process only, a write that has just been committed. */
export function announceCommitted (): void {
  local.emit('change')
}

class Generations {
  generation = 0
  live = true
  readonly #bump = () => { this.generation++ }

  constructor () {
    local.on('change', this.#bump)
  }

  changed (): void {
    this.#bump()
  }

  detach (): void {
    local.off('change', this.#bump)
  }
}

/**
 * SQLite: `PRAGMA data_version` changes when another connection (another worker, the CLI) commits;
 * reading it every 250 ms costs a few microseconds, on a timer that never keeps the process alive.
 */
export function watchSqlite (db: Db): ChangeFeed {
  const state = new Generations()
  let last: unknown
  let reading = false
  const read = async () => {
    if (reading) return
    reading = true
    try {
      const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(db)
      const version = rows[0]?.data_version
      if (last !== undefined && version !== last) state.changed()
      last = version
    } catch {
      // A closed or busy database: treat as changed, so nothing stale is served meanwhile.
      state.changed()
    } finally {
      reading = false
    }
  }
  read().catch(() => undefined)
  const timer = setInterval(() => { read().catch(() => undefined) }, SQLITE_POLL_MS).unref()
  return {
    get generation () { return state.generation },
    fresh: (generation) => generation === state.generation,
    close: () => {
      clearInterval(timer)
      state.detach()
    }
  }
}

/**
 * PostgreSQL: a dedicated connection LISTENs on `tonne_changes`; writers NOTIFY. While that connection is
 * down (or `unreachable()` says the database is), nothing cached is trusted, and every reconnect starts a
 * new generation, since notifications sent meanwhile are lost. A heartbeat finds a connection that died
 * silently.
 */
export function listenPostgres (pgModule: typeof pg, url: string, unreachable: () => boolean): ChangeFeed {
  const state = new Generations()
  state.live = false
  let client: pg.Client | undefined
  let closed = false
  let delay = 100
  let retry: NodeJS.Timeout | undefined
  let heartbeat: NodeJS.Timeout | undefined

  const lost = (failed: pg.Client) => {
    if (client !== failed) return
    client = undefined
    state.live = false
    state.changed()
    clearInterval(heartbeat)
    failed.end().catch(() => undefined)
    if (closed) return
    retry = setTimeout(connect, delay).unref()
    delay = Math.min(delay * 2, RECONNECT_MAX_MS)
  }
  const connect = () => {
    // Named, so that an operator (and a test) can tell it from the pool's connections in pg_stat_activity.
    const next = new pgModule.Client({
      connectionString: url, connectionTimeoutMillis: 2000, query_timeout: 1000, application_name: LISTENER_NAME
    })
    client = next
    next.on('error', () => lost(next))
    next.on('end', () => lost(next))
    next.on('notification', () => state.changed())
    next.connect()
      .then(async () => await next.query(`listen ${CHANGE_CHANNEL}`))
      .then(() => {
        if (client !== next || closed) return
        delay = 100
        state.changed()
        state.live = true
        heartbeat = setInterval(() => {
          next.query('select 1').catch(() => lost(next))
        }, HEARTBEAT_MS).unref()
      }, () => lost(next))
  }
  connect()
  return {
    get generation () { return state.generation },
    fresh: (generation) => state.live && !unreachable() && generation === state.generation,
    close: () => {
      closed = true
      clearTimeout(retry)
      clearInterval(heartbeat)
      state.detach()
      const last = client
      client = undefined
      last?.end().catch(() => undefined)
    }
  }
}

/**
 * A value read from the database, served from memory while the feed says nothing changed. The
 * generation is taken before the read, so a change that lands during the read is never hidden.
 */
export class CachedRead<T> {
  readonly #feed: ChangeFeed
  readonly #read: () => Promise<T>
  #value: T | undefined
  #generation = -1

  constructor (feed: ChangeFeed, read: () => Promise<T>) {
    this.#feed = feed
    this.#read = read
  }

  async get (): Promise<T> {
    if (this.#value !== undefined && this.#feed.fresh(this.#generation)) return this.#value
    const generation = this.#feed.generation
    const value = await this.#read()
    this.#value = value
    this.#generation = generation
    return value
  }
}
