import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import fp from 'fastify-plugin'
import type { Scope } from '../access/api-keys.ts'
import { errorResponses, RATE_LIMIT_HEADERS } from './schemas.ts'
import { PAGE_CSP } from './page-csp.ts'

/** The docs page's own files: HTML, CSS and one script module, served as they are (no build step). */
const DOCS_UI_DIR = path.join(import.meta.dirname, 'docs-ui')

/**
 * The OpenAPI 3.1 document is generated from the route schemas (never written by hand) and
 * served at /openapi.json; /docs is Tonne's page over it, with a form to try each operation
 * (chosen over Swagger UI and others by measurement: docs/api.md, "Interactive documentation").
 */
export const openApi = fp<{ version: string }>(async (app, { version }) => {
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
        {
          name: 'ledger',
          description: 'The catalogue\'s credit transactions: issuances, retirements and cancellations (beta).'
        },
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
}, { name: 'openapi' })

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False on a route of a conditional area whose answers carry no validators (the calculator's ping). */
    conditional?: boolean
  }
}

interface GuardedArea {
  /** The scope a key needs (required) or that identifies a caller by key (optional). */
  scope: Scope
  /** Whether a key is required (the catalogue) or only optional (the calculator). */
  keyRequired: boolean
  /**
   * How the area's answers are validated and kept (its AnswerArea, http/answer-path.ts): an ETag, a 304 for
   * If-None-Match, and a Cache-Control; false for none.
   */
  conditional: false | { validator: 'weak' | 'strong', cacheControl: string }
}

/**
 * Documents, on every route of an area, what the area's hooks do to it: the key check (security, 401,
 * and 403 when a key is required), the rate limit (RateLimit-* on every answer, 429) and, where
 * answers are conditional, ETag, Cache-Control and 304. Call it in the area before its routes are registered.
 */
export function documentGuardedArea (area: FastifyInstance, { scope, keyRequired, conditional }: GuardedArea): void {
  const validated = conditional === false
    ? undefined
    : validatorHeaders(conditional.validator, conditional.cacheControl)
  const how = `${scope} ${keyRequired} ${JSON.stringify(conditional)}`
  area.addHook('onRoute', (route) => {
    const schema = route.schema
    if (schema === undefined) return
    const validators = route.config?.conditional === false ? undefined : validated
    // Route schemas are module constants: a later app in the same process (the tests build hundreds) finds them
    // documented already, and keeps the same response objects, so their compiled serializers are reused.
    const documentedAs = `${how} ${validators === undefined}`
    if (documented.get(schema) === documentedAs) return
    documented.set(schema, documentedAs)
    schema.security = keyRequired ? [{ apiKey: [scope] }] : [{}, { apiKey: [scope] }]
    const responses = { ...schema.response as Record<string, Record<string, unknown>> }
    for (const [status, response] of Object.entries(responses)) {
      if (!status.startsWith('2')) continue
      const headers = { ...RATE_LIMIT_HEADERS, ...validators }
      responses[status] = { ...response, headers: { ...response['headers'] as object, ...headers } }
    }
    const errors = errorResponses(...(keyRequired ? [401, 403, 429] : [401, 429]))
    // GET and HEAD share one schema object: it may already have been documented.
    for (const [status, response] of Object.entries(errors)) responses[status] ??= response as Record<string, unknown>
    if (validators !== undefined) {
      responses['304'] ??= {
        type: 'null',
        description: 'Not modified: the If-None-Match header names the current ETag. No body.',
        headers: { ...validators, ...RATE_LIMIT_HEADERS }
      }
    }
    schema.response = responses
  })
}

/** The route schemas already documented, and how. */
const documented = new WeakMap<object, string>()

function validatorHeaders (validator: 'weak' | 'strong', cacheControl: string): Record<string, object> {
  return {
    ETag: {
      type: 'string',
      description: validator === 'weak'
        ? 'A weak validator of the answer: send it back as If-None-Match to get a 304 while it is unchanged.'
        : 'A strong validator of the answer\'s bytes (one per content coding): send it back as If-None-Match to ' +
          'get a 304 while it is unchanged.'
    },
    'Cache-Control': { type: 'string', description: `\`${cacheControl}\` on every successful answer.` }
  }
}

/**
 * The last pass over the generated document: a parameter with a default may be left out (the validator
 * fills it in), so it is not required; a response header marked `required` in its schema is required.
 * Every answer gets a description and an example, and every operation a sample request. A path is listed once,
 * as the routes spell it (with its trailing slash): the router answers it without the slash too (README).
 */
function finish<T> (document: T): T {
  const doc = document as Document
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.schema?.['default'] !== undefined) parameter.required = false
      }
      describeResponses(path, operation, doc.components?.schemas ?? {})
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
  addSampleRequests(doc)
  return document
}

/**
 * Each operation's first request to copy (`x-sample-request`: path and query, no origin), which /docs shows as
 * curl, JavaScript and Python and a test sends to the app: the required parameters' examples and the route's own
 * `x-sample` query where it gives one (the calculator's input modes need more than the required parameters).
 * An operation whose links come from other answers (`x-sample-link`, media) has none of its own.
 */
function addSampleRequests (doc: Document): void {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (operation['x-sample-link'] !== undefined) continue
      let url = path
      const query = new URLSearchParams()
      for (const parameter of operation.parameters ?? []) {
        const example = parameterExample(parameter)
        if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, String(example ?? 1))
        else if (parameter.in === 'query' && parameter.required === true && example !== undefined) {
          query.set(parameter.name, String(example))
        }
      }
      for (const [name, value] of Object.entries(operation['x-sample'] ?? {})) query.set(name, String(value))
      operation['x-sample-request'] = `${url}${query.size > 0 ? `?${query}` : ''}`
      delete operation['x-sample']
    }
  }
}

function parameterExample (parameter: Parameter): unknown {
  const schema = parameter.schema ?? {}
  const examples = schema['examples']
  return parameter.example ?? (Array.isArray(examples) ? examples[0] : undefined) ??
    (Array.isArray(schema['enum']) ? schema['enum'][0] : undefined) ?? schema['default']
}

/** What each error status's example body says (realistic bodies of this service, with an example request id). */
const PROBLEM_EXAMPLES: Record<string, { code: string, title: string, detail: string, parameter?: string }> = {
  400: {
    code: 'invalid_parameter',
    title: 'Bad Request',
    detail: 'querystring/limit must be <= 100',
    parameter: 'limit'
  },
  401: {
    code: 'unauthorized',
    title: 'Unauthorized',
    detail: 'An API key is required: send "Authorization: Bearer KEY" or "X-API-Key: KEY".'
  },
  403: { code: 'forbidden', title: 'Forbidden', detail: 'This API key lacks the "catalogue:read" scope.' },
  404: { code: 'not_found', title: 'Not Found', detail: 'No project with id 999999.' },
  429: {
    code: 'rate_limited',
    title: 'Too Many Requests',
    detail: 'Too many requests: the limit is 600 per minute. Retry in 12 seconds.'
  },
  500: { code: 'internal_error', title: 'Internal Server Error', detail: 'An internal error occurred.' },
  503: { code: 'service_unavailable', title: 'Service Unavailable', detail: 'The database is unavailable.' }
}

/**
 * No answer reads "Default Response" (the generator's word when a schema has no description), and every
 * body has an example: the problem body per status, a success body built from its schema's own examples.
 */
function describeResponses (path: string, operation: Operation, schemas: Record<string, Schema>): void {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (response.description === undefined || response.description === 'Default Response') {
      const schema = Object.values(response.content ?? {})[0]?.schema
      const described = resolve(schema, schemas)?.['description']
      response.description = typeof described === 'string' ? described : `OK: ${operation.summary ?? 'the answer'}.`
    }
    for (const [type, content] of Object.entries(response.content ?? {})) {
      if (content.example !== undefined || content.examples !== undefined || content.schema === undefined) continue
      const problem = PROBLEM_EXAMPLES[status]
      if (type === 'application/problem+json' && problem !== undefined) {
        content.example = {
          type: 'about:blank',
          status: Number(status),
          ...problem,
          ...(status === '404' && !path.includes('{id}') && { detail: 'No such file.' }),
          request_id: 'req-1a2b3c'
        }
      } else if (type.startsWith('application/')) {
        content.example = exampleOf(content.schema, schemas, 0)
      }
    }
  }
}

type Schema = Record<string, unknown>

function resolve (schema: Schema | undefined, schemas: Record<string, Schema>): Schema | undefined {
  const ref = schema?.['$ref']
  if (typeof ref !== 'string') return schema
  return schemas[ref.replace('#/components/schemas/', '')]
}

/**
 * A value of `schema`: its own example or default where it gives one, otherwise one built from its parts
 * (the catalogue's schemas carry examples from the bundled catalogue, so most values are real ones).
 */
function exampleOf (given: Schema | undefined, schemas: Record<string, Schema>, depth: number): unknown {
  const schema = resolve(given, schemas)
  if (schema === undefined || depth > 12) return null
  const examples = schema['examples']
  if (Array.isArray(examples) && examples.length > 0) return examples[0]
  if (schema['example'] !== undefined) return schema['example']
  if (schema['const'] !== undefined) return schema['const']
  if (schema['default'] !== undefined) return schema['default']
  if (Array.isArray(schema['enum'])) return schema['enum'][0]
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as Schema[] | undefined
    // A value where the schema gives one; null where it allows null and gives no example of the value.
    if (Array.isArray(options)) {
      const chosen = options.find((option) => option['type'] !== 'null' && exemplified(option, schemas)) ??
        options.find((option) => option['type'] === 'null') ?? options[0]
      return exampleOf(chosen, schemas, depth + 1)
    }
  }
  if (Array.isArray(schema['allOf'])) {
    return Object.assign({}, ...(schema['allOf'] as Schema[]).map((part) => exampleOf(part, schemas, depth + 1)))
  }
  const type = Array.isArray(schema['type'])
    ? (schema['type'] as string[]).find((t) => t !== 'null')
    : schema['type'] as string | undefined
  switch (type) {
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>
      return Object.fromEntries(Object.entries(properties)
        .map(([name, property]) => [name, exampleOf(property, schemas, depth + 1)]))
    }
    case 'array': {
      const count = Math.max(1, Number(schema['minItems'] ?? 1))
      const item = exampleOf(schema['items'] as Schema | undefined, schemas, depth + 1)
      return Array.from({ length: count }, () => item)
    }
    case 'integer':
    case 'number':
      return Math.max(Number(schema['minimum'] ?? 0), Number(schema['exclusiveMinimum'] ?? -1) + 1, 1)
    case 'boolean':
      return true
    case 'string':
      return stringExample(schema)
    case 'null':
      return null
    default:
      return null
  }
}

/** Whether the schema (or, for an object, each of its properties) gives its own example value. */
function exemplified (given: Schema, schemas: Record<string, Schema>): boolean {
  const schema = resolve(given, schemas) ?? {}
  if (['examples', 'example', 'const', 'default', 'enum'].some((key) => schema[key] !== undefined)) return true
  if (schema['type'] === 'object') {
    return Object.values((schema['properties'] ?? {}) as Record<string, Schema>)
      .every((property) => exemplified(property, schemas))
  }
  return schema['type'] !== 'string' || schema['pattern'] === undefined
}

function stringExample (schema: Schema): string {
  switch (schema['format']) {
    case 'date-time': return '2026-11-23T10:00:00Z'
    case 'date': return '2026-11-23'
    case 'uri': return 'https://example.org/'
    default: {
      const pattern = typeof schema['pattern'] === 'string' ? new RegExp(schema['pattern'], 'u') : undefined
      const fitting = ['BR', 'BRA', 'VERRA', 'string'].find((candidate) => pattern?.test(candidate) ?? true)
      return (fitting ?? 'string').padEnd(Number(schema['minLength'] ?? 0), 'x')
    }
  }
}

interface Parameter { name: string, in: string, required?: boolean, example?: unknown, schema?: Schema }

interface Operation {
  summary?: string
  parameters?: Parameter[]
  /** The route's sample query (see addSampleRequests), replaced by `x-sample-request`. */
  'x-sample'?: Record<string, string | number>
  'x-sample-request'?: string
  'x-sample-link'?: unknown
  responses?: Record<string, {
    description?: string
    headers?: Record<string, { required?: boolean, schema?: Record<string, unknown> }>
    content?: Record<string, { schema?: Schema, example?: unknown, examples?: unknown }>
  }>
}

/** The parts of an OpenAPI document that the last pass changes. */
interface Document {
  paths?: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Schema> }
}
