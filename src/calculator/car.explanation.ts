import { factorOf, type CalculatorData } from './calculator.data.ts'
import type { DefaultUsed } from './calculation.ts'
import type { CarQuery } from './calculator.schemas.ts'
import { defaultsFor, systemDefault } from './countries.ts'
import type { CarCharge, CarModel } from './car.model.ts'

/** What a car, rail or bus answer says about its numbers (car.model.ts): labels, details, assumptions, defaults. */

const RAIL_LABELS = {
  national: 'national rail',
  international: 'international rail',
  light_rail: 'light rail and tram',
  underground: 'underground (metro)'
} as const

export function carDefaults (model: CarModel, query: CarQuery): DefaultUsed[] {
  const { mode, measured } = model
  return [
    ...systemDefault(model.country, query),
    ...defaultsFor(query, ['mode', 'boundary']),
    ...(mode === 'car'
      ? defaultsFor(query, measured === undefined ? ['fuel_type', 'car_size', 'occupancy'] : ['occupancy'])
      : []),
    ...(mode === 'rail' ? defaultsFor(query, ['rail_type']) : [])
  ]
}

/** One scenario's breakdown label, detail, extra interval bases and assumptions. */
export function explainCharge (data: CalculatorData, model: CarModel, charge: CarCharge): {
  label: string
  detail: string | undefined
  intervals: string[]
  assumptions: string[]
} {
  const { country, distanceKm, fuelType, carSize, occupancy, railType, measured } = model
  const share = occupancy === 1 ? '' : ` / ${occupancy} people`
  const ukLabel = country.code === 'GBR'
    ? ''
    : ` The UK figure is used for ${country.name}: no per-country factor is cited. It is a labelled fallback ` +
      '(factor_region GBR), not a figure for this country.'
  const railKwh = (): number => factorOf(data, 'param:rail.electric_kwh_per_passenger_km').value
  const assumptions: string[] = []
  const shared = (label: string, detail: string | undefined, intervals: string[] = []) => {
    if (model.mode === 'car' && occupancy > 1) {
      assumptions.push(`The car's emissions are shared equally by ${occupancy} people.`)
    }
    return { label, detail, intervals, assumptions }
  }
  const charged = charge.charged
  switch (charged.kind) {
    case 'rail_electric':
      assumptions.push(`Light rail, trams and metros run on electricity: DESNZ's ${railKwh()} kWh per passenger-km ` +
        `(UK systems) x the ${country.name} grid.`)
      return shared(RAIL_LABELS[railType], undefined)
    case 'rail_national_range':
      return shared(RAIL_LABELS[railType], undefined, ['National rail outside the UK: from the DESNZ UK figure to an ' +
        `all-electric train on the ${country.name} grid (DESNZ ${railKwh()} kWh per passenger-km)`])
    case 'rail_desnz': {
      const label = RAIL_LABELS[railType]
      assumptions.push(railType === 'international'
        ? `International rail is the DESNZ Eurostar figure (London to Paris, Brussels and Amsterdam).${ukLabel}`
        : `DESNZ ${label}: UK trains, occupancy and electricity.${ukLabel}` + (railType === 'national'
        ? ' National rail mixes diesel and electric trains; no per-country electric share is cited, so it ' +
            'cannot follow the grid.'
        : ''))
      return shared(label, undefined)
    }
    case 'road': {
      const label = model.mode === 'bus' ? 'average local bus' : 'coach'
      assumptions.push(`DESNZ ${label}: UK fleet and occupancy.${ukLabel}`)
      return shared(label, undefined)
    }
    case 'measured_electric':
    case 'measured_fuel': {
      const perKm = (measured?.perKm ?? 0).toFixed(4)
      assumptions.push(
        'Measured fuel economy replaces the DESNZ size and fuel factor; the fuel burned is charged with the DESNZ ' +
          'per-litre (or grid per-kWh) factor.')
      if (charged.kind === 'measured_electric') {
        return shared('battery electric car (measured consumption)', `${distanceKm.toFixed(1)} km x ${perKm} kWh/km${
          share}`)
      }
      if (fuelType === 'hybrid') assumptions.push('A hybrid burns petrol: its measured fuel is charged as petrol.')
      return shared(`${fuelType} car (measured consumption)`, `${distanceKm.toFixed(1)} km x ${perKm} L/km${share}`)
    }
    case 'electric':
      assumptions.push(
        `Electric car: DESNZ kWh per km x the ${country.name} grid intensity, not the UK grid built into DESNZ's ` +
          'electric-car rows.')
      return shared(`${carSize} battery electric car`, `${distanceKm.toFixed(1)} km${share}`)
    case 'fuel': {
      const { size } = charged
      if (charged.sizeReplaced) {
        assumptions.push(
          `DESNZ publishes no small ${fuelType.toUpperCase()} car factor; the medium ${fuelType.toUpperCase()} car ` +
            'factor is used.')
      }
      if (fuelType === 'plug_in_hybrid') {
        assumptions.push(
          'Plug-in hybrid: the DESNZ factor assumes UK charging patterns and the UK 2025 grid.')
      }
      if (fuelType === 'unknown') assumptions.push('Fuel unknown: DESNZ average of the UK car fleet for this size.')
      assumptions.push(`DESNZ car factors describe the UK fleet.${ukLabel}`)
      const label = fuelType === 'unknown'
        ? `${size} car (fuel unknown)`
        : `${size} ${fuelType.replaceAll('_', ' ')} car`
      return shared(label, `${distanceKm.toFixed(1)} km${share}`, charged.spread
        ? ['Car size not given: DESNZ\'s small and large car of the same fuel, the spread of the fleet']
        : [])
    }
  }
}

/** The answer's category, as warnings and totals name it. */
export function carCategory (model: CarModel): string {
  return model.mode === 'car' ? 'car travel' : `${model.mode} travel`
}
