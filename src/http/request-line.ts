import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from './errors.ts'

const MAX_URL_LENGTH = 4096

// RFC 9110 Host: a DNS name or IPv4 address, or a bracketed IPv6 literal, and an optional port up to 65535.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/

function isValidHost (host: string | undefined): boolean {
  // No Host at all is Node's to refuse (HTTP/1.1) or allow (HTTP/1.0); links then fall back to PUBLIC_URL.
  if (host === undefined) return true
  const match = HOST.exec(host)
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65535)
}

/**
 * What is wrong with the request line and Host before anything is routed or built from them, if anything:
 * checked in an onRequest hook and again for errors Fastify meets before its hooks run, so every path
 * gets the same refusal.
 */
export function requestLineProblem (request: FastifyRequest): AppError | undefined {
  if (request.url.length > MAX_URL_LENGTH) {
    return new AppError(414, 'bad_request', `The request URL is longer than ${MAX_URL_LENGTH} characters.`)
  }
  // Links are built from the Host header (without PUBLIC_URL): one that is not a host and port is refused
  // before anything is built from it, and userinfo (`a@b`) is never a host.
  if (!isValidHost(request.headers.host)) {
    return new AppError(400, 'bad_request', 'The Host header is not a valid host name and port.')
  }
  return undefined
}

/** Refuses a request whose URL is too long or whose Host is not a host (onRequest, before any key check or route). */
export const requestLineCheck = fp(async (app) => {
  app.addHook('onRequest', (request, _reply, done) => {
    done(requestLineProblem(request))
  })
}, { name: 'request-line-check' })
