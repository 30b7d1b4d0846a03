import assert from 'node:assert/strict'
import { test } from 'node:test'
import Fastify from 'fastify'
import { lazySchemas } from '../../src/http/lazy-schemas.ts'
import { buildTestApp } from '../helpers.ts'

// Issue 23: route schemas compile after the server listens (a faster start), but a broken one still surfaces
// at start, not on its route's first request.

test('every route schema of the service compiles in the pass after listening', async (t) => {
  const { app } = await buildTestApp(t)
  await app.ready()
  const compiled = await app.compileSchemas()
  assert.ok(compiled > 20, `compiled ${compiled}`)
  assert.equal(await app.compileSchemas(), 0, 'each once')
  // A route used before the pass keeps working after it.
  assert.equal((await app.inject('/api/v1/co2-calculator/ping')).statusCode, 200)
})

test('a broken schema is reported by the pass, naming its route, though ready() and other routes work', async (t) => {
  const schemas = lazySchemas()
  const app = Fastify({ schemaController: { compilersFactory: schemas.compilersFactory } })
  t.after(async () => await app.close())
  app.get('/fine', { schema: { querystring: { type: 'object', properties: { a: { type: 'string' } } } } },
    async () => ({ ok: true }))
  app.get('/broken', { schema: { querystring: { type: 'object', properties: { a: { type: 'no-such-type' } } } } },
    async () => ({ ok: true }))
  await app.ready()
  assert.equal((await app.inject('/fine?a=1')).statusCode, 200)
  await assert.rejects(schemas.compileAll(), /querystring schema of GET \/broken does not compile/)
})
