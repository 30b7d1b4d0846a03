import assert from 'node:assert/strict'
import type { TestContext } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, sharedTestApp } from '../helpers.ts'

export const CALCULATOR = '/api/v1/co2-calculator'

export type Body = Record<string, any>

const ENV = { RATE_LIMIT_CALCULATOR: '100000' }

/** An app over the shipped data and a GET of a calculator path that must answer 200, returning the JSON. */
export async function calculator (t: TestContext): Promise<(path: string) => Promise<Body>> {
  const { app } = await buildTestApp(t, { env: ENV })
  return getter(() => app)
}

/**
 * The same GET over one app that the tests of a describe share (call it in the describe's body): the calculator
 * only reads the shipped data, so what one test asks cannot change another's answer.
 */
export function sharedCalculator (): (path: string) => Promise<Body> {
  const shared = sharedTestApp({ env: ENV })
  return getter(() => shared().app)
}

function getter (app: () => FastifyInstance): (path: string) => Promise<Body> {
  return async (url) => {
    const response = await app().inject(`${CALCULATOR}${url}`)
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`)
    return response.json()
  }
}
