import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from './errors.ts'

/**
 * The one query policy of the service (docs/api.md, "Query parameters"), applied to every request
 * before schema validation. An operation's parameters are the properties of its querystring schema:
 *
 * - a parameter it does not know is refused (400 `invalid_parameter` naming it, `allowed_values` listing the
 *   known ones), so a misspelling never silently gives a default answer and a made-up parameter never
 *   makes a new cache entry;
 * - a known parameter given twice is refused;
 * - a number is written in plain decimal digits (the one grammar below: no exponent, hex, Infinity or NaN, no
 *   surrounding space, no bare point, no negative zero);
 *   an integer path id that is not one is a 404, as any other id that names nothing;
 * - a control character in any name or value is refused, on every path.
 *
 * Routes without a querystring schema (`/ping`, health, metrics, static files) read no parameters, and a
 * monitoring probe's cache-buster is not an error there.
 */

// Unicode control characters (C0, DEL, C1): no parameter of this API means one. PostgreSQL refuses NUL
// in text outright and full-text search would read it as syntax.
const CONTROL = /\p{Cc}/u
// The number grammar: one written form per number. Schema coercion alone would also take "Infinity", "0x10",
// "1e400", "", " 12", "12." or "-0".
const INTEGER = /^-?\d{1,16}$/
const DECIMAL = /^-?\d+(\.\d+)?$/
const NEGATIVE_ZERO = /^-[0.]+$/

type Kind = 'integer' | 'number' | 'boolean' | 'string'

interface Policy {
  /** Known parameter names in canonical (sorted) order. */
  names: readonly string[]
  kinds: ReadonlyMap<string, Kind>
}

const policies = new WeakMap<object, Policy>()

function kindOf (schema: unknown): Kind {
  const type = (schema as { type?: unknown } | undefined)?.type
  return type === 'number' || type === 'integer' || type === 'boolean' ? type : 'string'
}

function policyOf (schema: unknown): Policy | undefined {
  if (schema === undefined || schema === null || typeof schema !== 'object') return undefined
  let policy = policies.get(schema)
  if (policy === undefined) {
    const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {}
    const kinds = new Map(Object.entries(properties).map(([name, property]) => [name, kindOf(property)]))
    policy = { names: [...kinds.keys()].sort(), kinds }
    policies.set(schema, policy)
  }
  return policy
}

/** Whether text is a number in the service's one grammar (plain decimal digits). */
function isPlainNumber (kind: 'integer' | 'number', text: string): boolean {
  if (NEGATIVE_ZERO.test(text)) return false
  return kind === 'integer' ? INTEGER.test(text) : DECIMAL.test(text) && Number.isFinite(Number(text))
}

function checkControl (name: string, value: unknown): void {
  const values = Array.isArray(value) ? value : [value]
  if (CONTROL.test(name) || values.some((v) => typeof v === 'string' && CONTROL.test(v))) {
    throw AppError.invalidParameter(name, `${JSON.stringify(name)} holds a control character ` +
      '(such as NUL, a tab or a line break); no parameter takes one.')
  }
}

function checkParameter (policy: Policy, name: string, value: unknown): void {
  const kind = policy.kinds.get(name)
  if (kind === undefined) {
    const accepted = policy.names.length === 0
      ? 'This endpoint takes no parameters.'
      : `This endpoint accepts: ${policy.names.join(', ')}.`
    // The value is not repeated: an unknown parameter may carry a secret (`api_key=…`).
    throw AppError.invalidParameter(name.slice(0, 100), `Unknown parameter ${JSON.stringify(name.slice(0, 100))}. ` +
      accepted, policy.names.length === 0 ? undefined : policy.names)
  }
  if (Array.isArray(value)) {
    throw AppError.invalidParameter(name, `${name} was given ${value.length} times; give it once.`)
  }
  if (typeof value !== 'string') return
  const shown = JSON.stringify(value.slice(0, 40))
  if ((kind === 'integer' || kind === 'number') && !isPlainNumber(kind, value)) {
    const number = kind === 'integer' ? 'a whole number' : 'a finite decimal number such as 12.5'
    throw AppError.invalidParameter(name, `${name} must be ${number} written in plain digits, without spaces, a sign ` +
      `on zero or an exponent (got ${shown}).`)
  }
  if (kind === 'boolean' && !['true', 'false'].includes(value.trim())) {
    throw AppError.invalidParameter(name, `${name} must be true or false (got ${shown}).`, ['true', 'false'])
  }
}

/**
 * The operation's known parameters as the client wrote them, in canonical (sorted) order: what a cache key
 * and a page link are built from. Two URLs that ask the same question in another order share a key, and
 * nothing else the client sent can reach a key or a link.
 */
export function knownQuery (request: FastifyRequest): URLSearchParams {
  const names = policyOf(request.routeOptions.schema?.querystring)?.names ?? []
  const at = request.url.indexOf('?')
  const given = new URLSearchParams(at === -1 ? '' : request.url.slice(at + 1))
  const known = new URLSearchParams()
  for (const name of names) {
    const value = given.get(name)
    if (value !== null) known.set(name, value)
  }
  return known
}

/** The request's path and canonical known parameters: the key of its answer. */
export function answerKey (request: FastifyRequest): string {
  const path = request.url.split('?', 1)[0]!
  const query = knownQuery(request).toString()
  return query === '' ? path : `${path}?${query}`
}

/** Installs the policy for every route (one preValidation hook; a route's policy is derived once). */
export const queryPolicy = fp(async (app) => {
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      checkRequest(request)
    } catch (error) {
      done(error as Error)
      return
    }
    done()
  })
}, { name: 'query-policy' })

/** Throws the refusal of a request's query or path parameters, if the policy refuses them. */
function checkRequest (request: FastifyRequest): void {
  const query = (request.query ?? {}) as Record<string, unknown>
  for (const [name, value] of Object.entries(query)) checkControl(name, value)
  const schema = request.routeOptions.schema
  const policy = policyOf(schema?.querystring)
  if (policy !== undefined) {
    for (const [name, value] of Object.entries(query)) checkParameter(policy, name, value)
  }
  const params = policyOf(schema?.params)
  if (params !== undefined) {
    for (const [name, kind] of params.kinds) {
      const value = (request.params as Record<string, unknown>)[name]
      if ((kind === 'integer' || kind === 'number') && typeof value === 'string' && !isPlainNumber(kind, value)) {
        throw AppError.notFound()
      }
    }
  }
}
