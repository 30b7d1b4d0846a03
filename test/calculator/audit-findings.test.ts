import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { buildTestApp } from '../helpers.ts'
import { calculator, sharedCalculator, type Body } from '../support/calculator.ts'

/**
 * The ten findings of the calculator audit (issue 11), each checked through HTTP. The numbers
 * in the expectations are the cited values themselves (DESNZ 2025 row ids, Scarborough 2023,
 * Berners-Lee 2012 as quoted by the audit), written here, not read from the code.
 */

const BASE = '/api/v1/co2-calculator'
const ROOT = path.join(import.meta.dirname, '..', '..')

const close = (a: number, b: number, tolerance = 0.01): boolean => Math.abs(a - b) <= tolerance + 1e-9

describe('finding 1: home-energy defaults come from the country\'s own data', () => {
  const shared = sharedCalculator()
  test('India, 80 m2, one person: below India\'s whole per-person CO2 (1.739 t), not 3,163.6 kg of UK gas heating',
    async () => {
      const get = shared
      const india = await get('/energy?country_code=IND&home_size=80&household_size=1')
      assert.ok(india.co2e.kg < 1739, `${india.co2e.kg} kg`)
    })

  test('tropical heating is near zero: Brazil\'s default heating for 80 m2 is a small fraction of Germany\'s and ' +
    'Canada\'s', async () => {
    const get = shared
    const heating = async (code: string): Promise<number> =>
      (await get(`/energy?country_code=${code}&home_size=80`)).breakdown.find((entry: Body) =>
        entry.category === 'heating').kg_co2e
    const [brazil, germany, canada] = [await heating('BRA'), await heating('DEU'), await heating('CAN')]
    assert.ok(brazil < 0.1 * germany && brazil < 0.1 * canada, `BRA ${brazil}, DEU ${germany}, CAN ${canada}`)
  })

  test('the answer says which defaults were used and from what', async () => {
    const get = shared
    const body = await get('/energy?country_code=DEU')
    const used = new Map<string, Body>(body.defaults_used.map((entry: Body) => [entry.parameter, entry]))
    assert.equal(used.get('household_size')?.value, 2.14, 'UN DESA: Germany 2.14 people (2011)')
    assert.match(used.get('household_size')?.basis, /household size/i)
    assert.match(used.get('electricity_kwh')?.basis, /demand per person/)
    assert.match(used.get('heating_kwh')?.basis, /buildings/)
    // Germany has no cited household figure: the model is calibrated on countries that have one, and says so.
    assert.ok(body.assumptions.some((line: string) => /mean ratio of household heating fuel/.test(line)),
      'buildings CO2 includes commercial buildings: the residential ratio is applied')
  })

  test('defaults_used names each parameter the request left out, and none that it gave', async () => {
    const get = shared
    const names = async (path: string): Promise<string[]> =>
      (await get(path)).defaults_used.map((entry: Body) => entry.parameter).sort()
    assert.deepEqual(await names('/flight?country_code=DEU&frequency=rare'),
      ['boundary', 'cabin_class', 'measurement_system', 'radiative_forcing'])
    assert.deepEqual(await names('/flight?country_code=DEU&frequency=rare&boundary=combustion&' +
      'measurement_system=metric&cabin_class=economy'), ['radiative_forcing'])
    assert.deepEqual(await names('/flight?country_code=DEU&frequency=rare&boundary=combustion&' +
      'measurement_system=imperial&cabin_class=economy&radiative_forcing=false'), [])
  })

  test('country_code is read without regard to case or surrounding spaces', async () => {
    const get = shared
    const expected = (await get('/footprint?country_code=DEU')).co2e.kg
    assert.equal((await get('/footprint?country_code=deu')).co2e.kg, expected)
    assert.equal((await get('/footprint?country_code=%20DEU%20')).co2e.kg, expected)
  })
})

describe('finding 2: one boundary for every category', () => {
  const shared = sharedCalculator()
  test('life cycle by default, with the combustion figure beside it: gas +16.5 %, oil +20.9 %, petrol car +28 %, ' +
    'long-haul economy +35.5 %', async () => {
    const get = shared
    const ratio = (body: Body): number => body.co2e_life_cycle.kg / body.co2e_combustion.kg
    const gas = await get('/energy?country_code=GBR&electricity_kwh=0&heating_kwh=10000&household_size=1')
    assert.equal(gas.boundary, 'life_cycle')
    assert.ok(close(ratio(gas), (0.18296 + 0.03021) / 0.18296, 1e-4), 'DESNZ 1_100_1004_6_1 + 11_100_1004_6_1')
    const oil = await get(
      '/energy?country_code=GBR&electricity_kwh=0&heating_kwh=10000&household_size=1&heating_type=heating_oil')
    assert.ok(close(ratio(oil), (0.24677 + 0.05153) / 0.24677, 1e-4), 'DESNZ 1_101_1010_6_1 + 11_101_1010_6_1')
    const petrol = await get('/car?country_code=GBR&distance=10000&fuel_type=petrol')
    assert.ok(close(ratio(petrol), (0.16272 + 0.04599) / 0.16272, 1e-4), 'DESNZ 25_301_3070_4_1 + 26_904_3070_4_1')
    const flight = await get('/flight?country_code=GBR&distance=7000&radiative_forcing=false')
    assert.ok(close(ratio(flight), (0.06926 + 0.02461) / 0.06926, 1e-4), 'DESNZ 21_316_3171_11_1 + 22_912_3171_11_1')
  })

  test('boundary=combustion is accepted everywhere and applied the same way', async () => {
    const get = shared
    for (const url of ['/flight?country_code=DEU&frequency=rare', '/diet?country_code=DEU&diet_form=vegan',
      '/car?country_code=DEU&distance=100',
      '/clothes?country_code=DEU&amount=average', '/energy?country_code=DEU', '/footprint?country_code=DEU']) {
      const body = await get(`${url}&boundary=combustion`)
      assert.equal(body.boundary, 'combustion', url)
      assert.equal(body.co2e.kg, body.co2e_combustion.kg, url)
      assert.ok(body.co2e_life_cycle.kg >= body.co2e_combustion.kg, url)
    }
  })
})

describe('finding 3: cabins are in order in every band', () => {
  test('1,000 km: economy <= premium economy <= business <= first (premium economy was 201.21 kg, above business ' +
    '188.63 kg)', async (t) => {
    const get = await calculator(t)
    for (const km of [300, 500, 1000, 3000, 3700, 6000]) {
      const kg = []
      for (const cabin of ['economy', 'premium_economy', 'business',
        'first']) kg.push((await get(`/flight?country_code=DEU&distance=${km}&cabin_class=${cabin}`)).co2e.kg)
      assert.deepEqual(kg, [...kg].sort((a, b) => a - b), `${km} km: ${kg.join(', ')}`)
    }
  })
})

describe('finding 4: no cliff at 3,700 km, and the bands are labelled as Tonne\'s', () => {
  const shared = sharedCalculator()
  test('business and first at 3,700 and 3,701 km differ by less than 1 % (were +80 % and +148 %)', async () => {
    const get = shared
    for (const cabin of ['business', 'first', 'economy']) {
      const a = (await get(`/flight?country_code=DEU&distance=3700&cabin_class=${cabin}`)).co2e.kg
      const b = (await get(`/flight?country_code=DEU&distance=3701&cabin_class=${cabin}`)).co2e.kg
      assert.ok(Math.abs(b - a) <= 0.01 * a, `${cabin}: ${a} -> ${b}`)
    }
  })

  test('the 3,700 km rule is an assumption in every answer that depends on it, citing DESNZ 8.9', async () => {
    const get = shared
    const body = await get('/flight?country_code=DEU&distance=5000')
    assert.ok(body.assumptions.some((line: string) =>
      /^Assumption \(tonne:flight\.band\.short_haul_up_to_km = 3700 km\)/.test(line) && /8\.9/.test(line)),
    body.assumptions.join('\n'))
  })
})

describe('finding 5: green electricity is never zero, and both Scope 2 methods are given', () => {
  test('a green tariff: market-based from the IPCC life-cycle intensity of wind, location-based from the grid, both ' +
    'in the answer', async (t) => {
    const get = await calculator(t)
    const body = await get(
      '/energy?country_code=DEU&electricity_kwh=2400&heating_type=heat_pump&heating_kwh=3000&energy_type=green&' +
        'household_size=1')
    assert.equal(body.electricity.method, 'location_based')
    assert.ok(body.electricity.market_based.kg > 0, 'never zero')
    assert.ok(body.electricity.market_based.kg < body.electricity.location_based.kg)
    assert.equal(body.co2e.kg, body.electricity.location_based.kg)
    const market = await get(
      '/energy?country_code=DEU&electricity_kwh=2400&heating_type=heat_pump&heating_kwh=3000&energy_type=green&' +
        'household_size=1&electricity_method=market_based')
    assert.equal(market.co2e.kg, body.electricity.market_based.kg)
    for (const entry of market.breakdown) assert.ok(entry.kg_co2e > 0, `${entry.label} is not zero`)
  })
})

describe('finding 6: rail by country where data allow, else the UK figure labelled', () => {
  test('light rail follows the grid (France vs Poland); national rail and buses say they are the UK figure',
    async (t) => {
      const get = await calculator(t)
      const france = await get('/car?country_code=FRA&distance=1000&mode=rail&rail_type=light_rail')
      const poland = await get('/car?country_code=POL&distance=1000&mode=rail&rail_type=light_rail')
      assert.ok(poland.co2e.kg > 5 * france.co2e.kg, `FRA ${france.co2e.kg}, POL ${poland.co2e.kg}`)
      assert.equal(france.inputs.factor_region, 'FRA')
      for (const url of ['/car?country_code=FRA&distance=1000&mode=rail',
        '/car?country_code=FRA&distance=1000&mode=bus']) {
        const body = await get(url)
        assert.equal(body.inputs.factor_region, 'GBR', url)
        assert.ok(body.assumptions.some((line: string) => /UK figure is used for France/.test(line)), url)
      }
    })
})

describe('finding 7: the omnivore default comes from meat eaten, not carcass supply', () => {
  test('the UK default is within 20 % of the UK average diet of 2.7 t (Berners-Lee et al. 2012, as quoted by the ' +
    'audit)', async (t) => {
    const get = await calculator(t)
    const uk = await get('/diet?country_code=GBR&diet_form=everything')
    assert.ok(Math.abs(uk.co2e.kg - 2700) <= 0.2 * 2700, `${uk.co2e.kg} kg`)
    assert.ok(uk.inputs.meat_supply.eaten_g_per_day < uk.inputs.meat_supply.kg_per_year * 1000 / 365,
      'eaten is less than supplied')
  })
})

describe('finding 8: clothes are not scaled by national CO2', () => {
  test('Qatar\'s average is the cited EU-27 figure (EEA 2020: 270 kg for 14.8 kg of textiles, of which clothing 6.1 ' +
    'and footwear 2.7 kg), labelled as such, like India\'s', async (t) => {
    const get = await calculator(t)
    const qatar = await get('/clothes?country_code=QAT&amount=average')
    const india = await get('/clothes?country_code=IND&amount=average')
    assert.equal(qatar.co2e.kg, 160.54)
    assert.equal(india.co2e.kg, 160.54)
    assert.equal(qatar.inputs.factor_region, 'EU-27')
  })
})

describe('finding 9: coverage', () => {
  const shared = sharedCalculator()
  test('Taiwan is supported through the cited region override', async () => {
    const get = shared
    const countries = await get('/countries') as unknown as Body[]
    const taiwan = countries.find((country) => country.country_code === 'TWN')
    assert.deepEqual(taiwan && { region: taiwan.region, sub_region: taiwan.sub_region },
      { region: 'Asia', sub_region: 'Eastern Asia' })
    const energy = await get('/energy?country_code=TWN')
    assert.ok(energy.co2e.kg > 0)
  })

  test('impossible grid figures are replaced by a labelled regional value: CAF (0 g), TKM (1,306 g), UZB (1,121 g)',
    async () => {
      const get = shared
      for (const code of ['CAF', 'TKM', 'UZB']) {
        const body = await get(`/energy?country_code=${code}&electricity_kwh=1000&heating_type=none&household_size=1`)
        const grid = body.country_data.find((datum: Body) => datum.figure === 'grid_intensity')
        assert.equal(grid.factor_status, 'assumption', code)
        assert.match(grid.description, /region/, code)
        assert.ok(grid.value > 0 && grid.value < 1095, `${code}: ${grid.value}`)
      }
    })

  test('every answer names the year of each country figure it used', async () => {
    const get = shared
    const body = await get('/energy?country_code=DEU')
    const years = Object.fromEntries(body.country_data.map((datum: Body) => [datum.figure, datum.year]))
    assert.deepEqual(years,
      {
        grid_intensity: 2024,
        td_losses: 2023,
        household_size: 2011,
        electricity_demand: 2023,
        buildings_co2: 2021,
        ghg: 2021
      })
  })
})

describe('finding 10: documented choices and fixed documentation errors', () => {
  const methodology = readFileSync(path.join(ROOT, 'docs', 'methodology.md'), 'utf8')
  // The method as documented, without the changes section that lists the errors it fixed.
  const method = methodology.split(/^## \d+\. Changes/m)[0] ?? ''

  test('the 2024 -> 2025 fall of the DESNZ air factors and the comparison with ICAO are stated', () => {
    assert.match(methodology, /16 ?% to 42 ?%|-16 % to -42 %/)
    assert.match(methodology, /item 28/)
    assert.match(methodology, /ICAO/)
  })

  test('the representative distances are published (Table 36) and the 3,700 km band is an assumption', async (t) => {
    const get = await calculator(t)
    const body = await get('/flight?country_code=DEU&frequency=often')
    const unchecked = body.assumptions.find((line: string) => line.startsWith('Not yet checked')) ?? ''
    assert.doesNotMatch(unchecked, /flight\.distance\.(short|long)_haul/)
    assert.ok(method.length > 10_000 && method.length < methodology.length, 'the changes section is found')
    assert.doesNotMatch(method, /3,976|911 km/)
    assert.doesNotMatch(method, /EU-28/)
    assert.match(method, /1,484 km[\s\S]{0,400}Table 36/)
  })

  test('numbers in exponent form are refused, as the methodology says (plain decimals only)', async (t) => {
    const { app } = await buildTestApp(t, { env: { RATE_LIMIT_CALCULATOR: '100000' } })
    const response = await app.inject(`${BASE}/car?country_code=DEU&distance=1e3`)
    assert.equal(response.statusCode, 400)
    assert.equal(response.json().parameter, 'distance')
  })
})

describe('warnings and ranges', () => {
  const shared = sharedCalculator()
  test('a category above the country\'s whole per-person footprint is flagged', async () => {
    const get = shared
    const often = await get('/flight?country_code=IND&frequency=often')
    assert.equal(often.warnings.length, 1)
    assert.match(often.warnings[0], /India/)
    assert.deepEqual((await get('/flight?country_code=USA&frequency=rare')).warnings, [])
  })

  test('diet range is a percentile interval of the total, not the sum of every group\'s extreme (issue 35)',
    async () => {
      const get = shared
      const usa = await get('/diet?country_code=USA&diet_form=everything')
      // On main the range added every group's lowest and highest product: 2,505-8,994 kg for the USA.
      const sumOfExtremes = usa.breakdown.reduce((sum: number, entry: Body) => sum + entry.range.high_kg, 0)
      assert.ok(usa.range.high.kg < sumOfExtremes * 0.8, `${usa.range.high.kg} vs ${sumOfExtremes}`)
      assert.ok(usa.range.low.kg < usa.co2e.kg && usa.co2e.kg < usa.range.high.kg, JSON.stringify(usa.range))
      assert.match(usa.range.basis.join(' '), /Monte Carlo \(2000 draws, seed 35\)/)
      // Deterministic: the same request gives the same range.
      const again = await get('/diet?country_code=USA&diet_form=everything')
      assert.deepEqual(again.range, usa.range)
    })

  test('range is uncertainty only: other method choices have fields of their own (issue 22, finding 6)', async () => {
    const get = shared
    // Flights: with or without RF is a method choice (co2e_with_rf / co2e_without_rf); the range with RF is the
    // cited 5-95 % spread of the non-CO2 forcing (issue 35): 96.84 + (148.25 - 96.84) x 21 / 66.6 = 113.05 and
    // x 111 / 66.6 = 182.52 (Lee et al. 2021 via DESNZ 2025 Table 47), never the span to the without-RF figure.
    const flight = await get('/flight?country_code=DEU&distance=1000')
    assert.deepEqual([flight.range.low.kg, flight.range.high.kg], [113.05, 182.52])
    assert.match(flight.range.basis.join(' '), /non-CO2 forcing/)
    const withoutRf = await get('/flight?country_code=DEU&distance=1000&radiative_forcing=false')
    assert.match(withoutRf.range.basis.join(' '), /No cited interval/)
    assert.ok(close(flight.co2e_without_rf.kg, 1000 * (0.07435 + 0.02249)), 'DESNZ 21_316_3165 + 22_912_3164')
    assert.ok(close(flight.co2e_combustion.kg, 1000 * 0.12576), 'DESNZ 21_316_3164_11_1')
    // A green tariff's range is the IPCC wind interval (7-56 g per kWh), not the span to the location-based grid.
    // Measured kWh, so that the range is the tariff's alone (not the household model's).
    const green = await get('/energy?country_code=DEU&energy_type=green&electricity_method=market_based&' +
      'heating_type=none&electricity_kwh=3000')
    const kwh = green.inputs.electricity_kwh / green.inputs.household_size
    assert.ok(green.range.high.kg < green.electricity.location_based.kg, JSON.stringify(green.range))
    assert.ok(green.range.low.kg >= kwh * 0.007 && green.range.high.kg <= kwh * 0.056 / (1 - 0.1),
      `${JSON.stringify(green.range)} for ${kwh} kWh`)
    assert.ok(green.range.basis.some((line: string) => /IPCC/.test(line)))
    assert.ok(!green.range.basis.some((line: string) => /location-based and market-based|Boundary/.test(line)))
  })
})
