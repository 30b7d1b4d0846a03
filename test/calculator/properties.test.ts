import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { CABIN_CLASSES, CAR_SIZES, loadCalculatorData } from '../../src/calculator/calculator.data.ts'
import { present, totalKg, type Calculation } from '../../src/calculator/calculation.ts'
import { calculateCar } from '../../src/calculator/car.ts'
import { calculateClothes } from '../../src/calculator/clothes.ts'
import { ENUMS } from '../../src/calculator/countries.ts'
import { calculateDiet } from '../../src/calculator/diet.ts'
import { calculateEnergy } from '../../src/calculator/energy.ts'
import { calculateFlight, MAX_FLIGHT_KM } from '../../src/calculator/flight.ts'
import { calculateFootprint } from '../../src/calculator/footprint.ts'
import { KM_PER_MILE, LITRES_PER_US_GALLON, M2_PER_FT2 } from '../../src/calculator/units.ts'

const data = loadCalculatorData()
const codes = [...data.countries.keys()]
const country = fc.constantFrom(...codes)
const runs = { numRuns: 300 }

const close = (a: number, b: number, relative = 1e-9): boolean => Math.abs(a - b) <= relative * Math.max(1, Math.abs(a), Math.abs(b))

const heatingTypes = ENUMS.heating_type
const cars = fc.record({
  fuel_type: fc.constantFrom('petrol', 'diesel', 'hybrid', 'plug_in_hybrid', 'electric', 'lpg', 'cng', 'unknown'),
  car_size: fc.constantFrom(...CAR_SIZES),
  occupancy: fc.integer({ min: 1, max: 9 })
})

describe('property: more distance never gives less CO2', () => {
  test('flights by distance, every cabin class, with and without radiative forcing', () => {
    fc.assert(fc.property(
      fc.double({ min: 0.001, max: MAX_FLIGHT_KM, noNaN: true }), fc.double({ min: 0.001, max: MAX_FLIGHT_KM, noNaN: true }),
      fc.constantFrom(...CABIN_CLASSES), fc.boolean(),
      (a, b, cabin, rf) => {
        const [short, long] = a <= b ? [a, b] : [b, a]
        const kg = (distance: number) => totalKg(calculateFlight(data, { country_code: 'DEU', distance, cabin_class: cabin, radiative_forcing: rf }).selected)
        return kg(short) <= kg(long) + 1e-9
      }), runs)
  })

  test('flights at each side of the band boundaries (500 km and 3,700 km)', () => {
    for (const cabin of CABIN_CLASSES) {
      for (const rf of [true, false]) {
        let previous = 0
        for (let km = 400; km <= 4200; km += 0.5) {
          const kg = totalKg(calculateFlight(data, { country_code: 'DEU', distance: km, cabin_class: cabin, radiative_forcing: rf }).selected)
          assert.ok(kg >= previous - 1e-9, `${cabin} rf=${rf}: ${km} km gives ${kg} kg, less than ${previous} kg just before`)
          previous = kg
        }
      }
    }
  })

  test('car, rail, bus and coach', () => {
    fc.assert(fc.property(
      country, fc.double({ min: 0, max: 1_000_000, noNaN: true }), fc.double({ min: 0, max: 1_000_000, noNaN: true }),
      fc.constantFrom('car', 'rail', 'bus', 'coach'), cars,
      (code, a, b, mode, car) => {
        const [short, long] = a <= b ? [a, b] : [b, a]
        const extra = mode === 'car' ? car : {}
        const kg = (distance: number) => totalKg(calculateCar(data, { country_code: code, measurement_system: 'metric', distance, mode, ...extra }))
        return kg(short) <= kg(long) + 1e-9
      }), runs)
  })

  test('a bigger home never gives less CO2', () => {
    fc.assert(fc.property(
      country, fc.double({ min: 1, max: 5000, noNaN: true }), fc.double({ min: 1, max: 5000, noNaN: true }), fc.constantFrom(...heatingTypes),
      (code, a, b, heating) => {
        const [small, large] = a <= b ? [a, b] : [b, a]
        const kg = (home: number) => totalKg(calculateEnergy(data, { country_code: code, measurement_system: 'metric', home_size: home, heating_type: heating }))
        return kg(small) <= kg(large) + 1e-9
      }), runs)
  })
})

describe('property: an imperial input equals its metric equivalent', () => {
  test('car distance in miles = the same distance in km', () => {
    fc.assert(fc.property(country, fc.double({ min: 0, max: 600_000, noNaN: true }), fc.constantFrom('car', 'rail', 'bus', 'coach'), cars, (code, miles, mode, car) => {
      const extra = mode === 'car' ? car : {}
      const imperial = totalKg(calculateCar(data, { country_code: code, measurement_system: 'imperial', distance: miles, mode, ...extra }))
      const metric = totalKg(calculateCar(data, { country_code: code, measurement_system: 'metric', distance: miles * KM_PER_MILE, mode, ...extra }))
      return close(imperial, metric)
    }), runs)
  })

  test('flight distance in miles = the same distance in km', () => {
    fc.assert(fc.property(fc.double({ min: 0.01, max: 12_000, noNaN: true }), fc.constantFrom(...CABIN_CLASSES), (miles, cabin) => {
      const imperial = totalKg(calculateFlight(data, { country_code: 'USA', distance: miles, cabin_class: cabin }).selected)
      const metric = totalKg(calculateFlight(data, { country_code: 'USA', measurement_system: 'metric', distance: miles * KM_PER_MILE, cabin_class: cabin }).selected)
      return close(imperial, metric)
    }), runs)
  })

  test('home size in ft2 = the same size in m2', () => {
    fc.assert(fc.property(country, fc.double({ min: 11, max: 53_000, noNaN: true }), fc.constantFrom(...heatingTypes), fc.integer({ min: 1, max: 20 }), (code, ft2, heating, people) => {
      const imperial = totalKg(calculateEnergy(data, { country_code: code, measurement_system: 'imperial', home_size: ft2, heating_type: heating, household_size: people }))
      const metric = totalKg(calculateEnergy(data, { country_code: code, measurement_system: 'metric', home_size: ft2 * M2_PER_FT2, heating_type: heating, household_size: people }))
      return close(imperial, metric)
    }), runs)
  })

  test('US mpg = the same economy in L/100 km', () => {
    fc.assert(fc.property(country, fc.double({ min: 5, max: 200, noNaN: true }), fc.double({ min: 0, max: 100_000, noNaN: true }), fc.constantFrom('petrol', 'diesel', 'hybrid', 'lpg'), (code, mpg, km, fuel) => {
      const litresPer100km = 100 * LITRES_PER_US_GALLON / (mpg * KM_PER_MILE)
      const imperial = totalKg(calculateCar(data, { country_code: code, measurement_system: 'metric', distance: km, fuel_type: fuel, fuel_economy: mpg, fuel_economy_unit: 'mpg_us' }))
      const metric = totalKg(calculateCar(data, { country_code: code, measurement_system: 'metric', distance: km, fuel_type: fuel, fuel_economy: litresPer100km }))
      return close(imperial, metric)
    }), runs)
  })
})

/** The breakdown sums to the total, unrounded, and after rounding within half a unit per entry. */
function assertSums (data_: typeof data, calculation: Calculation<unknown>): void {
  const kg = totalKg(calculation)
  const sum = calculation.breakdown.reduce((s, entry) => s + entry.kg, 0)
  assert.ok(close(sum, kg), `breakdown ${sum} != total ${kg}`)
  for (const entry of calculation.breakdown) {
    assert.ok(close(entry.kg, entry.quantity * entry.factor.value), `${entry.label}: kg is not quantity x factor`)
  }
  const shown = present(data_, calculation)
  const shownSum = shown.breakdown.reduce((s, entry) => s + entry.kg_co2e, 0)
  assert.ok(Math.abs(shownSum - shown.co2e.kg) <= 0.005 * (shown.breakdown.length + 1) + 1e-9, `rounded breakdown ${shownSum} vs ${shown.co2e.kg}`)
  for (const entry of shown.breakdown) {
    assert.ok(Math.abs(entry.quantity * entry.factor - entry.kg_co2e) <= Math.max(0.01, 1e-4 * entry.kg_co2e), `${entry.label}: shown quantity x factor = ${entry.quantity * entry.factor}, kg_co2e ${entry.kg_co2e}`)
  }
  assert.ok(Math.abs(shown.t_co2 - kg / 1000) <= 0.005 + 1e-9, `t_co2 ${shown.t_co2} vs ${kg} kg`)
}

describe('property: every breakdown sums to the total', () => {
  const legs = fc.array(fc.constantFrom('FRA', 'JFK', 'LHR', 'MAN', 'EDI', 'SIN', 'SYD', 'CDG', 'LAX', 'ZRH', 'NRT', 'GRU'), { minLength: 2, maxLength: 8 })
    .filter((list) => list.every((code, i) => i === 0 || code !== list[i - 1]))
    .map((list) => list.join('-'))

  test('flights in every mode', () => {
    const query = fc.oneof(
      fc.record({ frequency: fc.constantFrom(...ENUMS.frequency) }),
      fc.record({ short_haul: fc.integer({ min: 0, max: 200 }), medium_haul: fc.integer({ min: 0, max: 200 }), long_haul: fc.integer({ min: 0, max: 200 }) }),
      fc.record({ legs, trips: fc.integer({ min: 1, max: 500 }), round_trip: fc.boolean() }),
      fc.record({ distance: fc.double({ min: 0.01, max: MAX_FLIGHT_KM, noNaN: true }), trips: fc.integer({ min: 1, max: 500 }), round_trip: fc.boolean() })
    )
    fc.assert(fc.property(country, query, fc.constantFrom(...CABIN_CLASSES), fc.boolean(), (code, q, cabin, rf) => {
      const result = calculateFlight(data, { country_code: code, measurement_system: 'metric', cabin_class: cabin, radiative_forcing: rf, ...q })
      assertSums(data, result.withRf)
      assertSums(data, result.withoutRf)
      assert.ok(totalKg(result.withoutRf) <= totalKg(result.withRf) + 1e-9, 'without RF must not exceed with RF')
    }), runs)
  })

  test('diet, car, clothes, energy and footprint', () => {
    fc.assert(fc.property(country, fc.constantFrom(...ENUMS.diet_form), fc.integer({ min: 1200, max: 4000 }), fc.constantFrom(...ENUMS.study), (code, form, calories, study) => {
      assertSums(data, calculateDiet(data, { country_code: code, diet_form: form, calories, study }))
    }), runs)
    fc.assert(fc.property(country, fc.double({ min: 0, max: 1_000_000, noNaN: true }), fc.constantFrom('car', 'rail', 'bus', 'coach'), cars, (code, distance, mode, car) => {
      assertSums(data, calculateCar(data, { country_code: code, measurement_system: 'metric', distance, mode, ...(mode === 'car' ? car : {}) }))
    }), runs)
    const clothes = fc.oneof(
      fc.record({ amount: fc.constantFrom(...ENUMS.amount) }),
      fc.record({ spend_usd: fc.double({ min: 0, max: 100_000, noNaN: true }) }),
      fc.record({ new_items: fc.integer({ min: 0, max: 1000 }), secondhand_items: fc.integer({ min: 0, max: 1000 }) })
    )
    fc.assert(fc.property(country, clothes, (code, q) => {
      assertSums(data, calculateClothes(data, { country_code: code, ...q }))
    }), runs)
    fc.assert(fc.property(country, fc.double({ min: 1, max: 5000, noNaN: true }), fc.integer({ min: 1, max: 20 }), fc.constantFrom(...heatingTypes), fc.constantFrom(...ENUMS.energy_type),
      fc.option(fc.double({ min: 0, max: 200_000, noNaN: true }), { nil: undefined }), (code, home, people, heating, energy, kwh) => {
        assertSums(data, calculateEnergy(data, {
          country_code: code,
          measurement_system: 'metric',
          home_size: home,
          household_size: people,
          heating_type: heating,
          energy_type: energy,
          ...(kwh === undefined ? {} : { electricity_kwh: kwh })
        }))
      }), runs)
    fc.assert(fc.property(country, fc.constantFrom(...ENUMS.basis), (code, basis) => {
      assertSums(data, calculateFootprint(data, { country_code: code, basis }))
    }), runs)
  })
})
