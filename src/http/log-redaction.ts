import type { FastifyRequest } from 'fastify'

// Query parameters whose values are credentials by their name alone, whatever they hold.
const SECRET_NAMES = new Set(['api_key', 'apikey', 'api-key', 'key', 'token', 'access_token', 'refresh_token',
  'id_token', 'auth', 'authorization', 'password', 'passwd', 'secret', 'client_secret', 'signature', 'sig'])
// An API key (tonne_<id>_<secret>), also a truncated or mistyped one, wherever it stands.
const KEY_SHAPED = /tonne_[A-Za-z0-9]+_[A-Za-z0-9_-]{4,}/i
const REDACTED = '[redacted]'

function decoded (text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/**
 * A request URL fit for the logs: the values of secret-named query parameters and any key-shaped
 * path segment or value are replaced by `[redacted]`; everything else is kept as sent.
 */
function redactUrl (url: string): string {
  const queryAt = url.indexOf('?')
  const path = queryAt === -1 ? url : url.slice(0, queryAt)
  const redactedPath = path.split('/')
    .map((segment) => KEY_SHAPED.test(decoded(segment)) ? REDACTED : segment)
    .join('/')
  if (queryAt === -1) return redactedPath
  const query = url.slice(queryAt + 1).split('&').map((part) => {
    const equals = part.indexOf('=')
    const name = equals === -1 ? part : part.slice(0, equals)
    const value = equals === -1 ? '' : part.slice(equals + 1)
    if (SECRET_NAMES.has(decoded(name).trim().toLowerCase()) && equals !== -1) return `${name}=${REDACTED}`
    if (KEY_SHAPED.test(decoded(name))) return REDACTED
    return KEY_SHAPED.test(decoded(value)) ? `${name}=${REDACTED}` : part
  })
  return `${redactedPath}?${query.join('&')}`
}

/** Fastify's default request serializer, with the URL redacted. */
export function serializeRequest (request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort
  }
}
