import type { FastifyRequest } from 'fastify'
import { AppError } from './errors.ts'

/** Offsets from this on make a page an expensive read: its index walk grows with the offset. */
export const DEEP_OFFSET = 10_000

/**
 * Takes an expensive read's slot for a request's key, waiting a little for one, and resolves to how to give it
 * back; rejects with a 429 AppError when its key's queue is full or no slot came in time.
 */
export type ExpensiveRead = (request: FastifyRequest) => Promise<() => void>

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
export async function inSlot<T> (take: () => Promise<() => void>, work: () => Promise<T>): Promise<T> {
  const release = await take()
  try {
    return await work()
  } finally {
    release()
  }
}

/** How long an expensive read waits for a slot, and how many of one key's may wait, before a 429. */
const WAIT_MS = 5000
const WAITING_PER_KEY = 4

interface Waiter {
  key: string,
  resolve: (release: () => void) => void,
  reject: (error: Error) => void,
  timer: NodeJS.Timeout
}

/**
 * Caps the expensive reads (search, CSV, deep pages) that run at once: `perKey` for one key and `total` for all,
 * fewer than the database's read slots, so that however many expensive reads one key sends, cheap reads still
 * find a connection or a read worker (issue 34, N1 and N2). A read past a cap waits for a slot up to WAIT_MS, and
 * at most WAITING_PER_KEY of one key's wait: a page that asks for its list and its facets at once (the explorer
 * does) is answered in turn, while a key that floods gets 429 and Retry-After: 1 at once, holding nothing. A freed
 * slot goes to the waiting key served longest ago (round robin across keys; first come first served within a
 * key), so one key's queue never holds another key's read back by more than one read of each waiting key.
 */
export class ExpensiveReads {
  readonly #perKey: number
  readonly #total: number
  readonly #waitMs: number
  readonly #running = new Map<string, number>()
  readonly #waiting: Waiter[] = []
  /** The turn at which each key with reads running or waiting last took a slot (a key not in it: never yet). */
  readonly #servedAt = new Map<string, number>()
  #turns = 0
  #all = 0

  constructor (options: { perKey: number, total: number, waitMs?: number }) {
    this.#perKey = options.perKey
    this.#total = options.total
    this.#waitMs = options.waitMs ?? WAIT_MS
  }

  /** Expensive reads running now (a metric and a test's view). */
  get running (): number {
    return this.#all
  }

  /** Takes a slot for `key`, waiting for one if need be, and resolves to how to give it back (once). */
  async acquire (key: string): Promise<() => void> {
    if (this.#free(key) && !this.#waiting.some((w) => w.key === key)) return this.#take(key)
    const queued = this.#waiting.filter((w) => w.key === key).length
    if (queued >= WAITING_PER_KEY) throw this.#refusal(key)
    return await new Promise<() => void>((resolve, reject) => {
      const waiter: Waiter = {
        key,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#waiting.splice(this.#waiting.indexOf(waiter), 1)
          this.#forgetIdle(key)
          reject(this.#refusal(key))
        }, this.#waitMs)
      }
      // A wait never keeps a stopping process alive.
      waiter.timer.unref()
      this.#waiting.push(waiter)
    })
  }

  #free (key: string): boolean {
    return (this.#running.get(key) ?? 0) < this.#perKey && this.#all < this.#total
  }

  #refusal (key: string): AppError {
    const mine = this.#running.get(key) ?? 0
    const detail = mine >= this.#perKey
      ? `This API key already runs ${mine} expensive read${mine === 1 ? '' : 's'} (search, CSV or a deep page), ` +
        `the most one key may run at once (${this.#perKey}), and others wait. Retry when one has finished.`
      : 'The service runs as many expensive reads (search, CSV or a deep page) as it takes at once. Retry in a ' +
        'second.'
    return new AppError(429, 'rate_limited', detail, { headers: { 'retry-after': '1' } })
  }

  #take (key: string): () => void {
    this.#running.set(key, (this.#running.get(key) ?? 0) + 1)
    this.#servedAt.set(key, ++this.#turns)
    this.#all++
    let released = false
    return () => {
      if (released) return
      released = true
      this.#all--
      const left = (this.#running.get(key) ?? 1) - 1
      if (left === 0) this.#running.delete(key)
      else this.#running.set(key, left)
      this.#next()
      this.#forgetIdle(key)
    }
  }

  /** A key with nothing running or waiting is forgotten: the turns kept are only those of keys in play. */
  #forgetIdle (key: string): void {
    if (!this.#running.has(key) && !this.#waiting.some((w) => w.key === key)) this.#servedAt.delete(key)
  }

  /** Hands freed slots to waiting reads that may take them: each to the key served longest ago, in its own order. */
  #next (): void {
    while (this.#all < this.#total) {
      let chosen: number | undefined
      for (let i = 0; i < this.#waiting.length; i++) {
        const key = this.#waiting[i]!.key
        if (!this.#free(key)) continue
        if (chosen === undefined || this.#turnOf(key) < this.#turnOf(this.#waiting[chosen]!.key)) chosen = i
      }
      if (chosen === undefined) return
      const [waiter] = this.#waiting.splice(chosen, 1)
      clearTimeout(waiter!.timer)
      waiter!.resolve(this.#take(waiter!.key))
    }
  }

  #turnOf (key: string): number {
    return this.#servedAt.get(key) ?? 0
  }
}
