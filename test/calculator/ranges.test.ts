import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sharedTestApp } from '../helpers.ts'

/**
 * Issue 35, finding 5: ranges that are real uncertainty, on every category where the value rests on an
 * assumption or a model (on main flights, cars, rail, clothes and /footprint had low = high).
 */

const BASE = '/api/v1/co2-calculator'

interface Body { co2e: { kg: number }, range: { low: { kg: number }, high: { kg: number }, basis: string[] } }

// Non-degenerate: low < high, and the value inside (at an end where the value is one of the cited alternatives).
const strictlyAround = (body: Body): boolean => body.range.low.kg < body.range.high.kg &&
  body.range.low.kg <= body.co2e.kg && body.co2e.kg <= body.range.high.kg

describe('ranges that are real uncertainty (issue 35, finding 5)', () => {
  // The calculator only reads the shipped data: these tests share one app.
  const shared = sharedTestApp()
  test('every category\'s default answer has a non-degenerate range with its basis', async () => {
    const { app } = shared()
    const paths = ['/flight?frequency=sometimes', '/diet?diet_form=everything', '/car?distance=10000',
      '/car?distance=10000&mode=rail', '/clothes?amount=average', '/energy?heating_type=natural_gas',
      '/footprint?scope=person']
    for (const code of ['DEU', 'USA', 'IND', 'BRA']) {
      for (const path of paths) {
        const body = (await app.inject(`${BASE}${path}&country_code=${code}`)).json() as Body
        assert.ok(strictlyAround(body), `${code} ${path}: ${JSON.stringify(body.range)} around ${body.co2e.kg}`)
        assert.ok(body.range.basis.some((line) => !/No cited interval/.test(line)), `${code} ${path}`)
      }
    }
  })

  test('a car of unknown size spans DESNZ\'s small and large car of its fuel', async () => {
    const { app } = shared()
    const body = (await app.inject(`${BASE}/car?country_code=GBR&distance=10000&fuel_type=petrol&` +
      'boundary=combustion')).json() as Body
    // DESNZ 2025: average petrol car 0.16272, small 0.14308, large 0.26828 kg CO2e per km.
    assert.equal(body.co2e.kg, 1627.2)
    assert.deepEqual([body.range.low.kg, body.range.high.kg], [1430.8, 2682.8])
  })

  test('clothes span the two global estimates\' 1.9-fold spread, centred on the EEA figure', async () => {
    const { app } = shared()
    const body = (await app.inject(`${BASE}/clothes?country_code=DEU&amount=average`)).json() as Body
    // sqrt(3990 / 2100) = 1.378405; value / 1.378405 and x 1.378405.
    const spread = Math.sqrt(3990 / 2100)
    assert.ok(Math.abs(body.range.low.kg - body.co2e.kg / spread) < 0.02, JSON.stringify(body.range))
    assert.ok(Math.abs(body.range.high.kg - body.co2e.kg * spread) < 0.02, JSON.stringify(body.range))
  })
})
