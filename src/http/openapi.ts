import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import type { Scope } from '../access/api-keys.ts'
import { errorResponses, RATE_LIMIT_HEADERS } from './schemas.ts'
import { PAGE_CSP } from './page-csp.ts'

/** The docs page's own files: HTML, CSS and one script module, served as they are (no build step). */
export const DOCS_UI_DIR = path.join(import.meta.dirname, 'docs-ui')

/**
 * The OpenAPI 3.1 document is generated from the route schemas (never written by hand) and
 * served at /openapi.json; /docs is Tonne's page over it, with a form to try each operation
 * (chosen over Swagger UI and others by measurement: docs/api.md, "Interactive documentation").
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
    transformObject: (document) =>
      finish('openapiObject' in document ? document.openapiObject : document.swaggerObject),
    // Shared schemas keep their $id as the component name (Problem), not def-N.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => typeof json.$id === 'string' ? json.$id : `def-${i}`
    }
  })
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  // A child context, so the CSP covers the docs page's answers and nothing else.
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', PAGE_CSP)
    })
    await docs.register(fastifyStatic, {
      root: DOCS_UI_DIR,
      prefix: '/docs/assets/',
      index: false,
      schemaHide: true,
      // Not fingerprinted: browsers revalidate (ETag) instead of keeping a stale copy after an upgrade.
      cacheControl: true,
      maxAge: 0
    })
    docs.get('/docs', { schema: { hide: true } }, async (_request, reply) => await reply.sendFile('index.html'))
  })
}

export interface GuardedArea {
  /** The scope a key needs (required) or that identifies a caller by key (optional). */
  scope: Scope
  /** Whether a key is required (the catalogue) or only optional (the calculator). */
  keyRequired: boolean
  /** Answers carry an ETag and answer If-None-Match with 304. */
  conditional: boolean
}

/**
 * Documents, on every route of an area, what the area's hooks do to it: the key check (security, 401,
 * and 403 when a key is required), the rate limit (RateLimit-* on every answer, 429) and, where
 * answers are conditional, ETag and 304. Call it in the area before its routes are registered.
 */
export function documentGuardedArea (area: FastifyInstance, { scope, keyRequired, conditional }: GuardedArea): void {
  area.addHook('onRoute', (route) => {
    const schema = route.schema
    if (schema === undefined) return
    schema.security = keyRequired ? [{ apiKey: [scope] }] : [{}, { apiKey: [scope] }]
    const responses = { ...schema.response as Record<string, Record<string, unknown>> }
    for (const [status, response] of Object.entries(responses)) {
      if (!status.startsWith('2')) continue
      const headers = { ...RATE_LIMIT_HEADERS, ...(conditional && { ETag: ETAG_HEADER }) }
      responses[status] = { ...response, headers: { ...response['headers'] as object, ...headers } }
    }
    const errors = errorResponses(...(keyRequired ? [401, 403, 429] : [401, 429]))
    // GET and HEAD share one schema object: it may already have been documented.
    for (const [status, response] of Object.entries(errors)) responses[status] ??= response as Record<string, unknown>
    if (conditional) responses['304'] ??= NOT_MODIFIED
    schema.response = responses
  })
}

const ETAG_HEADER = {
  type: 'string',
  description: 'A weak validator of the answer: send it back as If-None-Match to get a 304 while it is unchanged.'
}
const NOT_MODIFIED = {
  type: 'null',
  description: 'Not modified: the If-None-Match header names the current ETag. No body.',
  headers: { ETag: ETAG_HEADER, ...RATE_LIMIT_HEADERS }
}

/**
 * The last pass over the generated document: a parameter with a default may be left out (the validator
 * fills it in), so it is not required; a response header marked `required` in its schema is required.
 */
function finish<T> (document: T): T {
  for (const item of Object.values((document as Document).paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.schema?.['default'] !== undefined) parameter.required = false
      }
      for (const response of Object.values(operation.responses ?? {})) {
        for (const header of Object.values(response.headers ?? {})) {
          const schema = header.schema
          if (schema?.['required'] !== true) continue
          delete schema['required']
          header.required = true
        }
      }
    }
  }
  return document
}

/** The parts of an OpenAPI document that the last pass changes. */
interface Document {
  paths?: Record<string, Record<string, {
    parameters?: Array<{ in: string, required?: boolean, schema?: Record<string, unknown> }>
    responses?: Record<string, { headers?: Record<string, { required?: boolean, schema?: Record<string, unknown> }> }>
  }>>
}
