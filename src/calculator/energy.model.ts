import { CalculatorInputError } from './calculator.errors.ts'
import { directKey, factorOf, type CalculatorData, type Country, type Factor } from './calculator.data.ts'
import { onBoundary, type Scenario } from './calculation.ts'
import type { EnergyQuery } from './calculator.schemas.ts'
import { measurementSystemFor, resolveCountry } from './countries.ts'
import { greenTariffFactor, gridFactor, type ElectricityFactor } from './electricity.ts'
import { countryHousehold, type CountryHousehold, type FloorArea, type HouseholdFigure } from './household.ts'
import { UNITS, areaToM2, type MeasurementSystem } from './units.ts'

/**
 * The numbers of a home-energy answer (docs/methodology.md, section 12), apart from their explanation
 * (energy.explanation.ts): the household's kWh of electricity and heating for each bound, and the factor of each.
 * A household of another size uses the average household's kWh x (people / average) ^ e, with e fitted on the US
 * RECS 2015 by household size (electricity 0.397, heating fuel 0.322); a given floor area sets heating from the heat
 * per m2 of the country's typical dwelling.
 */

const HOME_M2_RANGE = { min: 1, max: 5000 }

export type HeatingType = NonNullable<EnergyQuery['heating_type']>

const HEATING_FUEL: Partial<Record<HeatingType, string>> = {
  natural_gas: 'natural_gas.kwh_gross_cv',
  heating_oil: 'burning_oil.kwh_gross_cv',
  lpg: 'lpg.kwh_gross_cv',
  wood: 'wood_logs.kwh'
}

type Bound = Scenario['bound']

export interface EnergyModel {
  country: Country
  system: MeasurementSystem
  green: boolean
  heating: HeatingType
  method: NonNullable<EnergyQuery['electricity_method']>
  boundary: NonNullable<EnergyQuery['boundary']>
  /** The floor area given, in m2. */
  homeM2: number | undefined
  household: CountryHousehold
  /** People in this household, and in the country's average one. */
  people: number
  average: number
  electricityExponent: Factor
  heatingExponent: Factor
  electricityScale: number
  heatingScale: number
  typical: FloorArea
  /** The heating is the country default (not measured, not none). */
  defaultHeating: boolean
  cop: Factor
  /** Central figures, household kWh a year. */
  defaultElectricityKwh: number
  heatDemandKwh: number
  electricityKwh: number
  heatingKwh: number
  electricityKwhFor: (bound: Bound) => number
  heatingFor: (bound: Bound) => number
  electricityFor: (scenario: Scenario) => ElectricityFactor
  heatingFactorFor: (scenario: Scenario) => { factor: Factor, intervals: string[] }
}

export function energyModel (data: CalculatorData, query: EnergyQuery): EnergyModel {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const green = (query.energy_type ?? 'conventional') === 'green'
  const heating: HeatingType = query.heating_type ?? 'natural_gas'
  const method = query.electricity_method ?? 'location_based'
  const boundary = query.boundary ?? 'life_cycle'
  if (heating === 'none' && query.heating_kwh !== undefined && query.heating_kwh > 0) {
    throw CalculatorInputError.conflicting('heating_kwh', 'heating_kwh was given with heating_type=none.')
  }
  let homeM2: number | undefined
  if (query.home_size !== undefined) {
    homeM2 = areaToM2(query.home_size, system)
    if (homeM2 < HOME_M2_RANGE.min || homeM2 > HOME_M2_RANGE.max) {
      throw CalculatorInputError.invalid('home_size',
        `home_size ${query.home_size} ${UNITS[
          system].area} is outside the plausible range of ${HOME_M2_RANGE.min} to ${HOME_M2_RANGE.max} m2`)
    }
  }
  const household = countryHousehold(data, country)
  const people = query.household_size ?? household.people.value
  const average = household.people.value
  const electricityExponent = factorOf(data, 'param:energy.household_scale_exponent.electricity')
  const heatingExponent = factorOf(data, 'param:energy.household_scale_exponent.heating')
  const typical = household.floorArea
  // The average household's kWh, scaled to this household's size by the elasticities fitted on RECS 2015's
  // household-size groups; heating for a given floor area from the heat per m2 of the country's typical dwelling.
  const electricityScale = (people / average) ** electricityExponent.value
  const heatingScale = (people / average) ** heatingExponent.value
  const pick = (figure: HouseholdFigure, bound: Bound): number =>
    bound === 'low' ? figure.low : bound === 'high' ? figure.high : figure.kwh
  const heatDemandFor = (bound: Bound): number => homeM2 === undefined
    ? pick(household.heating, bound) * heatingScale
    : pick(household.heating, bound) * homeM2 / typical.m2
  const electricityKwhFor = (bound: Bound): number => query.electricity_kwh ??
    pick(household.electricity, bound) * electricityScale
  const cop = factorOf(data, 'param:energy.heat_pump_cop')
  const heatingFor = (bound: Bound): number => {
    if (heating === 'none') return 0
    if (query.heating_kwh !== undefined) return query.heating_kwh
    return heating === 'heat_pump' ? heatDemandFor(bound) / cop.value : heatDemandFor(bound)
  }
  const electricityFor = (scenario: Scenario): ElectricityFactor =>
    scenario.method === 'market_based' && green
      ? greenTariffFactor(data, country, scenario)
      : gridFactor(country, scenario)
  const heatingFactorFor = (scenario: Scenario): { factor: Factor, intervals: string[] } => {
    const fuel = HEATING_FUEL[heating]
    if (fuel !== undefined) {
      return {
        factor: onBoundary(scenario.boundary, factorOf(data, `desnz:${directKey(fuel)}`),
          [factorOf(data, `desnz:wtt.${fuel}`)], `DESNZ 2025 ${heating.replace('_', ' ')}`),
        intervals: []
      }
    }
    if (heating === 'district_heating') {
      return {
        factor: onBoundary(scenario.boundary, factorOf(data, 'desnz:heat.district_heat_and_steam.kwh'),
          [factorOf(data, 'desnz:heat.district_distribution_loss_5pct.kwh'),
            factorOf(data, 'desnz:wtt.district_heat_and_steam.kwh')], 'DESNZ 2025 district heat and steam'),
        intervals: []
      }
    }
    const { factor, intervals } = electricityFor(scenario)
    return { factor, intervals }
  }
  return {
    country,
    system,
    green,
    heating,
    method,
    boundary,
    homeM2,
    household,
    people,
    average,
    electricityExponent,
    heatingExponent,
    electricityScale,
    heatingScale,
    typical,
    defaultHeating: query.heating_kwh === undefined && heating !== 'none',
    cop,
    defaultElectricityKwh: pick(household.electricity, 'central') * electricityScale,
    heatDemandKwh: heatDemandFor('central'),
    electricityKwh: electricityKwhFor('central'),
    heatingKwh: heatingFor('central'),
    electricityKwhFor,
    heatingFor,
    electricityFor,
    heatingFactorFor
  }
}
