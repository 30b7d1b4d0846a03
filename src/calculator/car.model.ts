import { CalculatorInputError } from './calculator.errors.ts'
import { factorOf, type CalculatorData, type Country, type Factor } from './calculator.data.ts'
import { derive, onBoundary, type Scenario } from './calculation.ts'
import type { CarInputs, CarQuery } from './calculator.schemas.ts'
import { measurementSystemFor, resolveCountry } from './countries.ts'
import { gridFactor } from './electricity.ts'
import {
  UNITS, distanceToKm, fuelEconomyPerKm, isElectricUnit, type FuelEconomyUnit,
  type MeasurementSystem
} from './units.ts'

/**
 * The numbers of a car, rail or bus answer (docs/methodology.md), apart from their explanation
 * (car.explanation.ts): distance x DESNZ 2025 factor, plus the DESNZ well-to-tank factor on the life-cycle
 * boundary. Cars use per-vehicle-km factors divided by occupancy; electric cars and electric light rail use kWh x the
 * country's grid, so a French tram is not charged the UK grid. Where no country data exist (national rail, buses,
 * fuel cars) the UK figure is used and the answer says so (factor_region GBR).
 */

const MAX_DISTANCE_KM = 1_000_000
// Plausible measured economy, in the per-km units fuelEconomyPerKm returns.
const LITRES_PER_KM_RANGE = { min: 0.01, max: 0.5 } // 1 to 50 L/100 km
const KWH_PER_KM_RANGE = { min: 0.05, max: 1 } // 5 to 100 kWh/100 km

const CAR_ONLY = ['fuel_type', 'car_size', 'occupancy', 'fuel_economy', 'fuel_economy_unit'] as const

const RAIL_KEYS = {
  national: 'rail.national',
  international: 'rail.international',
  light_rail: 'rail.light_rail_tram',
  underground: 'rail.underground'
} as const

const LITRE_KEYS: Partial<Record<string, string>> = {
  petrol: 'petrol_avg_biofuel_blend.litre',
  hybrid: 'petrol_avg_biofuel_blend.litre',
  diesel: 'diesel_avg_biofuel_blend.litre',
  lpg: 'lpg.litre'
}

/** A DESNZ direct factor with its well-to-tank partner on the life-cycle boundary. */
function desnzOnBoundary (data: CalculatorData, key: string, directKey: string,
  boundary: Scenario['boundary']): Factor {
  const direct = factorOf(data, `desnz:${directKey}`)
  return onBoundary(boundary, direct, [factorOf(data, `desnz:wtt.${key}`)], direct.description)
}

export interface Measured { perKm: number, unit: FuelEconomyUnit, electric: boolean }

function checkMeasured (query: CarQuery, fuelType: string, system: MeasurementSystem): Measured {
  if (query.fuel_economy === undefined) {
    throw CalculatorInputError.missing('fuel_economy',
      'fuel_economy_unit was given without fuel_economy.')
  }
  if (query.fuel_type === undefined) {
    throw CalculatorInputError.missing('fuel_type',
      'fuel_economy needs fuel_type (petrol, diesel, hybrid, lpg or electric) to know which fuel was burned.')
  }
  const electric = fuelType === 'electric'
  if (!electric && LITRE_KEYS[fuelType] === undefined) {
    throw CalculatorInputError.conflicting('fuel_economy',
      `fuel_economy cannot be used with fuel_type=${fuelType}: there is no per-volume factor for it. Use petrol, ` +
        'diesel, hybrid, lpg or electric, or leave fuel_economy out.')
  }
  const unit: FuelEconomyUnit = query.fuel_economy_unit ??
    (electric ? UNITS[system].electric_fuel_economy : UNITS[system].fuel_economy)
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
  return { perKm, unit, electric }
}

/** Electric rail outside the UK: DESNZ's kWh per passenger-km of UK trams and light rail x the country's grid. */
function electricRail (data: CalculatorData, country: Country, scenario: Scenario): {
  factor: Factor,
  intervals: string[]
} {
  const kwh = factorOf(data, 'param:rail.electric_kwh_per_passenger_km')
  const grid = gridFactor(country, scenario)
  return {
    factor: derive([kwh, grid.factor], {
      key: `derived:rail.electric.${country.code}.${scenario.boundary}.${scenario.bound}`,
      id: `tonne:rail.electric.${country.code}`,
      value: kwh.value * grid.factor.value,
      unit: 'kg CO2e per passenger-km',
      description: `Electric light rail, tram or metro on the ${country.name} grid`,
      derivation: `${kwh.value} kWh/passenger-km (${kwh.id}) x ${Number(
        grid.factor.value.toPrecision(6))} kg CO2e/kWh (${grid.factor.id})`
    }),
    intervals: grid.intervals
  }
}

export interface CarModel {
  country: Country
  system: MeasurementSystem
  mode: NonNullable<CarQuery['mode']>
  distanceKm: number
  fuelType: NonNullable<CarQuery['fuel_type']>
  carSize: NonNullable<CarQuery['car_size']>
  occupancy: number
  railType: NonNullable<CarQuery['rail_type']>
  measured: Measured | undefined
  boundary: NonNullable<CarQuery['boundary']>
  inputs: CarInputs
}

/** The trip a request describes; refuses what cannot be. */
export function carModel (data: CalculatorData, query: CarQuery): CarModel {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const mode = query.mode ?? 'car'
  const distanceKm = distanceToKm(query.distance, system)
  if (distanceKm > MAX_DISTANCE_KM) {
    throw CalculatorInputError.invalid('distance',
      `distance ${query.distance} ${UNITS[system].distance} is more than ${MAX_DISTANCE_KM.toLocaleString(
        'en')} km a year`)
  }
  if (mode !== 'car') {
    const offending = CAR_ONLY.find((name) => query[name] !== undefined)
    if (offending !== undefined) {
      throw CalculatorInputError.conflicting(offending,
      `${offending} applies to mode=car only, not mode=${mode}.`)
    }
  }
  if (mode !== 'rail' && query.rail_type !== undefined) {
    throw CalculatorInputError.conflicting('rail_type', `rail_type applies to mode=rail only, not mode=${mode}.`)
  }
  const fuelType = query.fuel_type ?? 'unknown'
  const carSize = query.car_size ?? 'average'
  const occupancy = query.occupancy ?? 1
  const railType = query.rail_type ?? 'national'
  const measured = mode === 'car' && (query.fuel_economy !== undefined || query.fuel_economy_unit !== undefined)
    ? checkMeasured(query, fuelType, system)
    : undefined
  const inputs: CarInputs = {
    mode,
    distance: { value: query.distance, unit: UNITS[system].distance },
    distance_km: distanceKm,
    factor_region: 'GBR'
  }
  // The inputs as the answer states them, in the order it lists them.
  if (mode === 'rail') {
    inputs.rail_type = railType
    if ((railType === 'light_rail' || railType === 'underground') && country.code !== 'GBR') {
      inputs.factor_region = country.code
    }
  } else if (mode === 'car') {
    inputs.occupancy = occupancy
    inputs.fuel_type = fuelType
    if (measured !== undefined) {
      inputs.fuel_economy = {
        value: query.fuel_economy ?? 0,
        unit: measured.unit,
        per_km: measured.perKm,
        per_km_unit: measured.electric ? 'kWh per km' : 'litres per km'
      }
      if (measured.electric) inputs.factor_region = country.code
    } else {
      inputs.car_size = carSize
      if (fuelType === 'electric') inputs.factor_region = country.code
    }
  }
  return {
    country,
    system,
    mode,
    distanceKm,
    fuelType,
    carSize,
    occupancy,
    railType,
    measured,
    boundary: query.boundary ?? 'life_cycle',
    inputs
  }
}

/** Which way a scenario was charged: what the explanation needs to say about it. */
export type CarCase =
  | { kind: 'rail_electric' }
  | { kind: 'rail_national_range' }
  | { kind: 'rail_desnz' }
  | { kind: 'road' }
  | { kind: 'measured_electric' }
  | { kind: 'measured_fuel' }
  | { kind: 'electric' }
  | { kind: 'fuel', size: string, sizeReplaced: boolean, spread: boolean }

export interface CarCharge {
  factor: Factor
  /** Interval bases from the factors themselves (the grid's). */
  intervals: string[]
  quantity: number
  unit: string
  charged: CarCase
}

/** One scenario's factor and amount. */
export function chargeCar (data: CalculatorData, model: CarModel, scenario: Scenario): CarCharge {
  const { country, mode, distanceKm, fuelType, carSize, occupancy, railType, measured } = model
  if (mode === 'rail') {
    if ((railType === 'light_rail' || railType === 'underground') && country.code !== 'GBR') {
      const { factor, intervals } = electricRail(data, country, scenario)
      return { factor, intervals, quantity: distanceKm, unit: 'passenger-km', charged: { kind: 'rail_electric' } }
    }
    if (railType === 'national' && country.code !== 'GBR' && scenario.bound !== 'central') {
      // The UK figure abroad is an assumption: the range spans it and an all-electric train on the country's
      // grid, since no per-country electric share is cited.
      const uk = desnzOnBoundary(data, RAIL_KEYS[railType], RAIL_KEYS[railType], scenario.boundary)
      const electric = electricRail(data, country, { ...scenario, bound: 'central' }).factor
      const factor = (scenario.bound === 'low') === (electric.value < uk.value) ? electric : uk
      return {
        factor,
        intervals: [],
        quantity: distanceKm,
        unit: 'passenger-km',
        charged: { kind: 'rail_national_range' }
      }
    }
    return {
      factor: desnzOnBoundary(data, RAIL_KEYS[railType], RAIL_KEYS[railType], scenario.boundary),
      intervals: [],
      quantity: distanceKm,
      unit: 'passenger-km',
      charged: { kind: 'rail_desnz' }
    }
  }
  if (mode !== 'car') {
    const key = mode === 'bus' ? 'bus.average_local' : 'coach'
    return {
      factor: desnzOnBoundary(data, key, key, scenario.boundary),
      intervals: [],
      quantity: distanceKm,
      unit: 'passenger-km',
      charged: { kind: 'road' }
    }
  }
  if (measured !== undefined) {
    const amount = distanceKm * measured.perKm / occupancy
    if (measured.electric) {
      const grid = gridFactor(country, scenario)
      return {
        factor: grid.factor,
        intervals: grid.intervals,
        quantity: amount,
        unit: 'kWh',
        charged: { kind: 'measured_electric' }
      }
    }
    const key = LITRE_KEYS[fuelType] as string
    return {
      factor: desnzOnBoundary(data, key, `fuel.${key}`, scenario.boundary),
      intervals: [],
      quantity: amount,
      unit: 'litres',
      charged: { kind: 'measured_fuel' }
    }
  }
  if (fuelType === 'electric') {
    const kwhPerKm = factorOf(data, `desnz:ev.bev.${carSize}.kwh_per_km`)
    const grid = gridFactor(country, scenario)
    const factor = derive([kwhPerKm, grid.factor], {
      key: `derived:ev.${carSize}.${country.code}.${scenario.boundary}.${scenario.bound}`,
      id: `tonne:ev.${carSize}.${country.code}`,
      value: kwhPerKm.value * grid.factor.value,
      unit: 'kg CO2e per vehicle-km',
      description: `Battery electric ${carSize} car charged from the ${country.name} grid`,
      derivation: `${kwhPerKm.value} kWh/vehicle-km (${kwhPerKm.id}) x ${Number(
        grid.factor.value.toPrecision(6))} kg CO2e/kWh (${grid.factor.id})`
    })
    return {
      factor,
      intervals: grid.intervals,
      quantity: distanceKm / occupancy,
      unit: 'vehicle-km',
      charged: { kind: 'electric' }
    }
  }
  // DESNZ publishes no small LPG or CNG car: the medium one stands in.
  const sizeReplaced = (fuelType === 'lpg' || fuelType === 'cng') && carSize === 'small'
  const size: string = sizeReplaced ? 'medium' : carSize
  const key = `car.${size}.${fuelType}`
  // Size not given: the low and high runs use DESNZ's small and large car of the fuel, the fleet's spread.
  const end = scenario.bound === 'low' ? 'small' : 'large'
  const spread = size === 'average' && scenario.bound !== 'central' && data.factors.has(`desnz:car.${end}.${fuelType}`)
  return {
    factor: desnzOnBoundary(data, spread ? `car.${end}.${fuelType}` : key, spread ? `car.${end}.${fuelType}` : key,
      scenario.boundary),
    intervals: [],
    quantity: distanceKm / occupancy,
    unit: 'vehicle-km',
    charged: { kind: 'fuel', size, sizeReplaced, spread }
  }
}
