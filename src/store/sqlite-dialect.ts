import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite'
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely'

/**
 * Kysely's SqliteDialect speaks the better-sqlite3 interface; node:sqlite differs in two ways
 * that this adapter bridges: parameters are spread rather than passed as an array, and a
 * statement says whether it returns rows through `columns()` instead of a `reader` flag.
 * Prepared statements are cached by SQL text: Kysely prepares on every execution.
 */
class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync
  readonly #cache = new Map<string, SqliteStatement>()
  static readonly CACHE_LIMIT = 500

  constructor (db: DatabaseSync) {
    this.#db = db
  }

  prepare (sql: string): SqliteStatement {
    const cached = this.#cache.get(sql)
    if (cached !== undefined) return cached
    const statement = wrap(this.#db.prepare(sql))
    // Dynamic SQL (IN lists of varying length) would grow the cache without bound.
    if (this.#cache.size >= NodeSqliteDatabase.CACHE_LIMIT) this.#cache.clear()
    this.#cache.set(sql, statement)
    return statement
  }

  close (): void {
    this.#cache.clear()
    this.#db.close()
  }
}

function wrap (statement: StatementSync): SqliteStatement {
  const params = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqlite)
  return {
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...params(parameters)),
    run: (parameters) => statement.run(...params(parameters)),
    iterate: (parameters) => statement.iterate(...params(parameters))
  }
}

// node:sqlite binds only numbers, strings, bigints, buffers and null.
function toSqlite (value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value === undefined) return null
  return value as SQLInputValue
}

/** How long a statement waits for another connection's write lock before "database is locked". */
export const SQLITE_BUSY_TIMEOUT_MS = 5000

/**
 * How much of the database file each connection reads through a memory map (PRAGMA mmap_size) rather than by
 * copying pages into its own cache: a read then costs no system call, and the pages are held once, in the page
 * cache the kernel can reclaim, not again in each connection. At 160 MB it halved the kernel's time per answer, and
 * alternated runs went from 753-823 to 785-1,007 requests per second (docs/performance.md, "stop 43"). A cap, not
 * an allocation: only the pages read are mapped.
 */
export const SQLITE_MMAP_BYTES = 1024 * 1024 * 1024

export function openSqlite (file: string): { dialect: SqliteDialect, database: DatabaseSync } {
  const database = new DatabaseSync(file, { timeout: SQLITE_BUSY_TIMEOUT_MS })
  // WAL lets readers run while an import writes; foreign keys keep vocabularies honest.
  database.exec('PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; ' +
    `PRAGMA mmap_size = ${SQLITE_MMAP_BYTES};`)
  return { dialect: new SqliteDialect({ database: new NodeSqliteDatabase(database) }), database }
}
