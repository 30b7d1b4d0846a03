import { CalculatorInputError } from './calculator.errors.ts'
import { factorOf, type CalculatorData, type Country, type Factor } from './calculator.data.ts'
import { derive, item, type BreakdownItem, type Calculation } from './calculation.ts'
import type { CarInputs, CarQuery } from './calculator.schemas.ts'
import { measurementSystemFor, resolveCountry } from './countries.ts'
import { UNITS, distanceToKm, fuelEconomyPerKm, isElectricUnit, type FuelEconomyUnit, type MeasurementSystem } from './units.ts'

/**
 * Car, rail and bus: distance x DESNZ 2025 factor. Cars use per-vehicle-km factors divided
 * by occupancy; electric cars use DESNZ kWh per km x the country's grid intensity, so an
 * electric car in France is not charged the UK grid.
 */

export const MAX_DISTANCE_KM = 1_000_000
// Plausible measured economy, in the per-km units fuelEconomyPerKm returns.
const LITRES_PER_KM_RANGE = { min: 0.01, max: 0.5 } // 1 to 50 L/100 km
const KWH_PER_KM_RANGE = { min: 0.05, max: 1 } // 5 to 100 kWh/100 km

const CAR_ONLY = ['fuel_type', 'car_size', 'occupancy', 'fuel_economy', 'fuel_economy_unit'] as const

const RAIL_KEYS = { national: 'rail.national', international: 'rail.international', light_rail: 'rail.light_rail_tram', underground: 'rail.underground' } as const

/** kg CO2e per kWh of the country's grid, from g CO2e per kWh. */
export function gridFactor (country: Country): Factor {
  const grid = country.gridIntensity
  return derive([grid], {
    key: `derived:grid.${country.code}`,
    id: grid.id,
    value: grid.value / 1000,
    unit: 'kg CO2e per kWh',
    description: grid.description,
    derivation: `${grid.value} g CO2e/kWh (${grid.id}) / 1000`
  })
}

export function calculateCar (data: CalculatorData, query: CarQuery): Calculation<CarInputs> {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const mode = query.mode ?? 'car'
  const distanceKm = distanceToKm(query.distance, system)
  if (distanceKm > MAX_DISTANCE_KM) {
    throw CalculatorInputError.invalid('distance', `distance ${query.distance} ${UNITS[system].distance} is more than ${MAX_DISTANCE_KM.toLocaleString('en')} km a year`)
  }
  if (mode !== 'car') {
    const offending = CAR_ONLY.find((name) => query[name] !== undefined)
    if (offending !== undefined) throw CalculatorInputError.conflicting(offending, `${offending} applies to mode=car only, not mode=${mode}.`)
  }
  if (mode !== 'rail' && query.rail_type !== undefined) {
    throw CalculatorInputError.conflicting('rail_type', `rail_type applies to mode=rail only, not mode=${mode}.`)
  }
  const inputs: CarInputs = { mode, distance: { value: query.distance, unit: UNITS[system].distance }, distance_km: distanceKm }
  const base = { countryCode: country.code, measurementSystem: system, inputs }

  if (mode !== 'car') {
    let factor: Factor
    let label: string
    if (mode === 'rail') {
      const railType = query.rail_type ?? 'national'
      inputs.rail_type = railType
      factor = factorOf(data, `desnz:${RAIL_KEYS[railType]}`)
      label = `${railType.replace('_', ' ')} rail`
    } else {
      factor = factorOf(data, mode === 'bus' ? 'desnz:bus.average_local' : 'desnz:coach')
      label = mode === 'bus' ? 'average local bus' : 'coach'
    }
    return { ...base, breakdown: [item(factor, mode, label, distanceKm, 'passenger-km')], assumptions: ['DESNZ passenger-km factors reflect average UK occupancy and fleet.'], used: [] }
  }

  const fuelType = query.fuel_type ?? 'unknown'
  const carSize = query.car_size ?? 'average'
  const occupancy = query.occupancy ?? 1
  inputs.fuel_type = fuelType
  inputs.car_size = carSize
  inputs.occupancy = occupancy
  const assumptions: string[] = []
  const share = occupancy === 1 ? '' : ` / ${occupancy} people`
  let entry: BreakdownItem

  if (query.fuel_economy !== undefined || query.fuel_economy_unit !== undefined) {
    entry = measuredEconomy(data, country, system, query, fuelType, distanceKm, occupancy, inputs, assumptions)
  } else if (fuelType === 'electric') {
    const kwhPerKm = factorOf(data, `desnz:ev.bev.${carSize}.kwh_per_km`)
    const grid = gridFactor(country)
    const factor = derive([kwhPerKm, grid], {
      key: `derived:ev.${carSize}.${country.code}`,
      id: `tonne:ev.${carSize}.${country.code}`,
      value: kwhPerKm.value * grid.value,
      unit: 'kg CO2e per vehicle-km',
      description: `Battery electric ${carSize} car charged from the ${country.name} grid`,
      derivation: `${kwhPerKm.value} kWh/vehicle-km (${kwhPerKm.id}) x ${grid.value} kg CO2e/kWh (${grid.id})`
    })
    assumptions.push(`Electric car: DESNZ kWh per km x the ${country.name} grid intensity (generation, excluding transmission losses), not the UK grid built into DESNZ's electric-car rows.`)
    entry = item(factor, 'car', `${carSize} battery electric car`, distanceKm / occupancy, 'vehicle-km', `${distanceKm.toFixed(1)} km${share}`)
  } else {
    let size: string = carSize
    if ((fuelType === 'lpg' || fuelType === 'cng') && carSize === 'small') {
      size = 'medium'
      assumptions.push(`DESNZ publishes no small ${fuelType.toUpperCase()} car factor; the medium ${fuelType.toUpperCase()} car factor is used.`)
    }
    const factor = factorOf(data, `desnz:car.${size}.${fuelType}`)
    if (fuelType === 'plug_in_hybrid') assumptions.push('Plug-in hybrid: the DESNZ factor assumes UK charging patterns and the UK 2025 grid.')
    if (fuelType === 'unknown') assumptions.push('Fuel unknown: DESNZ average of the UK car fleet for this size.')
    const label = fuelType === 'unknown' ? `${size} car (fuel unknown)` : `${size} ${fuelType.replaceAll('_', ' ')} car`
    entry = item(factor, 'car', label, distanceKm / occupancy, 'vehicle-km', `${distanceKm.toFixed(1)} km${share}`)
  }
  if (occupancy > 1) assumptions.push(`The car's emissions are shared equally by ${occupancy} people.`)
  return { ...base, breakdown: [entry], assumptions, used: [] }
}

const LITRE_FACTORS: Partial<Record<string, string>> = {
  petrol: 'desnz:fuel.petrol_avg_biofuel_blend.litre',
  hybrid: 'desnz:fuel.petrol_avg_biofuel_blend.litre',
  diesel: 'desnz:fuel.diesel_avg_biofuel_blend.litre',
  lpg: 'desnz:fuel.lpg.litre'
}

function measuredEconomy (data: CalculatorData, country: Country, system: MeasurementSystem, query: CarQuery, fuelType: string, distanceKm: number, occupancy: number, inputs: CarInputs, assumptions: string[]): BreakdownItem {
  if (query.fuel_economy === undefined) {
    throw CalculatorInputError.missing('fuel_economy', 'fuel_economy_unit was given without fuel_economy.')
  }
  if (query.fuel_type === undefined) {
    throw CalculatorInputError.missing('fuel_type', 'fuel_economy needs fuel_type (petrol, diesel, hybrid, lpg or electric) to know which fuel was burned.')
  }
  const electric = fuelType === 'electric'
  if (!electric && LITRE_FACTORS[fuelType] === undefined) {
    throw CalculatorInputError.conflicting('fuel_economy', `fuel_economy cannot be used with fuel_type=${fuelType}: there is no per-volume factor for it. Use petrol, diesel, hybrid, lpg or electric, or leave fuel_economy out.`)
  }
  const unit: FuelEconomyUnit = query.fuel_economy_unit ?? (electric ? UNITS[system].electric_fuel_economy : UNITS[system].fuel_economy)
  if (electric !== isElectricUnit(unit)) {
    throw CalculatorInputError.conflicting('fuel_economy_unit', electric
      ? `fuel_economy_unit=${unit} is a liquid-fuel unit; an electric car needs kwh_per_100km or kwh_per_100mi.`
      : `fuel_economy_unit=${unit} is for electric cars; fuel_type=${fuelType} needs l_per_100km, mpg_us or mpg_uk.`)
  }
  const perKm = fuelEconomyPerKm(query.fuel_economy, unit)
  const range = electric ? KWH_PER_KM_RANGE : LITRES_PER_KM_RANGE
  if (perKm < range.min || perKm > range.max) {
    throw CalculatorInputError.invalid('fuel_economy', electric
      ? `fuel_economy ${query.fuel_economy} ${unit} is outside the plausible range of 5 to 100 kWh per 100 km`
      : `fuel_economy ${query.fuel_economy} ${unit} is outside the plausible range of 1 to 50 L per 100 km`)
  }
  inputs.fuel_economy = { value: query.fuel_economy, unit, per_km: perKm, per_km_unit: electric ? 'kWh per km' : 'litres per km' }
  const amount = distanceKm * perKm / occupancy
  const share = occupancy === 1 ? '' : ` / ${occupancy} people`
  assumptions.push('Measured fuel economy replaces the DESNZ size and fuel factor; the fuel burned is charged with the DESNZ per-litre (or grid per-kWh) factor.')
  if (electric) {
    return item(gridFactor(country), 'car', 'battery electric car (measured consumption)', amount, 'kWh', `${distanceKm.toFixed(1)} km x ${perKm.toFixed(4)} kWh/km${share}`)
  }
  if (fuelType === 'hybrid') assumptions.push('A hybrid burns petrol: its measured fuel is charged as petrol.')
  return item(factorOf(data, LITRE_FACTORS[fuelType] as string), 'car', `${fuelType} car (measured consumption)`, amount, 'litres', `${distanceKm.toFixed(1)} km x ${perKm.toFixed(4)} L/km${share}`)
}
