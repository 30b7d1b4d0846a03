import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildTestApp } from '../helpers.ts'

/**
 * Issue 22, finding 8: rail and bus by country where a cited source exists. No cited per-country
 * figure for national rail, international rail, buses or coaches is shipped (no electric share of
 * rail per country with a clear licence was found), so outside the UK every such answer uses the
 * DESNZ 2025 UK factor and says so in plain words; metros and light rail follow the country's grid.
 */

const BASE = '/api/v1/co2-calculator'

test('outside the UK, national and international rail, bus and coach use the UK factor, labelled GBR, and say why',
  async (t) => {
    const { app } = await buildTestApp(t, { env: { RATE_LIMIT_CALCULATOR: '100000' } })
    const get = async (url: string) => {
      const response = await app.inject(`${BASE}${url}`)
      assert.equal(response.statusCode, 200, response.body)
      return response.json()
    }
    for (const mode of ['mode=rail&rail_type=national', 'mode=rail&rail_type=international', 'mode=bus',
      'mode=coach']) {
      const india = await get(`/car?country_code=IND&distance=1000&${mode}`)
      const uk = await get(`/car?country_code=GBR&distance=1000&${mode}`)
      assert.equal(india.inputs.factor_region, 'GBR', mode)
      assert.equal(india.co2e.kg, uk.co2e.kg, `${mode}: the UK factor`)
      assert.ok(india.assumptions.some((line: string) =>
        /UK figure is used for India/.test(line) && /no per-country factor is cited/.test(line)),
      `${mode}: ${india.assumptions.join('\n')}`)
      assert.ok(!uk.assumptions.some((line: string) => /UK figure is used for/.test(line)), `${mode}: not in the UK`)
    }
    // The metro follows India's grid: DESNZ 2025 Table 27, 0.124 kWh per passenger-km; Ember IND 2024 708.3 g;
    // WDI IND 2023 losses 14.1614425387877 %. The national train is the UK figure: DESNZ 0.03546 + WTT 0.00897.
    const metro = await get('/car?country_code=IND&distance=1000&mode=rail&rail_type=underground')
    assert.equal(metro.inputs.factor_region, 'IND')
    assert.ok(Math.abs(metro.co2e.kg - 1000 * 0.124 * 0.7083 / (1 - 0.141614425387877)) < 0.01, `${metro.co2e.kg}`)
    const national = await get('/car?country_code=IND&distance=1000&mode=rail')
    assert.ok(Math.abs(national.co2e.kg - 1000 * (0.03546 + 0.00897)) < 0.01, `${national.co2e.kg}`)

    // Abroad the national train's range runs from the lower to the higher of the UK figure (44.43 kg) and an
    // all-electric train on the country's grid, 0.124 kWh per passenger-km: France 44.2 g / (1 - 6.95849027888749 %)
    // = 5.89 kg, below the UK's; Poland 615 g / (1 - 6.17822444760459 %) = 81.28 kg, above it (Ember 2024, WDI 2023).
    const france = await get('/car?country_code=FRA&distance=1000&mode=rail')
    assert.deepEqual([france.range.low.kg, france.co2e.kg, france.range.high.kg], [5.89, 44.43, 44.43])
    const poland = await get('/car?country_code=POL&distance=1000&mode=rail')
    assert.deepEqual([poland.range.low.kg, poland.co2e.kg, poland.range.high.kg], [44.43, 44.43, 81.28])
  })
