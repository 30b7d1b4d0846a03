import { CalculatorInputError } from './calculator.errors.ts'
import {
  CABIN_CLASSES, CAR_SIZES, CLOTHING_AMOUNTS, FLIGHT_FREQUENCIES, factorOf, type CalculatorData,
  type Country
} from './calculator.data.ts'
import { BOUNDARIES, ELECTRICITY_METHODS, type DefaultUsed } from './calculation.ts'
import { defaultIntakeKcal } from './food.ts'
import { FUEL_ECONOMY_UNITS, UNITS, type MeasurementSystem } from './units.ts'

/** Input enums as clients send them; the single list the schemas, /config and the docs share. */
export const ENUMS = {
  measurement_system: ['metric', 'imperial'],
  diet_form: ['everything', 'pescetarian', 'pescatarian', 'vegetarian', 'vegan', 'low_meat', 'medium_meat',
    'high_meat'],
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
  basis: ['consumption', 'territorial', 'ghg'],
  scope: ['national', 'person'],
  boundary: BOUNDARIES,
  electricity_method: ELECTRICITY_METHODS
} as const

const DEFAULTS = {
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
  basis: 'consumption',
  boundary: 'life_cycle',
  electricity_method: 'location_based'
} as const

type DefaultParameter = keyof typeof DEFAULTS

/** Where each fixed default comes from (country defaults say so in their own entries). */
const DEFAULT_BASIS: Record<DefaultParameter, string> = {
  diet_form: 'Flowcarbon\'s diet_form is required; everything is its omnivore (see the diet_used input)',
  study: 'Scarborough et al. 2023, the newer study with a 95 % interval',
  cabin_class: 'Tonne default: the cabin most passengers fly',
  radiative_forcing: 'DESNZ 2025 recommends the 1.7 multiplier on CO2 as its central estimate (methodology 8.43)',
  round_trip: 'Tonne default: a leg or distance is one way',
  trips: 'Tonne default: flown once a year',
  mode: 'Flowcarbon\'s /car is a car',
  fuel_type: 'DESNZ 2025 fleet average of cars whose fuel is unknown (UK fleet)',
  car_size: 'DESNZ 2025 average car (UK fleet)',
  occupancy: 'Tonne default: the person drives alone',
  rail_type: 'DESNZ 2025 national rail',
  energy_type: 'Flowcarbon\'s default tariff: the grid',
  heating_type: 'Tonne default; the default heat demand is calibrated so that natural gas gives the country\'s ' +
    'buildings CO2 per person',
  basis: 'Consumption-based CO2 (what residents consume, wherever it is emitted); territorial where a country has none',
  boundary: 'Tonne default: one life-cycle boundary for every category (direct emissions plus upstream and losses)',
  electricity_method: 'GHG Protocol Scope 2: location-based is reported everywhere; market-based where contractual ' +
    'instruments exist'
}

/** The fixed defaults that stood in for parameters the request left out. */
export function defaultsFor (query: object, parameters: readonly DefaultParameter[]): DefaultUsed[] {
  const given = query as Record<string, unknown>
  return parameters.filter((name) => given[name] === undefined).map((name) =>
    ({ parameter: name, value: DEFAULTS[name], basis: DEFAULT_BASIS[name] }))
}

/** The measurement system default, when the request gave none. */
export function systemDefault (country: Country,
  query: { measurement_system?: MeasurementSystem | undefined }): DefaultUsed[] {
  return query.measurement_system === undefined
    ? [{
        parameter: 'measurement_system',
        value: country.measurementSystem,
        basis: `${country.name}'s everyday units (Unicode CLDR: imperial for USA, LBR and MMR)`
      }]
    : []
}

interface CountryItem {
  country_code: string
  country_name: string
  sub_region: string
  region: string
  measurement_system: MeasurementSystem
}

function countryItem (country: Country): CountryItem {
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
    ? `country_code "${normalised}" (${unsupported.name}) is not supported: ${unsupported.reason}. GET /countries ` +
      'lists the supported countries.'
    : /^[A-Z]{2}$/.test(normalised)
      ? `Unknown country_code "${code}": use an ISO 3166-1 alpha-3 code such as DEU, not an alpha-2 code. GET ` +
        '/countries lists the supported countries.'
      : `Unknown country_code "${code}": use an ISO 3166-1 alpha-3 code listed by GET /countries.`
  throw new CalculatorInputError('unknown_country', 'country_code', detail)
}

export function measurementSystemFor (country: Country, requested: MeasurementSystem | undefined): MeasurementSystem {
  return requested ?? country.measurementSystem
}

export function countryConfig (data: CalculatorData,
  query: { country_code: string, measurement_system?: MeasurementSystem | undefined }) {
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
    defaults: {
      ...DEFAULTS,
      // The diet's default intake is the country's: its food supply less the cited consumer waste share.
      calories: defaultIntakeKcal(data.food, country.code, factorOf(data, 'param:diet.consumer_waste_share').value),
      household_size: Number(country.householdSize.value.toPrecision(4))
    }
  }
}
