import cors from '@fastify/cors'
import fp from 'fastify-plugin'

/**
 * Cross-origin reads for the origins CORS_ORIGINS names (`*` for any); none named, no CORS headers at all. Only
 * GET and HEAD, with the key headers, and the rate-limit and request-id headers readable by the page.
 */
export const crossOrigin = fp<{ origins: readonly string[] }>(async (app, { origins }) => {
  if (origins.length === 0) return
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD'],
    allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type'],
    exposedHeaders: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id'],
    maxAge: 600
  })
}, { name: 'cross-origin' })
