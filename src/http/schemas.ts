import { Type, type TProperties, type TSchema } from 'typebox'

/**
 * A string that must be one of `values`. Emitted as a plain JSON Schema `enum`, so a
 * validation failure carries the allowed values (the error handler lists them).
 */
export function StringEnum<const T extends readonly string[]> (
  values: T, options: { description?: string, default?: T[number] } = {}
) {
  return Type.Enum([...values] as T[number][], options)
}

/** A value of this schema, or null. */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()])

/** A calendar date (YYYY-MM-DD), or null. */
export const NullableDate = (description?: string) =>
  Nullable(Type.String({ format: 'date', ...(description !== undefined && { description }) }))

/**
 * A page of a list, as every paginated route answers (the original API's shape): `count` (all that match), the
 * links to the pages either side, this page's `results`, then any more fields.
 */
export function PageSchema<Count extends TSchema, Item extends TSchema, More extends TProperties> (
  title: string, count: Count, item: Item, more: More
) {
  return Type.Object({
    count,
    next: Nullable(Type.String({ description: 'Absolute URL of the next page; null on the last page.' })),
    previous: Nullable(Type.String({ description: 'Absolute URL of the previous page; null on the first page.' })),
    results: Type.Array(item),
    ...more
  }, { title })
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'A parameter is missing, malformed or not one of the allowed values; `parameter` names it.',
  401: 'No valid API key was sent: none, malformed, unknown or revoked.',
  403: 'The API key lacks the permission (scope) for this request.',
  404: 'No such resource.',
  429: 'Too many requests (or too many failed key checks from this address); retry after `Retry-After` seconds.',
  500: 'An internal error (logged; never shows internals).',
  503: 'A backing service (database, cache) is unavailable; retry later.'
}

/**
 * A response header as @fastify/swagger takes it: a JSON schema with its description. `required: true`
 * (not a keyword of a scalar schema) is moved onto the header by the OpenAPI document's last pass.
 */
interface Header { description: string, type: string, minimum?: number, required?: true }

/** The rate-limit headers (IETF draft "RateLimit header fields for HTTP") on every answer of a limited area. */
export const RATE_LIMIT_HEADERS: Record<string, Header> = {
  'RateLimit-Limit': { description: 'Requests allowed per one-minute window.', type: 'integer', minimum: 0 },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', type: 'integer', minimum: 0 },
  'RateLimit-Reset': { description: 'Seconds until the current window ends.', type: 'integer', minimum: 0 }
}

// A 429 for too many failed key checks comes before the key's own counter, so only Retry-After is always sent.
const ERROR_HEADERS: Record<number, Record<string, Header>> = {
  401: {
    'WWW-Authenticate': {
      description: 'The challenge, `Bearer realm="tonne"` (with `error="invalid_token"` for a key that was sent).',
      type: 'string',
      required: true
    }
  },
  429: {
    'Retry-After': { description: 'Seconds to wait before retrying.', type: 'integer', minimum: 0, required: true },
    ...RATE_LIMIT_HEADERS
  }
}

/**
 * Error responses of a route, documented as `application/problem+json` bodies of the shared Problem schema,
 * with the headers that come with them (WWW-Authenticate on 401, Retry-After and RateLimit-* on 429).
 */
export function errorResponses (...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, {
    description: ERROR_DESCRIPTIONS[status] ?? 'An error.',
    ...(ERROR_HEADERS[status] !== undefined && { headers: ERROR_HEADERS[status] }),
    content: { 'application/problem+json': { schema: Type.Ref('Problem') } }
  } as unknown as TSchema]))
}
