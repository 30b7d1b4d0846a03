import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expectHeader, parseCsv, recordOf } from '../reference/csv.ts'
import { loadCountries, type Country, type UnsupportedCountry } from './country-data.ts'
import { number, text, type Factor, type FactorStatus, type Read, type WorldStats } from './data-files.ts'
import { loadFood, type FoodData } from './food.ts'

export type { Country, UnsupportedCountry } from './country-data.ts'
export type { Factor, FactorStatus, WorldStats } from './data-files.ts'

/**
 * Loads and validates every calculator data file once, at start-up. Any missing file,
 * malformed row, unknown source or missing factor throws an Error naming the file and the
 * problem, so a damaged file stops the start instead of producing a wrong number later.
 */

export interface Airport {
  iata: string
  name: string
  city: string
  country: string
  latitude: number
  longitude: number
}

interface Source {
  id: string
  name: string
  publisher: string
  year: number | undefined
  licence: string
  url: string | undefined
  attribution: string | undefined
}

export interface CalculatorData {
  /** Supported countries by ISO 3166-1 alpha-3 code. */
  countries: ReadonlyMap<string, Country>
  /** Supported countries sorted by name the way a person sorts (Intl.Collator('en')). */
  countryList: readonly Country[]
  /** ISO countries left out, with the reason (listed in docs/methodology.md). */
  unsupportedCountries: readonly UnsupportedCountry[]
  world: WorldStats
  factors: ReadonlyMap<string, Factor>
  airports: ReadonlyMap<string, Airport>
  sources: ReadonlyMap<string, Source>
  /** Food supply by group and meat by type per country, and the diet factors per food group. */
  food: FoodData
  /** SHA-256 of every file read, with its name: the answers' ETags change when any figure does. */
  version: string
}

const defaultDataDir = resolve(import.meta.dirname, '..', '..', 'data')

export function loadCalculatorData (dataDir: string = defaultDataDir): CalculatorData {
  const calculatorDir = join(dataDir, 'calculator')
  const digest = createHash('sha256')
  const read = (relative: string): Read => {
    const path = join(relative.startsWith('countries/') ? dataDir : calculatorDir, relative)
    const label = `data/${relative.startsWith('countries/') ? '' : 'calculator/'}${relative}`
    let content: string
    try {
      content = readFileSync(path, 'utf8')
    } catch (error) {
      throw new Error(`${label}: cannot read the calculator data file (${(error as Error).message})`)
    }
    digest.update(`${label}\0${content.length}\0`).update(content)
    return { table: parseCsv(content, label), label }
  }

  const sources = loadSources(read('sources.csv'))
  const factors = new Map<string, Factor>()
  const addFactor = (factor: Factor, label: string): void => {
    if (factors.has(factor.key)) throw new Error(`${label}: duplicate key "${factor.key}"`)
    if (!sources.has(factor.source)) {
      throw new Error(
      `${label}: "${factor.key}" cites unknown source "${factor.source}" (not in data/calculator/sources.csv)`)
    }
    factors.set(factor.key, factor)
  }
  loadDesnz(read('desnz_2025_factors.csv'), addFactor)
  loadClothing(read('clothing_factors.csv'), addFactor)
  loadParameters(read('parameters.csv'), addFactor, sources)
  const food = loadFood(read('food_supply_kcal_per_capita.csv'), read('meat_supply_by_type.csv'),
    read('food_group_factors.csv'))
  for (const product of food.products) addFactor(product, 'data/calculator/food_group_factors.csv')
  for (const source of ['fao-fbs-owid', 'poore-nemecek-2018-owid']) {
    if (!sources.has(source)) throw new Error(`data/calculator/sources.csv: source "${source}" is missing`)
  }
  for (const key of REQUIRED_FACTORS) {
    if (!factors.has(key)) {
      throw new Error(
      `${requiredFactorFile(key)}: required factor "${key.slice(key.indexOf(':') + 1)}" is missing`)
    }
  }

  const { countries, countryList, unsupportedCountries, world } = loadCountries(read, {
    plausibleMaxGrid: (factors.get('param:energy.grid_intensity_plausible_max') as Factor).value,
    knownSources: new Set(sources.keys())
  })
  const airports = loadAirports(read('airports.csv'))
  if (!sources.has('openflights')) {
    throw new Error(
      'data/calculator/sources.csv: the OpenFlights entry (openflights) is missing')
  }

  const version = digest.digest('base64url')
  return { countries, countryList, unsupportedCountries, world, factors, airports, sources, food, version }
}

/** The factor for `key`; every key used by the calculator is checked at load, so a miss is a bug. */
export function factorOf (data: CalculatorData, key: string): Factor {
  const found = data.factors.get(key)
  if (found === undefined) throw new Error(`calculator factor "${key}" is not loaded`)
  return found
}

// ---- the factor keys the calculator uses: all must be present at start-up ----

export const CABIN_CLASSES = ['economy', 'premium_economy', 'business', 'first', 'average'] as const
export const CAR_SIZES = ['small', 'medium', 'large', 'average'] as const
const DESNZ_CAR_FUELS = ['petrol', 'diesel', 'hybrid', 'plug_in_hybrid', 'unknown'] as const
export const CLOTHING_AMOUNTS = ['none', 'little', 'average', 'much'] as const
export const FLIGHT_FREQUENCIES = ['never', 'rare', 'sometimes', 'often'] as const

/** A DESNZ direct factor and its well-to-tank (upstream) partner: `desnz:<key>` and `desnz:wtt.<key>`. */
const WITH_UPSTREAM: readonly string[] = [
  ...['with_rf', 'without_rf'].flatMap((rf) => [
    `flight.domestic.average.${rf}`,
    ...['average', 'economy', 'business'].map((c) => `flight.short_haul.${c}.${rf}`),
    ...['average', 'economy', 'premium_economy', 'business', 'first'].map((c) => `flight.long_haul.${c}.${rf}`)
  ]),
  ...CAR_SIZES.flatMap((size) => DESNZ_CAR_FUELS.map((fuel) => `car.${size}.${fuel}`)),
  ...['medium', 'large', 'average'].flatMap((size) => ['lpg', 'cng'].map((fuel) => `car.${size}.${fuel}`)),
  'rail.national', 'rail.international', 'rail.light_rail_tram', 'rail.underground', 'bus.average_local', 'coach',
  'petrol_avg_biofuel_blend.litre', 'diesel_avg_biofuel_blend.litre', 'lpg.litre',
  'natural_gas.kwh_gross_cv', 'burning_oil.kwh_gross_cv', 'lpg.kwh_gross_cv', 'wood_logs.kwh',
  'district_heat_and_steam.kwh'
]

/** The direct key of an upstream pair: fuels are `fuel.<x>`, district heat `heat.<x>`, the rest as written. */
export function directKey (key: string): string {
  if (/^(petrol|diesel|lpg|natural_gas|burning_oil|wood_logs)/.test(key)) return `fuel.${key}`
  if (key.startsWith('district_heat')) return `heat.${key}`
  return key
}

const REQUIRED_FACTORS: readonly string[] = [
  ...WITH_UPSTREAM.flatMap((key) => [`desnz:${directKey(key)}`, `desnz:wtt.${key}`]),
  ...CAR_SIZES.map((size) => `desnz:ev.bev.${size}.kwh_per_km`),
  'desnz:biogenic.wood_logs.kwh', 'desnz:heat.district_distribution_loss_5pct.kwh',
  'clothing:eea.textiles_per_capita_2020', 'clothing:eea.textiles_mass_per_capita_2020',
  'clothing:eea.clothing_mass_per_capita_2020', 'clothing:eea.footwear_mass_per_capita_2020',
  'clothing:useeio_v1_2.apparel_315000', 'clothing:levis_501.cradle_to_retail',
  ...['short_haul', 'medium_haul', 'long_haul'].map((band) => `param:flight.distance.${band}`),
  'param:flight.band.domestic_below_km', 'param:flight.band.short_haul_up_to_km',
  'param:flight.band.transition_half_width_km', 'param:flight.band.long_haul_transition_half_width_km',
  ...['rare', 'sometimes',
    'often'].flatMap((f) =>
    ['short_haul', 'medium_haul', 'long_haul'].map((band) => `param:flight.frequency.${f}.${band}`)),
  'param:diet.eaten_per_supplied_meat', 'param:diet.consumer_waste_share', 'param:diet.low_meat_g_per_day',
  'param:diet.medium_meat_g_per_day', 'param:diet.high_meat_min_g_per_day', 'food:Fish (farmed)',
  ...CLOTHING_AMOUNTS.map((amount) => `param:clothes.multiplier.${amount}`),
  'param:clothes.secondhand_share_of_new',
  'param:energy.heat_pump_cop',
  'param:energy.household_scale_exponent.electricity', 'param:energy.household_scale_exponent.heating',
  'param:energy.floor_area_m2_per_person',
  'param:energy.green_tariff.wind_onshore', 'param:energy.green_tariff.wind_onshore.low',
  'param:energy.green_tariff.wind_onshore.high',
  'param:energy.grid_intensity_plausible_max', 'param:rail.electric_kwh_per_passenger_km'
]

function requiredFactorFile (key: string): string {
  const namespace = key.slice(0, key.indexOf(':'))
  const file = {
    desnz: 'desnz_2025_factors.csv',
    clothing: 'clothing_factors.csv',
    param: 'parameters.csv',
    food: 'food_group_factors.csv'
  }[namespace] ?? 'unknown file'
  return `data/calculator/${file}`
}

// ---- file loaders ----

type AddFactor = (factor: Factor, label: string) => void

/** Rows transcribed by a third party (or quoted from press coverage) are not yet checked. */
function statusFromProvenance (provenance: string): FactorStatus {
  return /third-party|press coverage/i.test(provenance) ? 'unverified' : 'published'
}

function loadSources ({ table, label }: Read): Map<string, Source> {
  expectHeader(table, ['id', 'name', 'publisher', 'year', 'licence', 'url', 'attribution'], label)
  const sources = new Map<string, Source>()
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    const id = text(row.id, label, record, 'id')
    if (sources.has(id)) throw new Error(`${label}: duplicate source id "${id}"`)
    const url = row.url === '' ? undefined : row.url
    if (url !== undefined &&
      !/^https:\/\/\S+$/.test(url)) throw new Error(`${label}: record ${record}: url "${url}" is not an https URL`)
    sources.set(id, {
      id,
      name: text(row.name, label, record, 'name'),
      publisher: text(row.publisher, label, record, 'publisher'),
      year: row.year === '' ? undefined : number(row.year, label, record, 'year', { min: 1990, max: 2100 }),
      licence: text(row.licence, label, record, 'licence'),
      url,
      attribution: row.attribution === '' ? undefined : row.attribution
    })
  })
  return sources
}

function loadDesnz ({ table, label }: Read, add: AddFactor): void {
  expectHeader(table, ['key', 'value', 'unit', 'desnz_id', 'desnz_path', 'provenance'], label)
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    const key = text(row.key, label, record, 'key')
    const desnzId = row.desnz_id ?? ''
    if (desnzId !== '' &&
      !/^\d+(_\d+)+$/.test(desnzId)) throw new Error(`${label}: record ${record}: malformed desnz_id "${desnzId}"`)
    add({
      key: `desnz:${key}`,
      id: `desnz-2025:${desnzId === '' ? key : desnzId}`,
      value: number(row.value, label, record, 'value', { min: 0, max: 10_000 }),
      unit: text(row.unit, label, record, 'unit'),
      source: 'desnz-2025',
      status: statusFromProvenance(text(row.provenance, label, record, 'provenance')),
      description: `DESNZ 2025: ${text(row.desnz_path, label, record, 'desnz_path')}`,
      year: 2025
    }, label)
  })
}

// clothing_factors.csv names its sources in prose; map each key to its sources.csv entry.
const CLOTHING_SOURCES: Record<string, string> = {
  'eea.textiles_per_capita_2020': 'eea-2022',
  'eea.textiles_per_capita_2017': 'eea-2019',
  'eea.textiles_mass_per_capita_2020': 'eea-2022',
  'eea.clothing_mass_per_capita_2020': 'eea-2022',
  'eea.footwear_mass_per_capita_2020': 'eea-2022',
  'eea.household_textiles_mass_per_capita_2020': 'eea-2022',
  'useeio_v1_2.apparel_315000': 'us-epa-useeio-1.2',
  'useeio_v1_2.footwear_316000': 'us-epa-useeio-1.2',
  'useeio_v1_2.clothing_stores_448000': 'us-epa-useeio-1.2',
  'levis_501.cradle_to_grave': 'levis-2015',
  'levis_501.cradle_to_retail': 'levis-2015'
}

function loadClothing ({ table, label }: Read, add: AddFactor): void {
  expectHeader(table, ['key', 'value', 'unit', 'scope', 'region', 'year', 'source'], label)
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    const key = text(row.key, label, record, 'key')
    const source = CLOTHING_SOURCES[key]
    if (source === undefined) {
      throw new Error(
      `${label}: record ${record}: no source mapping for key "${key}" (add it to CLOTHING_SOURCES)`)
    }
    const yearMatch = /^(\d{4})/.exec(text(row.year, label, record, 'year'))
    add({
      key: `clothing:${key}`,
      id: `${source}:${key}`,
      value: number(row.value, label, record, 'value', { min: 0, max: 10_000 }),
      unit: text(row.unit, label, record, 'unit'),
      source,
      status: statusFromProvenance(text(row.source, label, record, 'source')),
      description: `${text(row.scope, label, record, 'scope')} (${text(row.region, label, record, 'region')})`,
      ...(yearMatch?.[1] === undefined ? {} : { year: Number(yearMatch[1]) })
    }, label)
  })
}

function loadParameters ({ table, label }: Read, add: AddFactor, sources: Map<string, Source>): void {
  expectHeader(table, ['key', 'value', 'unit', 'status', 'source_id', 'note'], label)
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    const key = text(row.key, label, record, 'key')
    const status = text(row.status, label, record, 'status')
    if (status !== 'published' && status !== 'unverified' && status !== 'assumption') {
      throw new Error(`${label}: record ${record}: status "${status}" must be published, unverified or assumption`)
    }
    const source = text(row.source_id, label, record, 'source_id')
    const year = sources.get(source)?.year
    add({
      key: `param:${key}`,
      id: `${source}:${key}`,
      value: number(row.value, label, record, 'value', { min: 0, max: 100_000 }),
      unit: text(row.unit, label, record, 'unit'),
      source,
      status,
      description: text(row.note, label, record, 'note'),
      ...(year === undefined ? {} : { year })
    }, label)
  })
}

function loadAirports ({ table, label }: Read): Map<string, Airport> {
  expectHeader(table, ['iata', 'name', 'city', 'country', 'latitude', 'longitude'], label)
  const airports = new Map<string, Airport>()
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    const iata = text(row.iata, label, record, 'iata')
    if (!/^[A-Z0-9]{3}$/.test(iata)) {
      throw new Error(
      `${label}: record ${record}: "${iata}" is not an IATA airport code`)
    }
    if (airports.has(iata)) throw new Error(`${label}: record ${record}: duplicate IATA code "${iata}"`)
    airports.set(iata, {
      iata,
      name: text(row.name, label, record, 'name'),
      city: row.city ?? '',
      country: row.country ?? '',
      latitude: number(row.latitude, label, record, 'latitude', { min: -90, max: 90 }),
      longitude: number(row.longitude, label, record, 'longitude', { min: -180, max: 180 })
    })
  })
  if (airports.size < 1000) throw new Error(`${label}: only ${airports.size} airports; the file looks truncated`)
  return airports
}
