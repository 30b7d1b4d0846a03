import { Type, type TSchema } from 'typebox'

/**
 * A string that must be one of `values`. Emitted as a plain JSON Schema `enum`, so a
 * validation failure carries the allowed values (the error handler lists them).
 */
export function StringEnum<const T extends readonly string[]> (values: T, options: { description?: string, default?: T[number] } = {}) {
  return Type.Enum([...values] as T[number][], options)
}

/** Responses every route can produce; spread into a route's `response` map. */
export function errorResponses (...statuses: number[]): Record<number, TSchema> {
  const ref = Type.Ref('Problem')
  return Object.fromEntries(statuses.map((status) => [status, ref]))
}
