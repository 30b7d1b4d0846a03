import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { TObject } from 'typebox'
import { errorResponses } from '../http/schemas.ts'
import type { CalculatorData } from './calculator.data.ts'
import { mass, present } from './calculation.ts'
import {
  CarQuery, CarResult, ClothesQuery, ClothesResult, ConfigQuery, ConfigResult, CountryList, DietQuery, DietResult,
  EmptyQuery, EnergyQuery, EnergyResult, FlightQuery, FlightResult, FootprintQuery, FootprintResult, Pong
} from './calculator.schemas.ts'
import { calculateCar } from './car.ts'
import { calculateClothes } from './clothes.ts'
import { countryConfig, listCountries } from './countries.ts'
import { calculateDiet } from './diet.ts'
import { calculateEnergy } from './energy.ts'
import { calculateFlight, flightTotals } from './flight.ts'
import { calculateFootprint } from './footprint.ts'
import { queryGuard } from './query-guard.ts'

/**
 * The footprint calculator, registered by app.ts under /api/v1/co2-calculator.
 * Every route is GET, unauthenticated and answers from data loaded once at start-up.
 */
export const calculatorRoutes: FastifyPluginAsyncTypebox<{ data: CalculatorData }> = async (app, { data }) => {
  const tags = ['calculator']
  // Runs before ajv: rejects unknown, repeated, empty and non-decimal parameters (query-guard.ts).
  const guard = (schema: TObject) => {
    const check = queryGuard(schema)
    return async (request: { query: unknown }) => { check(request.query) }
  }

  // Monitoring only: no query schema, so a probe's cache-busting parameter is not an error.
  app.get('/ping', {
    schema: { tags, summary: 'Health check', description: 'Returns {"message": "pong"}.', response: { 200: Pong } }
  }, async () => ({ message: 'pong' as const }))

  app.get('/countries', {
    schema: {
      tags,
      summary: 'Supported countries',
      description: 'Every country the calculator supports, as a bare array ordered by name (Intl.Collator("en")): ISO 3166-1 alpha-3 code, name, UN M49 region and sub-region, and measurement system (imperial for USA, LBR and MMR).',
      querystring: EmptyQuery,
      response: { 200: CountryList, ...errorResponses(400) }
    },
    preValidation: guard(EmptyQuery)
  }, async () => listCountries(data))

  app.get('/config', {
    schema: {
      tags,
      summary: 'Default units and options for a country',
      description: 'The measurement system inputs are read in for the country, its units, every enumerated parameter with its allowed values, and the defaults.',
      querystring: ConfigQuery,
      response: { 200: ConfigResult, ...errorResponses(400) }
    },
    preValidation: guard(ConfigQuery)
  }, async (request) => countryConfig(data, request.query))

  app.get('/footprint', {
    schema: {
      tags,
      summary: 'Average footprint of a person in a country',
      description: 'National per-capita emissions (consumption-based CO2 by default), with the other bases and the world average for comparison.',
      querystring: FootprintQuery,
      response: { 200: FootprintResult, ...errorResponses(400) }
    },
    preValidation: guard(FootprintQuery)
  }, async (request) => {
    const calculation = calculateFootprint(data, request.query)
    const country = data.countries.get(calculation.countryCode)
    const shown = [calculation.worldFactor, country?.territorialCo2, country?.consumptionCo2, country?.ghg].filter((factor) => factor !== undefined)
    return {
      ...present(data, calculation, shown),
      basis: calculation.basis,
      gases: calculation.basis === 'ghg' ? 'co2e' as const : 'co2' as const,
      values: calculation.values,
      world: calculation.world,
      ratio_to_world: Math.round(calculation.ratioToWorld * 1000) / 1000
    }
  })

  app.get('/flight', {
    schema: {
      tags,
      summary: 'Emissions of flights',
      description: 'Flights a year, described by the Flowcarbon frequency profile, by counts per distance band, by IATA legs, or by distance: exactly one of these. DESNZ 2025 factors per passenger-km by band and cabin class; radiative forcing on by default, and both values are returned.',
      querystring: FlightQuery,
      response: { 200: FlightResult, ...errorResponses(400) }
    },
    preValidation: guard(FlightQuery)
  }, async (request) => {
    const calculation = calculateFlight(data, request.query)
    const totals = flightTotals(calculation)
    return {
      ...present(data, calculation.selected),
      co2e_with_rf: mass(totals.withRfKg),
      co2e_without_rf: mass(totals.withoutRfKg),
      radiative_forcing: {
        included: calculation.selected === calculation.withRf,
        method: 'DESNZ 2025 "with RF" factors (a 1.7 multiplier on the CO2 component for the non-CO2 effects of aviation) in co2e_with_rf; "without RF" factors in co2e_without_rf'
      }
    }
  })

  app.get('/diet', {
    schema: {
      tags,
      summary: 'Emissions of a diet',
      description: 'A year of a diet (Scarborough et al. 2023 by default), scaled by calories; everything = the meat-eater group matching the country\'s meat supply.',
      querystring: DietQuery,
      response: { 200: DietResult, ...errorResponses(400) }
    },
    preValidation: guard(DietQuery)
  }, async (request) => {
    const calculation = calculateDiet(data, request.query)
    return {
      ...present(data, calculation),
      range: calculation.range === undefined
        ? null
        : { low: mass(calculation.range.lowKg), high: mass(calculation.range.highKg), description: '2.5th to 97.5th percentile of the study\'s Monte Carlo distribution' }
    }
  })

  app.get('/car', {
    schema: {
      tags,
      summary: 'Emissions of car, rail or bus travel',
      description: 'A year of travel: distance x DESNZ 2025 factor. Cars by fuel and size (or measured fuel economy), shared by occupancy; electric cars on the country\'s grid. Rail, bus and coach per passenger-km.',
      querystring: CarQuery,
      response: { 200: CarResult, ...errorResponses(400) }
    },
    preValidation: guard(CarQuery)
  }, async (request) => present(data, calculateCar(data, request.query)))

  app.get('/clothes', {
    schema: {
      tags,
      summary: 'Emissions of clothes shopping',
      description: 'A year of clothes, by amount (country-scaled EU average), by spend in US dollars, or by garments bought: exactly one of these.',
      querystring: ClothesQuery,
      response: { 200: ClothesResult, ...errorResponses(400) }
    },
    preValidation: guard(ClothesQuery)
  }, async (request) => present(data, calculateClothes(data, request.query)))

  app.get('/energy', {
    schema: {
      tags,
      summary: 'Emissions of home electricity and heating',
      description: 'A year of home energy per person: measured kWh or floor area x assumed kWh per m², times the country\'s grid intensity or the DESNZ fuel factor, divided by household size.',
      querystring: EnergyQuery,
      response: { 200: EnergyResult, ...errorResponses(400) }
    },
    preValidation: guard(EnergyQuery)
  }, async (request) => present(data, calculateEnergy(data, request.query)))
}
