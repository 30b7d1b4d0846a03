import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import fp from 'fastify-plugin'

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * A request's id (Fastify's `genReqId`): a caller's X-Request-Id when it is sane, so one id follows a request
 * across services, else a fresh UUID.
 */
export function requestId (request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
}

/** Every answer names its request's id (X-Request-Id), as the log lines do. */
export const requestIds = fp(async (app) => {
  // Hooks on every request take a callback, not a promise: an async hook costs a promise and a microtask turn.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id)
    done(null, payload)
  })
}, { name: 'request-ids' })
