import type { Problem } from './types.ts'

/**
 * The `code`s the service answers with (its problem bodies), and `unexpected_response`, which the client gives an
 * error answer that has no problem body (a proxy's error page). A test keeps this list equal to the service's.
 */
export const KNOWN_ERROR_CODES = Object.freeze([
  'invalid_parameter',
  'missing_parameter',
  'conflicting_parameters',
  'unknown_country',
  'unknown_airport',
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'not_acceptable',
  'request_timeout',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'service_unavailable',
  'unexpected_response'
] as const)

export type KnownErrorCode = typeof KNOWN_ERROR_CODES[number]

/**
 * A `TonneApiError`'s code: one of the known ones (offered by editors), or one a newer service added, so code
 * written today keeps compiling and running against later versions of the service.
 */
export type ErrorCode = KnownErrorCode | (string & {})

export function isKnownErrorCode (code: string): code is KnownErrorCode {
  return (KNOWN_ERROR_CODES as readonly string[]).includes(code)
}

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
  readonly code: ErrorCode
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
