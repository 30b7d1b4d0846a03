import type { FastifyRequest } from 'fastify'
import { AppError } from './errors.ts'

/** Offsets from this on make a page an expensive read: its index walk grows with the offset. */
export const DEEP_OFFSET = 10_000

/**
 * Takes an expensive read's slot for a request's key and returns how to give it back; throws a 429 AppError while
 * its key or the service has none to spare.
 */
export type ExpensiveRead = (request: FastifyRequest) => () => void

/** Rows of a CSV download that cost one request beyond its fixed price. */
export const CSV_ROWS_PER_REQUEST = 1000

/** What a built page costs beyond its fixed price: a request per DEEP_OFFSET rows its offset walks past. */
export function offsetPrice (offset: number | undefined): number {
  return Math.floor((offset ?? 0) / DEEP_OFFSET)
}

/**
 * Rows as they stream, counted: when the answer ends (or its client goes) `done` gets how many went out, so that
 * a download is priced by its rows.
 */
export function countingRows<Row> (rows: AsyncIterable<Row>, done: (count: number) => void): AsyncIterable<Row> {
  return (async function * () {
    let count = 0
    try {
      for await (const row of rows) {
        count++
        yield row
      }
    } finally {
      done(count)
    }
  })()
}

/** Whether a page is an expensive read: a search, or an offset whose walk grows with it. */
export function isExpensivePage (query: { search?: string | undefined, offset?: number | undefined }): boolean {
  return (query.search !== undefined && query.search.trim() !== '') || (query.offset ?? 0) >= DEEP_OFFSET
}

/** Runs `work` in an expensive read's slot. */
export async function inSlot<T> (take: () => () => void, work: () => Promise<T>): Promise<T> {
  const release = take()
  try {
    return await work()
  } finally {
    release()
  }
}

/**
 * Caps the expensive reads (search, CSV, deep pages) that run at once: `perKey` for one key and `total` for all,
 * fewer than the database's read slots, so that however many expensive reads one key sends, cheap reads still
 * find a connection or a read worker (issue 34, N1 and N2). Past either cap the read is refused at once with a
 * 429 and Retry-After: 1 rather than queued, so a refused client holds nothing.
 */
export class ExpensiveReads {
  readonly #perKey: number
  readonly #total: number
  readonly #running = new Map<string, number>()
  #all = 0

  constructor (options: { perKey: number, total: number }) {
    this.#perKey = options.perKey
    this.#total = options.total
  }

  /** Expensive reads running now (a metric and a test's view). */
  get running (): number {
    return this.#all
  }

  /** Takes a slot for `key` (a 429 AppError when there is none) and returns how to give it back (once). */
  acquire (key: string): () => void {
    const mine = this.#running.get(key) ?? 0
    if (mine >= this.#perKey || this.#all >= this.#total) {
      const detail = mine >= this.#perKey
        ? `This API key already runs ${mine} expensive read${mine === 1 ? '' : 's'} (search, CSV or a deep page), ` +
          `the most one key may run at once (${this.#perKey}). Retry when one has finished.`
        : 'The service runs as many expensive reads (search, CSV or a deep page) as it takes at once. Retry in a ' +
          'second.'
      throw new AppError(429, 'rate_limited', detail, { headers: { 'retry-after': '1' } })
    }
    this.#running.set(key, mine + 1)
    this.#all++
    let released = false
    return () => {
      if (released) return
      released = true
      this.#all--
      const left = (this.#running.get(key) ?? 1) - 1
      if (left === 0) this.#running.delete(key)
      else this.#running.set(key, left)
    }
  }
}
