import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildTestApp } from '../helpers.ts'

interface Parameter { name: string, in: string, example?: unknown }
type Document = { paths: Record<string, Record<string, { operationId?: string, parameters?: Parameter[] }>> }

const LEDGER = '/api/v1/commerce/transactions/'
const PROJECT_LEDGER = '/api/v1/commerce/products/{id}/transactions/'

test('the ledger operations have ids, and each documented example works on the bundled catalogue', async (t) => {
  const { app, inject } = await buildTestApp(t, { bundled: true })
  const doc = (await app.inject('/openapi.json')).json() as Document
  assert.equal(doc.paths[LEDGER]?.['get']?.operationId, 'listTransactions')
  assert.equal(doc.paths[PROJECT_LEDGER]?.['get']?.operationId, 'listProjectTransactions')
  const parameters = doc.paths[LEDGER]!['get']!.parameters!
  const examples = parameters.filter((p) => p.example !== undefined)
  for (const name of ['type', 'vintage', 'registry', 'project', 'date_after', 'date_before', 'search']) {
    assert.ok(parameters.some((p) => p.name === name), `${name} is documented`)
  }
  for (const name of ['vintage', 'registry', 'project', 'date_after', 'date_before', 'search']) {
    assert.ok(examples.some((p) => p.name === name), `${name} has an example`)
  }
  // Until the bundled catalogue carries its ledger, an example can only be accepted; with one, it must find some.
  const whole = (await inject(LEDGER)).json<{ count: number }>()
  for (const parameter of examples) {
    const query = new URLSearchParams({ [parameter.name]: String(parameter.example) })
    const response = await inject(`${LEDGER}?${query}`)
    assert.equal(response.statusCode, 200, `${query}: ${response.body}`)
    if (whole.count > 0) assert.ok(response.json().count > 0, `${query} finds transactions`)
  }
  const id = doc.paths[PROJECT_LEDGER]!['get']!.parameters!.find((p) => p.name === 'id')!
  assert.equal((await inject(PROJECT_LEDGER.replace('{id}', String(id.example)))).statusCode, 200)
})
