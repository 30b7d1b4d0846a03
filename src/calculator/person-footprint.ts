import { mass, type PresentedCalculation, type PresentedSource } from './answer.ts'
import type { CalculatorData, Country, Factor } from './calculator.data.ts'
import { CalculatorInputError } from './calculator.errors.ts'
import { item, type BreakdownItem } from './calculation.ts'
import { carAnswer } from './car.ts'
import type { FootprintQuery } from './calculator.schemas.ts'
import { clothesAnswer } from './clothes.ts'
import { dietAnswer } from './diet.ts'
import { energyAnswer } from './energy.ts'
import { flightAnswer } from './flight.ts'

/**
 * A person's whole footprint (issue 35; docs/methodology.md, "/footprint"): the person's answers per category,
 * the country's defaults for the rest, and everything else a resident's consumption causes (goods, services,
 * public services) as the national consumption footprint less the average person's modelled categories:
 *
 *   national CO2e = consumption CO2 x (GHG / territorial CO2)      (all gases, trade-adjusted)
 *   rest          = national CO2e - (home energy + diet + clothes + transport of the average person)
 *   total         = the person's home energy + diet + clothes + transport + rest
 *
 * The parts add up to the total. The range combines the parts' own ranges as independent (root sum of squares).
 */

export const PERSON_PARAMETERS = ['flight_frequency', 'diet_form', 'calories', 'car_distance', 'car_mode',
  'fuel_type', 'clothes_amount', 'home_size', 'household_size', 'heating_type', 'energy_type', 'electricity_kwh',
  'heating_kwh'] as const

type Answer = PresentedCalculation<unknown>

export interface PersonPart {
  category: string
  label: string
  you_kg: number
  average_kg: number
  difference_kg: number
  from: 'your answers' | 'country default' | 'national average'
}

export interface PersonFootprint {
  breakdown: BreakdownItem[]
  /** Half-widths below and above each part, for the total's range. */
  spreads: Array<{ below: number, above: number }>
  parts: PersonPart[]
  nationalKg: number
  nationalBasis: string
  assumptions: string[]
  sources: PresentedSource[]
  used: Factor[]
}

export function isPersonQuery (query: FootprintQuery): boolean {
  const asked = PERSON_PARAMETERS.find((name) => query[name] !== undefined)
  if (query.scope === 'national' && asked !== undefined) {
    throw CalculatorInputError.conflicting(asked, `${asked} describes a person: it was given with scope=national.`)
  }
  return query.scope === 'person' || asked !== undefined
}

const round2 = (value: number): number => Math.round(value * 100) / 100

/** A part of the total as a breakdown entry: one person-year at the part's kg. */
function part (category: string, label: string, kg: number, source: string, note: string): BreakdownItem {
  const factor: Factor = {
    key: `person:${category}`,
    id: `tonne:person.${category}`,
    value: kg,
    unit: 'kg CO2e per person per year',
    source,
    status: 'published',
    description: label
  }
  return item(factor, category, label, 1, 'person-year', note)
}

/** The national footprint in CO2e: consumption CO2 scaled to all gases, or the best figure there is. */
function nationalCo2e (country: Country): { t: number, basis: string, used: Factor[] } {
  const { consumptionCo2, ghg, territorialCo2FootprintYear: territorial } = country
  if (consumptionCo2 !== undefined && ghg !== undefined && territorial.value > 0) {
    const t = consumptionCo2.value * ghg.value / territorial.value
    return {
      t,
      basis: `${consumptionCo2.value} t consumption CO2 (${consumptionCo2.id}) x ${ghg.value} t GHG (${ghg.id}) / ` +
        `${territorial.value} t territorial CO2 (${territorial.id}) = ${Number(t.toPrecision(4))} t CO2e`,
      used: [consumptionCo2, ghg, territorial]
    }
  }
  const reference = country.ghgForComparison
  return {
    t: reference.value,
    basis: `${country.name} has no consumption-based figure: its greenhouse gases per person (territorial, ` +
      `${reference.id}) = ${reference.value} t CO2e stand in`,
    used: [reference]
  }
}

/**
 * Runs a category's answer under /footprint's names for its fields: an error about the category's `distance` is
 * about the `car_distance` the client sent, so it names that (the explorer marks the field by it).
 */
function asked<T> (names: Readonly<Record<string, string>>, answer: () => T): T {
  try {
    return answer()
  } catch (error) {
    const renamed = error instanceof CalculatorInputError ? names[error.parameter] : undefined
    if (renamed === undefined) throw error
    const { kind, parameter, message, allowedValues } = error as CalculatorInputError
    const detail = message.startsWith(`${parameter} `) ? `${renamed}${message.slice(parameter.length)}` : message
    throw new CalculatorInputError(kind, renamed, detail, allowedValues)
  }
}

export function personFootprint (data: CalculatorData, country: Country, query: FootprintQuery): PersonFootprint {
  const common = {
    country_code: country.code,
    ...(query.measurement_system === undefined ? {} : { measurement_system: query.measurement_system }),
    ...(query.boundary === undefined ? {} : { boundary: query.boundary })
  }
  const energyAsked = query.home_size !== undefined || query.household_size !== undefined ||
    query.heating_type !== undefined || query.energy_type !== undefined || query.electricity_kwh !== undefined ||
    query.heating_kwh !== undefined
  const energy = energyAnswer(data, {
    ...common,
    ...(query.home_size === undefined ? {} : { home_size: query.home_size }),
    ...(query.household_size === undefined ? {} : { household_size: query.household_size }),
    ...(query.heating_type === undefined ? {} : { heating_type: query.heating_type }),
    ...(query.energy_type === undefined ? {} : { energy_type: query.energy_type }),
    ...(query.electricity_kwh === undefined ? {} : { electricity_kwh: query.electricity_kwh }),
    ...(query.heating_kwh === undefined ? {} : { heating_kwh: query.heating_kwh })
  })
  const energyAverage = energyAnswer(data, common)
  const diet = dietAnswer(data, {
    ...common,
    diet_form: query.diet_form ?? 'everything',
    ...(query.calories === undefined ? {} : { calories: query.calories })
  })
  const dietAverage = dietAnswer(data, { ...common, diet_form: 'everything' })
  const clothes = asked({ amount: 'clothes_amount' },
    () => clothesAnswer(data, { ...common, amount: query.clothes_amount ?? 'average' }))
  const clothesAverage = clothesAnswer(data, { ...common, amount: 'average' })
  const frequency = query.flight_frequency
  const flights = frequency === undefined
    ? undefined
    : asked({ frequency: 'flight_frequency' }, () => flightAnswer(data, { ...common, frequency }))
  const carDistance = query.car_distance
  const car = carDistance === undefined
    ? undefined
    : asked({ distance: 'car_distance', mode: 'car_mode' }, () => carAnswer(data, {
      ...common,
      distance: carDistance,
      ...(query.car_mode === undefined ? {} : { mode: query.car_mode }),
      ...(query.fuel_type === undefined || (query.car_mode ?? 'car') !== 'car' ? {} : { fuel_type: query.fuel_type })
    }))
  // The average person's transport: Climate Watch's transport CO2 per person (domestic, passengers and freight).
  const transport = country.transportCo2
  const transportAverageKg = transport.value * 1000
  const travelAsked = flights !== undefined || car !== undefined
  const travelKg = travelAsked ? (flights?.co2e.kg ?? 0) + (car?.co2e.kg ?? 0) : transportAverageKg
  const national = nationalCo2e(country)
  const averagesKg = energyAverage.co2e.kg + dietAverage.co2e.kg + clothesAverage.co2e.kg + transportAverageKg
  const restRaw = national.t * 1000 - averagesKg
  const restKg = Math.max(0, restRaw)

  const spread = (answer: Answer): { below: number, above: number } =>
    ({ below: answer.co2e.kg - answer.range.low.kg, above: answer.range.high.kg - answer.co2e.kg })
  const travelSpread = travelAsked
    ? [flights, car].filter((answer) => answer !== undefined).map(spread).reduce(
        (sum, next) => ({ below: Math.hypot(sum.below, next.below), above: Math.hypot(sum.above, next.above) }),
        { below: 0, above: 0 })
    : { below: 0, above: 0 }
  // The rest is the national figure less the averages: their uncertainty carries over (reversed in sign).
  const averageSpreads = [energyAverage, dietAverage, clothesAverage].map(spread)
  const restSpread = {
    below: Math.hypot(...averageSpreads.map((entry) => entry.above)),
    above: Math.hypot(...averageSpreads.map((entry) => entry.below))
  }
  const travelLabel = travelAsked
    ? [flights === undefined ? '' : `flights (${query.flight_frequency ?? ''})`,
        car === undefined ? '' : `${query.car_mode ?? 'car'} ${query.car_distance ?? 0} ${energy.units_read.distance}`]
        .filter((text) => text !== '').join(' and ')
    : `the average person's transport (${transport.description})`
  const from = (asked: boolean): PersonPart['from'] => asked ? 'your answers' : 'country default'
  const parts: PersonPart[] = [
    { category: 'home_energy', label: 'Home energy', you: energy, average: energyAverage.co2e.kg, asked: energyAsked },
    {
      category: 'diet',
      label: 'Food',
      you: diet,
      average: dietAverage.co2e.kg,
      asked: query.diet_form !== undefined || query.calories !== undefined
    },
    {
      category: 'clothes',
      label: 'Clothes',
      you: clothes,
      average: clothesAverage.co2e.kg,
      asked: query.clothes_amount !== undefined
    }
  ].map(({ category, label, you, average, asked }) => ({
    category,
    label,
    you_kg: you.co2e.kg,
    average_kg: average,
    difference_kg: round2(you.co2e.kg - average),
    from: from(asked)
  }))
  parts.push({
    category: 'transport',
    label: 'Travel',
    you_kg: round2(travelKg),
    average_kg: round2(transportAverageKg),
    difference_kg: round2(travelKg - transportAverageKg),
    from: travelAsked ? 'your answers' : 'national average'
  }, {
    category: 'goods_services_public',
    label: 'Goods, services and public services',
    you_kg: round2(restKg),
    average_kg: round2(restKg),
    difference_kg: 0,
    from: 'national average'
  })
  const breakdown = [
    part('home_energy', 'home energy', energy.co2e.kg, 'tonne', `/energy: ${from(energyAsked)}`),
    part('diet', 'food', diet.co2e.kg, 'poore-nemecek-2018-owid', `/diet?diet_form=${query.diet_form ?? 'everything'}`),
    part('clothes', 'clothes', clothes.co2e.kg, 'eea-2022', `/clothes?amount=${query.clothes_amount ?? 'average'}`),
    part('transport', `travel: ${travelLabel}`, travelKg, travelAsked ? 'desnz-2025' : 'climate-watch-owid',
      travelAsked ? '/flight and /car' : 'Climate Watch transport CO2 per person'),
    part('goods_services_public', 'goods, services and public services', restKg, 'gcp-gcb-2023-owid',
      'national consumption footprint in CO2e less the average person\'s modelled categories')
  ]
  const assumptions = [
    'scope=person: this person\'s answers where given, the country\'s defaults for the rest, and everything else a ' +
      'resident\'s consumption causes (goods, services, public services) at the national average.',
    `The average ${country.name} resident's whole footprint in CO2e: ${national.basis} (consumption-based CO2, ` +
      'scaled to all greenhouse gases by the country\'s ratio of GHG to territorial CO2).',
    `Goods, services and public services: ${Number(national.t.toPrecision(4))} t - (home energy ${
      energyAverage.co2e.kg} + food ${dietAverage.co2e.kg} + clothes ${clothesAverage.co2e.kg} + transport ${
        round2(transportAverageKg)} kg of the average person) = ${round2(restRaw)} kg.` +
      (restRaw < 0
        ? ' The modelled categories exceed the national figure (global mean food factors, or a modelled home), so ' +
          'the rest is set to 0.'
        : ''),
    travelAsked
      ? 'Travel: the flights and car travel given replace the average person\'s transport (Climate Watch, domestic ' +
        'passengers and freight, CO2); freight moved for this person is therefore not counted anywhere.'
      : 'Travel: no flights or car travel given, so the average person\'s transport stands in (Climate Watch, ' +
        'domestic passengers and freight, CO2; international flights are outside national inventories).',
    'Range: the parts\' own ranges combined as independent (root sum of squares); the rest carries the averages\' ' +
      'uncertainty, since it is the national figure less them.'
  ]
  const sources = new Map<string, PresentedSource>()
  for (const answer of [energy, diet, clothes, flights, car, energyAverage, dietAverage, clothesAverage]) {
    for (const source of answer?.sources ?? []) sources.set(source.id, source)
  }
  return {
    breakdown,
    spreads: [spread(energy), spread(diet), spread(clothes), travelSpread, restSpread],
    parts,
    nationalKg: round2(national.t * 1000),
    nationalBasis: national.basis,
    assumptions,
    sources: [...sources.values()],
    used: [...national.used, transport]
  }
}

/** The total's range: each part's spread below and above, combined as independent. */
export function personRange (total: number,
  spreads: PersonFootprint['spreads']): PresentedCalculation<unknown>['range'] {
  const below = Math.hypot(...spreads.map((entry) => entry.below))
  const above = Math.hypot(...spreads.map((entry) => entry.above))
  return {
    low: mass(Math.max(0, total - below)),
    high: mass(total + above),
    basis: ['The parts\' ranges (each category\'s cited interval or documented propagation) combined as ' +
      'independent: total - sqrt(sum of the parts\' spreads below squared) to total + sqrt(sum above squared).']
  }
}
