import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sharedTestApp } from '../helpers.ts'

/**
 * Issue 35, finding 7: every answer states the unit it read, and a floor area that is implausible in that unit
 * gets a warning naming it (home_size=80 in the USA is 80 ft2, 7.4 m2, accepted silently on main).
 */

const BASE = '/api/v1/co2-calculator'

interface Body {
  units_read: { distance: string, area: string, mass: string }
  warnings: string[]
  inputs: { home_size_m2?: number }
}

describe('units and plausibility (issue 35, finding 7)', () => {
  // The calculator only reads the shipped data: these tests share one app.
  const shared = sharedTestApp()
  test('every category answer states the units it read: the country\'s, or the one asked for', async () => {
    const { app } = shared()
    const paths = ['/flight?distance=1000', '/diet?diet_form=vegan', '/car?distance=1000', '/clothes?amount=average',
      '/energy?home_size=1000', '/footprint?basis=consumption']
    for (const path of paths) {
      const usa = (await app.inject(`${BASE}${path}&country_code=USA`)).json() as Body
      assert.deepEqual([usa.units_read.distance, usa.units_read.area, usa.units_read.mass], ['mi', 'ft2', 'lb'], path)
      const metric = (await app.inject(`${BASE}${path}&country_code=USA&measurement_system=metric`)).json() as Body
      assert.deepEqual([metric.units_read.distance, metric.units_read.area], ['km', 'm2'], path)
      const deu = (await app.inject(`${BASE}${path}&country_code=DEU`)).json() as Body
      assert.equal(deu.units_read.area, 'm2', path)
    }
  })

  test('home_size under 30 in an ft2 country is flagged, naming ft2', async () => {
    const { app } = shared()
    // 80 ft2 x 0.09290304 = 7.432 m2: the audit's case.
    const body = (await app.inject(`${BASE}/energy?country_code=USA&home_size=25&household_size=1`)).json() as Body
    assert.ok(body.warnings.some((line) => /home_size 25 was read in ft2 \(2\.32258 m2\)/.test(line)),
      body.warnings.join(' | '))
    assert.ok(body.warnings.some((line) => line.includes('measurement_system=metric')))
    const audit = (await app.inject(`${BASE}/energy?country_code=USA&home_size=80&household_size=2`)).json() as Body
    // 7.432 m2 / 2 people = 3.716 m2 per person, under 10.
    assert.ok(audit.warnings.some((line) => /home_size 80 ft2 \(7\.43224 m2\) for 2 people is under 10 m2 per/
      .test(line)), audit.warnings.join(' | '))
    // The same number in m2, asked for explicitly, is a plausible home: no unit warning.
    const metric = (await app.inject(
      `${BASE}/energy?country_code=USA&home_size=80&household_size=2&measurement_system=metric`)).json() as Body
    assert.ok(!metric.warnings.some((line) => line.includes('home_size')), metric.warnings.join(' | '))
  })

  test('a home under 10 m2 per person is flagged, naming m2', async () => {
    const { app } = shared()
    // The audit's case: 1 m2 for 20 people.
    const body = (await app.inject(`${BASE}/energy?country_code=DEU&home_size=1&household_size=20`)).json() as Body
    assert.ok(body.warnings.some((line) => /home_size 1 m2 \(1 m2\) for 20 people is under 10 m2 per person/
      .test(line)), body.warnings.join(' | '))
    const fine = (await app.inject(`${BASE}/energy?country_code=DEU&home_size=60&household_size=2`)).json() as Body
    assert.ok(!fine.warnings.some((line) => line.includes('home_size')))
  })

  // The model's ranges are in km and m² whatever unit was sent (1 mi = 1.609344 km, 1 ft² = 0.09290304 m², both
  // exact by definition): each edge is taken, and the next whole unit past it is refused, naming the parameter.
  test('the plausible ranges hold at their edges in either unit: 5,000 m², 1,000,000 km a year, 20,038 km a flight',
    async () => {
      const { app } = shared()
      const status = async (path: string) => (await app.inject(`${BASE}${path}`)).statusCode
      const refused = async (path: string, parameter: string) => {
        const response = await app.inject(`${BASE}${path}`)
        assert.equal(response.statusCode, 400, path)
        const body = response.json() as { detail: string, parameter: string }
        assert.equal(body.parameter, parameter, path)
        assert.match(body.detail, new RegExp(`^${parameter} `), path)
      }
      assert.equal(await status('/energy?country_code=DEU&home_size=5000'), 200)
      await refused('/energy?country_code=DEU&home_size=5000.01', 'home_size')
      await refused('/energy?country_code=DEU&home_size=0.99', 'home_size')
      // 53,819 ft² is 4,999.96 m²; 53,820 ft² is 5,000.04 m².
      assert.equal(await status('/energy?country_code=USA&home_size=53819'), 200)
      await refused('/energy?country_code=USA&home_size=53820', 'home_size')
      assert.equal(await status('/car?country_code=DEU&distance=1000000'), 200)
      // 621,371 mi is 999,999.7 km; 621,372 mi is 1,000,001.3 km.
      assert.equal(await status('/car?country_code=USA&distance=621371'), 200)
      await refused('/car?country_code=USA&distance=621372', 'distance')
      assert.equal(await status('/flight?country_code=DEU&distance=20038'), 200)
      // 12,451 mi is 20,037.9 km; 12,452 mi is 20,039.5 km.
      assert.equal(await status('/flight?country_code=USA&distance=12451'), 200)
      await refused('/flight?country_code=USA&distance=12452', 'distance')
      // The person footprint reads the same fields through the same rules, and names its own field at fault.
      assert.equal(await status('/footprint?country_code=USA&car_distance=621371&home_size=53819'), 200)
      await refused('/footprint?country_code=USA&car_distance=621372', 'car_distance')
      await refused('/footprint?country_code=USA&home_size=53820', 'home_size')
    })
})
