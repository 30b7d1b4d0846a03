import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { COUNTRY_DEFAULTS_FILE, countryDefaultsText } from '../../scripts/write-country-defaults.ts'
import { sharedTestApp, testCalculatorData } from '../helpers.ts'

/**
 * Every supported country's defaults, through HTTP: the default home energy of an average
 * household never exceeds the country's whole CO2 per person (consumption-based, territorial
 * where a country has none), and a tropical country's default heating is near zero.
 */

const BASE = '/api/v1/co2-calculator'

describe('country defaults, for every supported country', () => {
  // The calculator only reads the shipped data: these tests share one app.
  const shared = sharedTestApp({ env: { RATE_LIMIT_CALCULATOR: '1000000' } })
  test('default /energy for an average household is within the country\'s CO2 per person', async () => {
    const { app } = shared()
    const get = async (path: string): Promise<Record<string, any>> => {
      const response = await app.inject(`${BASE}${path}`)
      assert.equal(response.statusCode, 200, `${path}: ${response.body}`)
      return response.json()
    }
    const countries = await get('/countries') as unknown as Array<{ country_code: string }>
    assert.ok(countries.length >= 200)
    const over: string[] = []
    for (const { country_code: code } of countries) {
      const footprint = await get(`/footprint?country_code=${code}`)
      const perPerson = footprint.co2e.kg
      const config = await get(`/config?country_code=${code}`)
      // The default household (the country's average size), and the nearest whole household a person can enter.
      const average = await get(`/energy?country_code=${code}`)
      const whole = await get(`/energy?country_code=${code}&household_size=${Math.max(1,
        Math.round(config.defaults.household_size))}`)
      assert.equal(average.inputs.household_size, config.defaults.household_size, code)
      for (const [which, body] of [['average', average], ['whole', whole]] as const) {
        if (body.co2e.kg > perPerson) {
          over.push(
          `${code} ${which} household: ${body.co2e.kg} kg > ${perPerson} kg per person`)
        }
        assert.ok(body.range.low.kg <= body.co2e.kg && body.co2e.kg <= body.range.high.kg, code)
        assert.ok(body.country_data.every((datum: { year: number }) => datum.year >= 2000),
          `${code}: every country figure has its year`)
      }
    }
    assert.deepEqual(over, [])
  })

  test('tropical countries get little heating: under a tenth of Germany\'s and Canada\'s for an 80 m2 home',
    async () => {
      const { app } = shared()
      const heating = async (code: string): Promise<number> => {
        const body = (await app.inject(`${BASE}/energy?country_code=${code}&home_size=80`)).json()
        return body.breakdown.find((entry: { category: string }) => entry.category === 'heating').kg_co2e
      }
      const cold = Math.min(await heating('DEU'), await heating('CAN'))
      // Countries wholly within the tropics.
      for (const code of ['BRA', 'IDN', 'NGA', 'COL', 'THA', 'VNM', 'KEN', 'PHL', 'GHA', 'ETH', 'VEN', 'LKA', 'CUB']) {
        const kg = await heating(code)
        assert.ok(kg < 0.1 * cold, `${code}: ${kg} kg, Germany/Canada ${cold} kg`)
      }
    })

  test('docs/country-defaults.md is exactly what `npm run docs:countries` writes from the shipped data', () => {
    assert.ok(readFileSync(COUNTRY_DEFAULTS_FILE, 'utf8') === countryDefaultsText(testCalculatorData()),
      'docs/country-defaults.md is stale: run `npm run docs:countries` and commit the result')
  })
})
