/**
 * When to try a request again. Only 429 and 503 (the service's "come back later") and network
 * failures are retried: every call of this client is an idempotent GET, and any other 4xx would
 * fail the same way again.
 */
export interface RetryOptions {
  /** Requests in all, the first included. Default 4; 1 turns retries off. */
  maxAttempts?: number
  /** No retry is started if its wait would end later than this after the first request. Default 30 000 ms. */
  maxElapsedMs?: number
  /** Ceiling of the first backoff; it doubles on each retry. Default 250 ms. */
  baseDelayMs?: number
  /** Largest backoff ceiling. Default 8 000 ms. */
  maxDelayMs?: number
}

export type RetryPolicy = Required<RetryOptions>

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503])

const DEFAULTS: RetryPolicy = { maxAttempts: 4, maxElapsedMs: 30_000, baseDelayMs: 250, maxDelayMs: 8_000 }

export function retryPolicy (options: RetryOptions = {}): RetryPolicy {
  const policy = { ...DEFAULTS, ...withoutUndefined(options) }
  for (const [name, value] of Object.entries(policy)) {
    const least = name === 'maxAttempts' ? 1 : 0
    if (!Number.isFinite(value) ||
      value < least) throw new RangeError(`retry.${name} must be a number ≥ ${least}, got ${value}`)
  }
  return policy
}

/**
 * The wait before retry number `retry` (1 for the first retry): "full jitter" exponential backoff,
 * uniform in [0, min(maxDelayMs, baseDelayMs·2^(retry-1))), added to the server's Retry-After so a
 * crowd of clients told the same second does not come back in the same millisecond.
 */
export function backoffDelay (policy: RetryPolicy, retry: number, retryAfterMs: number | undefined,
  random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1))
  return (retryAfterMs ?? 0) + Math.floor(random() * ceiling)
}

/** `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or
 * unreadable. */
export function parseRetryAfter (value: string | null, now: number): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

function withoutUndefined<T extends object> (options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>
}
