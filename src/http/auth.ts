import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify'
import type { Scope } from '../access/api-keys.ts'
import { authenticate, type ApiKeyInfo } from '../access/api-keys.service.ts'
import type { Db } from '../store/database.ts'
import { AppError } from './errors.ts'

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

/** The key a request presents, checked: 401 (with WWW-Authenticate) when malformed, unknown or revoked. */
async function validKey (db: Db, presented: string): Promise<ApiKeyInfo> {
  const result = await authenticate(db, presented)
  if (!result.ok) {
    const detail = {
      malformed: 'The API key is malformed: send "Authorization: Bearer KEY" with the whole key.',
      unknown: 'The API key is not valid.',
      revoked: 'The API key has been revoked.'
    }[result.reason]
    throw new AppError(401, 'unauthorized', detail,
      { headers: { 'www-authenticate': `${CHALLENGE}, error="invalid_token"` } })
  }
  return result.key
}

/**
 * Requires a valid, unrevoked API key holding `scope`: 401 (with WWW-Authenticate) when the key
 * is missing, malformed, unknown or revoked; 403 when it lacks the scope.
 */
export function requireApiKey (db: Db, scope: Scope): onRequestAsyncHookHandler {
  return async (request) => {
    const presented = presentedKey(request)
    if (presented === undefined) {
      throw new AppError(401, 'unauthorized', 'An API key is required: send "Authorization: Bearer KEY" or "X-API-Key: KEY".',
        { headers: { 'www-authenticate': CHALLENGE } })
    }
    const key = await validKey(db, presented)
    if (!key.scopes.includes(scope)) {
      throw new AppError(403, 'forbidden', `This API key lacks the "${scope}" scope.`)
    }
    request.apiKey = key
  }
}

/**
 * For open areas (the calculator): no key is fine; a key that is sent must be valid (else 401), and
 * identifies the caller (`request.apiKey`) only when it holds `scope`. A key without it counts as no key.
 */
export function optionalApiKey (db: Db, scope: Scope): onRequestAsyncHookHandler {
  return async (request) => {
    const presented = presentedKey(request)
    if (presented === undefined) return
    const key = await validKey(db, presented)
    if (key.scopes.includes(scope)) request.apiKey = key
  }
}
