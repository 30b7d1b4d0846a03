import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildTestApp } from '../helpers.ts'

test('/openapi.json is an OpenAPI 3.1 document generated from the route schemas', async (t) => {
  const { app } = await buildTestApp(t)
  const response = await app.inject('/openapi.json')
  assert.equal(response.statusCode, 200)
  const doc = response.json()
  assert.equal(doc.openapi, '3.1.0')
  const list = doc.paths['/api/v1/commerce/products/'].get
  const names = list.parameters.map((p: { name: string }) => p.name)
  for (const name of ['limit', 'offset', 'in_sale', 'location', 'credit_type', 'registry', 'rating', 'search',
    'ordering']) {
    assert.ok(names.includes(name), `list documents ${name}`)
  }
  const limit = list.parameters.find((p: { name: string }) => p.name === 'limit')
  assert.equal(limit.schema.maximum, 1000)
  assert.equal(limit.schema.default, 50)
  assert.ok(list.responses['200'])
  assert.ok(list.responses['400'], 'the error shape is documented')
  const detail = doc.paths['/api/v1/commerce/products/{id}/'].get
  assert.ok(detail.responses['404'])
  assert.ok(JSON.stringify(doc).includes('request_id'), 'the Problem schema is in the document')
  assert.ok(!('/openapi.json' in doc.paths), 'infrastructure routes are hidden')
})

test('/docs serves the interactive documentation', async (t) => {
  const { app } = await buildTestApp(t)
  const response = await app.inject('/docs/')
  assert.equal(response.statusCode, 200)
  assert.match(response.headers['content-type'] as string, /text\/html/)
  assert.match(response.body, /<title>Tonne API documentation<\/title>/)
})
