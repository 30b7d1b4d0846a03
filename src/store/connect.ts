import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { Kysely, PostgresDialect, sql } from 'kysely'
import type pg from 'pg'
import { DEFAULT_DATABASE_POOL_SIZE, DEFAULT_SQLITE_READ_WORKERS, type Config } from '../config.ts'
import { listenPostgres, watchSqlite, type ChangeFeed } from './change-feed.ts'
import { DatabaseCircuit } from './database-circuit.ts'
import type { Database, Db } from './database.ts'
import { openSqlite, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-dialect.ts'
import { readOnlyDb, SqliteReadPool } from './sqlite-reads.ts'
import { UNSIZED, type Sizing } from '../sizing.ts'

export interface PoolStats { total: number, idle: number, waiting: number, max: number }

export interface Store {
  readonly db: Db
  /**
   * For a request's SELECTs: on SQLite a pool of worker threads (src/store/sqlite-reads.ts), so no query
   * holds the event loop; on PostgreSQL the same pool as `db`.
   */
  readonly readDb: Db
  /** Where the data lives, for logs: a file path or host/database, never a password. */
  readonly location: string
  /** Answers whether the database takes a query now (readiness). */
  ping(): Promise<void>
  /** Connection pool use (PostgreSQL); SQLite has one connection. */
  poolStats(): PoolStats
  /**
   * Gets ready to serve: one of SQLite's read workers is started (a worker takes ~70-150 ms to boot), a
   * PostgreSQL pool opens one connection. Serving processes call it at start; the CLI never needs it.
   */
  warm(): Promise<void>
  /** Changes to keys and the catalogue made anywhere (started on first use: serving processes only). */
  readonly changes: ChangeFeed
  close(): Promise<void>
}

/** The feed, started on first use and closed with the store. */
function lazyFeed (start: () => ChangeFeed): { get: () => ChangeFeed, close: () => void } {
  let feed: ChangeFeed | undefined
  return { get: () => (feed ??= start()), close: () => { feed?.close() } }
}

export const SQLITE_FILE_NAME = 'tonne.sqlite'
/**
 * Statement timeout of batch work (tonne import, export, migrate, and the preparation before
 * serving): a catalogue of a million projects takes minutes, not the seconds a request may.
 */
export const BATCH_STATEMENT_TIMEOUT_MS = 30 * 60_000

interface StoreOptions {
  /** PostgreSQL statement timeout; requests use DATABASE_STATEMENT_TIMEOUT (config), batch work more. */
  statementTimeoutMs?: number
}

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR. */
export async function openStore (
  config: Pick<Config, 'dataDir' | 'databaseUrl'> & Partial<Pick<Config,
    'databaseStatementTimeoutMs' | 'databasePoolSize' | 'sqliteReadWorkers' | 'memory'>>,
  options: StoreOptions = {}
): Promise<Store> {
  if (config.databaseUrl === undefined) {
    return openSqliteStore(config.dataDir, config.databaseStatementTimeoutMs ?? BATCH_STATEMENT_TIMEOUT_MS,
      config.sqliteReadWorkers ?? DEFAULT_SQLITE_READ_WORKERS, config.memory?.sizing ?? UNSIZED)
  }
  // Loaded only for PostgreSQL: a SQLite start loads no PostgreSQL client (docs/performance.md).
  const { default: pgModule } = await import('pg')
  return openPostgres(pgModule, config.databaseUrl, config.databasePoolSize ?? DEFAULT_DATABASE_POOL_SIZE,
    options.statementTimeoutMs ?? config.databaseStatementTimeoutMs ?? BATCH_STATEMENT_TIMEOUT_MS)
}

/**
 * Each reader's V8 heap is capped (sizing.ts: 1 GB without a memory limit; a reader under load holds about
 * 15 MB): a read whose rows would outgrow it fails (503) and its worker is replaced, instead of growing the
 * process without bound.
 */
function openSqliteStore (dataDir: string, readBudgetMs: number, readers: number,
  sizing: Pick<Sizing, 'readerOldSpaceMb' | 'readerYoungMb'>): Store {
  mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, SQLITE_FILE_NAME)
  const { dialect } = openSqlite(file)
  const db = new Kysely<Database>({ dialect })
  const reads = new SqliteReadPool({
    file,
    size: readers,
    budgetMs: readBudgetMs,
    busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS,
    heapLimitMb: sizing.readerOldSpaceMb,
    youngGenerationMb: sizing.readerYoungMb
  })
  // No workers (the smallest containers, sizing.ts): requests read on the process's own connection, which saves
  // a V8 isolate and its heap, but a slow read then holds the event loop and is not given up at its budget.
  const readDb = readers === 0 ? db : readOnlyDb(reads)
  let closed = false
  const feed = lazyFeed(() => watchSqlite(db))
  return {
    db,
    readDb,
    location: file,
    // One reader is ready for the first request; booting both at once took the start's CPU on two cores (a
    // second boots when reads first overlap, docs/performance.md).
    warm: async () => { await reads.start(1) },
    ping: async () => { await sql`select 1`.execute(db) },
    poolStats: () => ({ total: closed ? 0 : 1, idle: closed ? 0 : 1, waiting: 0, max: 1 }),
    get changes () { return feed.get() },
    close: async () => {
      closed = true
      feed.close()
      // Kysely closes its driver only if it ever ran a query; the workers may have started without one (warm).
      if (readDb !== db) await readDb.destroy()
      await reads.close()
      await db.destroy()
    }
  }
}

/**
 * A pg client that never throws its 'error' event. pg can emit it on a client that is still
 * connecting when the server drops the line, before the pool listens, which would crash the
 * process; the failure still reaches the caller through the connect or query promise.
 */
function resilientClient (pgModule: typeof pg): typeof pg.Client {
  return class ResilientClient extends pgModule.Client {
    constructor (config?: string | pg.ClientConfig) {
      super(config)
      this.on('error', () => undefined)
    }
  }
}

function openPostgres (pgModule: typeof pg, url: string, poolSize: number, statementTimeoutMs: number): Store {
  // int8 (count(*)) arrives as a string by default; our counts fit in a double.
  pgModule.types.setTypeParser(pgModule.types.builtins.INT8, (value) => Number(value))
  const ResilientClient = resilientClient(pgModule)
  const pool = new pgModule.Pool({
    Client: ResilientClient,
    connectionString: url,
    max: poolSize,
    // Fail fast when the server is away, so a request gets a 503 instead of hanging.
    connectionTimeoutMillis: 3000,
    // The server cancels a statement after this; a query with no answer at all (the server or the line
    // stalled) is given up a second later. Both stay under the 10 s shutdown grace (config.ts).
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + 1000,
    idleTimeoutMillis: 30_000
  })
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined)
  const circuit = new DatabaseCircuit(async () => {
    const probe = new ResilientClient({ connectionString: url, connectionTimeoutMillis: 1000, query_timeout: 1000 })
    try {
      await probe.connect()
      await probe.query('select 1')
    } finally {
      probe.end().catch(() => undefined)
    }
  })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: circuit.wrap(pool) }) })
  const parsed = new URL(url)
  const feed = lazyFeed(() => listenPostgres(pgModule, url, () => circuit.open))
  return {
    db,
    readDb: db,
    location: `postgres://${parsed.host}${parsed.pathname}`,
    // A database that is away is the readiness probe's to report, not the start's.
    warm: async () => { await sql`select 1`.execute(db).catch(() => undefined) },
    ping: async () => { await sql`select 1`.execute(db) },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    get changes () { return feed.get() },
    close: async () => {
      feed.close()
      await db.destroy()
    }
  }
}
