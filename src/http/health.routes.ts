import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AppError } from './errors.ts'
import { errorResponses } from './schemas.ts'

export interface Dependency {
  name: string
  /** Resolves when the dependency answers; rejects (or times out) when it does not. */
  check: () => Promise<unknown>
}

const CHECK_TIMEOUT_MS = 2000

async function withTimeout (work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([work, new Promise((_resolve, reject) => { timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS) })])
  } finally {
    clearTimeout(timer)
  }
}

/** /health/live: the process answers. /health/ready: every dependency answers (else 503). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ dependencies: Dependency[] }> = async (app, { dependencies }) => {
  app.get('/health/live', {
    schema: { tags: ['operations'], summary: 'Liveness: the process answers', response: { 200: Type.Object({ status: Type.Literal('ok') }) } }
  }, async () => ({ status: 'ok' as const }))

  app.get('/health/ready', {
    schema: {
      tags: ['operations'],
      summary: 'Readiness: the database and (when configured) Redis answer',
      response: { 200: Type.Object({ status: Type.Literal('ready'), checks: Type.Record(Type.String(), Type.Literal('ok')) }), ...errorResponses(503) }
    }
  }, async () => {
    const results = await Promise.allSettled(dependencies.map(async (d) => { await withTimeout(d.check()) }))
    const failing = dependencies.filter((_d, i) => results[i]!.status === 'rejected').map((d) => d.name)
    if (failing.length > 0) throw new AppError(503, 'service_unavailable', `Not ready: ${failing.join(' and ')} unreachable.`)
    return { status: 'ready' as const, checks: Object.fromEntries(dependencies.map((d) => [d.name, 'ok' as const])) }
  })
}
