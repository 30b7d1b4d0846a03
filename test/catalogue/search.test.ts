import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { project } from '../fixtures/projects.ts'

const LIST = '/api/v1/commerce/products/'

// Names full of the characters that mean something to LIKE (% _ \) and to SQLite's full-text query
// syntax (quotes, *, NEAR, -, :, parentheses, ^, AND/OR/NOT). The search must treat all of them as text.
const NAMES = [
  '50% Mangrove Share',
  'Blue_Carbon Coast',
  'Back\\slash Wetlands',
  'The "Quoted" Forest',
  'Star*Burst Solar',
  'NEAR(river delta) Peat',
  'Co-op Cookstoves',
  'key:value Farms',
  'Grass OR Trees AND NOT Sand',
  '^Caret {Column} Grove',
  'Plain Hills'
]
const records = NAMES.map((name, i) => project(i + 1, { name, symbol: `S${i + 1}`, external_id: `E${i + 1}` }))
const searchText = records.map((r) => [r.name, r.symbol, r.external_id, r.project_developer].join('\n').toLowerCase())

/** What the docs promise: a case-insensitive substring of name, symbol, external id or developer; blank: no filter. */
function expectedIds (term: string): number[] {
  const needle = term.trim().toLowerCase()
  return records.filter((_r, i) => needle === '' || searchText[i]!.includes(needle)).map((r) => r.id)
}

forEachDatabase((database) => {
  describe(`search terms are data, never syntax [${database}]`, () => {
    test('short terms with % _ and \\ match those characters literally (the LIKE path on SQLite)', async (t) => {
      const { inject } = await buildTestApp(t, { database, records })
      const cases: Array<[string, number[]]> = [
        ['%', [1]], ['_', [2]], ['\\', [3]], ['0%', [1]], ['e_', [2]], ['k\\', [3]], ['_%', []], ['%%', []]
      ]
      for (const [term, expected] of cases) {
        const response = await inject(`${LIST}?search=${encodeURIComponent(term)}`)
        assert.equal(response.statusCode, 200, term)
        assert.deepEqual(response.json().results.map((r: { id: number }) => r.id), expected, `search=${term}`)
      }
    })

    test('a search of 3 or more characters keeps the ordering asked for, not the index\'s', async (t) => {
      // Ids in another order than names: the full-text index yields matches by id.
      const groves = ['Delta Grove', 'Alpha Grove', 'Charlie Grove', 'Bravo Grove', 'Echo Marsh']
        .map((name, i) => project(i + 1, { name, symbol: `G${i + 1}`, external_id: `G${i + 1}` }))
      const { inject } = await buildTestApp(t, { database, records: groves })
      const names = async (query: string) => (await inject(`${LIST}?search=grove&${query}`)).json().results
        .map((r: { name: string }) => r.name)
      assert.deepEqual(await names('ordering=name'), ['Alpha Grove', 'Bravo Grove', 'Charlie Grove', 'Delta Grove'])
      assert.deepEqual(await names('ordering=-name'), ['Delta Grove', 'Charlie Grove', 'Bravo Grove', 'Alpha Grove'])
      assert.deepEqual(await names('ordering=id'), ['Delta Grove', 'Alpha Grove', 'Charlie Grove', 'Bravo Grove'])
      assert.deepEqual(await names('ordering=-id&limit=2'), ['Bravo Grove', 'Charlie Grove'])
      assert.deepEqual(await names('ordering=name&limit=2&offset=2'), ['Charlie Grove', 'Delta Grove'])
    })

    test('quotes, *, NEAR, -, :, parentheses and boolean words find the projects that contain them', async (t) => {
      const { inject } = await buildTestApp(t, { database, records })
      const cases: Array<[string, number[]]> = [
        ['"quoted"', [4]], ['"', [4]], ['""', []], ['star*', [5]], ['*', [5]], ['near(river', [6]], ['near', [6]],
        ['co-op', [7]], ['-op', [7]], ['key:value', [8]], [':v', [8]], ['or trees and not', [9]], ['not', [9]],
        ['{column}', [10]], ['^caret', [10]], ['"quoted" forest', [4]], ['forest"', []], ['(', [6]],
        ['   plain hills ', [11]]
      ]
      for (const [term, expected] of cases) {
        const response = await inject(`${LIST}?search=${encodeURIComponent(term)}`)
        assert.equal(response.statusCode, 200, `${term}: ${response.body}`)
        assert.deepEqual(response.json().results.map((r: { id: number }) => r.id), expected, `search=${term}`)
      }
    })

    test('property: any term over a hostile alphabet finds exactly the projects containing it', async (t) => {
      // Each uncached search costs 5 against the key's limit: this checks what is found, not the limit.
      const { inject } = await buildTestApp(t, { database, records, env: { RATE_LIMIT_CATALOGUE: '100000' } })
      const alphabet = fc.constantFrom(...'ae"*%_\\-:()^{}NEAROT .0'.split(''), 'near', 'or', 'and', 'not', 'quoted',
        'co-op')
      const terms = fc.array(alphabet, { maxLength: 6 }).map((parts) => parts.join(''))
      await fc.assert(fc.asyncProperty(terms, async (term) => {
        const response = await inject(`${LIST}?search=${encodeURIComponent(term)}&limit=1000`)
        assert.equal(response.statusCode, 200, `${JSON.stringify(term)}: ${response.body}`)
        const found = response.json().results.map((r: { id: number }) => r.id)
        assert.deepEqual(found, expectedIds(term), JSON.stringify(term))
      }), { numRuns: 150, seed: 20261123 })
    })
  })
})
