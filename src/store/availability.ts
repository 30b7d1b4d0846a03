/** Thrown without asking the database while it is known to be unreachable (see DatabaseCircuit). */
export class DatabaseUnavailableError extends Error {
  constructor () {
    super('The database is not answering; requests fail at once until it answers again.')
    this.name = 'DatabaseUnavailableError'
  }
}

// What pg and ioredis say when the line is gone (they give no code for these).
const CONNECTION_LOST = new RegExp(['Connection terminated', 'Connection is closed', 'Command timed out',
  'Stream isn\'t writeable', 'connect ECONNREFUSED', 'Client has encountered a connection error',
  'Query read timeout'].join('|'), 'i')

/**
 * Whether an error means a backing service (database, Redis) could not be reached at all: refused,
 * dropped, or no answer in time. The database circuit opens on these.
 */
export function isUnreachable (error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { code, message, name } = e as Error & { code?: unknown }
    if (name === 'DatabaseUnavailableError') return true
    if (typeof code === 'string') {
      if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND',
        'EAI_AGAIN'].includes(code)) return true
      // PostgreSQL: class 08 connection exceptions, 57P01-57P03 shutdown and cannot-connect-now.
      if (/^08/.test(code) || /^57P0[1-3]$/.test(code)) return true
    }
    if (name === 'MaxRetriesPerRequestError') return true
    if (CONNECTION_LOST.test(message)) return true
  }
  return false
}

/**
 * pg-pool's refusal of a request that waited its whole connection timeout in the pool's queue: every connection
 * was busy. That is load, not an outage: answered 503, but it never opens the database circuit (a server that does
 * not answer a new connection fails with "Connection terminated due to connection timeout" instead).
 */
function isPoolWait (error: unknown): boolean {
  return error instanceof Error && error.message === 'timeout exceeded when trying to connect'
}

/**
 * Whether an error means a backing service is unavailable right now, as opposed to a bug: such
 * requests get 503 and the client may retry; anything else stays a 500. Besides unreachable
 * services: a statement cancelled by the statement timeout, a SQLite read whose worker thread ended under it,
 * and SQLite's write lock held too long.
 */
export function isUnavailable (error: unknown): boolean {
  if (isUnreachable(error)) return true
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { code, message } = e as Error & { code?: unknown }
    if (code === '57014' || code === 'ERR_SQLITE_READ_TIMEOUT' || code === 'ERR_SQLITE_READ_WORKER_LOST') return true
    if (isPoolWait(e)) return true
    if (code === 'ERR_SQLITE_ERROR' && /database is locked|SQLITE_BUSY/.test(message)) return true
  }
  return false
}
