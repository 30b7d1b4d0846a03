import type { CalculatorData, Factor, FactorStatus } from './calculator.data.ts'
import {
  BOUNDARIES, ELECTRICITY_METHODS, isDerived, leafFactors, totalKg,
  type Boundary, type BreakdownItem, type Calculation, type DefaultUsed, type Scenario
} from './calculation.ts'
import { UNITS, kgToLb, type MeasurementSystem } from './units.ts'

/**
 * Turns a calculation into the answer a client sees. A calculation is run once for every
 * scenario that can change it: both boundaries, with and without radiative forcing (flights),
 * both Scope 2 methods (energy) and both ends of every cited input interval. The selected run
 * is the answer; the others give the other boundary's figure and the range (low, high), which
 * therefore spans cited alternatives only.
 */

const BOUNDS = ['central', 'low', 'high'] as const

interface Dimensions {
  /** Radiative forcing changes the result (flights). */
  radiativeForcing: boolean
  /** The Scope 2 method changes the result (energy). */
  method: boolean
}

interface Runs<Inputs> {
  selected: Calculation<Inputs>
  scenario: Scenario
  dimensions: Dimensions
  /** The run for the selected scenario with some dimensions changed (central interval values). */
  get: (change: Partial<Scenario>) => Calculation<Inputs>
  all: Array<Calculation<Inputs>>
}

const scenarioKey = (s: Scenario): string => `${s.boundary}|${String(s.radiativeForcing)}|${s.method}|${s.bound}`

export function runScenarios<Inputs> (selected: Scenario, dimensions: Dimensions,
  run: (scenario: Scenario) => Calculation<Inputs>): Runs<Inputs> {
  const runs = new Map<string, Calculation<Inputs>>()
  for (const boundary of BOUNDARIES) {
    for (const radiativeForcing of dimensions.radiativeForcing ? [true, false] : [selected.radiativeForcing]) {
      for (const method of dimensions.method ? ELECTRICITY_METHODS : [selected.method]) {
        for (const bound of BOUNDS) {
          const scenario = { boundary, radiativeForcing, method, bound }
          runs.set(scenarioKey(scenario), run(scenario))
        }
      }
    }
  }
  const get = (change: Partial<Scenario>): Calculation<Inputs> => {
    const found = runs.get(scenarioKey({ ...selected, bound: 'central', ...change }))
    if (found === undefined) throw new Error(`no run for ${JSON.stringify(change)}`)
    return found
  }
  const all = [...runs.values()]
  const lengths = new Set(all.map((calculation) => calculation.breakdown.length))
  if (lengths.size !== 1) throw new Error('scenario runs of one request must have the same breakdown entries')
  return { selected: get({}), scenario: selected, dimensions, get, all }
}

// ---- presentation ----

/** Half-up decimal rounding; shifting by exponent avoids 0.565 * 100 = 56.49999. */
function round (value: number, decimals: number): number {
  let rounded = Number(`${Math.round(Number(`${value}e${decimals}`))}e-${decimals}`)
  // Values already printed in exponent form (5e-324, 1e+21) do not take the shift.
  if (!Number.isFinite(rounded)) rounded = Math.round(value * 10 ** decimals) / 10 ** decimals
  return rounded === 0 ? 0 : rounded // no "-0" in JSON
}

export interface Mass { kg: number, t: number, lb: number }

export function mass (kg: number): Mass {
  return { kg: round(kg, 2), t: round(kg / 1000, 4), lb: round(kgToLb(kg), 2) }
}

export interface PresentedSource {
  id: string
  name: string
  publisher: string
  year?: number
  licence: string
  url?: string
  attribution?: string
}

function presentSources (data: CalculatorData, ids: Iterable<string>): PresentedSource[] {
  return [...new Set(ids)].map((id) => {
    const source = data.sources.get(id)
    if (source === undefined) throw new Error(`source "${id}" is not loaded`)
    return {
      id: source.id,
      name: source.name,
      publisher: source.publisher,
      ...(source.year === undefined ? {} : { year: source.year }),
      licence: source.licence,
      ...(source.url === undefined ? {} : { url: source.url }),
      ...(source.attribution === undefined ? {} : { attribution: source.attribution })
    }
  })
}

interface PresentedRange { low_kg: number, high_kg: number, basis: string[] }

interface PresentedItem {
  category: string
  label: string
  kg_co2e: number
  quantity: number
  quantity_unit: string
  factor: number
  factor_unit: string
  factor_id: string
  factor_status: FactorStatus
  source: string
  derivation?: string
  note?: string
  range: PresentedRange
}

function presentItem (entry: BreakdownItem, range: Range): PresentedItem {
  const derivation = isDerived(entry.factor) ? entry.factor.derivation : undefined
  return {
    category: entry.category,
    label: entry.label,
    kg_co2e: round(entry.kg, 2),
    quantity: round(entry.quantity, 3),
    quantity_unit: entry.quantityUnit,
    // Derived factors carry float noise (570.1724137931035); 6 significant digits keep
    // quantity x factor within 0.001 % of kg_co2e and leave published factors unchanged.
    factor: Number(entry.factor.value.toPrecision(6)),
    factor_unit: entry.factor.unit,
    factor_id: entry.factor.id,
    factor_status: entry.factor.status,
    source: entry.factor.source,
    ...(derivation === undefined ? {} : { derivation }),
    ...(entry.note === undefined ? {} : { note: entry.note }),
    range: { low_kg: round(range.low, 2), high_kg: round(range.high, 2), basis: range.basis }
  }
}

/** Assumption lines: the request's own, then each design assumption used, then unchecked values. */
function presentAssumptions (calculation: Calculation<unknown>, leaves: Factor[]): string[] {
  const lines = [...calculation.assumptions]
  for (const factor of leaves.filter((f) => f.status === 'assumption')) {
    lines.push(
      `Assumption (${factor.id} = ${Number(factor.value.toPrecision(6))} ${factor.unit}): ${factor.description}`)
  }
  const unverified = leaves.filter((f) => f.status === 'unverified')
  if (unverified.length > 0) {
    const list = unverified.map((f) => `${f.id} = ${f.value} ${f.unit}`).join('; ')
    lines.push(`Not yet checked against the official source (secondary or transcribed): ${list}`)
  }
  return [...new Set(lines)]
}

interface CountryDatum {
  figure: string
  country_code: string
  value: number
  unit: string
  year: number
  factor_id: string
  factor_status: FactorStatus
  source: string
  description: string
}

function presentCountryData (leaves: Factor[]): CountryDatum[] {
  return leaves.filter((factor) => factor.country !== undefined && factor.figure !== undefined).map((factor) => ({
    figure: factor.figure ?? '',
    country_code: factor.country ?? '',
    value: Number(factor.value.toPrecision(6)),
    unit: factor.unit,
    year: factor.year ?? 0,
    factor_id: factor.id,
    factor_status: factor.status,
    source: factor.source,
    description: factor.description
  }))
}

const NO_INTERVAL = 'No cited interval: low and high equal the value.'

interface Range { low: number, high: number, basis: string[] }

/**
 * Each entry's range: the cited intervals of its factors and defaults (the low and high runs), on the answer's own
 * boundary, RF choice and Scope 2 method. Other method choices are not uncertainty: their answers have fields of
 * their own (co2e_life_cycle / co2e_combustion, co2e_with_rf / co2e_without_rf, electricity.*_based).
 */
function itemRanges<Inputs> (runs: Runs<Inputs>): Range[] {
  const bounded = BOUNDS.map((bound) => runs.get({ bound }))
  return runs.selected.breakdown.map((_entry, index) => {
    const values = bounded.map((calculation) => calculation.breakdown[index]?.kg ?? 0)
    const basis = [...new Set(bounded.flatMap((calculation) => calculation.breakdown[index]?.intervals ?? []))]
    return { low: Math.min(...values), high: Math.max(...values), basis: basis.length === 0 ? [NO_INTERVAL] : basis }
  })
}

export interface PresentedCalculation<Inputs> {
  country_code: string
  measurement_system: MeasurementSystem
  units_read: typeof UNITS[MeasurementSystem]
  t_co2: number
  ton: 't'
  co2e: Mass
  period: 'year'
  per: 'person'
  boundary: Boundary
  co2e_life_cycle: Mass
  co2e_combustion: Mass
  range: { low: Mass, high: Mass, basis: string[] }
  warnings: string[]
  inputs: Inputs
  breakdown: PresentedItem[]
  defaults_used: DefaultUsed[]
  country_data: CountryDatum[]
  assumptions: string[]
  sources: PresentedSource[]
}

interface PresentOptions {
  /** What the result is, for the warning ("flights", "home energy"). */
  category: string
  /** Compare with the country's per-person footprint (not for /footprint itself). */
  warn: boolean
  /** Factors shown beside the result that are not in the breakdown (e.g. the world average). */
  shown?: Factor[]
}

export function present<Inputs> (data: CalculatorData, runs: Runs<Inputs>,
  options: PresentOptions): PresentedCalculation<Inputs> {
  const calculation = runs.selected
  const country = data.countries.get(calculation.countryCode)
  if (country === undefined) throw new Error(`country ${calculation.countryCode} is not loaded`)
  const kg = totalKg(calculation)
  const ranges = itemRanges(runs)
  const warnings: string[] = []
  // Results are CO2e, so they are compared with greenhouse gases in CO2e, never with CO2 alone.
  const reference = country.ghgForComparison
  const extra = [...(options.shown ?? [])]
  if (options.warn) {
    extra.push(reference)
    if (kg > reference.value * 1000) {
      const area = reference.status === 'assumption' ? ', a regional value standing in' : ''
      warnings.push(`This ${options.category} result (${round(kg / 1000, 2)} t CO2e a year) is more than the average ` +
        `${country.name} resident's greenhouse-gas emissions (${round(reference.value, 3)} t CO2e a year, all gases ` +
        `including land use, ${reference.year ?? ''}${area}). ` +
        'Check the inputs; if they are right, this one category outweighs a typical person\'s total.')
    }
  }
  const leaves = leafFactors([...calculation.breakdown.map((entry) => entry.factor), ...calculation.used, ...extra])
  const basis = [...new Set(ranges.flatMap((range) => range.basis))]
  const boundaryLine = runs.scenario.boundary === 'life_cycle'
    ? 'Boundary: life cycle (direct emissions plus upstream fuel supply and electricity transmission losses); ' +
      'co2e_combustion gives the direct-only figure.'
    : 'Boundary: combustion (direct emissions only, as asked); co2e_life_cycle gives the figure with upstream fuel ' +
      'supply and electricity losses.'
  // No cited per-country direct-only grid intensity exists, so electricity is the one category whose factor
  // is not direct-only on this boundary: the answer says so wherever a kWh is counted.
  const electricityException = runs.scenario.boundary === 'combustion' && leaves.some((factor) =>
    factor.figure === 'grid_intensity' || factor.key.startsWith('param:energy.green_tariff'))
    ? ['Electricity is the exception to the combustion boundary: no cited direct-only grid intensity per country ' +
        'exists, so each kWh carries the life-cycle generation intensity (Ember, IPCC AR5 technology factors) ' +
        'without ' +
        'transmission losses. Electric cars, trains and home electricity therefore include upstream emissions (plant ' +
        'construction, fuel supply) that fuels on this boundary do not.']
    : []
  return {
    country_code: calculation.countryCode,
    measurement_system: calculation.measurementSystem,
    units_read: { ...UNITS[calculation.measurementSystem] },
    t_co2: round(kg / 1000, 2),
    ton: 't',
    co2e: mass(kg),
    period: 'year',
    per: 'person',
    boundary: runs.scenario.boundary,
    co2e_life_cycle: mass(totalKg(runs.get({ boundary: 'life_cycle' }))),
    co2e_combustion: mass(totalKg(runs.get({ boundary: 'combustion' }))),
    range: {
      low: mass(ranges.reduce((sum, range) => sum + range.low, 0)),
      high: mass(ranges.reduce((sum, range) => sum + range.high, 0)),
      basis: basis.length === 0 ? ['Nothing to range over: the result is zero.'] : basis
    },
    warnings,
    inputs: calculation.inputs,
    breakdown: calculation.breakdown.map((entry, index) => presentItem(entry, ranges[index] as Range)),
    defaults_used: calculation.defaults,
    country_data: presentCountryData(leaves),
    assumptions: presentAssumptions({
      ...calculation, assumptions: [boundaryLine, ...electricityException, ...calculation.assumptions]
    },
    leaves),
    sources: presentSources(data, [...leaves.map((factor) => factor.source), ...(calculation.extraSources ?? [])])
  }
}
