import { mass, present, runScenarios, type Mass, type PresentedCalculation } from './answer.ts'
import { CalculatorInputError } from './calculator.errors.ts'
import { directKey, factorOf, type CalculatorData, type Factor } from './calculator.data.ts'
import {
  item, onBoundary, plural, totalKg, type BreakdownItem, type Calculation, type DefaultUsed,
  type Scenario
} from './calculation.ts'
import type { EnergyInputs, EnergyQuery } from './calculator.schemas.ts'
import { defaultsFor, measurementSystemFor, resolveCountry, systemDefault } from './countries.ts'
import { greenTariffFactor, gridFactor, type ElectricityFactor } from './electricity.ts'
import { countryHousehold, type HouseholdFigure } from './household.ts'
import { UNITS, areaToM2, type MeasurementSystem } from './units.ts'

/**
 * Home electricity and heating, per person: household kWh x the electricity or fuel factor,
 * divided by the people in the home. Without measured kWh the household's kWh come from the
 * country's average household (household.ts; docs/methodology.md, section "Home energy"): a cited
 * national household figure where one exists, else a model calibrated on the countries that have one.
 * A household of another size uses the average household's kWh x (people / average) ^ e, with e fitted on
 * the US RECS 2015 by household size (electricity 0.397, heating fuel 0.322); a given floor area sets heating
 * from the heat per m2 of the country's typical dwelling.
 */

const HOME_M2_RANGE = { min: 1, max: 5000 }

type HeatingType = NonNullable<EnergyQuery['heating_type']>

const HEATING_FUEL: Partial<Record<HeatingType, string>> = {
  natural_gas: 'natural_gas.kwh_gross_cv',
  heating_oil: 'burning_oil.kwh_gross_cv',
  lpg: 'lpg.kwh_gross_cv',
  wood: 'wood_logs.kwh'
}

const r6 = (value: number): number => Number(value.toPrecision(6))

interface EnergyAnswer extends PresentedCalculation<EnergyInputs> {
  electricity: {
    method: 'location_based' | 'market_based',
    location_based: Mass,
    market_based: Mass,
    market_based_basis: string
  }
}

/** A home under this many m2 per person is implausible enough to say so (issue 35, item 7). */
const MIN_M2_PER_PERSON = 10
/** In an ft2 country a home_size below this is more likely m2 typed into an ft2 field. */
const MIN_PLAUSIBLE_FT2 = 30

/** Warnings naming the unit the floor area was read in, when it looks like the wrong one. */
function homeSizeWarnings (homeSize: number | undefined, homeM2: number | undefined, people: number,
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

export function energyAnswer (data: CalculatorData, query: EnergyQuery): EnergyAnswer {
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
  const pick = (figure: HouseholdFigure, bound: Scenario['bound']): number =>
    bound === 'low' ? figure.low : bound === 'high' ? figure.high : figure.kwh
  const heatDemandFor = (bound: Scenario['bound']): number => homeM2 === undefined
    ? pick(household.heating, bound) * heatingScale
    : pick(household.heating, bound) * homeM2 / typical.m2
  const defaultElectricityKwh = pick(household.electricity, 'central') * electricityScale
  const heatDemandKwh = heatDemandFor('central')
  const survey = country.code === 'USA'
    ? 'the country\'s own survey'
    : `no survey of home energy by household size is cited for ${country.name}, so the US one stands in`
  const scaleLine = `A household of ${r6(people)} people uses the country's average household's kWh (${
    r6(average)} people) x (${r6(people)} / ${r6(average)}) ^ e: electricity ^ ${electricityExponent.value} = x ${
      r6(electricityScale)}, heating fuel ^ ${heatingExponent.value} = x ${r6(heatingScale)}. The exponents are ` +
    'fitted on the US Residential Energy Consumption Survey 2015 by household size (EIA microdata: per person, one ' +
    `person uses 2.2x the electricity and 2.5x the heating fuel of each of four); ${survey}.`
  const areaLine = homeM2 === undefined
    ? ''
    : `Heating for ${r6(homeM2)} m2: the average household's ${r6(household.heating.kwh)} kWh over the country's ` +
      `typical dwelling of ${typical.line} = ${r6(household.heating.kwh / typical.m2)} kWh per m2, x ${r6(homeM2)} ` +
      `m2 = ${r6(heatDemandKwh)} kWh (heat grows in proportion to floor area: no cited sub-linear scale).`
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
          value: Number(defaultElectricityKwh.toPrecision(6)),
          basis: `${country.name}'s average household, ${household.electricity.basis}; scaled to the household's ` +
            'size by the RECS 2015 household-size elasticity'
        }]
      : []),
    ...(query.heating_kwh === undefined && heating !== 'none'
      ? [{
          parameter: 'heating_kwh',
          value: Number(heatDemandKwh.toPrecision(6)),
          basis: `${country.name}'s average household's heating fuel, ${household.heating.basis}; ` +
            (homeM2 === undefined
              ? 'scaled to the household\'s size by the RECS 2015 household-size elasticity'
              : 'as heat per m2 of the country\'s typical dwelling, x home_size') + ' (see assumptions)'
        }]
      : []),
    ...defaultsFor(query, ['heating_type', 'energy_type', 'electricity_method', 'boundary'])
  ]
  // A green tariff's market-based figure is in every answer: its source and status are listed too.
  const used: Factor[] = green ? [factorOf(data, 'param:energy.green_tariff.wind_onshore')] : []
  const baseAssumptions: string[] = []
  if (query.household_size === undefined) used.push(household.people)
  const defaultHeating = query.heating_kwh === undefined && heating !== 'none'
  const exponents = [...(query.electricity_kwh === undefined ? [electricityExponent] : []),
    ...(defaultHeating && homeM2 === undefined ? [heatingExponent] : [])]
  if (exponents.length > 0) {
    used.push(...exponents)
    baseAssumptions.push(scaleLine)
  }
  if (query.electricity_kwh === undefined) {
    used.push(...household.electricity.used)
    baseAssumptions.push(household.electricity.line)
  }
  if (defaultHeating) {
    used.push(...household.heating.used)
    baseAssumptions.push(household.heating.line)
    if (homeM2 !== undefined) {
      used.push(...typical.used)
      baseAssumptions.push(areaLine)
    }
  }
  if (homeM2 !== undefined && !defaultHeating) {
    baseAssumptions.push('home_size sets only the default heating; the heating here is measured (or none), so the ' +
      'floor area does not change it.')
  }
  const electricityKwhFor = (bound: Scenario['bound']): number => query.electricity_kwh ??
    pick(household.electricity, bound) * electricityScale
  const electricityKwh = electricityKwhFor('central')
  const electricityInterval = query.electricity_kwh === undefined ? household.electricity.interval : undefined
  const heatingInterval = defaultHeating ? household.heating.interval : undefined
  const perPerson = people === 1 ? '' : ` / ${Number(people.toPrecision(4))} people`
  const cop = factorOf(data, 'param:energy.heat_pump_cop')
  const heatingFor = (bound: Scenario['bound']): number => {
    if (heating === 'none') return 0
    if (query.heating_kwh !== undefined) return query.heating_kwh
    return heating === 'heat_pump' ? heatDemandFor(bound) / cop.value : heatDemandFor(bound)
  }
  const heatingKwh = heatingFor('central')
  if (heating !== 'none') {
    if (query.heating_kwh !== undefined) {
      if (heating === 'heat_pump') {
        baseAssumptions.push(
          'Measured heating_kwh for a heat pump is read as the electricity it used.')
      }
    } else if (heating === 'heat_pump') {
      used.push(cop)
      baseAssumptions.push(
        `A heat pump delivers ${cop.value} kWh of heat per kWh of electricity (seasonal performance), so it uses ` +
          `${heatDemandKwh.toFixed(0)} / ${cop.value} kWh.`)
    } else if (heating === 'electric') {
      baseAssumptions.push(
        'Electric heating: the country\'s heat demand (as natural-gas kWh) is met by as many kWh of electricity. ' +
          'The ' +
        'default household electricity already includes the country\'s average electric heating, so this may count ' +
        'some of it twice.')
    }
  }
  if (heating === 'wood') {
    const biogenic = factorOf(data, 'desnz:biogenic.wood_logs.kwh')
    baseAssumptions.push(
      `Wood: only methane and nitrous oxide count (DESNZ scope 1); the biogenic CO2 of burning it (${biogenic.value} ` +
        'kg per kWh) is reported by DESNZ outside the scopes and left out here.')
  }
  if (heating === 'district_heating') {
    baseAssumptions.push(
      'District heating uses the DESNZ UK district heat and steam factor (and its 5 % distribution loss on the ' +
      'life-cycle boundary); networks elsewhere may differ widely.')
  }
  if (people !== 1) {
    baseAssumptions.push(
    `The household's energy is shared equally by ${plural(Number(people.toPrecision(4)), 'person', 'people')}.`)
  }

  const inputs: EnergyInputs = {
    household_size: Number(people.toPrecision(6)),
    energy_type: green ? 'green' : 'conventional',
    electricity_method: method,
    heating_type: heating,
    electricity_kwh: electricityKwh,
    electricity_source: query.electricity_kwh === undefined ? 'country_default' : 'measured',
    heating_kwh: heatingKwh,
    heating_source: heating === 'none' ? 'none' : query.heating_kwh === undefined ? 'country_default' : 'measured'
  }
  if (query.home_size !== undefined && homeM2 !== undefined) {
    inputs.home_size = { value: query.home_size, unit: UNITS[system].area }
    inputs.home_size_m2 = homeM2
  }

  const electricityFor = (scenario: Scenario): ElectricityFactor =>
    scenario.method === 'market_based' && green
      ? greenTariffFactor(data, country, scenario)
      : gridFactor(country, scenario)
  const run = (scenario: Scenario): Calculation<EnergyInputs> => {
    const assumptions = [...baseAssumptions]
    const electricity = electricityFor(scenario)
    const tariff = scenario.method === 'market_based' && green
      ? 'renewable tariff, market-based'
      : `${country.name} grid, location-based`
    const breakdown: BreakdownItem[] = [
      item(electricity.factor, 'electricity', `electricity (${tariff})`, electricityKwhFor(scenario.bound) / people,
        'kWh', `${electricityKwh.toFixed(1)} kWh for the household${perPerson}`,
        [...electricity.intervals, ...(scenario.bound === 'central' || electricityInterval === undefined
          ? []
          : [electricityInterval])])
    ]
    if (heating !== 'none') {
      const fuel = HEATING_FUEL[heating]
      let factor: Factor
      let intervals: string[] = []
      if (fuel !== undefined) {
        factor = onBoundary(scenario.boundary, factorOf(data, `desnz:${directKey(fuel)}`),
          [factorOf(data, `desnz:wtt.${fuel}`)], `DESNZ 2025 ${heating.replace('_', ' ')}`)
      } else if (heating === 'district_heating') {
        factor = onBoundary(scenario.boundary, factorOf(data, 'desnz:heat.district_heat_and_steam.kwh'),
          [factorOf(data, 'desnz:heat.district_distribution_loss_5pct.kwh'),
            factorOf(data, 'desnz:wtt.district_heat_and_steam.kwh')], 'DESNZ 2025 district heat and steam')
      } else {
        ({ factor, intervals } = electricityFor(scenario))
      }
      const modelInterval = scenario.bound === 'central' || heatingInterval === undefined ? [] : [heatingInterval]
      breakdown.push(item(factor, 'heating', `heating (${heating.replaceAll('_', ' ')})`,
        heatingFor(scenario.bound) / people, 'kWh', `${heatingKwh.toFixed(1)} kWh for the household${perPerson}`,
        [...intervals, ...modelInterval]))
    }
    if (scenario.method === 'market_based' && !green) {
      assumptions.push(
        'Market-based, conventional tariff: no residual-mix figure is cited for any country, so the grid average ' +
          'stands in (GHG Protocol Scope 2 hierarchy).')
    }
    return { countryCode: country.code, measurementSystem: system, inputs, breakdown, assumptions, used, defaults }
  }
  const runs = runScenarios({ boundary, radiativeForcing: false, method, bound: 'central' },
    { radiativeForcing: false, method: true }, run)
  const answer = present(data, runs, { category: 'home energy', warn: true })
  answer.warnings.push(...homeSizeWarnings(query.home_size, homeM2, people, system))
  return {
    ...answer,
    electricity: {
      method,
      location_based: mass(totalKg(runs.get({ method: 'location_based' }))),
      market_based: mass(totalKg(runs.get({ method: 'market_based' }))),
      market_based_basis: green
        ? 'Renewable tariff: the IPCC AR5 life-cycle median of onshore wind (11 g CO2e/kWh), plus transmission ' +
          'losses on the life-cycle boundary; never zero.'
        : 'Conventional tariff: no residual mix is cited, so the market-based figure equals the location-based one.'
    }
  }
}
