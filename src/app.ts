import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from './config.ts'
import { catalogueRoutes } from './catalogue/catalogue.routes.ts'
import type { MediaLinker } from './catalogue/project.mapper.ts'
import { installErrorHandling } from './http/error-handler.ts'
import { ProblemSchema } from './http/errors.ts'
import { registerOpenApi } from './http/openapi.ts'
import { mediaRoutes, SDG_ICON_PATH } from './media/media.routes.ts'
import type { Store } from './store/connect.ts'
import { VERSION } from './version.ts'

export interface AppParts {
  config: Config
  store: Store
  /** Where log lines go; production writes to stdout, tests may capture them. */
  logStream?: NodeJS.WritableStream
}

export const CATALOGUE_PREFIX = '/api/v1/commerce/products'
export const CALCULATOR_PREFIX = '/api/v1/co2-calculator'

/** Builds the whole service from explicit parts. Tests call this exactly as the server does. */
export async function buildApp ({ config, store, logStream }: AppParts): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent'
      ? false
      : { level: config.logLevel, ...(logStream !== undefined && { stream: logStream }) },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    ajv: {
      // Query strings are text: coerce to the schema's types, fill defaults, drop unknown keys.
      customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false }
    }
  }).withTypeProvider<TypeBoxTypeProvider>()

  installErrorHandling(app)
  app.addSchema(ProblemSchema)
  await registerOpenApi(app, VERSION)

  const baseUrl = (request: FastifyRequest): string => config.publicUrl ?? `${request.protocol}://${request.host}`
  const requestUrl = (request: FastifyRequest): URL => new URL(`${baseUrl(request)}${request.url}`)
  const links = (request: FastifyRequest): MediaLinker => {
    const base = baseUrl(request)
    return {
      sdgIcon: (number) => `${base}${SDG_ICON_PATH}/${number}.svg`,
      image: (url) => url
    }
  }

  await app.register(catalogueRoutes, { prefix: CATALOGUE_PREFIX, db: store.db, requestUrl, links })
  await app.register(mediaRoutes, { db: store.db })
  return app
}
