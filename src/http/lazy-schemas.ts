import ValidatorSelector, { type ValidatorFactory } from '@fastify/ajv-compiler'
import SerializerSelector, { type SerializerFactory } from '@fastify/fast-json-stringify-compiler'

// Fastify's own schema compilers (ajv, fast-json-stringify), run on a route's first use instead of at start:
// compiling every route's schemas was ~180 ms of a ~1 s restart (docs/performance.md). A route's first
// request pays its own few milliseconds instead; every route is exercised by the tests.

type Validate = ((data: unknown) => unknown) & { errors?: unknown }
type CompileValidator = (route: unknown) => Validate
type ValidatorPool = (externalSchemas: unknown, options?: unknown) => CompileValidator

const buildValidator = (externalSchemas: unknown, options?: unknown): CompileValidator => {
  const compile = (ValidatorSelector() as unknown as ValidatorPool)(externalSchemas, options)
  return (route) => {
    let validate: Validate | undefined
    const lazy: Validate = (data) => {
      validate ??= compile(route)
      const result = validate(data)
      // Fastify reads the errors from the function it was given.
      lazy.errors = validate.errors
      return result
    }
    return lazy
  }
}

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options)
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data: unknown) => (serialize ??= compile(route))(data)
  }
}

export const lazySchemaCompilers = { buildValidator: buildValidator as unknown as ValidatorFactory, buildSerializer }
