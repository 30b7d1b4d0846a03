import type { FastifyInstance } from 'fastify'
import { AppError } from './errors.ts'

// Unicode control characters (C0, DEL, C1): no parameter of this API means one. PostgreSQL refuses NUL
// in text outright and full-text search would read it as syntax, so they are refused before anything.
const CONTROL = /\p{Cc}/u

function check (name: string, value: unknown): void {
  const values = Array.isArray(value) ? value : [value]
  if (CONTROL.test(name) || values.some((v) => typeof v === 'string' && CONTROL.test(v))) {
    throw AppError.invalidParameter(name, `${JSON.stringify(name)} holds a control character (such as NUL, a tab or a line break); ` +
      'no parameter takes one.')
  }
}

/**
 * Every query parameter of every route, known or not, is checked before validation: one with a
 * control character in its name or value is a 400 `invalid_parameter` naming it.
 */
export function refuseControlCharacters (app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) check(name, value)
  })
}
