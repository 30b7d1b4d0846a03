import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { loadCalculatorData } from '../../src/calculator/calculator.data.ts'
import { carAnswer } from '../../src/calculator/car.ts'
import { derive } from '../../src/calculator/calculation.ts'
import type { Factor } from '../../src/calculator/data-files.ts'
import { greenTariffFactor, gridFactor } from '../../src/calculator/electricity.ts'
import { footprintAnswer } from '../../src/calculator/footprint.ts'
import type { CarQuery } from '../../src/calculator/calculator.schemas.ts'
import { DRAWS, percentileInterval, triangular } from '../../src/calculator/uncertainty.ts'
import { fuelEconomyPerKm } from '../../src/calculator/units.ts'

// Rules of the calculator that a planted mutant once changed without any test noticing (a hand-run mutation
// campaign): each test here fails with that mutant and passes without it. Expected values are worked by hand from
// the legal definitions: 1 mile = 1.609344 km, 1 US gallon = 3.785411784 L, 1 UK gallon = 4.54609 L.

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`)
const close6 = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 5e-7, `${actual} is not ${expected}`)

describe('fuel economy per km', () => {
  test('30 kWh per 100 miles is 30 / 160.9344 = 0.18641 kWh per km; 18 kWh per 100 km is 0.18', () => {
    close(fuelEconomyPerKm(30, 'kwh_per_100mi'), 0.186411358)
    close(fuelEconomyPerKm(18, 'kwh_per_100km'), 0.18)
  })

  test('30 mpg (US) is 3.785411784 / 48.28032 = 0.078405 L per km; 30 mpg (UK) 4.54609 / 48.28032 = 0.094160', () => {
    close(fuelEconomyPerKm(30, 'mpg_us'), 0.0784048611)
    close(fuelEconomyPerKm(30, 'mpg_uk'), 0.0941603121)
  })
})

const data = loadCalculatorData()

describe('a car of measured consumption', () => {
  const car = (query: Partial<CarQuery>) =>
    carAnswer(data, { country_code: 'GBR', distance: 100, fuel_economy_unit: 'l_per_100km', ...query } as CarQuery)

  test('a hybrid burns petrol: 100 km at 5 L/100 km is 5 L x (2.06916 + 0.58094) = 13.25 kg (DESNZ 2025 petrol)',
    () => {
      assert.equal(car({ fuel_type: 'hybrid', fuel_economy: 5 }).co2e.kg, 13.25)
    })

  test('1 and 50 L/100 km, the plausible range\'s ends, are accepted: 100 km at 1 L/100 km of petrol is 2.65 kg',
    () => {
      assert.equal(car({ fuel_type: 'petrol', fuel_economy: 1 }).co2e.kg, 2.65)
      assert.equal(car({ fuel_type: 'petrol', fuel_economy: 50 }).co2e.kg, 132.51)
      assert.throws(() => car({ fuel_type: 'petrol', fuel_economy: 0.99 }), /plausible range of 1 to 50 L/)
    })

  test('5 and 100 kWh/100 km, an electric car\'s plausible ends, are accepted: 100 km at 5 kWh is 5 x 0.234002 kg',
    () => {
      // The UK grid on the life-cycle boundary, 0.2109 / (1 - 0.0987246) = 0.234002 kg per kWh (below).
      const electric = (kwh: number) =>
        car({ fuel_type: 'electric', fuel_economy: kwh, fuel_economy_unit: 'kwh_per_100km' })
      assert.equal(electric(5).co2e.kg, 1.17)
      assert.equal(electric(100).co2e.kg, 23.4)
      assert.throws(() => electric(4.99), /plausible range of 5 to 100 kWh/)
      assert.throws(() => electric(100.01), /plausible range of 5 to 100 kWh/)
    })
})

describe('grid electricity on the life-cycle boundary', () => {
  // United Kingdom: 210.9 g CO2e/kWh (Ember, 2024); transmission losses 8.80, 8.53 and 9.87 % (World Bank WDI,
  // 2021-2023), so the low run divides by (1 - 0.0852798) and the central and high ones by (1 - 0.0987246).
  const gbr = data.countryList.find((country) => country.code === 'GBR')!
  const factor = (bound: 'low' | 'central' | 'high') =>
    gridFactor(gbr, { boundary: 'life_cycle', bound, radiativeForcing: false, method: 'location_based' }).factor.value

  test('the low run takes the lowest losses of the years: 0.2109 / (1 - 0.0852798) = 0.230562 kg per kWh', () => {
    close6(factor('low'), 0.230562)
    close6(factor('central'), 0.234002)
    close6(factor('high'), 0.234002)
  })
})

describe('a renewable tariff\'s range', () => {
  // IPCC AR5 Annex III: wind 11 g CO2e/kWh, 7 to 56 g (data/calculator/parameters.csv); UK losses as above.
  const gbr = data.countryList.find((country) => country.code === 'GBR')!
  const tariff = (bound: 'low' | 'central' | 'high') =>
    greenTariffFactor(data, gbr, { boundary: 'combustion', bound, radiativeForcing: false, method: 'market_based' })

  test('each end of the range is IPCC\'s and says so; the central figure names no range', () => {
    close6(tariff('low').factor.value, 0.007)
    close6(tariff('central').factor.value, 0.011)
    close6(tariff('high').factor.value, 0.056)
    const note = 'Renewable tariff: IPCC AR5 Annex III life-cycle range for wind (7-56 g CO2e/kWh)'
    assert.ok(tariff('low').intervals.includes(note))
    assert.ok(tariff('high').intervals.includes(note))
    assert.ok(!tariff('central').intervals.includes(note))
  })
})

describe('a derived factor\'s status is the weakest of its parts (published, then unverified, then assumption)', () => {
  const part = (status: Factor['status']): Factor =>
    ({ key: `k:${status}`, id: status, value: 1, unit: 'kg', source: 's', status, description: status })
  const statusOf = (...statuses: Array<Factor['status']>) =>
    derive(statuses.map(part), { key: 'd', id: 'd', value: 1, unit: 'kg', description: 'd', derivation: 'd' }).status

  test('published alone stays published; an unverified part makes it unverified; an assumption outranks both', () => {
    assert.equal(statusOf('published', 'published'), 'published')
    assert.equal(statusOf('published', 'unverified'), 'unverified')
    assert.equal(statusOf('unverified', 'assumption'), 'assumption')
    assert.equal(statusOf('assumption', 'unverified'), 'assumption')
    assert.equal(statusOf('assumption', 'published'), 'assumption')
  })
})

describe('a national footprint beside the world\'s', () => {
  test('the ratio to the world has three decimals: Germany 9.957 t / world 4.655 t (consumption, 2021) = 2.139', () => {
    const answer = footprintAnswer(data, { country_code: 'DEU' })
    assert.equal(answer.basis, 'consumption')
    assert.equal(answer.ratio_to_world, 2.139)
  })

  test('the national figure is not warned about as if it were one category above the average person', () => {
    // Germany's consumption CO2, 9.957 t, is more than its greenhouse gases, 8.943 t: a category's check would fire.
    assert.deepEqual(footprintAnswer(data, { country_code: 'DEU' }).warnings, [])
  })
})

describe('ranges: a triangular draw (inverse CDF), the mode a quarter of the way from low to high', () => {
  // Over low 0, mode 1, high 4: below u = 1/4 a draw is 0 + sqrt(u x 4 x 1), above it 4 - sqrt((1 - u) x 4 x 3).
  // Over low 1, mode 2, high 5 the same shape is moved by 1, so a low end other than 0 is counted once.
  const cases: Array<[number, number, number, Array<[number, number]>]> = [
    [0, 1, 4, [[0.1, 0.632456], [0.25, 1], [0.75, 2.267949]]],
    [1, 2, 5, [[0.1, 1.632456], [0.25, 2], [0.5, 2.550510]]]
  ]

  test('u = 0.1 draws low + sqrt(0.4); u = 1/4 the mode; above it, high - sqrt((1 - u) x 12)', () => {
    for (const [low, mode, high, draws] of cases) {
      for (const [u, expected] of draws) close6(triangular(() => u, low, mode, high), expected)
    }
  })
})

describe('ranges: the interval is the 2.5th to 97.5th percentile of the draws', () => {
  test('of 2,000 draws 0, 1, ... 1,999 (in any order), the 51st smallest and the 1,951st', () => {
    // 2.5 % of 2,000 is 50 draws below the low end; 97.5 % is 1,950 below the high end.
    assert.equal(DRAWS, 2000)
    let next = 0
    // A draw ignores the random numbers; a multiplier coprime to 2,000 visits every value once, out of order.
    const interval = percentileInterval(() => (next++ * 7) % 2000)
    assert.deepEqual(interval, { low: 50, high: 1950 })
  })
})
