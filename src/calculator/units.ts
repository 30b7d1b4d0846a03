/**
 * Unit conversions. Every constant is an exact legal definition (international yard and
 * pound agreement of 1959, US gallon = 231 cubic inches, UK gallon = 4.54609 L), so an
 * imperial input gives the same result as its metric equivalent.
 */

export type MeasurementSystem = 'metric' | 'imperial'

const KM_PER_MILE = 1.609344
export const M2_PER_FT2 = 0.09290304
/** 1 Btu (International Table) = 1,055.05585262 J, so 10^6 Btu = 293.07107 kWh. */
export const KWH_PER_MMBTU = 1055.05585262e6 / 3.6e6
const LITRES_PER_US_GALLON = 3.785411784
const LITRES_PER_UK_GALLON = 4.54609
const KG_PER_LB = 0.45359237

export const FUEL_ECONOMY_UNITS = ['l_per_100km', 'mpg_us', 'mpg_uk', 'kwh_per_100km', 'kwh_per_100mi'] as const
export type FuelEconomyUnit = typeof FUEL_ECONOMY_UNITS[number]

/** The units inputs are read in, per measurement system (what /config reports). */
export const UNITS: Record<MeasurementSystem,
  {
    distance: 'km' | 'mi',
    area: 'm2' | 'ft2',
    volume: 'l' | 'gal_us',
    fuel_economy: FuelEconomyUnit,
    electric_fuel_economy: FuelEconomyUnit,
    mass: 'kg' | 'lb'
  }> = {
    metric: {
      distance: 'km',
      area: 'm2',
      volume: 'l',
      fuel_economy: 'l_per_100km',
      electric_fuel_economy: 'kwh_per_100km',
      mass: 'kg'
    },
    imperial: {
      distance: 'mi',
      area: 'ft2',
      volume: 'gal_us',
      fuel_economy: 'mpg_us',
      electric_fuel_economy: 'kwh_per_100mi',
      mass: 'lb'
    }
  }

export function distanceToKm (value: number, system: MeasurementSystem): number {
  return system === 'imperial' ? value * KM_PER_MILE : value
}

export function areaToM2 (value: number, system: MeasurementSystem): number {
  return system === 'imperial' ? value * M2_PER_FT2 : value
}

export function kgToLb (kg: number): number {
  return kg / KG_PER_LB
}

export function isElectricUnit (unit: FuelEconomyUnit): boolean {
  return unit === 'kwh_per_100km' || unit === 'kwh_per_100mi'
}

/**
 * Energy or fuel used per km: litres per km for liquid fuels, kWh per km for electricity.
 * mpg is distance per volume, so it is inverted here.
 */
export function fuelEconomyPerKm (value: number, unit: FuelEconomyUnit): number {
  switch (unit) {
    case 'l_per_100km': return value / 100
    case 'mpg_us': return LITRES_PER_US_GALLON / (value * KM_PER_MILE)
    case 'mpg_uk': return LITRES_PER_UK_GALLON / (value * KM_PER_MILE)
    case 'kwh_per_100km': return value / 100
    case 'kwh_per_100mi': return value / (100 * KM_PER_MILE)
  }
}
