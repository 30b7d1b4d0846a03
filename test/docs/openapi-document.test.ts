import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fixtureProjects } from '../fixtures/projects.ts'
import { buildTestApp, REPO_ROOT } from '../helpers.ts'

interface Parameter { name: string, in: string, required?: boolean, schema?: { default?: unknown }, example?: unknown }
interface Response { headers?: Record<string, unknown>, content?: Record<string, { schema?: { $ref?: string } }> }
interface Operation { security?: unknown, parameters?: Parameter[], responses: Record<string, Response> }
interface Document {
  paths: Record<string, Record<string, Operation>>
  components: Record<string, Record<string, unknown>>
}

const CATALOGUE = '/api/v1/commerce/products/'

// Each operation is listed once (issue 36, item 5).
const operations = (doc: Document, prefix = '/') => Object.entries(doc.paths)
  .filter(([url]) => url.startsWith(prefix))
  .flatMap(([url, methods]) => Object.entries(methods)
    .map(([method, operation]) => ({ label: `${method} ${url}`, url, operation })))

const headerNames = (response: Response | undefined) =>
  Object.keys(response?.headers ?? {}).map((name) => name.toLowerCase())

/** The bundled catalogue as shipped (data/catalogue/projects.ndjson), read here independently of the service. */
function bundledProjects (): Array<Record<string, unknown>> {
  return readFileSync(path.join(REPO_ROOT, 'data', 'catalogue', 'projects.ndjson'), 'utf8')
    .split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>)
}

test('every catalogue operation needs a catalogue:read key, documents 401, 403 and 429 with headers', async (t) => {
  const { app } = await buildTestApp(t)
  const doc = (await app.inject('/openapi.json')).json() as Document
  const scheme = doc.components['securitySchemes']?.['apiKey'] as { type: string, scheme: string }
  assert.deepEqual([scheme.type, scheme.scheme], ['http', 'bearer'])
  // The products' four, the ledger's three (the whole ledger's, its totals and a project's) and the sources list.
  const catalogue = operations(doc, '/api/v1/commerce/')
  assert.equal(catalogue.length, 8)
  for (const { label, operation } of catalogue) {
    assert.deepEqual(operation.security, [{ apiKey: ['catalogue:read'] }], label)
    for (const status of ['401', '403', '429']) {
      const response = operation.responses[status]
      assert.ok(response !== undefined, `${label} documents ${status}`)
      assert.equal(response.content?.['application/problem+json']?.schema?.$ref, '#/components/schemas/Problem',
        `${label} ${status} is a problem body`)
    }
    assert.ok(headerNames(operation.responses['401']).includes('www-authenticate'), `${label} 401 WWW-Authenticate`)
    for (const header of ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
      assert.ok(headerNames(operation.responses['429']).includes(header), `${label} 429 has ${header}`)
    }
    for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'etag']) {
      assert.ok(headerNames(operation.responses['200']).includes(header), `${label} 200 has ${header}`)
    }
    assert.ok(operation.responses['304'] !== undefined, `${label} documents 304 (If-None-Match)`)
  }
  // The calculator is open, but a bad key is a 401 and its limits a 429 there too.
  for (const { label, operation } of operations(doc, '/api/v1/co2-calculator/')) {
    assert.ok(headerNames(operation.responses['401']).includes('www-authenticate'), `${label} 401 WWW-Authenticate`)
    assert.ok(headerNames(operation.responses['429']).includes('retry-after'), `${label} 429 Retry-After`)
  }
})

test('every operation documents the 400 it answers to a parameter it does not take', async (t) => {
  const { app, inject } = await buildTestApp(t, { records: fixtureProjects() })
  const doc = (await app.inject('/openapi.json')).json() as Document
  const undocumented: string[] = []
  for (const { label, url, operation } of operations(doc, '/api/')) {
    const response = await inject(`${url.replace('{id}', '1')}?no_such_parameter=1`)
    if (response.statusCode !== 200 && operation.responses[String(response.statusCode)] === undefined) {
      undocumented.push(`${label}: ${response.statusCode}`)
    }
    if (response.statusCode === 400) assert.equal(response.json().parameter, 'no_such_parameter', label)
  }
  assert.deepEqual(undocumented, [])
})

test('parameters with a default are optional', async (t) => {
  const { app } = await buildTestApp(t)
  const doc = (await app.inject('/openapi.json')).json() as Document
  for (const url of [CATALOGUE, `${CATALOGUE}geojson/`]) {
    const parameters = doc.paths[url]!['get']!.parameters!
    for (const name of ['limit', 'offset']) {
      assert.equal(parameters.find((p) => p.name === name)?.required, false, `${url} ${name}`)
    }
  }
  for (const { label, operation } of operations(doc)) {
    for (const parameter of operation.parameters ?? []) {
      if (parameter.schema?.default !== undefined) assert.equal(parameter.required, false, `${label} ${parameter.name}`)
    }
  }
})

test('every path is an OpenAPI path template whose parameters are declared', async (t) => {
  const { app } = await buildTestApp(t)
  const doc = (await app.inject('/openapi.json')).json() as Document
  assert.ok(Object.keys(doc.paths).some((url) => url.startsWith('/media/')), 'the media route is documented')
  for (const { label, url, operation } of operations(doc)) {
    const templated = [...url.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!)
    // RFC 6570 simple names, one per whole path segment, as OpenAPI 3.1 path templating expects.
    for (const segment of url.split('/')) {
      if (segment.includes('{')) assert.match(segment, /^\{[A-Za-z_][A-Za-z0-9_]*\}$/, `${label}: segment ${segment}`)
    }
    const declared = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)
    assert.deepEqual([...declared].sort(), [...templated].sort(), `${label}: path parameters`)
  }
})

test('the examples come from the bundled catalogue and find projects there', async (t) => {
  const { app, inject } = await buildTestApp(t, { bundled: true })
  const doc = (await app.inject('/openapi.json')).json() as Document
  const projects = bundledProjects()
  const nameIds = new Set<string>()
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(collect)
    if (value === null || typeof value !== 'object') return
    const record = value as Record<string, unknown>
    if (typeof record['name_id'] === 'string') nameIds.add(record['name_id'])
    Object.values(record).forEach(collect)
  }
  collect(projects)

  // Every name_id example in the document's schemas is one the bundled data has.
  let examples = 0
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk)
    if (value === null || typeof value !== 'object') return
    const record = value as Record<string, unknown>
    const nameId = (record['properties'] as Record<string, Record<string, unknown>> | undefined)?.['name_id']
    const given = [...(nameId?.['examples'] as unknown[] ?? [])]
    if (nameId?.['example'] !== undefined) given.push(nameId['example'])
    for (const example of given) {
      examples++
      assert.ok(nameIds.has(example as string), `name_id example ${String(example)} is in the bundled catalogue`)
    }
    Object.values(record).forEach(walk)
  }
  walk(doc)
  assert.ok(examples >= 3, `name_id examples are given (found ${examples})`)

  // Each documented filter example, sent alone, finds bundled projects.
  const list = doc.paths[CATALOGUE]!['get']!.parameters!
  const filters = list.filter((p) => p.example !== undefined && !['limit', 'offset', 'ordering'].includes(p.name))
  for (const name of ['registry', 'credit_type', 'location', 'certification', 'sdg', 'vintage']) {
    assert.ok(filters.some((p) => p.name === name), `${name} has an example`)
  }
  for (const parameter of filters) {
    const query = new URLSearchParams({ [parameter.name]: String(parameter.example) })
    const response = await inject(`${CATALOGUE}?${query}`)
    assert.equal(response.statusCode, 200, `${parameter.name}=${String(parameter.example)}`)
    assert.ok(response.json().count > 0, `${parameter.name}=${String(parameter.example)} finds projects`)
  }
  const id = doc.paths[`${CATALOGUE}{id}/`]!['get']!.parameters!.find((p) => p.name === 'id')!
  assert.equal((await inject(`${CATALOGUE}${String(id.example)}/`)).statusCode, 200, 'the id example exists')
})
