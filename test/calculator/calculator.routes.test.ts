import assert from 'node:assert/strict'
import { describe, test, type TestContext } from 'node:test'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { buildTestApp } from '../helpers.ts'

/** HTTP tests of /api/v1/co2-calculator on the real app (no API key: the calculator is public). */

const BASE = '/api/v1/co2-calculator'
// Many requests per app: lift the per-client rate limit so the limiter is not what is tested.
const ENV = { RATE_LIMIT_CALCULATOR: '100000' }

async function calculatorApp (t: TestContext): Promise<(path: string) => Promise<LightMyRequestResponse>> {
  const { app }: { app: FastifyInstance } = await buildTestApp(t, { env: ENV })
  return async (path) => await app.inject({ method: 'GET', url: `${BASE}${path}` })
}

function ok (response: LightMyRequestResponse): Record<string, any> {
  assert.equal(response.statusCode, 200, response.body)
  assert.match(response.headers['content-type'] as string, /^application\/json/)
  return response.json()
}

function problem (response: LightMyRequestResponse, code: string, parameter?: string): Record<string, any> {
  assert.equal(response.statusCode, 400, response.body)
  assert.match(response.headers['content-type'] as string, /^application\/problem\+json/)
  const body = response.json()
  assert.equal(body.status, 400)
  assert.equal(body.code, code, response.body)
  assert.equal(typeof body.detail, 'string')
  if (parameter !== undefined) assert.equal(body.parameter, parameter, response.body)
  return body
}

/** The envelope every calculation shares (research section 4.0). */
function assertCalculation (body: Record<string, any>, countryCode: string): void {
  assert.equal(body.country_code, countryCode)
  assert.ok(body.measurement_system === 'metric' || body.measurement_system === 'imperial')
  assert.equal(body.ton, 't')
  assert.equal(body.period, 'year')
  assert.equal(body.per, 'person')
  assert.equal(typeof body.t_co2, 'number')
  for (const unit of ['kg', 't', 'lb']) assert.equal(typeof body.co2e[unit], 'number')
  assert.ok(Math.abs(body.t_co2 - body.co2e.kg / 1000) <= 0.005 + 1e-9)
  assert.ok(Math.abs(body.co2e.lb * 0.45359237 - body.co2e.kg) <= 0.01)
  assert.ok(Array.isArray(body.breakdown))
  const sourceIds = new Set(body.sources.map((s: { id: string }) => s.id))
  let sum = 0
  for (const entry of body.breakdown) {
    for (const key of ['category', 'label', 'quantity_unit', 'factor_unit', 'factor_id',
      'source']) assert.equal(typeof entry[key], 'string', key)
    for (const key of ['kg_co2e', 'quantity', 'factor']) assert.equal(typeof entry[key], 'number', key)
    assert.ok(['published', 'unverified', 'assumption'].includes(entry.factor_status))
    assert.ok(sourceIds.has(entry.source), `source ${entry.source} is listed`)
    sum += entry.kg_co2e
  }
  assert.ok(Math.abs(sum - body.co2e.kg) <= 0.005 * (body.breakdown.length + 1) + 1e-9,
    `breakdown sums to ${sum}, total ${body.co2e.kg}`)
  for (const source of body.sources) {
    assert.equal(typeof source.licence, 'string')
    assert.equal(typeof source.name, 'string')
  }
  assert.ok(Array.isArray(body.assumptions))
  // Issue 11: every answer says its boundary, gives the other figure, a range, defaults, country figures and warnings.
  assert.ok(body.boundary === 'life_cycle' || body.boundary === 'combustion')
  assert.equal(body.co2e.kg, body.boundary === 'life_cycle' ? body.co2e_life_cycle.kg : body.co2e_combustion.kg)
  assert.ok(body.range.low.kg <= body.co2e.kg && body.co2e.kg <= body.range.high.kg && body.range.basis.length > 0)
  assert.ok(Array.isArray(body.warnings) && Array.isArray(body.defaults_used))
  assert.ok(body.country_data.every((datum: { year: number, source: string }) => Number.isInteger(datum.year) &&
    sourceIds.has(datum.source)), 'country figures carry their year and a listed source')
}

describe('calculator: success', () => {
  test('/ping answers pong without authentication', async (t) => {
    const get = await calculatorApp(t)
    assert.deepEqual(ok(await get('/ping')), { message: 'pong' })
  })

  test('/countries: a bare array ordered by name, with UN M49 regions and measurement systems', async (t) => {
    const get = await calculatorApp(t)
    const countries = ok(await get('/countries')) as unknown as Array<{
      country_code: string,
      country_name: string,
      measurement_system: string
    }>
    assert.ok(Array.isArray(countries))
    assert.equal(countries.length, 201)
    const names = countries.map((c) => c.country_name)
    assert.deepEqual(names, [...names].sort(new Intl.Collator('en').compare))
    const usa = countries.find((c) => c.country_code === 'USA')
    assert.deepEqual(usa,
      {
        country_code: 'USA',
        country_name: 'United States of America',
        sub_region: 'Northern America',
        region: 'Americas',
        measurement_system: 'imperial'
      })
    assert.equal(countries.find((c) => c.country_code === 'DEU')?.measurement_system, 'metric')
    assert.deepEqual(Object.keys(countries[0] ?? {}).sort(),
      ['country_code', 'country_name', 'measurement_system', 'region', 'sub_region'])
  })

  test('/config: default units of a country, all enums and defaults', async (t) => {
    const get = await calculatorApp(t)
    const usa = ok(await get('/config?country_code=usa'))
    assert.equal(usa.country_code, 'USA')
    assert.equal(usa.measurement_system, 'imperial')
    assert.deepEqual(usa.units,
      {
        distance: 'mi',
        area: 'ft2',
        volume: 'gal_us',
        fuel_economy: 'mpg_us',
        electric_fuel_economy: 'kwh_per_100mi',
        emissions: 't'
      })
    assert.deepEqual(usa.enums.diet_form,
      ['everything', 'pescetarian', 'pescatarian', 'vegetarian', 'vegan', 'low_meat', 'medium_meat', 'high_meat'])
    assert.equal(usa.defaults.cabin_class, 'economy')
    const forced = ok(await get('/config?country_code=USA&measurement_system=metric'))
    assert.equal(forced.measurement_system, 'metric')
    assert.equal(forced.default_measurement_system, 'imperial')
    assert.equal(forced.units.distance, 'km')
  })

  test('/footprint: national average, consumption basis by default, the other bases and the world', async (t) => {
    const get = await calculatorApp(t)
    const body = ok(await get('/footprint?country_code=DEU&measurement_system=metric'))
    assertCalculation(body, 'DEU')
    assert.equal(body.t_co2, 9.96)
    assert.equal(body.basis, 'consumption')
    assert.equal(body.gases, 'co2')
    // One year for every figure: GCB 2024 via OWID, Germany 2021, 8.109928 t; world consumption 2021
    assert.equal(body.values.territorial_co2.t, 8.11)
    assert.equal(body.world.year, 2021)
    const ghg = ok(await get('/footprint?country_code=GBR&basis=ghg'))
    assert.equal(ghg.gases, 'co2e')
    assert.equal(ghg.t_co2, 6.26)
  })

  test('/footprint: each basis names its gases in the unit and the text; a missing figure falls back, said so',
    async (t) => {
      const get = await calculatorApp(t)
      const has = (body: Record<string, any>, text: string): boolean =>
        (body['assumptions'] as string[]).some((line) => line.includes(text))
      const ghg = ok(await get('/footprint?country_code=GBR&basis=ghg'))
      assert.equal(ghg.breakdown[0].factor_unit, 'kg CO2e per person per year')
      assert.ok(has(ghg, 'All greenhouse gases') && !has(ghg, 'CO2 only'))
      const consumption = ok(await get('/footprint?country_code=GBR&basis=consumption'))
      assert.equal(consumption.breakdown[0].factor_unit, 'kg CO2 per person per year')
      assert.ok(has(consumption, 'CO2 only'))
      // Bermuda has territorial CO2 but no GHG figure in OWID's data: asked for GHG, it gets territorial CO2.
      const bermuda = ok(await get('/footprint?country_code=BMU&basis=ghg'))
      assert.equal(bermuda.basis, 'territorial')
      assert.equal(bermuda.gases, 'co2')
      assert.equal(bermuda.breakdown[0].factor_unit, 'kg CO2 per person per year')
      assert.ok(has(bermuda, 'Bermuda has no greenhouse-gas figure; the territorial CO2 figure is used instead.'))
      const territorial = ok(await get('/footprint?country_code=BMU&basis=territorial'))
      assert.ok(!has(territorial, 'has no'), 'territorial asked for is no fallback')
    })

  test('/flight: Flowcarbon frequency, flight counts, IATA legs and distance', async (t) => {
    const get = await calculatorApp(t)
    const often = ok(
      await get('/flight?country_code=DEU&frequency=often&measurement_system=metric&boundary=combustion'))
    assertCalculation(often, 'DEU')
    // 3,000 km medium-haul flights lie in the 2,700-4,700 km transition (worked cases have the arithmetic)
    assert.equal(often.t_co2, 4.58)
    assert.equal(often.co2e_with_rf.kg, often.co2e.kg)
    assert.equal(often.co2e_without_rf.t, 2.7072)
    assert.equal(often.radiative_forcing.included, true)

    const noRf = ok(await get('/flight?country_code=DEU&frequency=often&radiative_forcing=false&boundary=combustion'))
    assert.equal(noRf.co2e.kg, often.co2e_without_rf.kg)
    assert.equal(noRf.radiative_forcing.included, false)

    const legs = ok(await get('/flight?country_code=DEU&legs=fra-jfk,JFK-FRA&cabin_class=business'))
    assertCalculation(legs, 'DEU')
    assert.equal(legs.inputs.legs.length, 2)
    assert.equal(legs.inputs.legs[0].from.iata, 'FRA')
    assert.ok(Math.abs(legs.inputs.legs[0].distance_km - 6189.4) < 0.2)
    // Great-circle FRA-JFK 6,189.4377 km (haversine, R 6,371 km), flown twice, to 0.1 km.
    assert.equal(legs.inputs.flown_km, 12378.9)
    assert.equal(legs.breakdown[0].factor_id, 'desnz-2025:21_316_3174_11_1+22_912_3174_11_1',
      'DESNZ business row + its well-to-tank row')
    assert.ok(legs.sources.some((s: { id: string, licence: string }) => s.id === 'openflights' &&
      s.licence === 'ODbL-1.0'))

    const counts = ok(await get('/flight?country_code=DEU&short_haul=2&long_haul=1'))
    assertCalculation(counts, 'DEU')
    assert.equal(counts.breakdown.length, 2)

    const distance = ok(await get('/flight?country_code=DEU&distance=1000&round_trip=true&trips=3&boundary=combustion'))
    assert.equal(distance.inputs.flights, 6)
    assert.equal(distance.inputs.flown_km, 6000)

    // Codes in any case, with spaces around them, name the same airports.
    const spaced = ok(await get(`/flight?country_code=DEU&legs=${encodeURIComponent(' fra - jfk , JFK-FRA ')}`))
    assert.deepEqual(spaced.inputs.legs.map((leg: { from: { iata: string } }) => leg.from.iata), ['FRA', 'JFK'])
    // At most 50 legs a request; a distance past half the Earth's circumference is refused in the unit it came in.
    const legs50 = Array.from({ length: 50 }, () => 'FRA-JFK').join(',')
    assert.equal((await get(`/flight?country_code=DEU&legs=${legs50}`)).statusCode, 200)
    const legs51 = await get(`/flight?country_code=DEU&legs=${legs50},JFK-FRA`)
    assert.equal(legs51.statusCode, 400)
    assert.match(legs51.json().detail, /51 legs given; at most 50/)
    const farMiles = await get('/flight?country_code=USA&distance=20000')
    assert.equal(farMiles.statusCode, 400)
    assert.match(farMiles.json().detail, /^distance 20000 mi is longer than any flight can be/)
    assert.ok(Math.abs(distance.co2e.kg - 6 * 1000 * 0.12576) < 0.01)
  })

  test('/diet: Flowcarbon diet_form values and the richer options', async (t) => {
    const get = await calculatorApp(t)
    for (const form of ['everything', 'pescetarian', 'vegetarian', 'vegan']) {
      const body = ok(await get(`/diet?country_code=DEU&diet_form=${form}&measurement_system=metric`))
      assertCalculation(body, 'DEU')
      assert.ok(body.t_co2 > 0)
    }
    // calories are eaten kcal: 2,500 kcal eaten count 2,500 / 0.83 kcal of food (UNEP 2021 waste), so 1.25x
    // the result at 2,000 kcal, whatever the mix.
    const vegan = ok(await get('/diet?country_code=DEU&diet_form=vegan&calories=2500'))
    const vegan2000 = ok(await get('/diet?country_code=DEU&diet_form=vegan&calories=2000'))
    assert.ok(Math.abs(vegan.co2e.kg / vegan2000.co2e.kg - 1.25) < 1e-4)
    // study is accepted but no longer changes the result: one method for every form.
    const old = ok(await get('/diet?country_code=DEU&diet_form=vegan&study=scarborough_2014'))
    const now = ok(await get('/diet?country_code=DEU&diet_form=vegan'))
    assert.equal(old.co2e.kg, now.co2e.kg)
  })

  test('/car: Flowcarbon distance, fuel, size, occupancy, fuel economy, rail and bus', async (t) => {
    const get = await calculatorApp(t)
    const plain = ok(await get('/car?country_code=DEU&distance=10000&measurement_system=metric&boundary=combustion'))
    assertCalculation(plain, 'DEU')
    assert.equal(plain.t_co2, 1.67)
    assert.equal(plain.breakdown[0].factor_id, 'desnz-2025:25_301_3074_4_1')
    assert.equal(
      ok(await get(
        '/car?country_code=DEU&distance=10000&fuel_type=diesel&car_size=large&occupancy=2&' +
          'boundary=combustion')).co2e.kg, 1050.35)
    assert.equal(
      ok(await get(
        '/car?country_code=DEU&distance=10000&fuel_type=petrol&fuel_economy=6&boundary=combustion')).co2e.kg, 1241.5)
    assert.equal(
      ok(await get(
        '/car?country_code=GBR&distance=1000&mode=rail&rail_type=international&boundary=combustion')).co2e.kg, 4.46)
    assert.equal(ok(await get('/car?country_code=GBR&distance=1000&mode=bus&boundary=combustion')).co2e.kg, 103.85)
    assert.equal(ok(await get('/car?country_code=DEU&distance=0')).co2e.kg, 0)
  })

  test('/car: imperial input equals its metric equivalent', async (t) => {
    const get = await calculatorApp(t)
    const miles = ok(await get('/car?country_code=USA&distance=100'))
    assert.equal(miles.measurement_system, 'imperial')
    assert.deepEqual(miles.inputs.distance, { value: 100, unit: 'mi' })
    const km = ok(await get('/car?country_code=USA&distance=160.9344&measurement_system=metric'))
    assert.equal(miles.co2e.kg, km.co2e.kg)
    const mpg = ok(await get('/car?country_code=USA&distance=100&fuel_type=petrol&fuel_economy=30'))
    const litres = ok(
      await get(
        '/car?country_code=USA&distance=100&fuel_type=petrol&fuel_economy=7.840486&fuel_economy_unit=l_per_100km'))
    assert.ok(Math.abs(mpg.co2e.kg - litres.co2e.kg) < 0.01)
  })

  test('/clothes: Flowcarbon amount, spend and items', async (t) => {
    const get = await calculatorApp(t)
    for (const amount of ['much', 'average', 'little']) {
      assertCalculation(ok(await get(`/clothes?country_code=DEU&amount=${amount}&measurement_system=metric`)), 'DEU')
    }
    const usa = ok(await get('/clothes?country_code=USA&amount=average'))
    assert.equal(usa.co2e.kg, 160.54, 'the EEA EU-27 figure, clothing and footwear: 270 x (6.1 + 2.7) / 14.8')
    assert.equal(usa.breakdown[0].factor_id, 'tonne:clothes.eu_clothing_and_footwear_2020')
    assert.ok(usa.assumptions.some((line: string) => line.startsWith('Assumption (tonne:clothes.multiplier.average')))
    assert.equal(ok(await get('/clothes?country_code=USA&spend_usd=1000')).co2e.kg, 145)
    assert.equal(ok(await get('/clothes?country_code=USA&new_items=10&secondhand_items=4')).co2e.kg, 222)
  })

  test('/energy: Flowcarbon household_size, home_size and energy_type; heating types; measured kWh', async (t) => {
    const get = await calculatorApp(t)
    const flowcarbon = ok(
      await get(
        '/energy?country_code=DEU&household_size=2&home_size=80&energy_type=conventional&measurement_system=metric'))
    assertCalculation(flowcarbon, 'DEU')
    assert.deepEqual(flowcarbon.breakdown.map((e: { category: string }) => e.category), ['electricity', 'heating'])
    assert.equal(flowcarbon.inputs.electricity_source, 'country_default')
    assert.ok(flowcarbon.assumptions.some((line: string) => line.includes('modelled: no household figure')),
      'a modelled household figure says so')
    const green = ok(
      await get(
        '/energy?country_code=DEU&household_size=2&home_size=80&energy_type=green&electricity_method=market_based'))
    assert.ok(green.breakdown[0].kg_co2e > 0, 'a renewable tariff is never zero')
    assert.equal(green.breakdown[0].factor_status, 'unverified', 'IPCC wind from a secondary copy')
    const feet = ok(await get('/energy?country_code=USA&home_size=1000'))
    const metres = ok(await get('/energy?country_code=USA&home_size=92.90304&measurement_system=metric'))
    assert.equal(feet.co2e.kg, metres.co2e.kg)
    const measured = ok(
      await get(
        '/energy?country_code=GBR&electricity_kwh=3500&heating_kwh=12000&heating_type=heating_oil&household_size=3&' +
          'boundary=combustion'))
    assert.equal(measured.co2e.kg, 1233.13)
    assert.equal(measured.inputs.heating_source, 'measured')
  })

  test('boundary=combustion says where electricity keeps its life-cycle grid intensity, and only there', async (t) => {
    const get = await calculatorApp(t)
    const exception = (answer: Record<string, any>) =>
      (answer['assumptions'] as string[])
        .some((line) => /electricity.*life-cycle/i.test(line) && /direct-only/i.test(line))
    for (const path of ['/energy?country_code=DEU', '/car?country_code=DEU&distance=100&fuel_type=electric',
      '/car?country_code=IND&mode=rail&rail_type=underground&distance=100']) {
      assert.ok(exception(ok(await get(`${path}&boundary=combustion`))), path)
      assert.ok(!exception(ok(await get(`${path}&boundary=life_cycle`))), path)
    }
    assert.ok(!exception(ok(await get('/car?country_code=DEU&distance=100&fuel_type=petrol&boundary=combustion'))))
  })
})

describe('calculator: bad input gets 400 in the one error shape, naming the parameter', () => {
  const endpoints: Record<string, string> = {
    config: '',
    footprint: '',
    flight: '&frequency=rare',
    diet: '&diet_form=vegan',
    car: '&distance=100',
    clothes: '&amount=average',
    energy: '&home_size=80'
  }

  test('missing or unknown country on every endpoint', async (t) => {
    const get = await calculatorApp(t)
    for (const [endpoint, rest] of Object.entries(endpoints)) {
      problem(await get(`/${endpoint}?${rest.slice(1)}`), 'missing_parameter', 'country_code')
      problem(await get(`/${endpoint}?country_code=XYZ${rest}`), 'unknown_country', 'country_code')
      problem(await get(`/${endpoint}?country_code=${rest}`), 'invalid_parameter', 'country_code')
      problem(await get(`/${endpoint}?country_code=ATA${rest}`), 'unknown_country', 'country_code')
    }
  })

  test('an unknown enum value lists the valid ones', async (t) => {
    const get = await calculatorApp(t)
    const cases: Array<[string, string, string[]]> = [
      ['/diet?country_code=DEU&diet_form=carnivore', 'diet_form',
        ['everything', 'pescetarian', 'pescatarian', 'vegetarian', 'vegan', 'low_meat', 'medium_meat', 'high_meat']],
      ['/flight?country_code=DEU&frequency=daily', 'frequency', ['never', 'rare', 'sometimes', 'often']],
      ['/flight?country_code=DEU&frequency=rare&cabin_class=luxury', 'cabin_class',
        ['economy', 'premium_economy', 'business', 'first', 'average']],
      ['/clothes?country_code=DEU&amount=lots', 'amount', ['none', 'little', 'average', 'much']],
      ['/energy?country_code=DEU&home_size=80&energy_type=solar', 'energy_type', ['conventional', 'green']],
      ['/energy?country_code=DEU&home_size=80&heating_type=coal', 'heating_type',
        ['natural_gas', 'heating_oil', 'lpg', 'electric', 'heat_pump', 'district_heating', 'wood', 'none']],
      ['/car?country_code=DEU&distance=1&mode=plane', 'mode', ['car', 'rail', 'bus', 'coach']],
      ['/car?country_code=DEU&distance=1&fuel_type=coal', 'fuel_type',
        ['petrol', 'diesel', 'hybrid', 'plug_in_hybrid', 'electric', 'lpg', 'cng', 'unknown']],
      ['/footprint?country_code=DEU&measurement_system=nautical', 'measurement_system', ['metric', 'imperial']]
    ]
    for (const [path, parameter, allowed] of cases) {
      const body = problem(await get(path), 'invalid_parameter', parameter)
      assert.deepEqual(body.allowed_values, allowed, path)
    }
  })

  test('non-numbers, NaN, Infinity, empty, negative and absurd values', async (t) => {
    const get = await calculatorApp(t)
    const numeric: Array<[string, string]> = [
      ['/car?country_code=DEU', 'distance'],
      ['/flight?country_code=DEU', 'distance'],
      ['/energy?country_code=DEU&heating_type=none', 'home_size'],
      ['/clothes?country_code=DEU', 'spend_usd']
    ]
    for (const [path, parameter] of numeric) {
      // One written form per number: no surrounding space, no bare trailing or leading point, no negative zero.
      for (const value of ['abc', 'NaN', 'Infinity', '-Infinity', '', '0x10', '1,5', '1e400', '-1', '1e12', ' 12',
        '12 ', '12.', '.5', '-0', '-0.0', '+12']) {
        problem(await get(`${path}&${parameter}=${encodeURIComponent(value)}`), 'invalid_parameter', parameter)
      }
    }
    for (const [path, parameter] of [['/energy?country_code=DEU&home_size=80', 'household_size'],
      ['/flight?country_code=DEU', 'short_haul'], ['/diet?country_code=DEU&diet_form=vegan', 'calories']]) {
      for (const value of ['2.5', 'x', '-1', '1e9', '']) {
        problem(await get(`${path}&${parameter}=${value}`),
          'invalid_parameter', parameter)
      }
    }
    problem(await get('/flight?country_code=DEU&frequency=rare&radiative_forcing=maybe'), 'invalid_parameter',
      'radiative_forcing')
    problem(await get('/flight?country_code=USA&distance=15000'), 'invalid_parameter', 'distance')
    problem(await get('/energy?country_code=DEU&home_size=0.5'), 'invalid_parameter', 'home_size')
    problem(await get('/car?country_code=DEU&distance=100&fuel_type=petrol&fuel_economy=900'), 'invalid_parameter',
      'fuel_economy')
  })

  test('conflicting input modes', async (t) => {
    const get = await calculatorApp(t)
    problem(await get('/flight?country_code=DEU&frequency=often&legs=FRA-JFK'), 'conflicting_parameters', 'legs')
    problem(await get('/flight?country_code=DEU&distance=100&short_haul=1'), 'conflicting_parameters')
    problem(await get('/flight?country_code=DEU&frequency=rare&trips=2'), 'conflicting_parameters', 'trips')
    problem(await get('/clothes?country_code=DEU&amount=much&spend_usd=10'), 'conflicting_parameters', 'spend_usd')
    problem(await get('/clothes?country_code=DEU&spend_usd=10&new_items=2'), 'conflicting_parameters', 'new_items')
    problem(await get('/car?country_code=DEU&distance=10&mode=rail&fuel_type=diesel'), 'conflicting_parameters',
      'fuel_type')
    problem(await get('/car?country_code=DEU&distance=10&rail_type=national'), 'conflicting_parameters', 'rail_type')
    problem(await get(
      '/car?country_code=DEU&distance=10&fuel_type=electric&fuel_economy=6&fuel_economy_unit=l_per_100km'),
    'conflicting_parameters', 'fuel_economy_unit')
    problem(await get('/energy?country_code=DEU&home_size=50&heating_type=none&heating_kwh=100'),
      'conflicting_parameters', 'heating_kwh')
  })

  test('missing input modes', async (t) => {
    const get = await calculatorApp(t)
    problem(await get('/flight?country_code=DEU'), 'missing_parameter', 'frequency')
    problem(await get('/clothes?country_code=DEU'), 'missing_parameter', 'amount')
    problem(await get('/diet?country_code=DEU'), 'missing_parameter', 'diet_form')
    problem(await get('/car?country_code=DEU'), 'missing_parameter', 'distance')
    problem(await get('/car?country_code=DEU&distance=10&fuel_economy=6'), 'missing_parameter', 'fuel_type')
  })

  test('unknown or malformed airport codes', async (t) => {
    const get = await calculatorApp(t)
    const unknown = problem(await get('/flight?country_code=DEU&legs=FRA-QQQ'), 'unknown_airport', 'legs')
    assert.match(unknown.detail, /QQQ/)
    problem(await get('/flight?country_code=DEU&legs=FRA'), 'invalid_parameter', 'legs')
    problem(await get('/flight?country_code=DEU&legs=FRA-FRA'), 'invalid_parameter', 'legs')
    problem(await get('/flight?country_code=DEU&legs=FRANK-JFK'), 'invalid_parameter', 'legs')
    problem(await get(`/flight?country_code=DEU&legs=${Array.from({ length: 26 }, () => 'FRA-JFK-FRA').join(',')}`),
      'invalid_parameter', 'legs')
  })

  test('unknown and repeated parameters are rejected, not ignored', async (t) => {
    const get = await calculatorApp(t)
    const unknown = problem(await get('/diet?country_code=DEU&diet_form=vegan&calorie=2500'), 'invalid_parameter',
      'calorie')
    assert.ok(unknown.allowed_values.includes('calories'))
    problem(await get('/countries?country_code=DEU'), 'invalid_parameter', 'country_code')
    problem(await get('/car?country_code=DEU&distance=1&distance=2'), 'invalid_parameter', 'distance')
    ok(await get('/ping?cache=1'))
  })
})

describe('calculator: routing and documentation', () => {
  test('unknown paths under the calculator are 404 problems', async (t) => {
    const get = await calculatorApp(t)
    for (const path of ['/nope', '/flight/extra', '/countries/DEU']) {
      const response = await get(path)
      assert.equal(response.statusCode, 404, path)
      assert.equal(response.json().code, 'not_found')
    }
  })

  test('every calculator route is in the OpenAPI document with its tag, summary, parameters and 400', async (t) => {
    const { app } = await buildTestApp(t, { env: ENV })
    const doc = (await app.inject('/openapi.json')).json()
    for (const name of ['ping', 'countries', 'config', 'footprint', 'flight', 'diet', 'car', 'clothes', 'energy']) {
      const operation = doc.paths[`${BASE}/${name}`]?.get
      assert.ok(operation !== undefined, `${name} is documented`)
      assert.deepEqual(operation.tags, ['calculator'])
      assert.equal(typeof operation.summary, 'string')
      assert.ok(operation.responses['200'])
      if (name !== 'ping') assert.ok(operation.responses['400'], `${name} documents 400`)
      for (const parameter of operation.parameters ?? []) {
        assert.equal(typeof parameter.description, 'string',
        `${name}.${parameter.name} has a description`)
      }
    }
  })
})
