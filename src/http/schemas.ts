import { Type, type TSchema } from 'typebox'

/**
 * A string that must be one of `values`. Emitted as a plain JSON Schema `enum`, so a
 * validation failure carries the allowed values (the error handler lists them).
 */
export function StringEnum<const T extends readonly string[]> (values: T,
  options: { description?: string, default?: T[number] } = {}) {
  return Type.Enum([...values] as T[number][], options)
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'A parameter is missing, malformed or not one of the allowed values; `parameter` names it.',
  401: 'No valid API key was sent.',
  403: 'The API key lacks the permission for this request.',
  404: 'No such resource.',
  429: 'Too many requests; retry after the `Retry-After` header.',
  500: 'An internal error (logged; never shows internals).',
  503: 'A backing service (database, cache) is unavailable; retry later.'
}

/** Error responses of a route, documented as `application/problem+json` bodies of the shared Problem schema. */
export function errorResponses (...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, {
    description: ERROR_DESCRIPTIONS[status] ?? 'An error.',
    content: { 'application/problem+json': { schema: Type.Ref('Problem') } }
  } as unknown as TSchema]))
}
