import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { sharedTestApp } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

const LIST = '/api/v1/commerce/products/'
const CALCULATOR = '/api/v1/co2-calculator'

// NUL, a tab, a line feed, ESC, DEL and a C1 control (U+0085), percent-encoded as a client sends them.
const CONTROLS = ['%00', '%09', '%0A', '%1B', '%7F', '%C2%85']

forEachDatabase((database) => {
  describe(`query values with control characters are a 400 naming the parameter [${database}]`, () => {
    // The tests below that only read share one app.
    const shared = sharedTestApp({ database, records: fixtureProjects() })
    test('the outside test\'s cases: NUL in search, location, registry, credit_type and rating', async () => {
      const { inject } = shared()
      const cases = [['search', '%00'], ['search', 'a%00b'], ['search', 'kariba%00forest'], ['location', 'a%00'],
        ['registry', '%00'], ['credit_type', '%00'], ['rating', 'x%00'], ['ordering', 'name%00'], ['limit', '5%00'],
        ['in_sale', 'true%00']]
      for (const [parameter, value] of cases) {
        const response = await inject(`${LIST}?${parameter}=${value}`)
        assert.equal(response.statusCode, 400, `${parameter}=${value}: ${response.body}`)
        assert.match(response.headers['content-type'] as string, /^application\/problem\+json/)
        assert.equal(response.json().code, 'invalid_parameter')
        assert.equal(response.json().parameter, parameter)
        assert.match(response.json().detail, /control character/)
      }
    })

    test('every control character, in every area, in known and unknown parameters', async () => {
      const { inject } = shared()
      const urls: Array<[string, string]> = [
        [`${LIST}?search=forest%CONTROL%`, 'search'],
        [`${LIST}1/?note=a%CONTROL%`, 'note'],
        [`${CALCULATOR}/diet?country_code=DEU%CONTROL%&diet_form=vegan`, 'country_code'],
        [`${CALCULATOR}/flight?country_code=DEU&legs=FRA-JFK%CONTROL%`, 'legs'],
        [`${CALCULATOR}/ping?probe=%CONTROL%`, 'probe'],
        ['/media/sdg/13.svg?expires=1%CONTROL%&signature=00', 'expires'],
        [`${LIST}?x%CONTROL%y=1`, 'x%CONTROL%y']
      ]
      for (const control of CONTROLS) {
        for (const [template, parameter] of urls) {
          const url = template.replace('%CONTROL%', control)
          const response = await inject(url)
          assert.equal(response.statusCode, 400, `${url}: ${response.body}`)
          assert.equal(response.json().code, 'invalid_parameter', url)
          assert.equal(response.json().parameter, decodeURIComponent(parameter.replace('%CONTROL%', control)), url)
        }
      }
    })

    test('a path not validly percent-encoded is a 400, an over-long path segment a 404, as problems', async () => {
      const { inject } = shared()
      for (const [url, status] of [[`${LIST}%FF%FE/`, 400], ['/media/%ED%A0%80', 400],
        ['/media/%C0%80.svg?expires=1&signature=0', 400],
        [`${LIST}${'9'.repeat(300)}/`, 404]] as const) {
        const response = await inject(url)
        assert.equal(response.statusCode, status, url)
        assert.match(response.headers['content-type'] as string, /^application\/problem\+json/, url)
        assert.equal(response.json().status, status)
        assert.equal(typeof response.json().request_id, 'string')
      }
    })

    test('numbers must be plain decimals: Infinity, 1e400, 0x10 are a 400 (a 404 as a path id)', async () => {
      const { inject } = shared()
      const queries = ['limit=Infinity', 'offset=Infinity', 'offset=-Infinity', 'offset=1e400', 'limit=0x10',
        'limit=1e1', 'limit=NaN']
      for (const query of queries) {
        const response = await inject(`${LIST}?${query}`)
        assert.equal(response.statusCode, 400, `${query}: ${response.body}`)
        assert.equal(response.json().parameter, query.split('=')[0])
      }
      for (const id of ['Infinity', '-Infinity', '1e400', '1e3', '0x1', 'NaN']) {
        const response = await inject(`${LIST}${id}/`)
        assert.equal(response.statusCode, 404, `${id}: ${response.body}`)
        assert.equal(response.json().code, 'not_found')
      }
      assert.equal((await inject(`${LIST}?limit=2&offset=1`)).json().results.length, 2)
      assert.equal((await inject(`${LIST}1/`)).statusCode, 200)
    })

    test('ordinary text (accents, symbols, emoji, spaces) is still accepted', async () => {
      const { inject } = shared()
      assert.deepEqual((await inject(`${LIST}?search=${encodeURIComponent('énergie verte')}`)).json().count, 1)
      assert.equal((await inject(`${LIST}?search=${encodeURIComponent('🌳 ½ € \u00a0')}`)).statusCode, 200)
      assert.equal((await inject(`${LIST}?location=${encodeURIComponent('Åland Islands')}`)).json().count, 1)
    })
  })
})
