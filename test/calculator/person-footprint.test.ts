import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sharedTestApp } from '../helpers.ts'

/**
 * Issue 35, finding 6: /footprint gives a person's whole footprint (their answers, the country's defaults for the
 * rest, and goods, services and public services from consumption-based data), whose parts add up to the total;
 * the national average stays available. On main /footprint had no person mode and answered 400 to diet_form.
 */

const BASE = '/api/v1/co2-calculator'

interface Part { category: string, you_kg: number, average_kg: number, difference_kg: number, from: string }
interface Body {
  co2e: { kg: number }
  assumptions: string[]
  gases: string
  range: { low: { kg: number }, high: { kg: number }, basis: string[] }
  breakdown: Array<{ category: string, kg_co2e: number, label: string }>
  person: { parts: Part[], national_co2e_kg: number, national_basis: string } | null
  code?: string
  parameter?: string
}

/** GET of a calculator path on the describe's shared app, as its JSON body. */
const getFrom = (shared: ReturnType<typeof sharedTestApp>) => async (path: string): Promise<Body> =>
  (await shared().app.inject(`${BASE}${path}`)).json() as Body

const sum = (body: Body): number => body.breakdown.reduce((total, entry) => total + entry.kg_co2e, 0)

describe('a person\'s whole footprint (issue 35, finding 6)', () => {
  // The calculator only reads the shipped data: these tests share one app.
  const shared = sharedTestApp()
  test('with no answers, the person is the average resident: the national CO2e footprint, in parts', async () => {
    const { app } = shared()
    const response = await app.inject(`${BASE}/footprint?country_code=DEU&scope=person`)
    assert.equal(response.statusCode, 200, response.body)
    const body = response.json() as Body
    // Germany 2021: consumption CO2 9.957 t x GHG 8.943 t / territorial CO2 8.110 t = 10.9797 t CO2e.
    assert.ok(Math.abs(body.co2e.kg - 10979.71) < 0.02, String(body.co2e.kg))
    assert.equal(body.gases, 'co2e')
    assert.ok(Math.abs(sum(body) - body.co2e.kg) < 0.05, 'the parts add up to the total')
    // Goods, services and public services: 10,979.71 - (home energy 1,608.11 + food 2,927.39 + clothes 160.54 +
    // transport 1.7592012 t x 1000 = 1,759.20) = 4,524.47 kg.
    const rest = body.breakdown.find((entry) => entry.category === 'goods_services_public')
    assert.ok(rest !== undefined && Math.abs(rest.kg_co2e - 4524.47) < 0.05, JSON.stringify(rest))
    assert.ok(body.person?.parts.every((part) => part.difference_kg === 0))
    assert.ok(body.range.low.kg < body.co2e.kg && body.co2e.kg < body.range.high.kg, JSON.stringify(body.range))
  })

  test('a vegan who flies often and drives 10,000 km: their parts, the rest unchanged, the differences shown',
    async () => {
      const get = getFrom(shared)
      const body = await get('/footprint?country_code=DEU&diet_form=vegan&flight_frequency=often&car_distance=10000')
      const vegan = await get('/diet?country_code=DEU&diet_form=vegan')
      const flights = await get('/flight?country_code=DEU&frequency=often')
      const car = await get('/car?country_code=DEU&distance=10000')
      const kg = (category: string): number =>
        body.breakdown.find((entry) => entry.category === category)?.kg_co2e ?? -1
      assert.equal(kg('diet'), vegan.co2e.kg)
      assert.ok(Math.abs(kg('transport') - (flights.co2e.kg + car.co2e.kg)) < 0.01)
      assert.equal(body.breakdown.find((entry) => entry.category === 'transport')?.label,
        'travel: flights (often) and car 10000 km')
      assert.ok(Math.abs(kg('goods_services_public') - 4524.47) < 0.05, 'the rest is the average\'s')
      assert.ok(Math.abs(sum(body) - body.co2e.kg) < 0.05)
      const diet = body.person?.parts.find((part) => part.category === 'diet')
      assert.equal(diet?.from, 'your answers')
      assert.ok(diet !== undefined && Math.abs(diet.difference_kg - (vegan.co2e.kg - 2927.39)) < 0.02)
      assert.equal(body.person?.parts.find((part) => part.category === 'clothes')?.from, 'country default')
    })

  test('the national average stays the default, and a person\'s answer with scope=national is refused',
    async () => {
      const { app } = shared()
      const national = (await app.inject(`${BASE}/footprint?country_code=DEU`)).json() as Body
      assert.equal(national.co2e.kg, 9957, 'consumption CO2, 9.957 t (GCB 2023 via OWID)')
      assert.equal(national.person, null)
      const refused = await app.inject(`${BASE}/footprint?country_code=DEU&scope=national&diet_form=vegan`)
      assert.equal(refused.statusCode, 400)
      assert.equal((refused.json() as Body).code, 'conflicting_parameters')
      assert.equal((refused.json() as Body).parameter, 'diet_form')
    })

  test('each answer makes its own part "your answers" and leaves every other part at its default', async () => {
    const { app } = shared()
    // One answer at a time: the part it belongs to, by the contract's description of each person parameter.
    const answers: Array<[string, string]> = [
      ['home_size=80', 'home_energy'], ['household_size=2', 'home_energy'],
      ['heating_type=heat_pump', 'home_energy'], ['energy_type=green', 'home_energy'],
      ['electricity_kwh=2000', 'home_energy'], ['heating_kwh=5000', 'home_energy'],
      ['diet_form=vegan', 'diet'], ['calories=2000', 'diet'], ['clothes_amount=little', 'clothes'],
      ['flight_frequency=rare', 'transport'], ['car_distance=5000', 'transport']
    ]
    const defaults: Record<string, string> = {
      home_energy: 'country default',
      diet: 'country default',
      clothes: 'country default',
      transport: 'national average',
      goods_services_public: 'national average'
    }
    for (const [answer, category] of answers) {
      const response = await app.inject(`${BASE}/footprint?country_code=DEU&${answer}`)
      assert.equal(response.statusCode, 200, response.body)
      const parts = (response.json() as Body).person?.parts ?? []
      assert.deepEqual(Object.fromEntries(parts.map((part) => [part.category, part.from])),
        { ...defaults, [category]: 'your answers' }, answer)
    }
  })

  test('a person who goes by rail: fuel_type (for a car) is set aside, not refused, and the rail answer counts',
    async () => {
      const get = getFrom(shared)
      const body = await get('/footprint?country_code=DEU&car_mode=rail&car_distance=1000&fuel_type=diesel')
      const rail = await get('/car?country_code=DEU&mode=rail&distance=1000')
      assert.equal(body.breakdown.find((entry) => entry.category === 'transport')?.kg_co2e, rail.co2e.kg)
      const car = await get('/footprint?country_code=DEU&car_distance=1000&fuel_type=diesel')
      const diesel = await get('/car?country_code=DEU&distance=1000&fuel_type=diesel')
      assert.equal(car.breakdown.find((entry) => entry.category === 'transport')?.kg_co2e, diesel.co2e.kg)
    })

  test('a country with no consumption-based figure: its greenhouse gases per person stand in', async () => {
    const { app } = shared()
    const response = await app.inject(`${BASE}/footprint?country_code=ISL&scope=person`)
    assert.equal(response.statusCode, 200, response.body)
    const body = response.json() as Body
    // Iceland is not in GCB 2023's consumption CO2; its GHG per person is 11.960 t CO2e (OWID, 2021).
    assert.equal(body.co2e.kg, 11960)
    assert.match(body.person?.national_basis ?? '', /no consumption-based figure/)
    assert.ok(Math.abs(sum(body) - body.co2e.kg) < 0.05, 'the parts add up to the total')
  })

  test('a country whose territorial CO2 is under 1 t still scales its consumption CO2 to all gases', async () => {
    const { app } = shared()
    const response = await app.inject(`${BASE}/footprint?country_code=BGD&scope=person`)
    assert.equal(response.statusCode, 200, response.body)
    const body = response.json() as Body
    // Bangladesh 2021 (OWID): consumption CO2 0.885 t x GHG 1.537 t / territorial CO2 0.642 t = 2.11876 t CO2e.
    assert.ok(Math.abs((body.person?.national_co2e_kg ?? 0) - 2118.76) < 0.01, JSON.stringify(body.person))
    assert.match(body.person?.national_basis ?? '', /^0\.885 t consumption CO2 .* x 1\.537 t GHG .* \/ 0\.642 t/)
  })

  test('the text\'s sum for goods, services and public services is the national figure less the four parts',
    async () => {
      const { app } = shared()
      for (const code of ['DEU', 'IND', 'ISL']) {
        const body = (await app.inject(`${BASE}/footprint?country_code=${code}&scope=person`)).json() as Body
        const line = body.assumptions.find((text) => text.startsWith('Goods, services and public services:')) ?? ''
        const n = String.raw`(\d+(?:\.\d+)?)`
        const found = new RegExp(`: ${n} t - \\(home energy ${n} \\+ food ${n} \\+ clothes ${n} \\+ transport ${n} ` +
          'kg of the average person\\) = (-?\\d+(?:\\.\\d+)?) kg').exec(line)
        assert.ok(found !== null, `${code}: ${line}`)
        const [national, energy, food, clothes, transport, rest] = found.slice(1).map(Number) as number[]
        assert.ok(Math.abs((national as number) * 1000 - (energy as number) - (food as number) - (clothes as number) -
          (transport as number) - (rest as number)) < 1, `${code}: ${line}`)
      }
    })
})
