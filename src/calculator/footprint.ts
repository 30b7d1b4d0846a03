import { present, runScenarios, type PresentedCalculation } from './answer.ts'
import type { CalculatorData, Factor } from './calculator.data.ts'
import { derive, item, type Calculation } from './calculation.ts'
import type { FootprintInputs, FootprintQuery } from './calculator.schemas.ts'
import { defaultsFor, measurementSystemFor, resolveCountry, systemDefault } from './countries.ts'
import { isPersonQuery, personFootprint, personRange, type PersonPart } from './person-footprint.ts'

/**
 * The average footprint of a person in a country: a national per-capita figure, no model.
 * consumption (default) and territorial are CO2 only; ghg is all gases, CO2e. Every figure is for
 * one year (the latest with consumption-based figures), so the bases can be compared.
 */

type Basis = NonNullable<FootprintQuery['basis']>

interface Stat { t: number, year: number, unit: string, source: string }

interface FootprintCalculation extends Calculation<FootprintInputs> {
  basis: Basis
  values: { consumption_co2: Stat | null, territorial_co2: Stat, ghg_co2e: Stat | null }
  world: Stat
  worldFactor: Factor
  ratioToWorld: number
  year: number
}

function stat (factor: Factor): Stat {
  return { t: factor.value, year: factor.year ?? 0, unit: factor.unit, source: factor.source }
}

function calculateFootprint (data: CalculatorData, query: FootprintQuery): FootprintCalculation {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const requested: Basis = query.basis ?? 'consumption'
  const assumptions: string[] = []
  let basis: Basis = requested
  let national: Factor
  if (requested === 'ghg' && country.ghg !== undefined) {
    national = country.ghg
  } else if (requested === 'consumption' && country.consumptionCo2 !== undefined) {
    national = country.consumptionCo2
  } else {
    if (requested !== 'territorial') {
      const missing = requested === 'ghg' ? 'greenhouse-gas' : 'consumption-based'
      assumptions.push(`${country.name} has no ${missing} figure; the territorial CO2 figure is used instead.`)
    }
    basis = 'territorial'
    national = country.territorialCo2FootprintYear
  }
  const world = basis === 'ghg'
    ? data.world.ghg
    : basis === 'consumption'
      ? data.world.consumptionCo2
      : data.world.territorialCo2FootprintYear
  const year = data.world.footprintYear
  assumptions.push(basis === 'ghg'
    ? 'All greenhouse gases including land use (CO2e), as published by Our World in Data.'
    : basis === 'consumption'
      ? 'Consumption-based CO2: emissions from what residents consume, wherever it was produced (trade-adjusted). ' +
        'CO2 only: methane and nitrous oxide are not included.'
      : 'Territorial CO2: fossil CO2 emitted inside the country (fuels and industry), excluding land use. CO2 only: ' +
        'methane and nitrous oxide are not included.')
  assumptions.push('A national average per person, not a personal estimate: use the other endpoints for that.')
  assumptions.push(
    `Every figure is for ${year}, the latest year with consumption-based CO2, so that consumption, territorial and ` +
      `greenhouse-gas figures and the world figure describe the same year (territorial CO2 for ${
        country.territorialCo2.year ?? ''} is ${country.territorialCo2.value} t per person).`)
  assumptions.push(
    'National inventories count emissions where they happen; the boundary parameter does not change them, and no ' +
      'interval is cited for them.')

  const factor = derive([national], {
    key: `derived:footprint.${national.key}`,
    id: national.id,
    value: national.value * 1000,
    unit: basis === 'ghg' ? 'kg CO2e per person per year' : 'kg CO2 per person per year',
    description: national.description,
    derivation: `${national.value} t per person (${national.id}) x 1000`
  })
  const breakdown = [item(factor, 'national_average',
    `${basis} ${basis === 'ghg' ? 'greenhouse gases' : 'CO2'} per person, ${country.name} ${national.year ??
      ''}`.trim(), 1, 'person-year')]
  return {
    countryCode: country.code,
    measurementSystem: system,
    inputs: { basis: requested, scope: 'national' },
    breakdown,
    assumptions,
    used: [],
    defaults: [...systemDefault(country, query), ...defaultsFor(query, ['basis', 'boundary'])],
    basis,
    values: {
      consumption_co2: country.consumptionCo2 === undefined ? null : stat(country.consumptionCo2),
      territorial_co2: stat(country.territorialCo2FootprintYear),
      ghg_co2e: country.ghg === undefined ? null : stat(country.ghg)
    },
    world: stat(world),
    worldFactor: world,
    ratioToWorld: national.value / world.value,
    year
  }
}

interface FootprintAnswer extends PresentedCalculation<FootprintInputs> {
  basis: Basis
  gases: 'co2' | 'co2e'
  values: FootprintCalculation['values']
  world: Stat
  person: { parts: PersonPart[], national_co2e_kg: number, national_basis: string } | null
  ratio_to_world: number
  year: number
}

export function footprintAnswer (data: CalculatorData, query: FootprintQuery): FootprintAnswer {
  const national = calculateFootprint(data, query)
  const country = data.countries.get(national.countryCode)
  const person = country !== undefined && isPersonQuery(query) ? personFootprint(data, country, query) : undefined
  const calculation: FootprintCalculation = person === undefined
    ? national
    : {
        ...national,
        inputs: { basis: national.inputs.basis, scope: 'person' },
        breakdown: person.breakdown,
        assumptions: person.assumptions,
        used: person.used,
        defaults: [...systemDefault(country as NonNullable<typeof country>, query), ...defaultsFor(query, ['boundary'])]
      }
  const shown = [calculation.worldFactor, country?.territorialCo2FootprintYear, country?.consumptionCo2,
    country?.ghg].filter((factor) => factor !== undefined)
  const runs = runScenarios({
    boundary: query.boundary ?? 'life_cycle',
    radiativeForcing: false,
    method: 'location_based',
    bound: 'central'
  }, { radiativeForcing: false, method: false }, () => calculation)
  const answer = present(data, runs, { category: 'national average', warn: false, shown })
  if (person !== undefined) {
    answer.range = personRange(answer.co2e.kg, person.spreads)
    const known = new Set(answer.sources.map((source) => source.id))
    answer.sources.push(...person.sources.filter((source) => !known.has(source.id)))
  }
  return {
    ...answer,
    person: person === undefined
      ? null
      : { parts: person.parts, national_co2e_kg: person.nationalKg, national_basis: person.nationalBasis },
    basis: calculation.basis,
    gases: person !== undefined || calculation.basis === 'ghg' ? 'co2e' : 'co2',
    values: calculation.values,
    world: calculation.world,
    ratio_to_world: Math.round(calculation.ratioToWorld * 1000) / 1000,
    year: calculation.year
  }
}
