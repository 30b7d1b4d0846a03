import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildTestApp } from '../helpers.ts'

// Issue 36, items 3, 5 and 10: code generators need one listing and a unique operationId per operation, and every
// request /docs offers to copy (`x-sample-request`, shown as curl, JavaScript and Python) answers 2xx as shown.

interface Operation {
  operationId?: string
  parameters?: Array<{ name: string, description?: string }>
  security?: Array<Record<string, unknown>>
  'x-sample-request'?: string
  'x-sample-link'?: { from: string, field: string }
}
interface Document { paths: Record<string, Record<string, Operation>> }

const openapi = async (t: test.TestContext, bundled = false) => {
  const built = await buildTestApp(t, { bundled, env: { RATE_LIMIT_CATALOGUE: '100000' } })
  return { ...built, doc: (await built.app.inject('/openapi.json')).json() as Document }
}

test('every operation has its own operationId and is listed once (no slashless twin)', async (t) => {
  const { doc } = await openapi(t)
  const listed = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ label: `${method} ${path}`, operation })))
  assert.ok(listed.length >= 18, `${listed.length} operations`)
  const ids = listed.map(({ label, operation }) => {
    assert.match(operation.operationId ?? '', /^[a-z][A-Za-z0-9]+$/, `${label} has an operationId`)
    return operation.operationId
  })
  assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'operationIds are unique')
  const spellings = Object.keys(doc.paths).map((path) => path.replace(/\/$/, ''))
  assert.deepEqual(spellings.filter((path, i) => spellings.indexOf(path) !== i), [], 'each path is listed once')
  for (const id of ['listProjects', 'getProject', 'listTransactions', 'listProjectTransactions', 'calculateCar']) {
    assert.ok(ids.includes(id), id)
  }
})

test('every /docs sample request answers 2xx as shown, with a key where one is needed', async (t) => {
  const { doc, app, key } = await openapi(t, true)
  let sent = 0
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const label = `${method} ${path}`
      const keyed = (operation.security ?? []).length > 0
      const headers = keyed ? { authorization: `Bearer ${key}` } : {}
      const link = operation['x-sample-link']
      let url = operation['x-sample-request']
      if (link !== undefined) {
        // Media links are signed: the sample takes one from the answer it names, as the page shows.
        const from = await app.inject({ url: link.from, headers: { authorization: `Bearer ${key}` } })
        assert.equal(from.statusCode, 200, label)
        url = new RegExp(`"${link.field}":"([^"]+)"`).exec(from.body)?.[1]
        assert.ok(url !== undefined, `${label}: ${link.from} has a ${link.field}`)
        url = new URL(url, 'http://localhost').pathname + new URL(url, 'http://localhost').search
      }
      assert.ok(url !== undefined, `${label} has a sample`)
      const response = await app.inject({ url, headers })
      assert.ok(response.statusCode >= 200 && response.statusCode < 300, `${label}: ${url} answers ` +
        `${response.statusCode} ${response.body.slice(0, 200)}`)
      sent++
      for (const parameter of operation.parameters ?? []) {
        if (!['distance', 'home_size'].includes(parameter.name)) continue
        // The unit and what decides it, next to the field (the /docs parameter list shows this description).
        assert.match(parameter.description ?? '', /(km|m²).*(miles|ft²) when measurement_system is imperial/, label)
      }
      // A figure with a unit says which unit (item 10): the system is in the sample, not left to the country.
      if (/[?&](distance|home_size)=/.test(url)) assert.match(url, /[?&]measurement_system=metric/, label)
    }
  }
  assert.ok(sent >= 18, `${sent} samples sent`)
})
