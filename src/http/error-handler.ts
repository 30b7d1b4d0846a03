import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import Router from 'find-my-way'
import fp from 'fastify-plugin'
import { InputError, NotFoundError } from '../domain/errors.ts'
import { isUnavailable } from '../store/availability.ts'
import { AppError, ProblemSchema, statusText, type ErrorCode, type Problem } from './errors.ts'
import { requestLineProblem } from './request-line.ts'
import { RepeatedErrors } from './repeated-errors.ts'
import { SECURITY_HEADERS } from './security-headers.ts'

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'bad_request',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable'
}

const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED',
  'ERR_HTTP_HEADERS_SENT'])

function clientWentAway (error: Error & { code?: unknown }): boolean {
  return typeof error.code === 'string' && CLIENT_GONE.has(error.code)
}

function isClientError (error: FastifyError | AppError): boolean {
  if (error instanceof AppError) return error.status < 500
  const status = error.statusCode ?? 500
  return fromDomain(error) !== undefined || error.validation !== undefined || (status >= 400 && status < 500)
}

function sendProblem (request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const body: Problem = {
    type: 'about:blank',
    title: statusText(error.status),
    status: error.status,
    code: error.code,
    detail: error.message,
    ...(error.parameter !== undefined && { parameter: error.parameter }),
    ...(error.allowedValues !== undefined && { allowed_values: [...error.allowedValues] }),
    request_id: request.id
  }
  return reply.code(error.status).headers(error.headers).type('application/problem+json; charset=utf-8').send(body)
}

/**
 * The one way from a domain error (src/domain/errors.ts, which every area extends) to a problem: bad input
 * is a 400 naming the parameter, a missing thing a 404. Anything else is not a domain error.
 */
function fromDomain (error: unknown): AppError | undefined {
  if (error instanceof InputError) {
    return new AppError(400, error.kind, error.message,
      { parameter: error.parameter, allowedValues: error.allowedValues })
  }
  if (error instanceof NotFoundError) return AppError.notFound(error.message)
  return undefined
}

interface AjvError { keyword: string, instancePath: string, params: Record<string, unknown>, message?: string }

/** Turns the first schema-validation failure into a problem that names the parameter. */
function fromValidation (errors: AjvError[], context: string | undefined): AppError {
  // A malformed path id is a resource that does not exist, not a bad request (spec 4.1).
  if (context === 'params') return AppError.notFound()
  const first = errors[0]
  if (first === undefined) return new AppError(400, 'bad_request', 'The request is not valid.')
  const parameter = first.keyword === 'required'
    ? String(first.params['missingProperty'])
    : first.instancePath.split('/').filter((p) => p !== '')[0] ?? context ?? 'request'
  const p = first.params
  switch (first.keyword) {
    case 'required':
      return new AppError(400, 'missing_parameter', `${parameter} is required.`, { parameter })
    case 'enum': {
      const allowed = (p['allowedValues'] as unknown[]).map(String)
      return AppError.invalidParameter(parameter, `${parameter} must be one of: ${allowed.join(', ')}.`, allowed)
    }
    case 'type':
      return AppError.invalidParameter(parameter,
        `${parameter} must be ${p['type'] === 'integer' ? 'an integer' : `a single ${String(p['type'])}`}.`)
    case 'minimum':
    case 'exclusiveMinimum':
      return AppError.invalidParameter(parameter,
        `${parameter} must be ${first.keyword === 'minimum' ? 'at least' : 'greater than'} ${String(p['limit'])}.`)
    case 'maximum':
    case 'exclusiveMaximum':
      return AppError.invalidParameter(parameter,
        `${parameter} must be ${first.keyword === 'maximum' ? 'at most' : 'less than'} ${String(p['limit'])}.`)
    case 'maxLength':
      return AppError.invalidParameter(parameter, `${parameter} must be at most ${String(p['limit'])} characters long.`)
    case 'minLength':
      return AppError.invalidParameter(parameter, `${parameter} must not be empty.`)
    default:
      return AppError.invalidParameter(parameter, `${parameter} ${first.message ?? 'is not valid'}.`)
  }
}

/**
 * Errors Fastify meets before routing (Fastify's `frameworkErrors` option), in the same problem body:
 * a path that is not validly percent-encoded is a 400; a path segment longer than any id or media key
 * names nothing, so it is a 404 like any other malformed id.
 */
export function frameworkError (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? '/'
  const problem = requestLineProblem(request) ?? (error.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? AppError.notFound(`No resource at ${path.slice(0, 200)}.`)
    : new AppError(400, 'bad_request', 'The request path is not validly percent-encoded (UTF-8).'))
  // These errors come before the onRequest hooks that set the security headers.
  return sendProblem(request, reply.headers(SECURITY_HEADERS), problem)
}

/**
 * One error body for everything: AppErrors, schema validation, Fastify's own 4xx errors,
 * unknown paths (404), known paths with another method (405 + Allow) and crashes (500,
 * logged with the stack, answered without it). The problem body's schema is shared, for the routes to name.
 */
export const errorHandling = fp(async (app) => {
  app.addSchema(ProblemSchema)
  installErrorHandling(app)
}, { name: 'error-handling' })

function installErrorHandling (app: FastifyInstance): void {
  const repeated = new RepeatedErrors(app.log)
  app.addHook('onClose', (_app, done) => {
    repeated.flush()
    done()
  })
  // Every GET route's path, so that a 404 can tell "no such path" from "no such method".
  const getPaths = Router({ ignoreTrailingSlash: true })
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (methods.includes('GET')) getPaths.on('GET', route.url, () => undefined)
  })

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    // Nothing more can be said once an answer is under way or the client has gone. A client that went
    // away is routine (info); any other error is still logged as one.
    if (reply.raw.headersSent || reply.raw.destroyed) {
      if (clientWentAway(error)) request.log.info({ err: error }, 'the client went away before the answer was complete')
      // An error answer (404, 400) that its client left before it was built: routine, not a failure.
      else if (isClientError(error)) request.log.info(`the client went away before its error answer: ${error.message}`)
      else request.log.error({ err: error }, 'request failed after its answer had begun or its client had gone')
      reply.raw.destroy()
      reply.hijack()
      return
    }
    if (error instanceof AppError) return sendProblem(request, reply, error)
    const domain = fromDomain(error)
    if (domain !== undefined) return sendProblem(request, reply, domain)
    if (error.validation !== undefined) {
      return sendProblem(request, reply, fromValidation(error.validation as AjvError[], error.validationContext))
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      const code = CODE_BY_STATUS[status] ?? 'bad_request'
      return sendProblem(request, reply, new AppError(status, code, error.message))
    }
    const unavailable = status === 503 || isUnavailable(error)
    const message = unavailable ? 'a backing service is unavailable' : 'request failed'
    if (repeated.first(message, error)) request.log.error({ err: error }, message)
    const failure = unavailable
      ? new AppError(503, 'service_unavailable', 'The service is temporarily unavailable; retry later.')
      : new AppError(500, 'internal_error', 'An internal error occurred; it has been logged.')
    return sendProblem(request, reply, failure)
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    if (request.method !== 'GET' && request.method !== 'HEAD' && getPaths.find('GET', path) !== null) {
      return sendProblem(request, reply, new AppError(405, 'method_not_allowed',
        `${request.method} is not allowed here; this API is read-only.`, { headers: { allow: 'GET, HEAD' } }))
    }
    return sendProblem(request, reply, AppError.notFound(`No resource at ${path}.`))
  })
}
