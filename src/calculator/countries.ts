import { CalculatorInputError } from './calculator.errors.ts'
import { CABIN_CLASSES, CAR_SIZES, CLOTHING_AMOUNTS, FLIGHT_FREQUENCIES, type CalculatorData, type Country } from './calculator.data.ts'
import { FUEL_ECONOMY_UNITS, UNITS, type MeasurementSystem } from './units.ts'

/** Input enums as clients send them; the single list the schemas, /config and the docs share. */
export const ENUMS = {
  measurement_system: ['metric', 'imperial'],
  diet_form: ['everything', 'pescetarian', 'pescatarian', 'vegetarian', 'vegan', 'low_meat', 'medium_meat', 'high_meat'],
  study: ['scarborough_2023', 'scarborough_2014'],
  frequency: FLIGHT_FREQUENCIES,
  cabin_class: CABIN_CLASSES,
  amount: CLOTHING_AMOUNTS,
  energy_type: ['conventional', 'green'],
  heating_type: ['natural_gas', 'heating_oil', 'lpg', 'electric', 'heat_pump', 'district_heating', 'wood', 'none'],
  mode: ['car', 'rail', 'bus', 'coach'],
  fuel_type: ['petrol', 'diesel', 'hybrid', 'plug_in_hybrid', 'electric', 'lpg', 'cng', 'unknown'],
  car_size: CAR_SIZES,
  rail_type: ['national', 'international', 'light_rail', 'underground'],
  fuel_economy_unit: FUEL_ECONOMY_UNITS,
  basis: ['consumption', 'territorial', 'ghg']
} as const

export const DEFAULTS = {
  diet_form: 'everything',
  study: 'scarborough_2023',
  cabin_class: 'economy',
  radiative_forcing: true,
  round_trip: false,
  trips: 1,
  mode: 'car',
  fuel_type: 'unknown',
  car_size: 'average',
  occupancy: 1,
  rail_type: 'national',
  energy_type: 'conventional',
  heating_type: 'natural_gas',
  household_size: 1,
  calories: 2000,
  basis: 'consumption'
} as const

export interface CountryItem {
  country_code: string
  country_name: string
  sub_region: string
  region: string
  measurement_system: MeasurementSystem
}

export function countryItem (country: Country): CountryItem {
  return {
    country_code: country.code,
    country_name: country.name,
    sub_region: country.subRegion,
    region: country.region,
    measurement_system: country.measurementSystem
  }
}

/** Every supported country, already sorted by name at load. */
export function listCountries (data: CalculatorData): CountryItem[] {
  return data.countryList.map(countryItem)
}

/** The country for a country_code (case-insensitive), or a 400 that says what went wrong. */
export function resolveCountry (data: CalculatorData, code: string): Country {
  const normalised = code.trim().toUpperCase()
  const country = data.countries.get(normalised)
  if (country !== undefined) return country
  const unsupported = data.unsupportedCountries.find((entry) => entry.code === normalised)
  const detail = unsupported !== undefined
    ? `country_code "${normalised}" (${unsupported.name}) is not supported: ${unsupported.reason}. GET /countries lists the supported countries.`
    : /^[A-Z]{2}$/.test(normalised)
      ? `Unknown country_code "${code}": use an ISO 3166-1 alpha-3 code such as DEU, not an alpha-2 code. GET /countries lists the supported countries.`
      : `Unknown country_code "${code}": use an ISO 3166-1 alpha-3 code listed by GET /countries.`
  throw new CalculatorInputError('unknown_country', 'country_code', detail)
}

export function measurementSystemFor (country: Country, requested: MeasurementSystem | undefined): MeasurementSystem {
  return requested ?? country.measurementSystem
}

export function countryConfig (data: CalculatorData, query: { country_code: string, measurement_system?: MeasurementSystem | undefined }) {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const units = UNITS[system]
  return {
    ...countryItem(country),
    measurement_system: system,
    default_measurement_system: country.measurementSystem,
    units: {
      distance: units.distance,
      area: units.area,
      volume: units.volume,
      fuel_economy: units.fuel_economy,
      electric_fuel_economy: units.electric_fuel_economy,
      emissions: 't' as const
    },
    enums: Object.fromEntries(Object.entries(ENUMS).map(([name, values]) => [name, [...values]])),
    defaults: { ...DEFAULTS }
  }
}
