import assert from 'node:assert/strict'
import type { TestContext } from 'node:test'
import { buildTestApp } from '../helpers.ts'

export const CALCULATOR = '/api/v1/co2-calculator'

export type Body = Record<string, any>

/** An app over the shipped data and a GET of a calculator path that must answer 200, returning the JSON. */
export async function calculator (t: TestContext): Promise<(path: string) => Promise<Body>> {
  const { app } = await buildTestApp(t, { env: { RATE_LIMIT_CALCULATOR: '100000' } })
  return async (url) => {
    const response = await app.inject(`${CALCULATOR}${url}`)
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`)
    return response.json()
  }
}
