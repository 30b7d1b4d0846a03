import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'

/**
 * The OpenAPI 3.1 document is generated from the route schemas (never written by hand) and
 * served at /openapi.json; /docs is the interactive UI over it.
 */
export async function registerOpenApi (app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tonne API',
        version,
        description: 'Carbon-offset project catalogue and personal footprint calculator. ' +
          'Every error is an RFC 9457 problem body (`application/problem+json`) with a stable `code`.',
        license: { name: 'MIT', identifier: 'MIT' }
      },
      tags: [
        { name: 'catalogue', description: 'Carbon-offset projects (beta: may change before its final release).' },
        { name: 'calculator', description: 'Annual carbon footprint of one person, with cited factors.' },
        { name: 'media', description: 'Project images and SDG icons behind signed, expiring links.' },
        { name: 'operations', description: 'Liveness and readiness for load balancers and orchestrators.' }
      ],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key from `tonne keys create`, as `Authorization: Bearer KEY` (or the `X-API-Key` ' +
              'header).'
          }
        }
      }
    },
    hideUntagged: true,
    // Shared schemas keep their $id as the component name (Problem), not def-N.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => typeof json.$id === 'string'
        ? json.$id
        : `def-${i}`
    }
  })
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true })
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
}
