import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { buildTestApp } from '../helpers.ts'

// Issue 25, item 8: every answer of the API document has a description and an example that its own schema
// accepts (success and problem bodies, the calculator included); the paths without a trailing slash are answered.

interface Content { schema?: Record<string, unknown>, example?: unknown, examples?: unknown }
interface Response { description?: string, content?: Record<string, Content> }
interface Operation { summary?: string, responses: Record<string, Response> }
interface Document {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Record<string, unknown>> }
}

test('every JSON answer has a description and an example its schema accepts; slashless paths answer',
  async (t) => {
    const { app, inject } = await buildTestApp(t)
    const doc = (await app.inject('/openapi.json')).json() as Document
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      ajv.addSchema({ ...schema, $id: undefined }, `#/components/schemas/${name}`)
    }
    // Most answers share a schema (the problem bodies above all): each distinct one is compiled once.
    const validators = new Map<string, ValidateFunction>()
    const compiled = (schema: Content['schema']): ValidateFunction => {
      const key = JSON.stringify(schema)
      let validate = validators.get(key)
      if (validate === undefined) validators.set(key, validate = ajv.compile({ ...schema, components: doc.components }))
      return validate
    }
    let checked = 0
    const statuses = new Set<string>()
    for (const [url, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const label = `${method} ${url} ${status}`
          assert.ok(response.description !== undefined && response.description !== 'Default Response', label)
          for (const [type, content] of Object.entries(response.content ?? {})) {
            if (!/json/.test(type)) continue
            assert.ok(content.example !== undefined, `${label} ${type}: an example`)
            const validate = compiled(content.schema)
            assert.ok(validate(content.example), `${label}: ${ajv.errorsText(validate.errors)}`)
            if (type === 'application/problem+json') {
              assert.equal((content.example as { status: number }).status, Number(status), label)
            }
            statuses.add(status)
            checked++
          }
        }
      }
    }
    assert.ok(checked > 60, `${checked} examples`)
    assert.deepEqual([...statuses].sort(), ['200', '400', '401', '403', '404', '429', '503'])
    // The calculator's answers too.
    const car = doc.paths['/api/v1/co2-calculator/car']?.['get']?.responses['200']?.content?.['application/json']
    assert.equal(typeof (car?.example as { t_co2: unknown }).t_co2, 'number')

    // Each path is listed once, as the routes spell it (issue 36, item 5); the router still answers without the slash.
    for (const url of Object.keys(doc.paths).filter((path) => path.endsWith('/') && path !== '/')) {
      assert.equal(doc.paths[url.slice(0, -1)], undefined, `${url} is listed once`)
      if (!url.includes('{')) assert.notEqual((await inject(url.slice(0, -1))).statusCode, 404, url)
    }
  })
