import { setImmediate as turn } from 'node:timers/promises'
import ValidatorSelector, { type ValidatorFactory } from '@fastify/ajv-compiler'
import SerializerSelector, { type SerializerFactory } from '@fastify/fast-json-stringify-compiler'
import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles the route schemas not used yet (src/http/lazy-schemas.ts): call once the server listens. */
    compileSchemas: () => Promise<number>
  }
}

// Fastify's own schema compilers (ajv, fast-json-stringify), run after the server listens instead of before:
// compiling every route's schemas was ~180 ms of a ~1 s restart (docs/performance.md). `compileAll()`, called
// right after listening, compiles every schema not yet used, so a broken schema still stops the start (within
// a fraction of a second) instead of failing its route's first request; a request that comes first compiles
// its own route's schema itself.

type Validate = ((data: unknown) => unknown) & { errors?: unknown }
type CompileValidator = (route: unknown) => Validate
type ValidatorPool = (externalSchemas: unknown, options?: unknown) => CompileValidator

interface RouteSchema { method?: string, url?: string, httpPart?: string, httpStatus?: string }

interface LazySchemas {
  /** For Fastify's `schemaController.compilersFactory`. */
  compilersFactory: { buildValidator: ValidatorFactory, buildSerializer: SerializerFactory }
  /**
   * Compiles every schema not compiled yet, one per turn of the event loop so requests are answered meanwhile;
   * rejects with the first failure, naming its route. Resolves to how many it compiled.
   */
  compileAll: () => Promise<number>
}

export function lazySchemas (): LazySchemas {
  const pending: Array<{ route: RouteSchema, compile: () => void }> = []
  // One pool each, as Fastify's own controller keeps: a pool makes one Ajv per set of shared schemas, and a new
  // pool per context made a new Ajv (with its meta-schemas) for every plugin context, ~30 ms of a start.
  const validators = ValidatorSelector() as unknown as ValidatorPool
  const serializers = SerializerSelector()

  const buildValidator = (externalSchemas: unknown, options?: unknown): CompileValidator => {
    const compile = validators(externalSchemas, options)
    return (route) => {
      let validate: Validate | undefined
      const lazy: Validate = (data) => {
        validate ??= compile(route)
        const result = validate(data)
        // Fastify reads the errors from the function it was given.
        lazy.errors = validate.errors
        return result
      }
      pending.push({ route: route as RouteSchema, compile: () => { validate ??= compile(route) } })
      return lazy
    }
  }

  const buildSerializer: SerializerFactory = (externalSchemas, options) => {
    const compile = serializers(externalSchemas, options)
    return (route) => {
      let serialize: ((data: unknown) => string) | undefined
      pending.push({ route: route as RouteSchema, compile: () => { serialize ??= compile(route) } })
      return (data: unknown) => (serialize ??= compile(route))(data)
    }
  }

  return {
    compilersFactory: { buildValidator: buildValidator as unknown as ValidatorFactory, buildSerializer },
    compileAll: async () => {
      let count = 0
      for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
        const { route, compile } = next
        count++
        try {
          compile()
          await turn()
        } catch (error) {
          const part = route.httpPart ?? `response ${route.httpStatus ?? ''}`.trim()
          throw new Error(`the ${part} schema of ${route.method ?? ''} ${route.url ?? ''} does not compile: ` +
            `${error instanceof Error ? error.message : String(error)}`, { cause: error })
        }
      }
      return count
    }
  }
}

/** Gives the app `compileSchemas`, for the server to call once it listens. */
export const schemaCompilation = fp<{ compileAll: () => Promise<number> }>(async (app, { compileAll }) => {
  app.decorate('compileSchemas', compileAll)
}, { name: 'schema-compilation' })
