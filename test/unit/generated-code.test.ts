import assert from 'node:assert/strict'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'
import type { OpenAPI3 } from 'openapi-typescript'
import { calculatorOperations, clientCalculatorText, explorerCategoriesText } from '../../scripts/generated-code.ts'

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
  assert.match(text, /async waterUse \(query: CalculatorQuery<'water-use'>, options\?: CallOptions\): /,
    'a route with a required parameter takes its query')
  assert.match(text, /async ping \(options\?: CallOptions\)/, 'a route without parameters takes none')
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
  assert.match(clientCalculatorText(long), /async secondHandClothingAndFootwear \(\n {4}query: /)
})
