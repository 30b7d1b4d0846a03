import type { FastifyInstance, FastifyRequest } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import type { Redis } from 'ioredis'
import { AppError } from './errors.ts'

export interface RateLimitOptions {
  /** Counter name, so that areas never share counters. */
  name: string
  /** Requests allowed per minute for this request's key. */
  max: (request: FastifyRequest) => number
  /** Whose counter a request counts against. */
  key: (request: FastifyRequest) => string
  /** Shared counters in Redis; in memory (this process only) when absent. */
  redis: Redis | undefined
}

/**
 * Fixed one-minute windows through @fastify/rate-limit. Every answer carries RateLimit-Limit,
 * -Remaining and -Reset; a 429 also carries Retry-After and the service's problem body.
 * Runs as a preHandler so that the API key check (onRequest) has identified the caller first.
 */
export async function registerRateLimit (app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    timeWindow: 60_000,
    max: async (request) => options.max(request),
    keyGenerator: options.key,
    nameSpace: `tonne-rate-limit:${options.name}:`,
    ...(options.redis !== undefined && { redis: options.redis }),
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) => new AppError(429, 'rate_limited',
      `Too many requests: the limit is ${context.max} per minute. Retry in ${context.after}.`)
  })
}
