import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static, TObject, TSchema } from 'typebox'
import type { AnswerPath } from '../http/answer-path.ts'
import { errorResponses } from '../http/schemas.ts'
import type { CalculatorData } from './calculator.data.ts'
import {
  CarQuery, CarResult, ClothesQuery, ClothesResult, ConfigQuery, ConfigResult, CountryList, DietQuery, DietResult,
  EmptyQuery, EnergyQuery, EnergyResult, FlightQuery, FlightResult, FootprintQuery, FootprintResult, Pong
} from './calculator.schemas.ts'
import { carAnswer } from './car.ts'
import { clothesAnswer } from './clothes.ts'
import { countryConfig, listCountries } from './countries.ts'
import { dietAnswer } from './diet.ts'
import { energyAnswer } from './energy.ts'
import { flightAnswer } from './flight.ts'
import { footprintAnswer } from './footprint.ts'

/**
 * The footprint calculator, registered by app.ts under /api/v1/co2-calculator. Every route is
 * GET, unauthenticated and answers from data loaded once at start-up; each is one row of the
 * table below: path, documentation, query schema, answer schema and the calculation. A new row reaches the client
 * and the explorer through `npm run client:generate` alone (README, "Adding a calculator category").
 */

interface CalculatorRoute<Q extends TObject, R extends TSchema> {
  path: string
  /** Unique in the OpenAPI document (code generators name methods by it). */
  operationId: string
  /**
   * The /docs sample's query (OpenAPI `x-sample`): a request that answers 200 as shown, with the unit system
   * spelled out where a figure has a unit (it otherwise follows the country: docs/api.md, "Units").
   */
  sample: Record<string, string | number>
  /**
   * A part of a person's footprint (OpenAPI `x-category`, its name for people): the explorer shows a fieldset and
   * a result row for every such route (docs/explorer.md, "Calculator categories"). Absent on lookups (countries).
   */
  category?: string
  summary: string
  description: string
  querystring: Q
  response: R
  answer: (data: CalculatorData, query: Static<Q>) => unknown
}

/** One table row; the generic keeps each row's query and answer types tied together. */
function route<Q extends TObject, R extends TSchema> (row: CalculatorRoute<Q, R>): CalculatorRoute<TObject, TSchema> {
  return row as unknown as CalculatorRoute<TObject, TSchema>
}

const ANSWER_NOTE = 'Every answer gives co2e on the requested boundary (life_cycle by default) with the other ' +
  'boundary\'s figure, a range over cited alternatives, the defaults used with their basis, every country figure ' +
  'with its year, and warnings when the result exceeds the country\'s greenhouse gases per person (CO2e).'

const CALCULATOR_ROUTES = [
  route({
    path: '/countries',
    operationId: 'listCountries',
    sample: {},
    summary: 'Supported countries',
    description: 'Every country the calculator supports, as a bare array ordered by name (Intl.Collator("en")): ISO ' +
      '3166-1 alpha-3 code, name, UN M49 region and sub-region (Taiwan from a cited override), and measurement ' +
      'system (imperial for USA, LBR and MMR).',
    querystring: EmptyQuery,
    response: CountryList,
    answer: (data) => listCountries(data)
  }),
  route({
    path: '/config',
    operationId: 'getCountryConfig',
    sample: { country_code: 'DEU' },
    summary: 'Default units and options for a country',
    description: 'The measurement system inputs are read in for the country, its units, every enumerated parameter ' +
      'with its allowed values, and the defaults (household_size is the country\'s average).',
    querystring: ConfigQuery,
    response: ConfigResult,
    answer: countryConfig
  }),
  route({
    path: '/footprint',
    operationId: 'getAverageFootprint',
    sample: { country_code: 'DEU' },
    summary: 'Average footprint of a person in a country',
    description: 'National per-capita emissions (consumption-based CO2 by default), with the other bases and the ' +
      'world average for comparison.',
    querystring: FootprintQuery,
    response: FootprintResult,
    answer: footprintAnswer
  }),
  route({
    path: '/flight',
    operationId: 'calculateFlight',
    category: 'Flights',
    sample: { country_code: 'DEU', distance: 1200, measurement_system: 'metric' },
    summary: 'Emissions of flights',
    description: 'Flights a year, described by the Flowcarbon frequency profile, by counts per distance band, by ' +
      'IATA legs, or by distance: exactly one of these. DESNZ 2025 factors per passenger-km by band and cabin class ' +
      '(plus well-to-tank on the life-cycle boundary), with a smooth transition at each band boundary; radiative ' +
      `forcing on by default, and both values are returned. ${ANSWER_NOTE}`,
    querystring: FlightQuery,
    response: FlightResult,
    answer: flightAnswer
  }),
  route({
    path: '/diet',
    operationId: 'calculateDiet',
    category: 'Food',
    sample: { country_code: 'DEU' },
    summary: 'Emissions of a diet',
    description: 'A year of a diet: the country\'s FAO food supply by group x Poore and Nemecek (2018) factors, ' +
      'for the kcal eaten (default the supply less 17 % wasted, UNEP 2021) with the waste counted; everything = the ' +
      `country's average diet, the other forms swap food groups. ${ANSWER_NOTE}`,
    querystring: DietQuery,
    response: DietResult,
    answer: dietAnswer
  }),
  route({
    path: '/car',
    operationId: 'calculateCar',
    category: 'Car and public transport',
    sample: { country_code: 'DEU', distance: 12000, measurement_system: 'metric' },
    summary: 'Emissions of car, rail or bus travel',
    description: 'A year of travel: distance x DESNZ 2025 factor (plus well-to-tank on the life-cycle boundary). ' +
      'Cars by fuel and size (or measured fuel economy), shared by occupancy; electric cars and electric light rail ' +
      `on the country's grid; UK figures labelled as such elsewhere. ${ANSWER_NOTE}`,
    querystring: CarQuery,
    response: CarResult,
    answer: carAnswer
  }),
  route({
    path: '/clothes',
    operationId: 'calculateClothes',
    category: 'Clothes',
    sample: { country_code: 'DEU', amount: 'average' },
    summary: 'Emissions of clothes shopping',
    description: 'A year of clothes, by amount (the EU-27 average, stated as such), by spend in US dollars, or by ' +
      `garments bought: exactly one of these. ${ANSWER_NOTE}`,
    querystring: ClothesQuery,
    response: ClothesResult,
    answer: clothesAnswer
  }),
  route({
    path: '/energy',
    operationId: 'calculateEnergy',
    category: 'Home energy',
    sample: { country_code: 'DEU', home_size: 80, measurement_system: 'metric' },
    summary: 'Emissions of home electricity and heating',
    description: 'A year of home energy per person: measured kWh, or the country\'s average household (cited ' +
      'household electricity, else demand x residential share; buildings CO2 as heating) scaled to the household ' +
      'size (elasticities fitted on US RECS 2015) and floor area, times the grid (location- and market-based) or the ' +
      `DESNZ fuel factor, divided by household size (default the country's average). ${ANSWER_NOTE}`,
    querystring: EnergyQuery,
    response: EnergyResult,
    answer: energyAnswer
  })
]

interface CalculatorOptions {
  data: CalculatorData
  /**
   * The calculator's answer path: an answer is a function of the code and data version, its path and known
   * parameters, so it carries a strong ETag and may be kept by any cache.
   */
  path: AnswerPath
}

export const calculatorRoutes: FastifyPluginAsyncTypebox<CalculatorOptions> = async (app, { data, path }) => {
  const tags = ['calculator']

  // Monitoring only: no query schema, so a probe's cache-busting parameter is not an error (query-policy.ts), and
  // never conditional or kept, so every ping reaches the service.
  app.get('/ping', {
    config: { conditional: false },
    schema: {
      tags,
      operationId: 'ping',
      summary: 'Health check',
      description: 'Returns {"message": "pong"}.',
      response: { 200: Pong }
    }
  }, async () => ({ message: 'pong' as const }))

  for (const row of CALCULATOR_ROUTES) {
    app.get(row.path, {
      schema: {
        tags,
        operationId: row.operationId,
        'x-sample': row.sample,
        ...(row.category === undefined ? {} : { 'x-category': row.category }),
        summary: row.summary,
        description: row.description,
        querystring: row.querystring,
        // The 200 schema serialises: the answer is written by its serializer once, then kept as text.
        response: { 200: row.response, ...errorResponses(400) }
      }
    }, async (request, reply) => await path.send(request, reply, {
      build: () => String(reply.serialize(row.answer(data, request.query as Static<TObject>)))
    }))
  }
}
