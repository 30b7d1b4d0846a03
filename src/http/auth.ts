import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import type { Scope } from '../access/api-keys.ts'
import type { ApiKeyInfo, KeyVerifier } from '../access/api-keys.service.ts'
import { AppError } from './errors.ts'
import { clientAddress, type FailedAuthLimiter } from './rate-limit.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated API key: set by the catalogue's key check, and on the calculator by a calculator:read key. */
    apiKey?: ApiKeyInfo
  }
}

const CHALLENGE = 'Bearer realm="tonne"'

/** The key from `Authorization: Bearer KEY`, else `X-API-Key: KEY`; undefined when neither is sent. */
function presentedKey (request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
    return match?.[1] ?? ''
  }
  const header = request.headers['x-api-key']
  return Array.isArray(header) ? header[0] : header
}

function tooManyFailures (limiter: FailedAuthLimiter, retryAfter: number): AppError {
  const detail = `Too many failed API key checks from this address (the limit is ${limiter.max} per minute). ` +
    `Retry in ${retryAfter} s.`
  return new AppError(429, 'rate_limited', detail, { headers: { 'retry-after': String(retryAfter) } })
}

/**
 * Checks a presented key (undefined: none sent). A valid key always passes: it meets only its own rate
 * limit, so wrong keys from one address (every client behind an unnamed proxy) never lock out good ones.
 * When `failures` is given, a failed check counts against the client address: 401 (with WWW-Authenticate)
 * while under the limit, 429 with Retry-After past it or while it lasts.
 */
async function checkKey (keys: KeyVerifier, request: FastifyRequest, presented: string | undefined,
  failures: FailedAuthLimiter | undefined): Promise<ApiKeyInfo> {
  const address = clientAddress(request)
  const wait = failures?.retryAfter(address) ?? 0
  // A locked-out address sending no key is refused before any work.
  if (wait > 0 && presented === undefined) throw tooManyFailures(failures!, wait)
  const refuse = async (error: AppError): Promise<never> => {
    if (failures === undefined) throw error
    const retryAfter = wait > 0 ? wait : await failures.failed(address)
    throw retryAfter > 0 ? tooManyFailures(failures, retryAfter) : error
  }
  if (presented === undefined) {
    return await refuse(new AppError(401, 'unauthorized',
      'An API key is required: send "Authorization: Bearer KEY" or "X-API-Key: KEY".',
      { headers: { 'www-authenticate': CHALLENGE } }))
  }
  let result: Awaited<ReturnType<KeyVerifier['authenticate']>>
  try {
    result = await keys.authenticate(presented)
  } catch (error) {
    // A check the database could not answer (503) counts as a failed one: otherwise a client could send requests
    // without limit while the database is away, each one a lookup (issue 34, N1).
    const retryAfter = failures === undefined ? 0 : wait > 0 ? wait : await failures.failed(address).catch(() => 0)
    if (retryAfter > 0) throw tooManyFailures(failures!, retryAfter)
    throw error
  }
  if (!result.ok) {
    const detail = {
      malformed: 'The API key is malformed: send "Authorization: Bearer KEY" with the whole key.',
      unknown: 'The API key is not valid.',
      revoked: 'The API key has been revoked.'
    }[result.reason]
    return await refuse(new AppError(401, 'unauthorized', detail,
      { headers: { 'www-authenticate': `${CHALLENGE}, error="invalid_token"` } }))
  }
  return result.key
}

/**
 * Requires a valid, unrevoked API key holding `scope`: 401 (with WWW-Authenticate) when the key
 * is missing, malformed, unknown or revoked; 403 when it lacks the scope. Failed checks count per
 * client address: past the limit the address gets 429 with Retry-After until the window ends.
 */
export function requireApiKey (
  keys: KeyVerifier, scope: Scope, failures: FailedAuthLimiter
): onRequestAsyncHookHandler {
  return async (request) => {
    const key = await checkKey(keys, request, presentedKey(request), failures)
    if (!key.scopes.includes(scope)) {
      throw new AppError(403, 'forbidden', `This API key lacks the "${scope}" scope.`)
    }
    request.apiKey = key
  }
}

/**
 * For open areas (the calculator): no key is fine; a key that is sent must be valid (else 401), and
 * identifies the caller (`request.apiKey`) only when it holds `scope`. A key without it counts as no
 * key. Wrong keys here are not counted against the address: the area is open to it anyway.
 */
export function optionalApiKey (keys: KeyVerifier, scope: Scope): onRequestAsyncHookHandler {
  return async (request) => {
    const presented = presentedKey(request)
    if (presented === undefined) return
    const key = await checkKey(keys, request, presented, undefined)
    if (key.scopes.includes(scope)) request.apiKey = key
  }
}
