import { factorOf, type CalculatorData, type Factor } from './calculator.data.ts'
import { plural, type DefaultUsed, type Scenario } from './calculation.ts'
import type { EnergyQuery } from './calculator.schemas.ts'
import { defaultsFor, systemDefault } from './countries.ts'
import type { EnergyModel } from './energy.model.ts'
import { UNITS, type MeasurementSystem } from './units.ts'

/**
 * What a home-energy answer says about its numbers (energy.model.ts): the defaults that stood in and their basis,
 * the worked lines of the assumptions, the factors cited, labels and warnings.
 */

const r6 = (value: number): number => Number(value.toPrecision(6))

/** A home under this many m2 per person is implausible enough to say so (issue 35, item 7). */
const MIN_M2_PER_PERSON = 10
/** In an ft2 country a home_size below this is more likely m2 typed into an ft2 field. */
const MIN_PLAUSIBLE_FT2 = 30

/** Warnings naming the unit the floor area was read in, when it looks like the wrong one. */
export function homeSizeWarnings (homeSize: number | undefined, homeM2: number | undefined, people: number,
  system: MeasurementSystem): string[] {
  if (homeSize === undefined || homeM2 === undefined) return []
  const unit = UNITS[system].area
  const warnings: string[] = []
  if (system === 'imperial' && homeSize < MIN_PLAUSIBLE_FT2) {
    warnings.push(`home_size ${homeSize} was read in ft2 (${r6(homeM2)} m2), this country's unit: a home that small ` +
      'is unlikely. If you meant m2, send measurement_system=metric.')
  }
  if (homeM2 / people < MIN_M2_PER_PERSON) {
    warnings.push(`home_size ${homeSize} ${unit} (${r6(homeM2)} m2) for ${r6(people)} people is under ` +
      `${MIN_M2_PER_PERSON} m2 per person: check the number and its unit (${unit}` +
      `${system === 'imperial' ? '; send measurement_system=metric for m2' : ''}).`)
  }
  return warnings
}

export interface EnergyExplanation {
  defaults: DefaultUsed[]
  /** Assumptions shared by every scenario. */
  assumptions: string[]
  /** Every factor cited, in the order the answer lists them. */
  used: Factor[]
}

/** The defaults used, the assumptions' worked lines and the factors cited for a home-energy answer. */
export function explainEnergy (data: CalculatorData, model: EnergyModel, query: EnergyQuery): EnergyExplanation {
  const { country, household, people, average, homeM2, typical, heating } = model
  const survey = country.code === 'USA'
    ? 'the country\'s own survey'
    : `no survey of home energy by household size is cited for ${country.name}, so the US one stands in`
  const scaleLine = `A household of ${r6(people)} people uses the country's average household's kWh (${
    r6(average)} people) x (${r6(people)} / ${r6(average)}) ^ e: electricity ^ ${model.electricityExponent.value} = x ${
      r6(model.electricityScale)}, heating fuel ^ ${model.heatingExponent.value} = x ${r6(model.heatingScale)}. The ` +
    'exponents are fitted on the US Residential Energy Consumption Survey 2015 by household size (EIA microdata: per ' +
    'person, one person uses 2.2x the electricity and 2.5x the heating fuel of each of four); ' + `${survey}.`
  const areaLine = homeM2 === undefined
    ? ''
    : `Heating for ${r6(homeM2)} m2: the average household's ${r6(household.heating.kwh)} kWh over the country's ` +
      `typical dwelling of ${typical.line} = ${r6(household.heating.kwh / typical.m2)} kWh per m2, x ${r6(homeM2)} ` +
      `m2 = ${r6(model.heatDemandKwh)} kWh (heat grows in proportion to floor area: no cited sub-linear scale).`
  const defaults: DefaultUsed[] = [
    ...systemDefault(country, query),
    ...(query.household_size === undefined
      ? [{
          parameter: 'household_size',
          value: Number(people.toPrecision(4)),
          basis: `${country.name}'s average household size: ${household.people.description} (${household.people.id})`
        }]
      : []),
    ...(query.electricity_kwh === undefined
      ? [{
          parameter: 'electricity_kwh',
          value: Number(model.defaultElectricityKwh.toPrecision(6)),
          basis: `${country.name}'s average household, ${household.electricity.basis}; scaled to the household's ` +
            'size by the RECS 2015 household-size elasticity'
        }]
      : []),
    ...(query.heating_kwh === undefined && heating !== 'none'
      ? [{
          parameter: 'heating_kwh',
          value: Number(model.heatDemandKwh.toPrecision(6)),
          basis: `${country.name}'s average household's heating fuel, ${household.heating.basis}; ` +
            (homeM2 === undefined
              ? 'scaled to the household\'s size by the RECS 2015 household-size elasticity'
              : 'as heat per m2 of the country\'s typical dwelling, x home_size') + ' (see assumptions)'
        }]
      : []),
    ...defaultsFor(query, ['heating_type', 'energy_type', 'electricity_method', 'boundary'])
  ]
  // A green tariff's market-based figure is in every answer: its source and status are listed too.
  const used: Factor[] = model.green ? [factorOf(data, 'param:energy.green_tariff.wind_onshore')] : []
  const assumptions: string[] = []
  if (query.household_size === undefined) used.push(household.people)
  const defaultHeating = model.defaultHeating
  const exponents = [...(query.electricity_kwh === undefined ? [model.electricityExponent] : []),
    ...(defaultHeating && homeM2 === undefined ? [model.heatingExponent] : [])]
  if (exponents.length > 0) {
    used.push(...exponents)
    assumptions.push(scaleLine)
  }
  if (query.electricity_kwh === undefined) {
    used.push(...household.electricity.used)
    assumptions.push(household.electricity.line)
  }
  if (defaultHeating) {
    used.push(...household.heating.used)
    assumptions.push(household.heating.line)
    if (homeM2 !== undefined) {
      used.push(...typical.used)
      assumptions.push(areaLine)
    }
  }
  if (homeM2 !== undefined && !defaultHeating) {
    assumptions.push('home_size sets only the default heating; the heating here is measured (or none), so the ' +
      'floor area does not change it.')
  }
  const cop = model.cop
  if (heating !== 'none') {
    if (query.heating_kwh !== undefined) {
      if (heating === 'heat_pump') {
        assumptions.push(
          'Measured heating_kwh for a heat pump is read as the electricity it used.')
      }
    } else if (heating === 'heat_pump') {
      used.push(cop)
      assumptions.push(
        `A heat pump delivers ${cop.value} kWh of heat per kWh of electricity (seasonal performance), so it uses ` +
          `${model.heatDemandKwh.toFixed(0)} / ${cop.value} kWh.`)
    } else if (heating === 'electric') {
      assumptions.push(
        'Electric heating: the country\'s heat demand (as natural-gas kWh) is met by as many kWh of electricity. ' +
          'The ' +
        'default household electricity already includes the country\'s average electric heating, so this may count ' +
        'some of it twice.')
    }
  }
  if (heating === 'wood') {
    const biogenic = factorOf(data, 'desnz:biogenic.wood_logs.kwh')
    assumptions.push(
      `Wood: only methane and nitrous oxide count (DESNZ scope 1); the biogenic CO2 of burning it (${biogenic.value} ` +
        'kg per kWh) is reported by DESNZ outside the scopes and left out here.')
  }
  if (heating === 'district_heating') {
    assumptions.push(
      'District heating uses the DESNZ UK district heat and steam factor (and its 5 % distribution loss on the ' +
      'life-cycle boundary); networks elsewhere may differ widely.')
  }
  if (people !== 1) {
    assumptions.push(
    `The household's energy is shared equally by ${plural(Number(people.toPrecision(4)), 'person', 'people')}.`)
  }
  return { defaults, assumptions, used }
}

/** The text of one scenario's breakdown and its extra assumptions. */
export function explainEnergyScenario (model: EnergyModel, query: EnergyQuery, scenario: Scenario): {
  electricityLabel: string
  electricityDetail: string
  heatingLabel: string
  heatingDetail: string
  /** The model's interval basis for a low or high run, per entry. */
  electricityIntervals: string[]
  heatingIntervals: string[]
  assumptions: string[]
} {
  const { country, household, people, green } = model
  const perPerson = people === 1 ? '' : ` / ${Number(people.toPrecision(4))} people`
  const tariff = scenario.method === 'market_based' && green
    ? 'renewable tariff, market-based'
    : `${country.name} grid, location-based`
  const electricityInterval = query.electricity_kwh === undefined ? household.electricity.interval : undefined
  const heatingInterval = model.defaultHeating ? household.heating.interval : undefined
  return {
    electricityLabel: `electricity (${tariff})`,
    electricityDetail: `${model.electricityKwh.toFixed(1)} kWh for the household${perPerson}`,
    heatingLabel: `heating (${model.heating.replaceAll('_', ' ')})`,
    heatingDetail: `${model.heatingKwh.toFixed(1)} kWh for the household${perPerson}`,
    electricityIntervals: scenario.bound === 'central' || electricityInterval === undefined
      ? []
      : [electricityInterval],
    heatingIntervals: scenario.bound === 'central' || heatingInterval === undefined ? [] : [heatingInterval],
    assumptions: scenario.method === 'market_based' && !green
      ? ['Market-based, conventional tariff: no residual-mix figure is cited for any country, so the grid average ' +
        'stands in (GHG Protocol Scope 2 hierarchy).']
      : []
  }
}

/** How the answer's market-based figure was reached. */
export function marketBasedBasis (green: boolean): string {
  return green
    ? 'Renewable tariff: the IPCC AR5 life-cycle median of onshore wind (11 g CO2e/kWh), plus transmission ' +
      'losses on the life-cycle boundary; never zero.'
    : 'Conventional tariff: no residual mix is cited, so the market-based figure equals the location-based one.'
}
