import assert from 'node:assert/strict'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'
import type { OpenAPI3 } from 'openapi-typescript'
import {
  calculatorOperations, clientCalculatorText, explorerCategoriesText, withSharedComponents
} from '../../scripts/generated-code.ts'

// A calculator route added to the service reaches the client and the explorer through `npm run client:generate`
// alone: the generator, fed a document with a route neither has ever seen, writes its method and its category.

const ROOT = path.join(import.meta.dirname, '..', '..')

const document = {
  openapi: '3.1.0',
  info: { title: 'Tonne API', version: '0' },
  paths: {
    '/api/v1/commerce/products/': { get: { tags: ['catalogue'], operationId: 'listProjects', responses: {} } },
    '/api/v1/co2-calculator/ping': {
      get: { tags: ['calculator'], operationId: 'ping', summary: 'Health check', responses: {} }
    },
    '/api/v1/co2-calculator/water-use': {
      get: {
        tags: ['calculator'],
        operationId: 'calculateWaterUse',
        'x-category': 'Water',
        summary: 'Emissions of tap water',
        description: 'A year of tap water, */ closed early on purpose.',
        parameters: [
          { in: 'query', name: 'country_code', required: true, schema: { type: 'string', minLength: 1 } },
          { in: 'query', name: 'measurement_system', required: false, schema: { enum: ['metric', 'imperial'] } },
          { in: 'query', name: 'litres', required: false, schema: { type: 'number', minimum: 0, maximum: 1000 } },
          { in: 'query', name: 'source', required: false, schema: { enum: ['mains', 'well'] } }
        ],
        responses: {}
      }
    }
  }
} as unknown as OpenAPI3

test('every GET tagged calculator is an operation, named after its path; other tags are not', () => {
  const found = calculatorOperations(document).map(({ endpoint, method, category }) => ({ endpoint, method, category }))
  assert.deepEqual(found, [
    { endpoint: 'ping', method: 'ping', category: undefined },
    { endpoint: 'water-use', method: 'waterUse', category: 'Water' }
  ])
})

test('a calculator route outside /api/v1/co2-calculator/ stops the generator instead of making a wrong method', () => {
  const stray = {
    ...document,
    paths: { '/api/v2/water': { get: { tags: ['calculator'], operationId: 'water', responses: {} } } }
  } as unknown as OpenAPI3
  assert.throws(() => calculatorOperations(stray), /\/api\/v2\/water: a calculator route is/)
})

test('the generated client has a method for a new calculator route, which GETs it with its query', async (t) => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'tonne-client-'))
  t.after(() => rmSync(folder, { recursive: true, force: true }))
  cpSync(path.join(ROOT, 'client', 'src'), folder, { recursive: true })
  writeFileSync(path.join(folder, 'calculator.ts'), clientCalculatorText(document))
  const { CalculatorApi } = await import(pathToFileURL(path.join(folder, 'calculator.ts')).href)
  const asked: unknown[] = []
  const transport = { get: async (url: string, query: unknown) => { asked.push({ url, query }); return 'answer' } }
  const calculator = new CalculatorApi(transport)

  assert.equal(await calculator.waterUse({ country_code: 'DEU', litres: 50 }), 'answer')
  assert.equal(await calculator.ping(), 'answer')
  assert.deepEqual(asked, [
    { url: '/api/v1/co2-calculator/water-use', query: { country_code: 'DEU', litres: 50 } },
    { url: '/api/v1/co2-calculator/ping', query: {} }
  ])
  const text = clientCalculatorText(document)
  assert.match(text, / {2}waterUse \(query: CalculatorQuery<'water-use'>, options\?: CallOptions\): /,
    'a route with a required parameter takes its query')
  assert.match(text, / {2}ping \(options\?: CallOptions\)/, 'a route without parameters takes none')
  assert.match(text, /Emissions of tap water\. A year of tap water, \* \/ closed early/, 'the summary is the doc')
})

test('the generated explorer list has the new category, and the explorer gives it a form of its parameters',
  async () => {
    const text = explorerCategoriesText(document)
    const { CALCULATOR_CATEGORIES } = await import(`data:text/javascript,${encodeURIComponent(text)}`)
    assert.deepEqual(CALCULATOR_CATEGORIES, [{
      id: 'water-use',
      label: 'Water',
      parameters: [
        { name: 'country_code', type: 'string', required: true },
        { name: 'measurement_system', type: 'string', required: false, enum: ['metric', 'imperial'] },
        { name: 'litres', type: 'number', required: false, minimum: 0, maximum: 1000 },
        { name: 'source', type: 'string', required: false, enum: ['mains', 'well'] }
      ]
    }], 'lookups (ping) are not categories')

    const explorerFile = path.join(ROOT, 'src', 'explorer', 'public', 'js', 'calculator.js')
    const explorer = await import(pathToFileURL(explorerFile).href)
    const [water, ...rest] = explorer.calculatorCategories(CALCULATOR_CATEGORIES)
    assert.equal(rest.length, 0)
    assert.equal(water.legend, 'Water')
    assert.deepEqual(water.ranges, { litres: { min: 0, max: 1000, integer: false, unit: '' } })
    assert.equal(water.query({ country_code: 'DEU' }), null, 'nothing of its own given: left out, as "no input given"')
    assert.deepEqual(water.query({ country_code: 'DEU', litres: '50', source: 'well' }),
      { litres: '50', source: 'well' })
  })

test('generated lines stay within the project\'s 120 characters, however long a route\'s name', () => {
  const endpoint = 'second-hand-clothing-and-footwear'
  const long = {
    ...document,
    paths: {
      [`/api/v1/co2-calculator/${endpoint}`]: {
        get: {
          tags: ['calculator'],
          summary: 'Emissions of second-hand clothing',
          'x-category': 'Second-hand clothing and footwear, bought or swapped',
          parameters: [
            { in: 'query', name: 'kind', schema: { enum: Array.from({ length: 30 }, (_, i) => `kind_${i}`) } }
          ]
        }
      }
    }
  } as unknown as OpenAPI3
  for (const text of [clientCalculatorText(long), explorerCategoriesText(long)]) {
    const over = text.split('\n').filter((line) => line.length > 120)
    assert.deepEqual(over, [])
  }
  assert.match(clientCalculatorText(long), / {2}secondHandClothingAndFootwear \(\n {4}query\?: /)
})

test('the client\'s types state a part the document repeats once: a shared response, header, parameter or ' +
  'titled schema goes under components; two different parts of one name get their tag; a part said once stays',
() => {
  const etag = (kind: string) => ({ description: `A ${kind} validator.`, schema: { type: 'string' } })
  const problem = { 'application/problem+json': { schema: { type: 'object' } } }
  const unauthorized = { description: 'No key.', content: problem }
  const item = { title: 'Item', type: 'object', properties: { id: { type: 'integer' } } }
  const operation = (tag: string, ok: object) => ({
    tags: [tag],
    parameters: [{ in: 'query', name: 'limit', schema: { type: 'integer' } }],
    responses: { 200: ok, 401: unauthorized }
  })
  const shared = withSharedComponents({
    openapi: '3.1.0',
    info: { title: 'Tonne API', version: '0' },
    paths: {
      '/a': {
        get: operation('catalogue', {
          description: 'A list.',
          headers: { ETag: etag('weak') },
          content: { 'application/json': { schema: { type: 'array', items: item } } }
        })
      },
      '/b': {
        get: operation('catalogue', {
          description: 'One.',
          headers: { ETag: etag('weak') },
          content: { 'application/json': { schema: item, example: { title: 'Not a schema', type: 'x' } } }
        })
      },
      '/c': { get: operation('calculator', { description: 'Sums.', headers: { ETag: etag('strong') } }) },
      '/d': { get: operation('calculator', { description: 'Sums.', headers: { ETag: etag('strong') } }) }
    }
  } as unknown as OpenAPI3) as unknown as {
    components: Record<string, Record<string, unknown>>
    paths: Record<string, { get: { responses: Record<string, unknown>, parameters: unknown[] } }>
  }
  assert.deepEqual(Object.keys(shared.components).sort(), ['headers', 'parameters', 'responses', 'schemas'])
  assert.deepEqual(Object.keys(shared.components['schemas']!), ['Item'])
  assert.deepEqual(Object.keys(shared.components['headers']!).sort(), ['calculator.ETag', 'catalogue.ETag'])
  assert.deepEqual(Object.keys(shared.components['parameters']!), ['limit'])
  // /c and /d answer alike: one response, named by its status; so is every 401.
  assert.deepEqual(Object.keys(shared.components['responses']!).sort(), ['OK', 'Unauthorized'])
  assert.deepEqual(shared.paths['/a']!.get.responses['401'], { $ref: '#/components/responses/Unauthorized' })
  assert.deepEqual(shared.paths['/b']!.get.parameters[0], { $ref: '#/components/parameters/limit' })
  // /a's answer is its own, and keeps its place, with its shared parts referred to.
  assert.deepEqual(shared.paths['/a']!.get.responses['200'], {
    description: 'A list.',
    headers: { ETag: { $ref: '#/components/headers/catalogue.ETag' } },
    content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } }
  })
  assert.deepEqual(shared.components['responses']!['OK'], {
    description: 'Sums.', headers: { ETag: { $ref: '#/components/headers/calculator.ETag' } }
  })
})

test('the client\'s types state a titled schema that has every property of a smaller titled one as that one plus ' +
  'its own (a project\'s detail is a list item and more); one that differs in a shared property stays whole', () => {
  const id = { type: 'integer', description: 'Id.' }
  const name = { type: 'string' }
  const item = { title: 'Item', type: 'object', properties: { id, name }, required: ['id', 'name'] }
  const detail = {
    title: 'Detail',
    type: 'object',
    properties: { id, extra: { type: 'string' }, name },
    required: ['id', 'extra', 'name']
  }
  const other = { title: 'Other', type: 'object', properties: { id: { type: 'string' }, name, more: name } }
  const answer = (schema: object) => ({ description: 'OK.', content: { 'application/json': { schema } } })
  const shared = withSharedComponents({
    openapi: '3.1.0',
    info: { title: 'Tonne API', version: '0' },
    paths: {
      '/items': { get: { tags: ['catalogue'], responses: { 200: answer({ type: 'array', items: item }) } } },
      '/items/{id}': { get: { tags: ['catalogue'], responses: { 200: answer(detail) } } },
      '/other': { get: { tags: ['catalogue'], responses: { 200: answer(other) } } }
    }
  } as unknown as OpenAPI3) as unknown as {
    components: { schemas: Record<string, unknown> }
    paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>
  }
  const schemaOf = (path: string) => shared.paths[path]!.get.responses['200']!.content['application/json']!.schema
  assert.deepEqual(Object.keys(shared.components.schemas), ['Item'])
  assert.deepEqual(shared.components.schemas['Item'], item)
  assert.deepEqual(schemaOf('/items/{id}'), {
    title: 'Detail',
    allOf: [
      { $ref: '#/components/schemas/Item' },
      { type: 'object', properties: { extra: { type: 'string' } }, required: ['extra'] }
    ]
  })
  // Other's id is another schema: Item is not a part of it.
  assert.deepEqual(schemaOf('/other'), other)
})
