import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { TonneClient } from '../../client/src/index.ts'
import { EXPLORER_DIR } from '../../src/explorer/explorer.routes.ts'
import { buildTestApp } from '../helpers.ts'

// The client's calculator methods and the explorer's categories follow the service's route table (through the
// OpenAPI document and `npm run client:generate`): none is missing, none is left over from a removed route.

interface Operation { operationId: string, 'x-category'?: string, 'x-sample-request'?: string }

test('every calculator operation in the OpenAPI document is a client method that answers it, and no more',
  async (t) => {
    const { app } = await buildTestApp(t)
    const document = (await app.inject('/openapi.json')).json()
    const operations = Object.entries(document.paths as Record<string, { get?: Operation }>)
      .filter(([calculatorPath]) => calculatorPath.startsWith('/api/v1/co2-calculator/'))
    assert.ok(operations.length >= 9, `${operations.length} calculator operations`)

    // The client's fetch is the app itself, so every request is seen and answered in process.
    const asked: string[] = []
    const client = new TonneClient({
      baseUrl: 'http://tonne.test',
      retry: { maxAttempts: 1 },
      fetch: async (input) => {
        const url = new URL(String(input))
        asked.push(url.pathname)
        const answer = await app.inject(`${url.pathname}${url.search}`)
        return new Response(answer.body, { status: answer.statusCode })
      }
    })
    const calculator = client.calculator as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
    for (const [operationPath, { get }] of operations) {
      const name = operationPath.split('/').at(-1)!.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())
      assert.equal(typeof calculator[name], 'function', `${get?.operationId}: the client has no method ${name}`)
      const sample = new URL(get?.['x-sample-request'] ?? operationPath, 'http://tonne.test')
      const query = Object.fromEntries(sample.searchParams)
      const answer = await (Object.keys(query).length === 0 ? calculator[name]!() : calculator[name]!(query))
      assert.ok(answer !== null && typeof answer === 'object', `${name} answered ${JSON.stringify(answer)}`)
      assert.equal(asked.at(-1), operationPath, `${name} asked ${asked.at(-1)}`)
    }
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(client.calculator))
      .filter((name) => name !== 'constructor')
    assert.equal(methods.length, operations.length, `methods ${methods.join(', ')}`)
  })

test('every calculator operation with an x-category is an explorer category, in the route table\'s order',
  async (t) => {
    const { app } = await buildTestApp(t)
    const document = (await app.inject('/openapi.json')).json()
    const expected = Object.entries(document.paths as Record<string, { get?: Operation }>)
      .filter(([calculatorPath, item]) => calculatorPath.startsWith('/api/v1/co2-calculator/') &&
        item.get?.['x-category'] !== undefined)
      .map(([calculatorPath, item]) => ({ id: calculatorPath.split('/').at(-1), label: item.get?.['x-category'] }))
    // The five the explorer had by hand before its list was generated (issue 37), by their names for people.
    for (const label of ['Flights', 'Food', 'Car and public transport', 'Clothes', 'Home energy']) {
      assert.ok(expected.some((category) => category.label === label), `${label} is a category`)
    }

    const explorerModule = async (file: string) => await import(pathToFileURL(path.join(EXPLORER_DIR, 'js', file)).href)
    const { CALCULATOR_CATEGORIES } = await explorerModule('calculator-categories.js')
    const { calculatorCategories, CATEGORY_FORMS } = await explorerModule('calculator.js')
    const shown = calculatorCategories(CALCULATOR_CATEGORIES) as Array<{ id: string, label: string }>
    assert.deepEqual(shown.map(({ id, label }) => ({ id, label })), expected)
    // A hand-made form for a category the service no longer has would be dead code.
    for (const id of Object.keys(CATEGORY_FORMS)) {
      assert.ok(expected.some((category) => category.id === id), `the explorer has a form for ${id}, not a route`)
    }
  })
