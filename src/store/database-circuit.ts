import type { PostgresPool, PostgresPoolClient } from 'kysely'
import type pg from 'pg'
import { DatabaseUnavailableError, isUnreachable } from './availability.ts'

const PROBE_INTERVAL_MS = 1000

/**
 * Stops waiting on a PostgreSQL server known to be unreachable. When a query gets no answer in time,
 * or a connection cannot be made or is lost, the circuit opens: queries in flight are given up at
 * once (their connections are destroyed, not reused), new ones fail at once with
 * DatabaseUnavailableError (a 503), and a fresh connection probes the server every second; the first
 * answer closes the circuit again.
 */
export class DatabaseCircuit {
  readonly #probe: () => Promise<void>
  readonly #inFlight = new Set<(error: Error) => void>()
  #open = false
  #timer: NodeJS.Timeout | undefined
  #closed = false

  constructor (probe: () => Promise<void>) {
    this.#probe = probe
  }

  get open (): boolean {
    return this.#open
  }

  /** `work`, unless the circuit is open or opens before it settles. */
  async guard<T> (work: Promise<T>): Promise<T> {
    if (this.#open) {
      work.catch(() => undefined)
      throw new DatabaseUnavailableError()
    }
    let giveUp!: (error: Error) => void
    const opened = new Promise<never>((_resolve, reject) => { giveUp = reject })
    this.#inFlight.add(giveUp)
    try {
      return await Promise.race([work, opened])
    } finally {
      this.#inFlight.delete(giveUp)
    }
  }

  /** The server did not answer: stop waiting on it. */
  trip (): void {
    if (this.#open || this.#closed) return
    this.#open = true
    for (const giveUp of this.#inFlight) giveUp(new DatabaseUnavailableError())
    this.#inFlight.clear()
    this.#scheduleProbe()
  }

  #scheduleProbe (): void {
    this.#timer = setTimeout(() => {
      this.#probe().then(() => { this.#open = false }, () => { if (!this.#closed) this.#scheduleProbe() })
    }, PROBE_INTERVAL_MS)
    this.#timer.unref()
  }

  close (): void {
    this.#closed = true
    clearTimeout(this.#timer)
  }

  /** `pool` as Kysely's PostgresDialect takes it, with every connection and query guarded. */
  wrap (pool: pg.Pool): PostgresPool {
    const failed = (error: unknown): void => {
      if (isUnreachable(error) && !(error instanceof DatabaseUnavailableError)) this.trip()
    }
    return {
      connect: async (): Promise<PostgresPoolClient> => {
        if (this.#open) throw new DatabaseUnavailableError()
        const connecting = pool.connect()
        let client: pg.PoolClient
        try {
          client = await this.guard(connecting)
        } catch (error) {
          failed(error)
          // A connection that arrives after it was given up goes back as broken.
          connecting.then((late) => late.release(true), () => undefined)
          throw error
        }
        let broken = false
        return {
          query: (async (sql: string, parameters: readonly unknown[]) => {
            try {
              return await this.guard(client.query(sql, [...parameters]))
            } catch (error) {
              // A connection whose query was given up may still get its answer: never reuse it.
              if (isUnreachable(error)) broken = true
              failed(error)
              throw error
            }
          }) as unknown as PostgresPoolClient['query'],
          release: () => { client.release(broken) }
        }
      },
      end: async () => {
        this.close()
        await pool.end()
      }
    }
  }
}
