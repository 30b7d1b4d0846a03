import assert from 'node:assert/strict'
import { test } from 'node:test'
import { TonneApiError, TonneClient } from '../../client/src/index.ts'
import { startService } from '../support/service.ts'

test('every calculator endpoint answers through the client, without a key', async (t) => {
  const { baseUrl } = await startService(t)
  const calculator = new TonneClient({ baseUrl }).calculator

  assert.deepEqual(await calculator.ping(), { message: 'pong' })
  const countries = await calculator.countries()
  assert.ok(countries.some((c) => c.country_code === 'DEU' && c.measurement_system === 'metric'))

  const usa = await calculator.config({ country_code: 'usa' })
  assert.equal(usa.measurement_system, 'imperial')
  assert.equal(usa.units.distance, 'mi')
  assert.ok(usa.enums['diet_form']?.includes('vegan'))

  const footprint = await calculator.footprint({ country_code: 'DEU' })
  assert.equal(footprint.basis, 'consumption')
  assert.ok(footprint.world.t > 0 && footprint.ratio_to_world > 1)

  const flight = await calculator.flight({
    country_code: 'DEU',
    legs: 'FRA-JFK',
    round_trip: true,
    radiative_forcing: false
  })
  assert.equal(flight.inputs.flights, 2)
  assert.equal(flight.radiative_forcing.included, false)
  assert.equal(flight.co2e.kg, flight.co2e_without_rf.kg)

  const diet = await calculator.diet({ country_code: 'DEU', diet_form: 'vegan', calories: 2500 })
  assert.equal(diet.inputs.calories, 2500)
  assert.ok(diet.breakdown.length > 0 && diet.sources.length > 0)

  assert.equal((await calculator.car({
    country_code: 'DEU',
    distance: 10000,
    fuel_type: 'diesel',
    car_size: 'large',
    occupancy: 2,
    boundary: 'combustion'
  })).co2e.kg, 1050.35)
  assert.equal((await calculator.clothes({ country_code: 'USA', spend_usd: 1000 })).co2e.kg, 145)
  const energy = await calculator.energy({
    country_code: 'GBR',
    electricity_kwh: 3500,
    heating_kwh: 12000,
    heating_type: 'heating_oil',
    household_size: 3
  })
  assert.equal(energy.inputs.electricity_source, 'measured')
  assert.equal(energy.per, 'person')
})

test('calculator errors carry the service\'s code and parameter', async (t) => {
  const { baseUrl } = await startService(t)
  const calculator = new TonneClient({ baseUrl }).calculator
  const unknown = await calculator.diet({ country_code: 'XYZ', diet_form: 'vegan' }).catch((e: unknown) => e)
  assert.ok(unknown instanceof TonneApiError)
  assert.equal(unknown.code, 'unknown_country')
  assert.equal(unknown.parameter, 'country_code')

  const conflicting = await calculator.flight({
    country_code: 'DEU',
    frequency: 'often',
    distance: 100
  }).catch((e: unknown) => e)
  assert.ok(conflicting instanceof TonneApiError)
  assert.equal(conflicting.status, 400)

  const airport = await calculator.flight({ country_code: 'DEU', legs: 'FRA-ZZZ' }).catch((e: unknown) => e)
  assert.ok(airport instanceof TonneApiError)
  assert.equal(airport.code, 'unknown_airport')
})
