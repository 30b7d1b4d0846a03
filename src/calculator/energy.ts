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
 * divided by the people in the home. Without measured kWh the household's kWh come from the
 * country's average household (see docs/methodology.md, section "Home energy"):
 * - electricity: a cited household figure for the country where there is one (US: EIA kWh per
 *   residential customer); otherwise the labelled fallback electricity demand per person x
 *   (1 - T&D losses) x the residential share of final electricity use (IEA, world 2019) x the
 *   average household size (UN DESA);
 * - heating: the CO2 burned on site in buildings per person (Climate Watch; residential and
 *   commercial, so an upper bound for homes) x the household size, expressed as the natural-gas
 *   kWh that emit it.
 * A household of another size uses the average household's kWh x (people / average) ^ 0.5 (the OECD
 * square-root equivalence scale); a given floor area sets heating from the average household's heat per m2.
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
  /** Where the electricity figure comes from, for defaults_used. */
  electricityBasis: string
  /** The figures behind each default. */
  electricityUsed: Factor[]
  heatingUsed: Factor[]
  assumptions: string[]
}

const r6 = (value: number): number => Number(value.toPrecision(6))

/** The country's average household: people, electricity kWh and heating kWh a year. */
function countryHousehold (data: CalculatorData, country: Country): CountryHousehold {
  const people = country.householdSize
  const gas = factorOf(data, 'desnz:fuel.natural_gas.kwh_gross_cv')
  const buildings = country.buildingsCo2
  const heatingKwh = buildings.value * 1000 / gas.value * people.value
  const heatingLine = `Household heating (${country.name} default): ${r6(
    buildings.value)} t CO2 per person burned in buildings (${buildings.year ??
      ''}) / ${gas.value} kg CO2e per kWh of natural gas x ${r6(people.value)} people = ${
        r6(heatingKwh)} kWh a year. Buildings CO2 includes commercial buildings and cooking, so this is an upper ` +
        'bound for home heating.'
  const own = data.factors.get(`param:energy.household_electricity_kwh.${country.code}`)
  if (own !== undefined) {
    return {
      people,
      electricityKwh: own.value,
      heatingKwh,
      electricityBasis: `${country.name}'s own figure: ${own.value} ${own.unit}, ${
        data.sources.get(own.source)?.publisher ?? own.source} (${own.id})`,
      electricityUsed: [people, own],
      heatingUsed: [people, buildings, gas],
      assumptions: [
        `Household electricity (${country.name} default): ${own.value} ${own.unit}, the country's own figure ` +
          `(${own.id}), taken as the household of ${r6(people.value)} people.`,
        heatingLine
      ]
    }
  }
  const share = factorOf(data, 'param:energy.residential_share_of_electricity')
  const demand = country.electricityDemand
  const losses = country.tdLosses
  const electricityKwh = demand.value * (1 - losses.value / 100) * share.value * people.value
  return {
    people,
    electricityKwh,
    heatingKwh,
    electricityBasis: `fallback (no household electricity figure is cited for ${country.name}): electricity demand ` +
      'per person x (1 - T&D losses) x the world residential share x household size (see assumptions)',
    electricityUsed: [people, share, demand, losses],
    heatingUsed: [people, buildings, gas],
    assumptions: [
      `Household electricity (${country.name} default, fallback: no household figure is cited for the country): ${
        r6(demand.value)} kWh demand per person (${demand.year ?? ''}) x (1 - ${r6(losses.value)} % losses) x ${
          share.value} residential share (IEA, world 2019) x ${r6(people.value)} people = ${
            r6(electricityKwh)} kWh a year. The residential share is a world figure: countries differ.`,
      heatingLine
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
  const average = household.people.value
  const exponent = factorOf(data, 'param:energy.household_scale_exponent')
  const areaPerPerson = factorOf(data, 'param:energy.floor_area_m2_per_person')
  // The average household's kWh, scaled to this household's size (square-root scale) or floor area.
  const scale = (people / average) ** exponent.value
  const defaultElectricityKwh = household.electricityKwh * scale
  const averageM2 = areaPerPerson.value * average
  const heatDemandKwh = homeM2 === undefined
    ? household.heatingKwh * scale
    : household.heatingKwh * homeM2 / averageM2
  const scaleLine = `A household of ${r6(people)} people uses the country's average household's kWh (${
    r6(average)} people) x (${r6(people)} / ${r6(average)}) ^ ${exponent.value} = x ${r6(scale)}: the OECD ` +
    'square-root equivalence scale, since a home\'s energy grows with the number of people but less than in ' +
    'proportion.'
  const areaLine = homeM2 === undefined
    ? ''
    : `Heating for ${r6(homeM2)} m2: the average household's ${r6(household.heatingKwh)} kWh over its ${
      r6(averageM2)} m2 (${areaPerPerson.value} m2 per person, a Tonne assumption: no per-country floor area is ` +
      `cited yet) = ${r6(household.heatingKwh / averageM2)} kWh per m2, x ${r6(homeM2)} m2 = ${r6(heatDemandKwh)} kWh.`
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
          basis: `${country.name}'s average household, ${household.electricityBasis}; scaled to the household's ` +
            'size by the OECD square-root scale'
        }]
      : []),
    ...(query.heating_kwh === undefined && heating !== 'none'
      ? [{
          parameter: 'heating_kwh',
          value: Number(heatDemandKwh.toPrecision(6)),
          basis: `${country.name}'s average household: buildings CO2 per person as natural-gas kWh x household size, ` +
            (homeM2 === undefined
              ? 'scaled to the household\'s size by the OECD square-root scale'
              : 'as heat per m2 of its assumed floor area, x home_size') + ' (see assumptions)'
        }]
      : []),
    ...defaultsFor(query, ['heating_type', 'energy_type', 'electricity_method', 'boundary'])
  ]
  // A green tariff's market-based figure is in every answer: its source and status are listed too.
  const used: Factor[] = green ? [factorOf(data, 'param:energy.green_tariff.wind_onshore')] : []
  const baseAssumptions: string[] = []
  const [electricityLine, heatingLine] = household.assumptions
  if (query.household_size === undefined) used.push(household.people)
  const defaultHeating = query.heating_kwh === undefined && heating !== 'none'
  if (query.electricity_kwh === undefined || defaultHeating) {
    used.push(exponent)
    baseAssumptions.push(scaleLine)
  }
  if (query.electricity_kwh === undefined && electricityLine !== undefined) {
    used.push(...household.electricityUsed)
    baseAssumptions.push(electricityLine)
  }
  if (defaultHeating && heatingLine !== undefined) {
    used.push(...household.heatingUsed)
    baseAssumptions.push(heatingLine)
    if (homeM2 !== undefined) {
      used.push(areaPerPerson)
      baseAssumptions.push(areaLine)
    }
  }
  if (homeM2 !== undefined && !defaultHeating) {
    baseAssumptions.push('home_size sets only the default heating; the heating here is measured (or none), so the ' +
      'floor area does not change it.')
  }
  const electricityKwh = query.electricity_kwh ?? defaultElectricityKwh
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
      heatingKwh = heatDemandKwh / cop.value
      baseAssumptions.push(
        `A heat pump delivers ${cop.value} kWh of heat per kWh of electricity (seasonal performance), so it uses ` +
          `${heatDemandKwh.toFixed(0)} / ${cop.value} kWh.`)
    } else {
      heatingKwh = heatDemandKwh
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
