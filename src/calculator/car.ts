import { present, runScenarios, type PresentedCalculation } from './answer.ts'
import { CalculatorInputError } from './calculator.errors.ts'
import { factorOf, type CalculatorData, type Country, type Factor } from './calculator.data.ts'
import {
  derive, item, onBoundary, type BreakdownItem, type Calculation, type DefaultUsed,
  type Scenario
} from './calculation.ts'
import type { CarInputs, CarQuery } from './calculator.schemas.ts'
import { defaultsFor, measurementSystemFor, resolveCountry, systemDefault } from './countries.ts'
import { gridFactor } from './electricity.ts'
import {
  UNITS, distanceToKm, fuelEconomyPerKm, isElectricUnit, type FuelEconomyUnit,
  type MeasurementSystem
} from './units.ts'

/**
 * Car, rail and bus: distance x DESNZ 2025 factor, plus the DESNZ well-to-tank factor on the
 * life-cycle boundary. Cars use per-vehicle-km factors divided by occupancy; electric cars and
 * electric light rail use kWh x the country's grid, so a French tram is not charged the UK grid.
 * Where no country data exist (national rail, buses, fuel cars) the UK figure is used and the
 * answer says so (factor_region GBR).
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

interface Measured { perKm: number, unit: FuelEconomyUnit, electric: boolean }

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

export function carAnswer (data: CalculatorData, query: CarQuery): PresentedCalculation<CarInputs> {
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
  const boundary = query.boundary ?? 'life_cycle'
  const inputs: CarInputs = {
    mode,
    distance: { value: query.distance, unit: UNITS[system].distance },
    distance_km: distanceKm,
    factor_region: 'GBR'
  }
  const defaults: DefaultUsed[] = [
    ...systemDefault(country, query),
    ...defaultsFor(query, ['mode', 'boundary']),
    ...(mode === 'car'
      ? defaultsFor(query, measured === undefined ? ['fuel_type', 'car_size', 'occupancy'] : ['occupancy'])
      : []),
    ...(mode === 'rail' ? defaultsFor(query, ['rail_type']) : [])
  ]
  const share = occupancy === 1 ? '' : ` / ${occupancy} people`
  const ukLabel = country.code === 'GBR'
    ? ''
    : ` The UK figure is used for ${country.name}: no per-country factor is cited. It is a labelled fallback ` +
      '(factor_region GBR), not a figure for this country.'

  const run = (scenario: Scenario): Calculation<CarInputs> => {
    const assumptions: string[] = []
    let entry: BreakdownItem
    if (mode !== 'car') {
      let factor: Factor
      let intervals: string[] = []
      let label: string
      if (mode === 'rail') {
        inputs.rail_type = railType
        label = {
          national: 'national rail',
          international: 'international rail',
          light_rail: 'light rail and tram',
          underground: 'underground (metro)'
        }[railType]
        if ((railType === 'light_rail' || railType === 'underground') && country.code !== 'GBR') {
          ({ factor, intervals } = electricRail(data, country, scenario))
          inputs.factor_region = country.code
          assumptions.push(`Light rail, trams and metros run on electricity: DESNZ's ${factorOf(data,
            'param:rail.electric_kwh_per_passenger_km').value} kWh per passenger-km (UK systems) x the ${
              country.name} grid.`)
        } else if (railType === 'national' && country.code !== 'GBR' && scenario.bound !== 'central') {
          // The UK figure abroad is an assumption: the range spans it and an all-electric train on the country's
          // grid, since no per-country electric share is cited.
          const uk = desnzOnBoundary(data, RAIL_KEYS[railType], RAIL_KEYS[railType], scenario.boundary)
          const electric = electricRail(data, country, { ...scenario, bound: 'central' }).factor
          factor = (scenario.bound === 'low') === (electric.value < uk.value) ? electric : uk
          intervals = [`National rail outside the UK: from the DESNZ UK figure to an all-electric train on the ${
            country.name} grid (DESNZ ${factorOf(data, 'param:rail.electric_kwh_per_passenger_km').value} kWh per ` +
            'passenger-km)']
        } else {
          factor = desnzOnBoundary(data, RAIL_KEYS[railType], RAIL_KEYS[railType], scenario.boundary)
          assumptions.push(railType === 'international'
            ? `International rail is the DESNZ Eurostar figure (London to Paris, Brussels and Amsterdam).${ukLabel}`
            : `DESNZ ${label}: UK trains, occupancy and electricity.${ukLabel}` + (railType === 'national'
            ? ' National rail mixes diesel and electric trains; no per-country electric share is cited, so it ' +
                'cannot follow the grid.'
            : ''))
        }
      } else {
        factor = desnzOnBoundary(data, mode === 'bus' ? 'bus.average_local' : 'coach',
          mode === 'bus' ? 'bus.average_local' : 'coach', scenario.boundary)
        label = mode === 'bus' ? 'average local bus' : 'coach'
        assumptions.push(`DESNZ ${label}: UK fleet and occupancy.${ukLabel}`)
      }
      entry = item(factor, mode, label, distanceKm, 'passenger-km', undefined, intervals)
    } else {
      inputs.occupancy = occupancy
      if (measured !== undefined) {
        inputs.fuel_type = fuelType
        inputs.fuel_economy = {
          value: query.fuel_economy ?? 0,
          unit: measured.unit,
          per_km: measured.perKm,
          per_km_unit: measured.electric ? 'kWh per km' : 'litres per km'
        }
        const amount = distanceKm * measured.perKm / occupancy
        assumptions.push(
          'Measured fuel economy replaces the DESNZ size and fuel factor; the fuel burned is charged with the DESNZ ' +
            'per-litre (or grid per-kWh) factor.')
        if (measured.electric) {
          const grid = gridFactor(country, scenario)
          inputs.factor_region = country.code
          entry = item(grid.factor, 'car', 'battery electric car (measured consumption)', amount, 'kWh',
            `${distanceKm.toFixed(1)} km x ${measured.perKm.toFixed(4)} kWh/km${share}`, grid.intervals)
        } else {
          if (fuelType === 'hybrid') assumptions.push('A hybrid burns petrol: its measured fuel is charged as petrol.')
          const key = LITRE_KEYS[fuelType] as string
          entry = item(desnzOnBoundary(data, key, `fuel.${key}`, scenario.boundary), 'car',
            `${fuelType} car (measured consumption)`, amount, 'litres',
              `${distanceKm.toFixed(1)} km x ${measured.perKm.toFixed(4)} L/km${share}`)
        }
      } else if (fuelType === 'electric') {
        inputs.fuel_type = fuelType
        inputs.car_size = carSize
        inputs.factor_region = country.code
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
        assumptions.push(
          `Electric car: DESNZ kWh per km x the ${country.name} grid intensity, not the UK grid built into DESNZ's ` +
            'electric-car rows.')
        entry = item(factor, 'car', `${carSize} battery electric car`, distanceKm / occupancy, 'vehicle-km',
          `${distanceKm.toFixed(1)} km${share}`, grid.intervals)
      } else {
        inputs.fuel_type = fuelType
        inputs.car_size = carSize
        let size: string = carSize
        if ((fuelType === 'lpg' || fuelType === 'cng') && carSize === 'small') {
          size = 'medium'
          assumptions.push(
            `DESNZ publishes no small ${fuelType.toUpperCase()} car factor; the medium ${fuelType.toUpperCase()} car ` +
              'factor is used.')
        }
        const key = `car.${size}.${fuelType}`
        if (fuelType === 'plug_in_hybrid') {
          assumptions.push(
            'Plug-in hybrid: the DESNZ factor assumes UK charging patterns and the UK 2025 grid.')
        }
        if (fuelType === 'unknown') assumptions.push('Fuel unknown: DESNZ average of the UK car fleet for this size.')
        assumptions.push(`DESNZ car factors describe the UK fleet.${ukLabel}`)
        const label = fuelType === 'unknown'
          ? `${size} car (fuel unknown)`
          : `${size} ${fuelType.replaceAll('_', ' ')} car`
        // Size not given: the low and high runs use DESNZ's small and large car of the fuel, the fleet's spread.
        const end = scenario.bound === 'low' ? 'small' : 'large'
        const spread = size === 'average' && scenario.bound !== 'central' &&
          data.factors.has(`desnz:car.${end}.${fuelType}`)
        entry = item(desnzOnBoundary(data, spread ? `car.${end}.${fuelType}` : key,
          spread ? `car.${end}.${fuelType}` : key, scenario.boundary), 'car', label, distanceKm / occupancy,
        'vehicle-km', `${distanceKm.toFixed(1)} km${share}`,
        spread ? ['Car size not given: DESNZ\'s small and large car of the same fuel, the spread of the fleet'] : [])
      }
      if (occupancy > 1) assumptions.push(`The car's emissions are shared equally by ${occupancy} people.`)
    }
    return {
      countryCode: country.code,
      measurementSystem: system,
      inputs,
      breakdown: [entry],
      assumptions,
      used: [],
      defaults
    }
  }
  const runs = runScenarios({ boundary, radiativeForcing: false, method: 'location_based', bound: 'central' },
    { radiativeForcing: false, method: false }, run)
  return present(data, runs, { category: mode === 'car' ? 'car travel' : `${mode} travel`, warn: true })
}
