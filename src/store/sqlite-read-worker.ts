// One read-only SQLite connection in a worker thread (src/store/sqlite-reads.ts): the request's
// statement runs here, so however long it takes, the process's event loop goes on serving others.
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'
import { parentPort, workerData } from 'node:worker_threads'

interface Task { id: number, sql: string, parameters: SQLInputValue[] }

const { file, busyTimeoutMs, mmapBytes } = workerData as { file: string, busyTimeoutMs: number, mmapBytes: number }
const database = new DatabaseSync(file, { readOnly: true, timeout: busyTimeoutMs })
database.exec(`PRAGMA mmap_size = ${mmapBytes}`)
// Kysely prepares on every execution; the statements of a few query shapes are kept (dynamic IN lists
// would grow the map without bound, so it is emptied past a size).
const statements = new Map<string, StatementSync>()

parentPort!.on('message', ({ id, sql, parameters }: Task) => {
  try {
    let statement = statements.get(sql)
    if (statement === undefined) {
      if (statements.size >= 200) statements.clear()
      statement = database.prepare(sql)
      statements.set(sql, statement)
    }
    const rows = statement.columns().length > 0 ? statement.all(...parameters) : []
    parentPort!.postMessage({ id, rows })
  } catch (error) {
    const { message, code } = error as Error & { code?: string }
    parentPort!.postMessage({ id, error: { message, code } })
  }
})
// Booted: a read's budget runs from here (src/store/sqlite-reads.ts), not from the thread's start.
parentPort!.postMessage({ ready: true })
