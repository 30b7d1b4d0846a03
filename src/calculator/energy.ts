import { CalculatorInputError } from './calculator.errors.ts'
import { factorOf, type CalculatorData, type Country, type Factor } from './calculator.data.ts'
import { item, type BreakdownItem, type Calculation } from './calculation.ts'
import type { EnergyInputs, EnergyQuery } from './calculator.schemas.ts'
import { gridFactor } from './car.ts'
import { measurementSystemFor, resolveCountry } from './countries.ts'
import { UNITS, areaToM2 } from './units.ts'

/**
 * Home electricity and heating, per person: household kWh (measured, or floor area x an
 * assumed kWh per m2) x the country's grid intensity or the DESNZ fuel factor, divided by
 * the number of people in the home.
 */

export const HOME_M2_RANGE = { min: 1, max: 5000 }

type HeatingType = NonNullable<EnergyQuery['heating_type']>

const HEATING_FUEL: Partial<Record<HeatingType, string>> = {
  natural_gas: 'desnz:fuel.natural_gas.kwh_gross_cv',
  heating_oil: 'desnz:fuel.burning_oil.kwh_gross_cv',
  lpg: 'desnz:fuel.lpg.kwh_gross_cv',
  district_heating: 'desnz:heat.district_heat_and_steam.kwh',
  wood: 'desnz:fuel.wood_logs.kwh'
}

function electricityFactor (data: CalculatorData, country: Country, green: boolean): Factor {
  return green ? factorOf(data, 'param:energy.green_tariff') : gridFactor(country)
}

export function calculateEnergy (data: CalculatorData, query: EnergyQuery): Calculation<EnergyInputs> {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const household = query.household_size ?? 1
  const green = (query.energy_type ?? 'conventional') === 'green'
  const heating: HeatingType = query.heating_type ?? 'natural_gas'
  if (heating === 'none' && query.heating_kwh !== undefined && query.heating_kwh > 0) {
    throw CalculatorInputError.conflicting('heating_kwh', 'heating_kwh was given with heating_type=none.')
  }
  const needsArea = query.electricity_kwh === undefined || (heating !== 'none' && query.heating_kwh === undefined)
  let homeM2: number | undefined
  if (query.home_size !== undefined) {
    homeM2 = areaToM2(query.home_size, system)
    if (homeM2 < HOME_M2_RANGE.min || homeM2 > HOME_M2_RANGE.max) {
      throw CalculatorInputError.invalid('home_size', `home_size ${query.home_size} ${UNITS[system].area} is outside the plausible range of ${HOME_M2_RANGE.min} to ${HOME_M2_RANGE.max} m2`)
    }
  } else if (needsArea) {
    throw CalculatorInputError.missing('home_size', 'home_size is required unless both electricity_kwh and heating_kwh are given.')
  }

  const assumptions: string[] = []
  if (!needsArea && query.home_size !== undefined) assumptions.push('home_size was not used: measured electricity and heating were given.')
  const used: Factor[] = []
  const perPerson = household === 1 ? '' : ` / ${household} people`

  // Electricity.
  let electricityKwh: number
  if (query.electricity_kwh !== undefined) {
    electricityKwh = query.electricity_kwh
  } else {
    const perM2 = factorOf(data, 'param:energy.electricity_kwh_per_m2')
    used.push(perM2)
    electricityKwh = (homeM2 ?? 0) * perM2.value
  }
  const electricity = electricityFactor(data, country, green)
  const breakdown: BreakdownItem[] = [
    item(electricity, 'electricity', green ? 'electricity (renewable tariff)' : `electricity (${country.name} grid)`, electricityKwh / household, 'kWh',
      `${electricityKwh.toFixed(1)} kWh for the household${perPerson}`)
  ]
  if (!green) assumptions.push(`Electricity uses the average carbon intensity of ${country.name}'s generation (Ember, ${country.gridIntensity.year ?? ''}), location-based, excluding transmission losses.`)

  // Heating.
  let heatingKwh = 0
  let heatingSource: EnergyInputs['heating_source'] = 'none'
  if (heating !== 'none') {
    const cop = factorOf(data, 'param:energy.heat_pump_cop')
    if (query.heating_kwh !== undefined) {
      heatingKwh = query.heating_kwh
      heatingSource = 'measured'
      if (heating === 'heat_pump') assumptions.push('Measured heating_kwh for a heat pump is read as the electricity it used.')
    } else {
      const perM2 = factorOf(data, 'param:energy.heating_kwh_per_m2')
      used.push(perM2)
      const demand = (homeM2 ?? 0) * perM2.value
      heatingSource = 'modelled'
      if (heating === 'heat_pump') {
        used.push(cop)
        heatingKwh = demand / cop.value
        assumptions.push(`A heat pump delivers ${cop.value} kWh of heat per kWh of electricity (seasonal performance), so it uses ${demand.toFixed(0)} / ${cop.value} kWh.`)
      } else {
        heatingKwh = demand
      }
    }
    const fuelKey = HEATING_FUEL[heating]
    const factor = fuelKey === undefined ? electricityFactor(data, country, green) : factorOf(data, fuelKey)
    if (heating === 'wood') {
      const biogenic = factorOf(data, 'desnz:biogenic.wood_logs.kwh')
      assumptions.push(`Wood: only methane and nitrous oxide count (DESNZ scope 1); the biogenic CO2 of burning it (${biogenic.value} kg per kWh) is reported by DESNZ outside the scopes and left out here.`)
    }
    if (heating === 'district_heating') assumptions.push('District heating uses the DESNZ UK district heat and steam factor; networks elsewhere may differ widely.')
    if (fuelKey !== undefined) assumptions.push('Heating fuels use DESNZ 2025 combustion factors per kWh (gross calorific value); supply-chain (well-to-tank) emissions are not included.')
    breakdown.push(item(factor, 'heating', `heating (${heating.replaceAll('_', ' ')})`, heatingKwh / household, 'kWh', `${heatingKwh.toFixed(1)} kWh for the household${perPerson}`))
  }
  if (household > 1) assumptions.push(`The household's energy is shared equally by ${household} people.`)

  const inputs: EnergyInputs = {
    household_size: household,
    energy_type: green ? 'green' : 'conventional',
    heating_type: heating,
    electricity_kwh: electricityKwh,
    electricity_source: query.electricity_kwh === undefined ? 'modelled' : 'measured',
    heating_kwh: heatingKwh,
    heating_source: heatingSource
  }
  if (query.home_size !== undefined && homeM2 !== undefined) {
    inputs.home_size = { value: query.home_size, unit: UNITS[system].area }
    inputs.home_size_m2 = homeM2
  }
  return { countryCode: country.code, measurementSystem: system, inputs, breakdown, assumptions, used }
}
