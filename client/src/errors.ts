import type { Problem } from './types.ts'

/** Base of every error the client throws, so `catch (e) { if (e instanceof TonneError) … }` covers them all. */
export class TonneError extends Error {
  constructor (message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'TonneError'
  }
}

/**
 * The service answered with an error status. `code` is the service's stable machine-readable code
 * (invalid_parameter, unauthorized, rate_limited, …), read from its RFC 9457 problem body.
 */
export class TonneApiError extends TonneError {
  readonly status: number
  readonly code: string
  readonly title: string
  readonly detail: string
  /** The query or path parameter at fault, when there is one. */
  readonly parameter: string | undefined
  /** The valid values, when an enumerated parameter got an unknown one. */
  readonly allowedValues: readonly string[] | undefined
  /** The id of the request in the service's logs: quote it in a bug report. */
  readonly requestId: string | undefined
  /** From `Retry-After` (429, 503), in milliseconds; undefined when the header is absent. */
  readonly retryAfterMs: number | undefined
  /** How many requests were made, retries included. */
  readonly attempts: number

  constructor (problem: Problem, extras: { retryAfterMs?: number | undefined, attempts?: number } = {}) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`)
    this.name = 'TonneApiError'
    this.status = problem.status
    this.code = problem.code
    this.title = problem.title
    this.detail = problem.detail
    this.parameter = problem.parameter
    this.allowedValues = problem.allowed_values
    this.requestId = problem.request_id
    this.retryAfterMs = extras.retryAfterMs
    this.attempts = extras.attempts ?? 1
  }
}

/** No answer: the connection failed, was reset, or an attempt timed out. Nothing is known about the request's fate. */
export class TonneNetworkError extends TonneError {
  readonly timedOut: boolean
  readonly attempts: number

  constructor (message: string, options: { cause?: unknown, timedOut?: boolean, attempts?: number } = {}) {
    super(message, { cause: options.cause })
    this.name = 'TonneNetworkError'
    this.timedOut = options.timedOut ?? false
    this.attempts = options.attempts ?? 1
  }
}
