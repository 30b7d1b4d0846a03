import type { FastifyBaseLogger } from 'fastify'

/** How long identical errors are counted instead of logged, once the first has been logged in full. */
export const REPEAT_INTERVAL_MS = 60_000
/** Distinct errors counted at once; past this every error is logged in full (a flood of distinct ones is news). */
const MAX_COUNTED = 100

/**
 * Logs a failing answer's error once per interval: the first in full (with its stack), the identical ones after it
 * only counted, and their number logged once when the interval ends (issue 34, N6: a 503 while the database
 * circuit was open logged a stack per request, 998 lines in 15 s).
 */
export class RepeatedErrors {
  readonly #log: FastifyBaseLogger
  readonly #counted = new Map<string, { repeats: number, timer: NodeJS.Timeout }>()

  constructor (log: FastifyBaseLogger) {
    this.#log = log
  }

  /** True when `error` should be logged in full now; false when it was counted as a repeat. */
  first (message: string, error: Error): boolean {
    const key = `${message}\u0000${error.name}\u0000${error.message}`
    const counted = this.#counted.get(key)
    if (counted !== undefined) {
      counted.repeats++
      return false
    }
    if (this.#counted.size >= MAX_COUNTED) return true
    const timer = setTimeout(() => {
      const { repeats } = this.#counted.get(key)!
      this.#counted.delete(key)
      if (repeats > 0) {
        const seconds = REPEAT_INTERVAL_MS / 1000
        this.#log.error({ repeats, error: `${error.name}: ${error.message}`, intervalSeconds: seconds },
          `${message}: the same error ${repeats} more time${repeats === 1 ? '' : 's'} in ${seconds} s`)
      }
    }, REPEAT_INTERVAL_MS)
    timer.unref()
    this.#counted.set(key, { repeats: 0, timer })
    return true
  }

  /** Logs what is still counted (the service is stopping). */
  flush (): void {
    for (const [key, { repeats, timer }] of this.#counted) {
      clearTimeout(timer)
      if (repeats > 0) {
        this.#log.error({ repeats, error: key.split('\u0000').slice(1).join(': ') },
        `the same error ${repeats} more time${repeats === 1 ? '' : 's'} before the service stopped`)
      }
    }
    this.#counted.clear()
  }
}
