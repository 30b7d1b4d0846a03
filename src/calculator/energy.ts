import { mass, present, runScenarios, type Mass, type PresentedCalculation } from './answer.ts'
import { CalculatorInputError } from './calculator.errors.ts'
import { directKey, factorOf, type CalculatorData, type Country, type Factor } from './calculator.data.ts'
import {
  item, onBoundary, plural, totalKg, type BreakdownItem, type Calculation, type DefaultUsed,
  type Scenario
} from './calculation.ts'
import type { EnergyInputs, EnergyQuery } from './calculator.schemas.ts'
import { defaultsFor, measurementSystemFor, resolveCountry, systemDefault } from './countries.ts'
import { greenTariffFactor, gridFactor, type ElectricityFactor } from './electricity.ts'
import { UNITS, areaToM2 } from './units.ts'

/**
 * Home electricity and heating, per person: household kWh x the electricity or fuel factor,
 * divided by the people in the home. Without measured kWh the household is the country's
 * average one, from the country's own data:
 * - electricity: electricity demand per person x (1 - T&D losses) x the residential share of
 *   final electricity use (IEA, world 2019) x the average household size (UN DESA);
 * - heating: the CO2 burned on site in buildings per person (Climate Watch; residential and
 *   commercial, so an upper bound for homes) x the household size, expressed as the natural-gas
 *   kWh that emit it. Natural gas then gives the country's buildings CO2 per person exactly;
 *   tropical countries, whose buildings burn little, get little heating.
 */

const HOME_M2_RANGE = { min: 1, max: 5000 }

type HeatingType = NonNullable<EnergyQuery['heating_type']>

const HEATING_FUEL: Partial<Record<HeatingType, string>> = {
  natural_gas: 'natural_gas.kwh_gross_cv',
  heating_oil: 'burning_oil.kwh_gross_cv',
  lpg: 'lpg.kwh_gross_cv',
  wood: 'wood_logs.kwh'
}

interface CountryHousehold {
  people: Factor
  electricityKwh: number
  /** Natural-gas kWh whose combustion emits the household's share of buildings CO2. */
  heatingKwh: number
  /** The figures behind each default. */
  electricityUsed: Factor[]
  heatingUsed: Factor[]
  assumptions: string[]
}

/** The country's average household: people, electricity kWh and heating kWh a year. */
function countryHousehold (data: CalculatorData, country: Country): CountryHousehold {
  const people = country.householdSize
  const share = factorOf(data, 'param:energy.residential_share_of_electricity')
  const gas = factorOf(data, 'desnz:fuel.natural_gas.kwh_gross_cv')
  const demand = country.electricityDemand
  const losses = country.tdLosses
  const buildings = country.buildingsCo2
  const electricityKwh = demand.value * (1 - losses.value / 100) * share.value * people.value
  const heatingKwh = buildings.value * 1000 / gas.value * people.value
  const r = (value: number): number => Number(value.toPrecision(6))
  return {
    people,
    electricityKwh,
    heatingKwh,
    electricityUsed: [people, share, demand, losses],
    heatingUsed: [people, buildings, gas],
    assumptions: [
      `Household electricity (${country.name} default): ${r(demand.value)} kWh demand per person (${demand.year ??
        ''}) x (1 - ${r(losses.value)} % losses) x ${share.value} residential share (IEA,
          world 2019) x ${r(people.value)} people = ${
            r(electricityKwh)} kWh a year. The residential share is a world figure: countries differ.`,
      `Household heating (${country.name} default): ${r(
        buildings.value)} t CO2 per person burned in buildings (${buildings.year ??
          ''}) / ${gas.value} kg CO2e per kWh of natural gas x ${r(people.value)} people = ${
            r(heatingKwh)} kWh a year. Buildings CO2 includes commercial buildings and cooking,
              so this is an upper bound for home heating.`
    ]
  }
}

interface EnergyAnswer extends PresentedCalculation<EnergyInputs> {
  electricity: {
    method: 'location_based' | 'market_based',
    location_based: Mass,
    market_based: Mass,
    market_based_basis: string
  }
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
          value: Number(household.electricityKwh.toPrecision(6)),
          basis: `${country.name}'s average household: electricity demand per person x (1 - T&D losses) x ` +
            'residential share x household size (see assumptions)'
        }]
      : []),
    ...(query.heating_kwh === undefined && heating !== 'none'
      ? [{
          parameter: 'heating_kwh',
          value: Number(household.heatingKwh.toPrecision(6)),
          basis: `${country.name}'s average household: buildings CO2 per person as natural-gas kWh x household size ` +
          '(see assumptions)'
        }]
      : []),
    ...defaultsFor(query, ['heating_type', 'energy_type', 'electricity_method', 'boundary'])
  ]
  // A green tariff's market-based figure is in every answer: its source and status are listed too.
  const used: Factor[] = green ? [factorOf(data, 'param:energy.green_tariff.wind_onshore')] : []
  const baseAssumptions: string[] = []
  if (query.home_size !== undefined) {
    baseAssumptions.push(
      'home_size was checked but not used: no per-country dwelling size is cited, so the defaults describe the ' +
      'country\'s average household. Give electricity_kwh and heating_kwh for your own home.')
  }
  const [electricityLine, heatingLine] = household.assumptions
  if (query.household_size === undefined) used.push(household.people)
  if (query.electricity_kwh === undefined && electricityLine !== undefined) {
    used.push(...household.electricityUsed)
    baseAssumptions.push(electricityLine)
  }
  if (query.heating_kwh === undefined && heating !== 'none' && heatingLine !== undefined) {
    used.push(...household.heatingUsed)
    baseAssumptions.push(heatingLine)
  }
  const electricityKwh = query.electricity_kwh ?? household.electricityKwh
  const perPerson = people === 1 ? '' : ` / ${Number(people.toPrecision(4))} people`
  const cop = factorOf(data, 'param:energy.heat_pump_cop')
  let heatingKwh = 0
  if (heating !== 'none') {
    if (query.heating_kwh !== undefined) {
      heatingKwh = query.heating_kwh
      if (heating === 'heat_pump') {
        baseAssumptions.push(
          'Measured heating_kwh for a heat pump is read as the electricity it used.')
      }
    } else if (heating === 'heat_pump') {
      used.push(cop)
      heatingKwh = household.heatingKwh / cop.value
      baseAssumptions.push(
        `A heat pump delivers ${cop.value} kWh of heat per kWh of electricity (seasonal performance), so it uses ` +
          `${household.heatingKwh.toFixed(0)} / ${cop.value} kWh.`)
    } else {
      heatingKwh = household.heatingKwh
      if (heating === 'electric') {
        baseAssumptions.push(
          'Electric heating: the country\'s heat demand (as natural-gas kWh) is met by as many kWh of electricity. ' +
            'The ' +
          'default household electricity already includes the country\'s average electric heating, so this may count ' +
          'some of it twice.')
      }
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
      item(electricity.factor, 'electricity', `electricity (${tariff})`, electricityKwh / people, 'kWh',
        `${electricityKwh.toFixed(1)} kWh for the household${perPerson}`, electricity.intervals)
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
      breakdown.push(item(factor, 'heating', `heating (${heating.replaceAll('_', ' ')})`, heatingKwh / people, 'kWh',
        `${heatingKwh.toFixed(1)} kWh for the household${perPerson}`, intervals))
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
  return {
    ...present(data, runs, { category: 'home energy', warn: true }),
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
