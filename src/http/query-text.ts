import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify'
import { AppError } from './errors.ts'

// Unicode control characters (C0, DEL, C1): no parameter of this API means one. PostgreSQL refuses NUL
// in text outright and full-text search would read it as syntax, so they are refused before anything.
const CONTROL = /\p{Cc}/u
// Numbers as people write them. Schema coercion alone would also take "Infinity", "0x10" or "1e400",
// which reach the database as values it refuses.
const INTEGER = /^-?\d{1,16}$/
const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d{1,3})?$/

function checkControl (name: string, value: unknown): void {
  const values = Array.isArray(value) ? value : [value]
  if (CONTROL.test(name) || values.some((v) => typeof v === 'string' && CONTROL.test(v))) {
    throw AppError.invalidParameter(name, `${JSON.stringify(name)} holds a control character ` +
      '(such as NUL, a tab or a line break); no parameter takes one.')
  }
}

type NumberKind = 'integer' | 'number'

/** The integer and number fields of a route's querystring or params schema. */
function numberFields (schema: unknown): Map<string, NumberKind> {
  const fields = new Map<string, NumberKind>()
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {}
  for (const [name, property] of Object.entries(properties)) {
    if (property.type === 'integer' || property.type === 'number') fields.set(name, property.type)
  }
  return fields
}

function isNumber (kind: NumberKind, text: string): boolean {
  const trimmed = text.trim()
  return kind === 'integer' ? INTEGER.test(trimmed) : DECIMAL.test(trimmed) && Number.isFinite(Number(trimmed))
}

/**
 * The text of every request, before schema validation: a query parameter (known or not) with a control
 * character in its name or value is a 400 `invalid_parameter` naming it; an integer or number parameter
 * must be written as a plain decimal number (else 400 naming it, or 404 for a path id, as for any other
 * malformed id).
 */
export function checkRequestText (app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const query = (request.query ?? {}) as Record<string, unknown>
    for (const [name, value] of Object.entries(query)) checkControl(name, value)
  })
  app.addHook('onRoute', (route) => {
    const query = numberFields(route.schema?.querystring)
    const params = numberFields(route.schema?.params)
    if (query.size === 0 && params.size === 0) return
    const check: preValidationAsyncHookHandler = async (request: FastifyRequest) => {
      for (const [name, kind] of params) {
        const value = (request.params as Record<string, unknown>)[name]
        if (typeof value === 'string' && !isNumber(kind, value)) throw AppError.notFound()
      }
      for (const [name, kind] of query) {
        const value = (request.query as Record<string, unknown>)[name]
        if (typeof value === 'string' && value.trim() !== '' && !isNumber(kind, value)) {
          const number = kind === 'integer' ? 'a whole number' : 'a finite decimal number'
          throw AppError.invalidParameter(name,
            `${name} must be ${number} written in digits (got ${JSON.stringify(value.slice(0, 40))}).`)
        }
      }
    }
    const existing = route.preValidation === undefined
      ? []
      : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation]
    route.preValidation = [...existing, check]
  })
}
