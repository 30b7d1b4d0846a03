import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp, sharedTestApp } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

const PROBLEM_KEYS = ['type', 'title', 'status', 'code', 'detail']

function assertProblem (response: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  assert.equal(response.statusCode, status, response.body)
  assert.match(response.headers['content-type'] as string, /^application\/problem\+json; charset=utf-8$/)
  const body = response.json()
  for (const key of PROBLEM_KEYS) assert.ok(key in body, `problem body has ${key}`)
  assert.equal(body.status, status)
  assert.equal(body.code, code)
  assert.equal(typeof body.detail, 'string')
  assert.equal(typeof body.request_id, 'string')
  assert.doesNotMatch(response.body, /\bat .*\.ts:\d+|node_modules|SELECT|sqlite/i)
  return body
}

forEachDatabase((database) => {
  describe(`one error shape for the whole service (rule 8) [${database}]`, () => {
    // The tests that only read share one app (projects 1 to 12: the unknown ids below are still unknown).
    const shared = sharedTestApp({ database, records: fixtureProjects() })
    test('400: a bad parameter', async () => {
      const { inject } = shared()
      const body = assertProblem(await inject('/api/v1/commerce/products/?limit=0'), 400, 'invalid_parameter')
      assert.equal(body.title, 'Bad Request')
      assert.equal(body.parameter, 'limit')
    })

    test('404: an unknown path and an unknown project', async () => {
      const { inject } = shared()
      assertProblem(await inject('/api/v1/nothing-here'), 404, 'not_found')
      assertProblem(await inject('/api/v1/commerce/products/42/'), 404, 'not_found')
      assertProblem(await inject('/api/v1/commerce/products/42/extra'), 404, 'not_found')
    })

    test('405 with Allow: the API is read-only', async () => {
      const { inject } = shared()
      for (const [method, url] of [['POST', '/api/v1/commerce/products/'], ['DELETE', '/api/v1/commerce/products/1'],
        ['PUT', '/api/v1/commerce/products/1/'], ['PATCH', '/api/v1/commerce/products']] as const) {
        const response = await inject({ method, url })
        assertProblem(response, 405, 'method_not_allowed')
        assert.equal(response.headers['allow'], 'GET, HEAD')
      }
      assertProblem(await inject({ method: 'POST', url: '/no/such/path' }), 404, 'not_found')
    })

    test('HEAD answers like GET without a body', async () => {
      const { inject } = shared()
      const response = await inject({ method: 'HEAD', url: '/api/v1/commerce/products/1/' })
      assert.equal(response.statusCode, 200)
      assert.equal(response.body, '')
    })

    test('500: a failing database gives a logged, masked internal error', async (t) => {
      const lines: string[] = []
      const { app, inject, store } = await buildTestApp(t, { database, records: fixtureProjects() })
      app.log.error = ((obj: unknown) => { lines.push(JSON.stringify(obj)) }) as typeof app.log.error
      await store.close()
      const response = await inject('/api/v1/commerce/products/')
      const body = assertProblem(response, 500, 'internal_error')
      assert.equal(body.title, 'Internal Server Error')
      assert.doesNotMatch(response.body, /destroyed|Error:|stack/i)
    })
  })
})

describe('numbers in the query: one grammar, plain digits', () => {
  const shared = sharedTestApp()
  test('a zero with a sign is refused (it would be a second spelling of 0); the message names the kind of number',
    async () => {
      const { app } = shared()
      const CALC = '/api/v1/co2-calculator'
      const problem = async (url: string) => assertProblem(await app.inject(url), 400, 'invalid_parameter')
      for (const zero of ['-0', '-0.0', '+0']) {
        const body = await problem(`${CALC}/car?country_code=DEU&distance=${zero}`)
        assert.equal(body.parameter, 'distance', zero)
        assert.match(body.detail as string, /must be a finite decimal number such as 12.5 written in plain digits/)
      }
      assert.equal((await app.inject(`${CALC}/car?country_code=DEU&distance=0`)).statusCode, 200)
      const integer = await problem(`${CALC}/flight?country_code=DEU&long_haul=1.5`)
      assert.equal(integer.parameter, 'long_haul')
      assert.match(integer.detail as string, /long_haul must be a whole number written in plain digits/)
    })
})
