import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expectHeader, parseCsv, type CsvTable } from '../reference/csv.ts'
import type { MeasurementSystem } from './units.ts'

/**
 * Loads and validates every calculator data file once, at start-up. Any missing file,
 * malformed row, unknown source or missing factor throws an Error naming the file and the
 * problem, so a damaged file stops the start instead of producing a wrong number later.
 */

/** published: read from the publisher's file (or a faithful copy); unverified: transcribed by a
 * third party and not yet checked against the official file; assumption: a Tonne design choice. */
export type FactorStatus = 'published' | 'unverified' | 'assumption'

export interface Factor {
  /** Registry key, e.g. "desnz:car.average.petrol". */
  key: string
  /** Public identifier shown as factor_id, e.g. "desnz-2025:25_301_3070_4_1". */
  id: string
  value: number
  unit: string
  /** Id of the entry in sources.csv. */
  source: string
  status: FactorStatus
  description: string
  year?: number
}

export interface Country {
  code: string
  name: string
  region: string
  subRegion: string
  measurementSystem: MeasurementSystem
  /** t CO2 per person per year (territorial, fossil). */
  territorialCo2: Factor
  /** t CO2 per person per year (consumption-based); about 120 countries have one. */
  consumptionCo2: Factor | undefined
  /** t CO2e per person per year, all gases including land use. */
  ghg: Factor | undefined
  /** g CO2e per kWh of electricity generated. */
  gridIntensity: Factor
  /** kg meat supplied per person per year (FAO). */
  meatSupply: Factor | undefined
}

export interface WorldStats {
  territorialCo2: Factor
  consumptionCo2: Factor
  ghg: Factor
  meatSupply: Factor
}

export interface Airport {
  iata: string
  name: string
  city: string
  country: string
  latitude: number
  longitude: number
}

export interface Source {
  id: string
  name: string
  publisher: string
  year: number | undefined
  licence: string
  url: string | undefined
  attribution: string | undefined
}

export interface UnsupportedCountry {
  code: string
  name: string
  reason: string
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
}

/** Countries whose everyday units are US customary (Unicode CLDR measurementData). */
export const IMPERIAL_COUNTRIES: ReadonlySet<string> = new Set(['USA', 'LBR', 'MMR'])

const WORLD = 'OWID_WRL'

const defaultDataDir = resolve(import.meta.dirname, '..', '..', 'data')

export function loadCalculatorData (dataDir: string = defaultDataDir): CalculatorData {
  const calculatorDir = join(dataDir, 'calculator')
  const read = (relative: string): { table: CsvTable, label: string } => {
    const path = join(relative.startsWith('countries/') ? dataDir : calculatorDir, relative)
    const label = `data/${relative.startsWith('countries/') ? '' : 'calculator/'}${relative}`
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      throw new Error(`${label}: cannot read the calculator data file (${(error as Error).message})`)
    }
    return { table: parseCsv(text, label), label }
  }

  const sources = loadSources(read('sources.csv'))
  const factors = new Map<string, Factor>()
  const addFactor = (factor: Factor, label: string): void => {
    if (factors.has(factor.key)) throw new Error(`${label}: duplicate key "${factor.key}"`)
    if (!sources.has(factor.source)) throw new Error(`${label}: "${factor.key}" cites unknown source "${factor.source}" (not in data/calculator/sources.csv)`)
    factors.set(factor.key, factor)
  }
  loadDesnz(read('desnz_2025_factors.csv'), addFactor)
  loadDiet(read('diet_factors.csv'), addFactor)
  loadClothing(read('clothing_factors.csv'), addFactor)
  loadParameters(read('parameters.csv'), addFactor, sources)
  for (const key of REQUIRED_FACTORS) {
    if (!factors.has(key)) throw new Error(`${requiredFactorFile(key)}: required factor "${key.slice(key.indexOf(':') + 1)}" is missing`)
  }

  const perCountry = {
    territorialCo2: loadPerCountry(read('co2_per_capita.csv'), 'co2_per_capita_t', { source: 'gcp-gcb-2024-owid', unit: 't CO2 per person per year', what: 'Territorial fossil CO2 per person', min: 0, max: 100 }),
    consumptionCo2: loadPerCountry(read('consumption_co2_per_capita.csv'), 'consumption_co2_per_capita_t', { source: 'gcp-gcb-2023-owid', unit: 't CO2 per person per year', what: 'Consumption-based CO2 per person', min: 0, max: 100 }),
    ghg: loadPerCountry(read('ghg_per_capita.csv'), 'ghg_per_capita_t_co2e', { source: 'owid-ghg-2024', unit: 't CO2e per person per year', what: 'Greenhouse gases (incl. land use) per person', min: -200, max: 200 }),
    gridIntensity: loadPerCountry(read('electricity_carbon_intensity.csv'), 'carbon_intensity_elec_gco2_per_kwh', { source: 'ember-ei-owid', unit: 'g CO2e per kWh', what: 'Carbon intensity of electricity generation', min: 0, max: 2000 }),
    meatSupply: loadPerCountry(read('meat_supply_per_capita.csv'), 'meat_supply_kg_per_capita_per_year', { source: 'fao-owid', unit: 'kg meat per person per year', what: 'Meat supply per person', min: 0, max: 500 })
  }
  for (const [name, table] of Object.entries(perCountry)) {
    for (const factor of table.values()) {
      if (!sources.has(factor.source)) throw new Error(`data/calculator: ${name} cites unknown source "${factor.source}"`)
    }
  }
  const worldStat = (table: Map<string, Factor>, file: string): Factor => {
    const stat = table.get(WORLD)
    if (stat === undefined) throw new Error(`data/calculator/${file}: the World row (${WORLD}) is missing`)
    return stat
  }
  const world: WorldStats = {
    territorialCo2: worldStat(perCountry.territorialCo2, 'co2_per_capita.csv'),
    consumptionCo2: worldStat(perCountry.consumptionCo2, 'consumption_co2_per_capita.csv'),
    ghg: worldStat(perCountry.ghg, 'ghg_per_capita.csv'),
    meatSupply: worldStat(perCountry.meatSupply, 'meat_supply_per_capita.csv')
  }

  const { countries, countryList, unsupportedCountries } = loadCountries(read('countries/iso3166-un-m49.csv'), perCountry)
  const airports = loadAirports(read('airports.csv'))
  if (!sources.has('openflights')) throw new Error('data/calculator/sources.csv: the OpenFlights entry (openflights) is missing')

  return { countries, countryList, unsupportedCountries, world, factors, airports, sources }
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
export const DESNZ_CAR_FUELS = ['petrol', 'diesel', 'hybrid', 'plug_in_hybrid', 'battery_electric', 'unknown'] as const
export const DIET_STUDIES = ['scarborough_2023', 'scarborough_2014'] as const
export const DIET_BANDS = ['vegan', 'vegetarian', 'pescatarian', 'low_meat', 'medium_meat', 'high_meat'] as const
export const CLOTHING_AMOUNTS = ['none', 'little', 'average', 'much'] as const
export const FLIGHT_FREQUENCIES = ['never', 'rare', 'sometimes', 'often'] as const

const REQUIRED_FACTORS: readonly string[] = [
  ...['with_rf', 'without_rf'].flatMap((rf) => [
    `desnz:flight.domestic.average.${rf}`,
    ...['average', 'economy', 'business'].map((c) => `desnz:flight.short_haul.${c}.${rf}`),
    ...['average', 'economy', 'premium_economy', 'business', 'first'].map((c) => `desnz:flight.long_haul.${c}.${rf}`)
  ]),
  ...CAR_SIZES.flatMap((size) => DESNZ_CAR_FUELS.map((fuel) => `desnz:car.${size}.${fuel}`)),
  ...['medium', 'large', 'average'].flatMap((size) => ['lpg', 'cng'].map((fuel) => `desnz:car.${size}.${fuel}`)),
  ...CAR_SIZES.map((size) => `desnz:ev.bev.${size}.kwh_per_km`),
  'desnz:rail.national', 'desnz:rail.international', 'desnz:rail.light_rail_tram', 'desnz:rail.underground',
  'desnz:bus.average_local', 'desnz:coach',
  'desnz:fuel.petrol_avg_biofuel_blend.litre', 'desnz:fuel.diesel_avg_biofuel_blend.litre', 'desnz:fuel.lpg.litre',
  'desnz:fuel.natural_gas.kwh_gross_cv', 'desnz:fuel.burning_oil.kwh_gross_cv', 'desnz:fuel.lpg.kwh_gross_cv',
  'desnz:fuel.wood_logs.kwh', 'desnz:heat.district_heat_and_steam.kwh', 'desnz:biogenic.wood_logs.kwh',
  ...DIET_STUDIES.flatMap((study) => DIET_BANDS.map((diet) => `diet:${study}.${diet}`)),
  'clothing:eea.textiles_per_capita_2020', 'clothing:useeio_v1_2.apparel_315000', 'clothing:levis_501.cradle_to_retail',
  ...['short_haul', 'medium_haul', 'long_haul'].map((band) => `param:flight.distance.${band}`),
  'param:flight.band.domestic_below_km', 'param:flight.band.short_haul_up_to_km',
  ...['rare', 'sometimes', 'often'].flatMap((f) => ['short_haul', 'medium_haul', 'long_haul'].map((band) => `param:flight.frequency.${f}.${band}`)),
  'param:diet.reference_kcal_per_day', 'param:diet.low_meat_below_kg_per_year', 'param:diet.medium_meat_below_kg_per_year',
  ...CLOTHING_AMOUNTS.map((amount) => `param:clothes.multiplier.${amount}`),
  'param:clothes.eu_consumption_co2_per_capita', 'param:clothes.secondhand_share_of_new',
  'param:energy.electricity_kwh_per_m2', 'param:energy.heating_kwh_per_m2', 'param:energy.heat_pump_cop', 'param:energy.green_tariff'
]

function requiredFactorFile (key: string): string {
  const namespace = key.slice(0, key.indexOf(':'))
  const file = { desnz: 'desnz_2025_factors.csv', diet: 'diet_factors.csv', clothing: 'clothing_factors.csv', param: 'parameters.csv' }[namespace] ?? 'unknown file'
  return `data/calculator/${file}`
}

// ---- file loaders ----

type Read = { table: CsvTable, label: string }
type AddFactor = (factor: Factor, label: string) => void

function number (raw: string | undefined, label: string, record: number, column: string, range: { min: number, max: number }): number {
  // Number('') is 0 and Number(' 1 ') is 1: insist on a plain decimal so a blank cell is an error.
  if (raw === undefined || !/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(raw)) {
    throw new Error(`${label}: record ${record}: column "${column}" is not a number ("${raw ?? ''}")`)
  }
  const value = Number(raw)
  if (!Number.isFinite(value) || value < range.min || value > range.max) {
    throw new Error(`${label}: record ${record}: column "${column}" = ${raw} is outside the plausible range ${range.min} to ${range.max}`)
  }
  return value
}

function text (raw: string | undefined, label: string, record: number, column: string): string {
  if (raw === undefined || raw.trim() === '') throw new Error(`${label}: record ${record}: column "${column}" is empty`)
  return raw
}

/** Rows transcribed by a third party (or quoted from press coverage) are not yet checked. */
function statusFromProvenance (provenance: string): FactorStatus {
  return /third-party|press coverage/i.test(provenance) ? 'unverified' : 'published'
}

function loadSources ({ table, label }: Read): Map<string, Source> {
  expectHeader(table, ['id', 'name', 'publisher', 'year', 'licence', 'url', 'attribution'], label)
  const sources = new Map<string, Source>()
  table.rows.forEach((row, index) => {
    const record = index + 2
    const id = text(row.id, label, record, 'id')
    if (sources.has(id)) throw new Error(`${label}: duplicate source id "${id}"`)
    const url = row.url === '' ? undefined : row.url
    if (url !== undefined && !/^https:\/\/\S+$/.test(url)) throw new Error(`${label}: record ${record}: url "${url}" is not an https URL`)
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
    const record = index + 2
    const key = text(row.key, label, record, 'key')
    const desnzId = row.desnz_id ?? ''
    if (desnzId !== '' && !/^\d+(_\d+)+$/.test(desnzId)) throw new Error(`${label}: record ${record}: malformed desnz_id "${desnzId}"`)
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

function loadDiet ({ table, label }: Read, add: AddFactor): void {
  expectHeader(table, ['study', 'diet', 'definition', 'kg_co2e_per_person_per_day', 'low_2_5pct', 'high_97_5pct', 'basis'], label)
  table.rows.forEach((row, index) => {
    const record = index + 2
    const study = text(row.study, label, record, 'study')
    const year = { scarborough_2023: 2023, scarborough_2014: 2014 }[study]
    if (year === undefined) throw new Error(`${label}: record ${record}: unknown study "${study}"`)
    const source = `scarborough-${year}`
    const diet = text(row.diet, label, record, 'diet')
    const status = statusFromProvenance(text(row.basis, label, record, 'basis'))
    const base = { unit: 'kg CO2e per person per day', source, status, year }
    const description = `Scarborough et al. ${year}: ${diet} (${text(row.definition, label, record, 'definition')}), 2,000 kcal/day`
    add({ ...base, key: `diet:${study}.${diet}`, id: `${source}:${diet}`, value: number(row.kg_co2e_per_person_per_day, label, record, 'kg_co2e_per_person_per_day', { min: 0.1, max: 50 }), description }, label)
    // The 95 % range exists for the 2023 study only; both ends or neither.
    if ((row.low_2_5pct ?? '') !== '' || (row.high_97_5pct ?? '') !== '') {
      add({ ...base, key: `diet:${study}.${diet}.low`, id: `${source}:${diet}:p2.5`, value: number(row.low_2_5pct, label, record, 'low_2_5pct', { min: 0.1, max: 50 }), description: `${description}, 2.5th percentile` }, label)
      add({ ...base, key: `diet:${study}.${diet}.high`, id: `${source}:${diet}:p97.5`, value: number(row.high_97_5pct, label, record, 'high_97_5pct', { min: 0.1, max: 50 }), description: `${description}, 97.5th percentile` }, label)
    }
  })
}

// clothing_factors.csv names its sources in prose; map each key to its sources.csv entry.
const CLOTHING_SOURCES: Record<string, string> = {
  'eea.textiles_per_capita_2020': 'eea-2022',
  'eea.textiles_per_capita_2017': 'eea-2019',
  'eea.textiles_mass_per_capita_2020': 'eea-2022',
  'useeio_v1_2.apparel_315000': 'us-epa-useeio-1.2',
  'useeio_v1_2.footwear_316000': 'us-epa-useeio-1.2',
  'useeio_v1_2.clothing_stores_448000': 'us-epa-useeio-1.2',
  'levis_501.cradle_to_grave': 'levis-2015',
  'levis_501.cradle_to_retail': 'levis-2015'
}

function loadClothing ({ table, label }: Read, add: AddFactor): void {
  expectHeader(table, ['key', 'value', 'unit', 'scope', 'region', 'year', 'source'], label)
  table.rows.forEach((row, index) => {
    const record = index + 2
    const key = text(row.key, label, record, 'key')
    const source = CLOTHING_SOURCES[key]
    if (source === undefined) throw new Error(`${label}: record ${record}: no source mapping for key "${key}" (add it to CLOTHING_SOURCES)`)
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
    const record = index + 2
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

interface PerCountrySpec { source: string, unit: string, what: string, min: number, max: number }

function loadPerCountry ({ table, label }: Read, column: string, spec: PerCountrySpec): Map<string, Factor> {
  expectHeader(table, ['iso_code', 'country', 'year', column], label)
  const values = new Map<string, Factor>()
  table.rows.forEach((row, index) => {
    const record = index + 2
    const code = text(row.iso_code, label, record, 'iso_code')
    if (!/^[A-Z]{3}$/.test(code) && code !== WORLD) throw new Error(`${label}: record ${record}: iso_code "${code}" is not an ISO 3166-1 alpha-3 code`)
    if (values.has(code)) throw new Error(`${label}: record ${record}: duplicate iso_code "${code}"`)
    const year = number(row.year, label, record, 'year', { min: 1990, max: 2100 })
    const name = text(row.country, label, record, 'country')
    values.set(code, {
      key: `${spec.source}:${column}:${code}`,
      id: `${spec.source}:${code}:${year}`,
      value: number(row[column], label, record, column, spec),
      unit: spec.unit,
      source: spec.source,
      status: 'published',
      description: `${spec.what}, ${name}, ${year}`,
      year
    })
  })
  return values
}

interface PerCountryTables {
  territorialCo2: Map<string, Factor>
  consumptionCo2: Map<string, Factor>
  ghg: Map<string, Factor>
  gridIntensity: Map<string, Factor>
  meatSupply: Map<string, Factor>
}

function loadCountries ({ table, label }: Read, perCountry: PerCountryTables): Pick<CalculatorData, 'countries' | 'countryList' | 'unsupportedCountries'> {
  for (const column of ['name', 'alpha-3', 'region', 'sub-region']) {
    if (!table.header.includes(column)) throw new Error(`${label}: column "${column}" is missing`)
  }
  const countries = new Map<string, Country>()
  const unsupported: UnsupportedCountry[] = []
  table.rows.forEach((row, index) => {
    const record = index + 2
    const code = text(row['alpha-3'], label, record, 'alpha-3')
    if (!/^[A-Z]{3}$/.test(code)) throw new Error(`${label}: record ${record}: alpha-3 "${code}" is malformed`)
    if (countries.has(code)) throw new Error(`${label}: record ${record}: duplicate alpha-3 "${code}"`)
    const name = text(row.name, label, record, 'name')
    const region = row.region ?? ''
    const territorialCo2 = perCountry.territorialCo2.get(code)
    const gridIntensity = perCountry.gridIntensity.get(code)
    // Supported means every endpoint can answer from data: a UN M49 region, a national
    // CO2 figure for /footprint and a grid intensity for /energy and electric cars.
    const missing = [
      region === '' ? 'no UN M49 region' : undefined,
      territorialCo2 === undefined ? 'no per-capita CO2 figure' : undefined,
      gridIntensity === undefined ? 'no electricity carbon intensity' : undefined
    ].filter((reason) => reason !== undefined)
    if (missing.length > 0 || territorialCo2 === undefined || gridIntensity === undefined) {
      unsupported.push({ code, name, reason: missing.join('; ') })
      return
    }
    countries.set(code, {
      code,
      name,
      region,
      subRegion: text(row['sub-region'], label, record, 'sub-region'),
      measurementSystem: IMPERIAL_COUNTRIES.has(code) ? 'imperial' : 'metric',
      territorialCo2,
      consumptionCo2: perCountry.consumptionCo2.get(code),
      ghg: perCountry.ghg.get(code),
      gridIntensity,
      meatSupply: perCountry.meatSupply.get(code)
    })
  })
  if (countries.size < 150) throw new Error(`${label}: only ${countries.size} countries have the data the calculator needs; the data files look damaged`)
  for (const code of IMPERIAL_COUNTRIES) {
    if (!countries.has(code)) throw new Error(`${label}: imperial country ${code} is not supported; check the data files`)
  }
  const collator = new Intl.Collator('en')
  const countryList = [...countries.values()].sort((a, b) => collator.compare(a.name, b.name))
  return { countries, countryList, unsupportedCountries: unsupported }
}

function loadAirports ({ table, label }: Read): Map<string, Airport> {
  expectHeader(table, ['iata', 'name', 'city', 'country', 'latitude', 'longitude'], label)
  const airports = new Map<string, Airport>()
  table.rows.forEach((row, index) => {
    const record = index + 2
    const iata = text(row.iata, label, record, 'iata')
    if (!/^[A-Z0-9]{3}$/.test(iata)) throw new Error(`${label}: record ${record}: "${iata}" is not an IATA airport code`)
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
