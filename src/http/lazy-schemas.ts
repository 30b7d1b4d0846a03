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

// One pool each for the whole process, as Fastify's own controller keeps one per app: a pool makes one Ajv per set
// of shared schemas and options (a new pool per plugin context made a new Ajv, with its meta-schemas, ~30 ms of a
// start), and Ajv keeps what it compiled by schema object. Apps in one process (the test suites build hundreds)
// then compile each route schema once, not once per app: the route schemas are module constants.
const validators = ValidatorSelector() as unknown as ValidatorPool
const serializerPool = SerializerSelector()
// fast-json-stringify keeps nothing: its functions are kept here by schema object, then by the shared schemas and
// options they were built with (the same for every app of this service).
const serialized = new WeakMap<object, Map<string, (data: unknown) => string>>()
const serializers: SerializerFactory = (externalSchemas, options) => {
  const compile = serializerPool(externalSchemas, options)
  const pool = JSON.stringify([externalSchemas, options])
  return (route) => {
    const schema = (route as { schema?: unknown }).schema
    if (typeof schema !== 'object' || schema === null) return compile(route)
    let built = serialized.get(schema)
    if (built === undefined) serialized.set(schema, built = new Map())
    let serialize = built.get(pool)
    if (serialize === undefined) built.set(pool, serialize = compile(route) as (data: unknown) => string)
    return serialize
  }
}

export function lazySchemas (): LazySchemas {
  const pending: Array<{ route: RouteSchema, compile: () => void }> = []

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
