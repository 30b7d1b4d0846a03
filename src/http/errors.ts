import { createRequire } from 'node:module'
import { Type, type Static } from 'typebox'

// node:http through require, not an ES import: importing it as an ES module builds its whole namespace, whose
// lazy WebSocket getters load Node's fetch implementation (undici), ~17 ms of every start (docs/performance.md).
const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof import('node:http')

/** The HTTP status phrase of `status` ("Not Found"), as Node writes it. */
export function statusText (status: number): string {
  return STATUS_CODES[status] ?? 'Error'
}

/**
 * The one error body of the whole service: RFC 9457 problem details
 * (`application/problem+json`) with a stable machine-readable `code`.
 * `detail` is the DRF-style human message.
 */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'Always "about:blank": the status and code say what happened.' }),
    title: Type.String({ description: 'The HTTP status phrase.' }),
    status: Type.Integer({ description: 'The HTTP status code.' }),
    code: Type.String({ description: 'Stable machine-readable error code, e.g. invalid_parameter.' }),
    detail: Type.String({ description: 'A human-readable explanation.' }),
    parameter: Type.Optional(Type.String({ description: 'The query or path parameter at fault.' })),
    allowed_values: Type.Optional(Type.Array(Type.String(),
      { description: 'Valid values, for an unknown enumerated value.' })),
    request_id: Type.Optional(Type.String())
  },
  { $id: 'Problem', title: 'Problem', additionalProperties: false }
)
export type Problem = Static<typeof ProblemSchema>

export type ErrorCode =
  | 'invalid_parameter'
  | 'missing_parameter'
  | 'conflicting_parameters'
  | 'unknown_country'
  | 'unknown_airport'
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'request_timeout'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable'

interface AppErrorExtras {
  parameter?: string
  allowedValues?: readonly string[]
  headers?: Record<string, string>
}

/** The one error type: anything thrown as an AppError reaches the client as its problem body. */
export class AppError extends Error {
  readonly status: number
  readonly code: ErrorCode
  readonly parameter: string | undefined
  readonly allowedValues: readonly string[] | undefined
  readonly headers: Record<string, string>

  constructor (status: number, code: ErrorCode, detail: string, extras: AppErrorExtras = {}) {
    super(detail)
    this.name = 'AppError'
    this.status = status
    this.code = code
    this.parameter = extras.parameter
    this.allowedValues = extras.allowedValues
    this.headers = extras.headers ?? {}
  }

  static invalidParameter (parameter: string, detail: string, allowedValues?: readonly string[]): AppError {
    return new AppError(400, 'invalid_parameter', detail, { parameter, allowedValues })
  }

  static notFound (detail = 'Not found.'): AppError {
    return new AppError(404, 'not_found', detail)
  }
}
