import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AppError } from './errors.ts'
import { errorResponses } from './schemas.ts'

export interface Dependency {
  name: string
  /** Resolves when the dependency answers; rejects (or times out) when it does not. */
  check: () => Promise<unknown>
  /** The service works without it (degraded): readiness stays 200 and says so. */
  optional?: boolean
}

const CHECK_TIMEOUT_MS = 2000

async function withTimeout (work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  try {
    const timeout = new Promise((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS)
    })
    await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * /health/live: the process answers. /health/ready: every required dependency answers (else 503);
 * an optional one that does not (Redis under RATE_LIMIT_ON_REDIS_ERROR=local) makes it "degraded".
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{ dependencies: Dependency[] }> = async (app,
  { dependencies }) => {
  app.get('/health/live', {
    schema: {
      tags: ['operations'],
      operationId: 'getLiveness',
      summary: 'Liveness: the process answers',
      response: { 200: Type.Object({ status: Type.Literal('ok') }) }
    }
  }, async () => ({ status: 'ok' as const }))

  app.get('/health/ready', {
    schema: {
      tags: ['operations'],
      operationId: 'getReadiness',
      summary: 'Readiness: the database and (when configured) Redis answer',
      description: '"degraded" (still 200) when Redis does not answer and rate limits are counted per process ' +
        'meanwhile.',
      response: {
        200: Type.Object({
          status: Type.Union([Type.Literal('ready'), Type.Literal('degraded')]),
          checks: Type.Record(Type.String(), Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]))
        }),
        ...errorResponses(503)
      }
    }
  }, async () => {
    const results = await Promise.allSettled(dependencies.map(async (d) => { await withTimeout(d.check()) }))
    const failing = dependencies.filter((_d, i) => results[i]!.status === 'rejected')
    const required = failing.filter((d) => d.optional !== true).map((d) => d.name)
    if (required.length > 0) {
      throw new AppError(503, 'service_unavailable', `Not ready: ${required.join(' and ')} unreachable.`)
    }
    return {
      status: failing.length > 0 ? 'degraded' as const : 'ready' as const,
      checks: Object.fromEntries(dependencies.map((d) =>
        [d.name, failing.includes(d) ? 'unavailable' as const : 'ok' as const]))
    }
  })
}
