import { Worker } from 'node:worker_threads'
import {
  Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type CompiledQuery, type DatabaseConnection,
  type Driver, type QueryResult
} from 'kysely'
import type { Database, Db } from './database.ts'
import { SQLITE_MMAP_BYTES } from './sqlite-dialect.ts'

/**
 * The catalogue's reads on SQLite, off the event loop. node:sqlite runs a statement synchronously, so one
 * slow query (an uncached facets count over 100,000 projects takes ~170 ms) would stall every other
 * request of the process. Requests' reads go to a small pool of worker threads instead, each with its own
 * read-only connection (WAL lets them read while an import writes), and a statement that takes longer
 * than the request statement timeout (DATABASE_STATEMENT_TIMEOUT) is given up: its request gets a 503 and
 * its worker is replaced. A worker that ends under a read (its heap cap reached) is replaced too, and that
 * read is a 503 as well. Writes, migrations and imports stay on the process's own connection.
 */

/** Thrown when a read took longer than its budget (a 503, as a cancelled PostgreSQL statement is). */
class ReadTimeoutError extends Error {
  readonly code = 'ERR_SQLITE_READ_TIMEOUT'
  constructor (ms: number) {
    super(`The database read took longer than ${ms} ms and was given up.`)
    this.name = 'ReadTimeoutError'
  }
}

/**
 * Thrown when the worker running a read stopped under it, for example because the read's rows outgrew the
 * worker's heap (a 503, as a timed-out read is; the next read gets a new worker).
 */
class ReadWorkerLostError extends Error {
  readonly code = 'ERR_SQLITE_READ_WORKER_LOST'
  constructor (cause: unknown) {
    super('The database read stopped: its worker thread ended.', { cause })
    this.name = 'ReadWorkerLostError'
  }
}

interface Pending {
  resolve: (rows: unknown[]) => void
  reject: (error: Error) => void
  timer: NodeJS.Timeout
}

interface Job { sql: string, parameters: unknown[], pending: Omit<Pending, 'timer'> }

/** Each worker's V8 heap: its old generation, and its young generation (undefined: V8's default). */
interface HeapLimits { heapLimitMb: number, youngGenerationMb?: number | undefined }

/**
 * How long a worker may take to boot before its first read is given up. A read's own budget starts once its worker
 * is ready: on a loaded machine a boot took over 5 s, and counting it failed the start's first read.
 */
const BOOT_BUDGET_MS = 60_000

class ReadWorker {
  readonly worker: Worker
  current: { id: number, pending: Pending } | undefined
  /** Set when the pool ends this worker itself (a read over budget), so its exit is not a loss. */
  retired = false
  /** Whether the worker has opened its connection; until then `whenReady` holds what starts the read's budget. */
  ready = false
  whenReady: (() => void) | undefined

  constructor (
    file: string, busyTimeoutMs: number, heap: HeapLimits,
    onDone: (worker: ReadWorker) => void, onLost: (worker: ReadWorker) => void
  ) {
    this.worker = new Worker(new URL('./sqlite-read-worker.ts', import.meta.url), {
      workerData: { file, busyTimeoutMs, mmapBytes: SQLITE_MMAP_BYTES },
      resourceLimits: { maxOldGenerationSizeMb: heap.heapLimitMb, maxYoungGenerationSizeMb: heap.youngGenerationMb }
    })
    // The pool keeps no process alive on its own: an idle worker never holds the exit.
    this.worker.unref()
    type Reply = { id: number, rows?: unknown[], error?: { message: string, code?: string }, ready?: true }
    this.worker.on('message', (message: Reply) => {
      if (message.ready === true) {
        this.ready = true
        const start = this.whenReady
        this.whenReady = undefined
        start?.()
        return
      }
      const current = this.current
      if (current?.id !== message.id) return
      this.current = undefined
      clearTimeout(current.pending.timer)
      if (message.error !== undefined) {
        current.pending.reject(Object.assign(new Error(message.error.message), { code: message.error.code }))
      } else current.pending.resolve(message.rows ?? [])
      onDone(this)
    })
    let failure: unknown
    this.worker.on('error', (error) => { failure = error })
    // 'exit' follows 'error' and every other way a worker ends: its read fails and the pool replaces it.
    this.worker.on('exit', (exitCode) => {
      const current = this.current
      this.current = undefined
      if (current !== undefined) {
        clearTimeout(current.pending.timer)
        current.pending.reject(new ReadWorkerLostError(failure ?? new Error(`exit code ${exitCode}`)))
      }
      if (!this.retired) onLost(this)
    })
  }
}

/** A fixed pool of read workers with one queue; each worker runs one statement at a time. */
export class SqliteReadPool {
  readonly #file: string
  readonly #size: number
  readonly #budgetMs: number
  readonly #busyTimeoutMs: number
  readonly #heap: HeapLimits
  readonly #idle: ReadWorker[] = []
  readonly #queue: Job[] = []
  #started = 0
  #nextId = 0
  #closed = false

  constructor (
    options: { file: string, size: number, budgetMs: number, busyTimeoutMs: number } & HeapLimits
  ) {
    this.#file = options.file
    this.#size = options.size
    this.#budgetMs = options.budgetMs
    this.#busyTimeoutMs = options.busyTimeoutMs
    this.#heap = { heapLimitMb: options.heapLimitMb, youngGenerationMb: options.youngGenerationMb }
  }

  async all (sql: string, parameters: unknown[]): Promise<unknown[]> {
    if (this.#closed) throw new Error('The database is closed.')
    return await new Promise((resolve, reject) => {
      this.#queue.push({ sql, parameters, pending: { resolve, reject } })
      this.#dispatch()
    })
  }

  /**
   * Starts `count` workers now (each answers a `select 1`), so the first request does not wait for one to boot;
   * the others start when reads first overlap.
   */
  async start (count: number): Promise<void> {
    const more = Math.min(count, this.#size) - this.#started
    await Promise.all(Array.from({ length: Math.max(0, more) }, async () => await this.all('select 1', [])))
  }

  #dispatch (): void {
    while (this.#queue.length > 0) {
      // Workers start on first use: a process that never reads (the CLI) never pays for them.
      if (this.#idle.length === 0 && this.#started < this.#size) {
        this.#started++
        this.#idle.push(new ReadWorker(this.#file, this.#busyTimeoutMs, this.#heap,
          (done) => { this.#release(done) }, (lost) => { this.#replace(lost) }))
      }
      const worker = this.#idle.pop()
      if (worker === undefined) return
      const job = this.#queue.shift()!
      const id = ++this.#nextId
      const budget = () => setTimeout(() => { this.#giveUp(worker, id, this.#budgetMs) }, this.#budgetMs)
      let timer: NodeJS.Timeout
      if (worker.ready) {
        timer = budget()
      } else {
        timer = setTimeout(() => { this.#giveUp(worker, id, BOOT_BUDGET_MS) }, BOOT_BUDGET_MS)
        worker.whenReady = () => {
          clearTimeout(timer)
          if (worker.current?.id === id) worker.current.pending.timer = budget()
        }
      }
      worker.current = { id, pending: { ...job.pending, timer } }
      worker.worker.postMessage({ id, sql: job.sql, parameters: job.parameters })
    }
  }

  #release (worker: ReadWorker): void {
    if (this.#closed) return
    this.#idle.push(worker)
    this.#dispatch()
  }

  /** A worker that ended on its own gives its place back; a queued read starts a new one. */
  #replace (worker: ReadWorker): void {
    if (this.#closed) return
    const at = this.#idle.indexOf(worker)
    if (at !== -1) this.#idle.splice(at, 1)
    this.#started--
    this.#dispatch()
  }

  /** A statement over its budget: its request fails now, and its worker is replaced (it ends when it can). */
  #giveUp (worker: ReadWorker, id: number, ms: number): void {
    if (worker.current?.id !== id) return
    const { pending } = worker.current
    worker.current = undefined
    worker.retired = true
    pending.reject(new ReadTimeoutError(ms))
    this.#started--
    worker.worker.terminate().catch(() => undefined)
    this.#dispatch()
  }

  async close (): Promise<void> {
    this.#closed = true
    for (const job of this.#queue.splice(0)) job.pending.reject(new Error('The database is closed.'))
    await Promise.all(this.#idle.splice(0).map(async (worker) => await worker.worker.terminate()))
  }
}

// node:sqlite binds only numbers, strings, bigints, buffers and null.
function toSqlite (value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0
  return value === undefined ? null : value
}

class ReadConnection implements DatabaseConnection {
  readonly #pool: SqliteReadPool
  constructor (pool: SqliteReadPool) {
    this.#pool = pool
  }

  async executeQuery<R> (query: CompiledQuery): Promise<QueryResult<R>> {
    return { rows: await this.#pool.all(query.sql, query.parameters.map(toSqlite)) as R[] }
  }

  async * streamQuery<R> (): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The read pool does not stream.')
  }
}

class ReadDriver implements Driver {
  readonly #connection: ReadConnection
  readonly #pool: SqliteReadPool
  constructor (pool: SqliteReadPool) {
    this.#pool = pool
    this.#connection = new ReadConnection(pool)
  }

  async init (): Promise<void> {}
  async acquireConnection (): Promise<DatabaseConnection> { return this.#connection }
  async beginTransaction (): Promise<void> { throw new Error('The read pool takes no transactions.') }
  async commitTransaction (): Promise<void> {}
  async rollbackTransaction (): Promise<void> {}
  async releaseConnection (): Promise<void> {}
  async destroy (): Promise<void> { await this.#pool.close() }
}

/** A Kysely over the read pool: for SELECTs only. */
export function readOnlyDb (pool: SqliteReadPool): Db {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new ReadDriver(pool),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler()
    }
  })
}
