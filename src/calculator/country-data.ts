import { expectHeader, recordOf } from '../reference/csv.ts'
import {
  areaText, buildingsShareText, fallbackText, gridFallbackReason, unsupportedReasons
} from './country-data.explanation.ts'
import { number, text, WORLD, type Factor, type Read, type WorldStats } from './data-files.ts'
import type { MeasurementSystem } from './units.ts'

/**
 * Per-country figures: national CO2, grid intensity, meat supply, buildings CO2, household size,
 * electricity demand and T&D losses, each with its year. Where a country lacks a figure, or its
 * figure is impossible (a life-cycle grid intensity of 0, or above any technology's), the
 * country's UN M49 sub-region value stands in, labelled as such (status assumption).
 */

/** Countries whose everyday units are US customary (Unicode CLDR measurementData). */
const IMPERIAL_COUNTRIES: ReadonlySet<string> = new Set(['USA', 'LBR', 'MMR'])

export interface Country {
  code: string
  name: string
  region: string
  subRegion: string
  /** Set when the UN M49 file has no region for the country and a cited override gives it. */
  regionSource: string | undefined
  measurementSystem: MeasurementSystem
  /** t CO2 per person per year (territorial, fossil), latest year. */
  territorialCo2: Factor
  /** The same for the year of the consumption and GHG figures, so /footprint compares one year. */
  territorialCo2FootprintYear: Factor
  /** t CO2 per person per year (consumption-based); about 120 countries have one. */
  consumptionCo2: Factor | undefined
  /** t CO2e per person per year, all gases including land use. */
  ghg: Factor | undefined
  /** The country's GHG per person, or its area's where it has none: what a CO2e result is compared with. */
  ghgForComparison: Factor
  /** g CO2e per kWh of electricity generated (life-cycle factors per technology). */
  gridIntensity: Factor
  /** kg meat supplied per person per year (FAO). */
  meatSupply: Factor | undefined
  /** t CO2 per person per year burned on site in residential and commercial buildings. */
  buildingsCo2: Factor
  /** People per household. */
  householdSize: Factor
  /** kWh per person per year, all sectors (generation adjusted for trade). */
  electricityDemand: Factor
  /** Per cent of electricity output lost in transmission and distribution; interval = 2021-2023 spread. */
  tdLosses: Factor
  /** t CO2 per person per year from transport inside the country (all road, rail, domestic air and shipping). */
  transportCo2: Factor
  /** People (OWID, the buildings file's total / per-person value), when the file gives both. */
  population: number | undefined
}

export interface UnsupportedCountry {
  code: string
  name: string
  reason: string
}

interface Options {
  /** g CO2e per kWh above which a grid average is not plausible. */
  plausibleMaxGrid: number
  knownSources: ReadonlySet<string>
}

/** Grid figures older than this are replaced by the sub-region's (Western Sahara's is from 2009). */
const OLDEST_GRID_YEAR = 2015

interface Spec { figure: string, source: string, unit: string, what: string, min: number, max: number }

const SPECS = {
  territorialCo2: {
    figure: 'territorial_co2',
    source: 'gcp-gcb-2024-owid',
    unit: 't CO2 per person per year',
    what: 'Territorial fossil CO2 per person',
    min: 0,
    max: 100
  },
  territorialCo2FootprintYear: {
    figure: 'territorial_co2_footprint_year',
    source: 'gcp-gcb-2024-owid',
    unit: 't CO2 per person per year',
    what: 'Territorial fossil CO2 per person',
    min: 0,
    max: 100
  },
  consumptionCo2: {
    figure: 'consumption_co2',
    source: 'gcp-gcb-2023-owid',
    unit: 't CO2 per person per year',
    what: 'Consumption-based CO2 per person',
    min: 0,
    max: 100
  },
  ghg: {
    figure: 'ghg',
    source: 'owid-ghg-2024',
    unit: 't CO2e per person per year',
    what: 'Greenhouse gases (incl. land use) per person',
    min: -200,
    max: 200
  },
  gridIntensity: {
    figure: 'grid_intensity',
    source: 'ember-ei-owid',
    unit: 'g CO2e per kWh',
    what: 'Carbon intensity of electricity generation',
    min: 0,
    max: 2000
  },
  meatSupply: {
    figure: 'meat_supply',
    source: 'fao-owid',
    unit: 'kg meat per person per year',
    what: 'Meat supply per person',
    min: 0,
    max: 500
  },
  electricityDemand: {
    figure: 'electricity_demand',
    source: 'ember-ei-owid-demand',
    unit: 'kWh per person per year',
    what: 'Electricity demand per person (all sectors)',
    min: 0,
    max: 100_000
  },
  buildingsCo2: {
    figure: 'buildings_co2',
    source: 'climate-watch-owid',
    unit: 't CO2 per person per year',
    what: 'CO2 burned on site in residential and commercial buildings per person',
    min: 0,
    max: 20
  },
  transportCo2: {
    figure: 'transport_co2',
    source: 'climate-watch-owid',
    unit: 't CO2 per person per year',
    what: 'CO2 from transport (passengers and freight, domestic) per person',
    min: 0,
    max: 50
  },
  householdSize: {
    figure: 'household_size',
    source: 'un-desa-household-2022',
    unit: 'people per household',
    what: 'Average household size',
    min: 1,
    max: 20
  },
  tdLosses: {
    figure: 'td_losses',
    source: 'world-bank-wdi-td-losses',
    unit: '% of electricity output',
    what: 'Transmission and distribution losses',
    min: 0,
    max: 100
  }
} as const satisfies Record<string, Spec>

function countryFactor (spec: Spec, code: string, name: string, year: number, value: number): Factor {
  return {
    key: `${spec.source}:${spec.figure}:${code}`,
    id: `${spec.source}:${code}:${year}`,
    value,
    unit: spec.unit,
    source: spec.source,
    status: 'published',
    description: `${spec.what}, ${name}, ${year}`,
    year,
    country: code,
    figure: spec.figure
  }
}

function isoCode (raw: string | undefined, label: string, record: number, allowWorld: boolean): string {
  const code = text(raw, label, record, 'iso_code')
  if (!/^[A-Z]{3}$/.test(code) &&
    !(allowWorld &&
      code === WORLD)) {
    throw new Error(
        `${label}: record ${record}: iso_code "${code}" is not an ISO 3166-1 alpha-3 code`)
  }
  return code
}

function requireColumns ({ table, label }: Read, columns: readonly string[]): void {
  for (const column of columns) {
    if (!table.header.includes(column)) throw new Error(`${label}: column "${column}" is missing`)
  }
}

/** A file of iso_code,country,year,<value>: one factor per country (and the World row). */
function loadPerCountry (read: Read, column: string, spec: Spec): Map<string, Factor> {
  const { table, label } = read
  expectHeader(table, ['iso_code', 'country', 'year', column], label)
  const values = new Map<string, Factor>()
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    const code = isoCode(row.iso_code, label, record, true)
    if (values.has(code)) throw new Error(`${label}: record ${record}: duplicate iso_code "${code}"`)
    const year = number(row.year, label, record, 'year', { min: 1990, max: 2100 })
    values.set(code,
      countryFactor(spec, code, text(row.country, label, record, 'country'), year,
        number(row[column], label, record, column, spec)))
  })
  return values
}

function loadBuildings (read: Read): { perPerson: Map<string, Factor>, population: Map<string, number> } {
  const { table, label } = read
  requireColumns(read, ['iso_code', 'country', 'year', 'buildings_co2_t_per_capita', 'buildings_co2_total_t'])
  const perPerson = new Map<string, Factor>()
  const population = new Map<string, number>()
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    const code = isoCode(row.iso_code, label, record, true)
    if (perPerson.has(code)) throw new Error(`${label}: record ${record}: duplicate iso_code "${code}"`)
    const year = number(row.year, label, record, 'year', { min: 1990, max: 2100 })
    const value = number(row.buildings_co2_t_per_capita, label, record, 'buildings_co2_t_per_capita',
      SPECS.buildingsCo2)
    const total = number(row.buildings_co2_total_t, label, record, 'buildings_co2_total_t', { min: 0, max: 1e11 })
    perPerson.set(code,
      countryFactor(SPECS.buildingsCo2, code, text(row.country, label, record, 'country'), year, value))
    // The file's total / per-person value is OWID's population; it weights regional means.
    if (value > 0 && total > 0) population.set(code, total / value)
  })
  return { perPerson, population }
}

function loadHouseholds (read: Read): Map<string, Factor> {
  const { table, label } = read
  requireColumns(read, ['iso_code', 'country', 'reference_year', 'avg_household_size_persons'])
  const values = new Map<string, Factor>()
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    // Kosovo has the user-assigned code XKX: a valid three-letter code the ISO file does not list.
    const code = isoCode(row.iso_code, label, record, false)
    if (values.has(code)) throw new Error(`${label}: record ${record}: duplicate iso_code "${code}"`)
    const year = number(row.reference_year, label, record, 'reference_year', { min: 1950, max: 2100 })
    values.set(code, countryFactor(SPECS.householdSize, code, text(row.country, label, record, 'country'), year,
      number(row.avg_household_size_persons, label, record, 'avg_household_size_persons', SPECS.householdSize)))
  })
  return values
}

/** The WDI file's country rows (its regional aggregates are not used: a country without a figure
 * gets its UN M49 area's mean, like every other figure). */
function loadTdLosses (read: Read): Map<string, Factor> {
  const { table, label } = read
  requireColumns(read,
    ['iso_code', 'name', 'kind', 'latest_year', 'td_losses_pct_of_output', 'value_2021', 'value_2022', 'value_2023'])
  const values = new Map<string, Factor>()
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    const code = isoCode(row.iso_code, label, record, false)
    if (values.has(code)) throw new Error(`${label}: record ${record}: duplicate iso_code "${code}"`)
    const kind = row.kind
    if (kind !== 'country' &&
      kind !== 'aggregate') {
      throw new Error(`${label}: record ${record}: kind "${kind ??
        ''}" must be country or aggregate`)
    }
    const year = number(row.latest_year, label, record, 'latest_year', { min: 1990, max: 2100 })
    const value = number(row.td_losses_pct_of_output, label, record, 'td_losses_pct_of_output', SPECS.tdLosses)
    const name = text(row.name, label, record, 'name')
    const years = (['value_2021', 'value_2022', 'value_2023'] as const)
      .filter((column) => (row[column] ?? '') !== '')
      .map((column) => number(row[column], label, record, column, SPECS.tdLosses))
    const spread = [value, ...years]
    const factor = countryFactor(SPECS.tdLosses, code, name, year, value)
    factor.interval = {
      low: Math.min(...spread),
      high: Math.max(...spread),
      basis: `spread of the published ${name} values 2021-${year} (World Bank WDI)`
    }
    if (kind === 'country') values.set(code, factor)
  })
  return values
}

interface RegionOverride { region: string, subRegion: string, evidence: string[] }

/** Region overrides for countries UN M49 does not list (Taiwan): every evidence row must agree. */
function loadRegionOverrides (read: Read): Map<string, RegionOverride> {
  const { table, label } = read
  requireColumns(read,
    ['iso_code', 'un_m49_style_region', 'un_m49_style_sub_region', 'evidence_publisher', 'evidence_grouping'])
  const overrides = new Map<string, RegionOverride>()
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    const code = isoCode(row.iso_code, label, record, false)
    const region = text(row.un_m49_style_region, label, record, 'un_m49_style_region')
    const subRegion = text(row.un_m49_style_sub_region, label, record, 'un_m49_style_sub_region')
    const evidence = `${text(row.evidence_publisher, label, record,
      'evidence_publisher')}: ${text(row.evidence_grouping, label, record, 'evidence_grouping')}`
    const known = overrides.get(code)
    if (known === undefined) {
      overrides.set(code, { region, subRegion, evidence: [evidence] })
    } else if (known.region !== region || known.subRegion !== subRegion) {
      throw new Error(
        `${label}: record ${record}: the evidence for ${code} disagrees (${region} / ${subRegion} vs ${known.region} ` +
          `/ ${known.subRegion})`)
    } else {
      known.evidence.push(evidence)
    }
  })
  return overrides
}

interface Area { kind: string, name: string, members: readonly string[] }

/** A weighted mean over an area's other countries, and a sentence saying what it is. */
interface AreaEstimate {
  value: number,
  year: number,
  area: string,
  kind: string,
  interval: { low: number, high: number } | undefined
}

/** The weighted mean of a figure over an area's other countries; undefined when no member has both. */
function areaEstimate (code: string, area: Area, figure: (member: string) => Factor | undefined,
  weight: (member: string) => number | undefined): AreaEstimate | undefined {
  let sum = 0
  let low = 0
  let high = 0
  let weights = 0
  let year = 0
  let interval = false
  const used: string[] = []
  for (const member of area.members) {
    if (member === code) continue
    const value = figure(member)
    const w = weight(member)
    if (value === undefined || w === undefined || !(w > 0)) continue
    sum += value.value * w
    low += (value.interval?.low ?? value.value) * w
    high += (value.interval?.high ?? value.value) * w
    interval ||= value.interval !== undefined
    weights += w
    year = Math.max(year, value.year ?? 0)
    used.push(member)
  }
  if (used.length === 0) return undefined
  return {
    // Four significant digits: a regional estimate claims no more.
    value: Number((sum / weights).toPrecision(4)),
    year,
    area: areaText(area, used, year),
    kind: area.kind.replace('UN M49 ', '').replace(' ', '-'),
    interval: interval ? { low: low / weights, high: high / weights } : undefined
  }
}

/** A regional estimate standing in for a country's figure, labelled as such (status assumption). */
function regionalFactor (spec: Spec, code: string, estimate: AreaEstimate, value: number, description: string): Factor {
  return {
    key: `${spec.source}:${spec.figure}:${code}`,
    id: `tonne:${spec.figure}:${code}:${estimate.kind}`,
    value,
    unit: spec.unit,
    source: spec.source,
    status: 'assumption',
    description,
    year: estimate.year,
    country: code,
    figure: spec.figure,
    ...(estimate.interval === undefined
      ? {}
      : { interval: { ...estimate.interval, basis: 'weighted means of the area\'s countries\' own intervals' } })
  }
}

interface IsoRow {
  code: string,
  name: string,
  region: string,
  subRegion: string,
  intermediateRegion: string,
  regionSource: string | undefined
}

interface Tables {
  territorialCo2: Map<string, Factor>
  territorialCo2FootprintYear: Map<string, Factor>
  consumptionCo2: Map<string, Factor>
  ghg: Map<string, Factor>
  gridIntensity: Map<string, Factor>
  meatSupply: Map<string, Factor>
  electricityDemand: Map<string, Factor>
  transportCo2: Map<string, Factor>
  buildings: { perPerson: Map<string, Factor>, population: Map<string, number> }
  households: Map<string, Factor>
  tdLosses: Map<string, Factor>
  overrides: Map<string, RegionOverride>
}

/** Every per-country file, read and checked against the sources list. */
function loadTables (read: (file: string) => Read, options: Options): Tables {
  const tables = {
    territorialCo2: loadPerCountry(read('co2_per_capita.csv'), 'co2_per_capita_t', SPECS.territorialCo2),
    territorialCo2FootprintYear: loadPerCountry(read('co2_per_capita_2021.csv'), 'co2_per_capita_t',
      SPECS.territorialCo2FootprintYear),
    consumptionCo2: loadPerCountry(read('consumption_co2_per_capita.csv'), 'consumption_co2_per_capita_t',
      SPECS.consumptionCo2),
    ghg: loadPerCountry(read('ghg_per_capita.csv'), 'ghg_per_capita_t_co2e', SPECS.ghg),
    gridIntensity: loadPerCountry(read('electricity_carbon_intensity.csv'), 'carbon_intensity_elec_gco2_per_kwh',
      SPECS.gridIntensity),
    meatSupply: loadPerCountry(read('meat_supply_per_capita.csv'), 'meat_supply_kg_per_capita_per_year',
      SPECS.meatSupply),
    electricityDemand: loadPerCountry(read('electricity_demand_per_capita.csv'), 'electricity_demand_per_capita_kwh',
      SPECS.electricityDemand),
    transportCo2: loadPerCountry(read('transport_co2_per_capita.csv'), 'transport_co2_t_per_capita',
      SPECS.transportCo2),
    buildings: loadBuildings(read('buildings_co2_per_capita.csv')),
    households: loadHouseholds(read('household_size.csv')),
    tdLosses: loadTdLosses(read('td_losses_pct_of_output.csv')),
    overrides: loadRegionOverrides(read('taiwan_region_override.csv'))
  }
  for (const spec of Object.values(SPECS)) {
    if (!options.knownSources.has(spec.source)) {
      throw new Error(
      `data/calculator/sources.csv: source "${spec.source}" (${spec.what}) is missing`)
    }
  }
  for (const source of ['owid-regions']) {
    if (!options.knownSources.has(source)) throw new Error(`data/calculator/sources.csv: source "${source}" is missing`)
  }
  return tables
}

/** The World's figures; /footprint sets consumption, territorial and GHG side by side, so they must share a year. */
function worldStats (tables: Tables): WorldStats {
  const worldStat = (table: Map<string, Factor>, file: string): Factor => {
    const stat = table.get(WORLD)
    if (stat === undefined) throw new Error(`data/calculator/${file}: the World row (${WORLD}) is missing`)
    return stat
  }
  const consumptionCo2 = worldStat(tables.consumptionCo2, 'consumption_co2_per_capita.csv')
  const world: WorldStats = {
    territorialCo2: worldStat(tables.territorialCo2, 'co2_per_capita.csv'),
    territorialCo2FootprintYear: worldStat(tables.territorialCo2FootprintYear, 'co2_per_capita_2021.csv'),
    consumptionCo2,
    ghg: worldStat(tables.ghg, 'ghg_per_capita.csv'),
    meatSupply: worldStat(tables.meatSupply, 'meat_supply_per_capita.csv'),
    // /footprint sets consumption, territorial and GHG figures side by side: they must describe one year.
    footprintYear: consumptionCo2.year ?? 0
  }
  for (const [file, table] of [['consumption_co2_per_capita.csv', tables.consumptionCo2],
    ['co2_per_capita_2021.csv', tables.territorialCo2FootprintYear], ['ghg_per_capita.csv', tables.ghg]] as const) {
    for (const [code, factor] of table) {
      if (factor.year !== world.footprintYear) {
        throw new Error(`data/calculator/${file}: ${code} is for ${factor.year ?? '?'}; /footprint needs every ` +
          `figure for ${world.footprintYear}, the year of the World consumption figure`)
      }
    }
  }
  return world
}

/** Regional stand-ins: a country's own figure, else the first UN M49 area (smallest first) that has one. */
function regionalModel (iso: readonly IsoRow[], tables: Tables, options: Options) {
  const byIntermediate = groupBy(iso, (row) => row.intermediateRegion)
  const bySubRegion = groupBy(iso, (row) => row.subRegion)
  const byRegion = groupBy(iso, (row) => row.region)
  // The smallest UN M49 area first: Middle Africa describes the Central African Republic better than Sub-Saharan
  // Africa.
  const areas = (row: IsoRow): Area[] => [
    ...(row.intermediateRegion === ''
      ? []
      : [{
          kind: 'UN M49 intermediate region',
          name: row.intermediateRegion,
          members: byIntermediate.get(row.intermediateRegion) ?? []
        }]),
    { kind: 'UN M49 sub-region', name: row.subRegion, members: bySubRegion.get(row.subRegion) ?? [] },
    { kind: 'UN M49 region', name: row.region, members: byRegion.get(row.region) ?? [] }
  ]
  const population = (code: string): number | undefined => tables.buildings.population.get(code)
  // Grid intensities and losses are weighted by each country's electricity use: demand per person x population.
  const electricityUse = (code: string): number | undefined => {
    const demand = tables.electricityDemand.get(code)
    const people = population(code)
    return demand === undefined || people === undefined ? undefined : demand.value * people
  }
  const gridIsPlausible = (factor: Factor | undefined): factor is Factor =>
    factor !== undefined && factor.value > 0 && factor.value <= options.plausibleMaxGrid &&
      (factor.year ?? 0) >= OLDEST_GRID_YEAR
  /** The first area (intermediate region, sub-region, region) with an estimate. */
  const estimate = (row: IsoRow, spec: Spec, figure: (member: string) => Factor | undefined,
    weight: (member: string) => number | undefined): AreaEstimate => {
    for (const area of areas(row)) {
      const found = areaEstimate(row.code, area, figure, weight)
      if (found !== undefined) return found
    }
    throw new Error(`data/calculator: no ${spec.what} for ${row.code} nor for any country of its region`)
  }
  /** The country's own figure, else its area's. */
  const withFallback = (row: IsoRow, spec: Spec, own: Factor | undefined, reason: string,
    figure: (member: string) => Factor | undefined, weight: (member: string) => number | undefined): Factor => {
    if (own !== undefined) return own
    const found = estimate(row, spec, figure, weight)
    return regionalFactor(spec, row.code, found, found.value, fallbackText(spec.what, row.name, reason, found.area))
  }
  /**
   * Without its own figure, a country gets its area's share of buildings in territorial CO2
   * times its own territorial CO2 per person: a poor country in a rich region is not given the
   * region's heating (Palestine is not heated like the Gulf states).
   */
  const buildingsFromShare = (row: IsoRow, territorial: Factor): Factor => {
    const share = estimate(row, SPECS.buildingsCo2, (member) => {
      const own = tables.buildings.perPerson.get(member)
      const total = tables.territorialCo2.get(member)
      return own === undefined || total === undefined || total.value <= 0
        ? undefined
        : { ...own, value: own.value / total.value }
    }, (member) => {
      const total = tables.territorialCo2.get(member)
      const people = population(member)
      return total === undefined || people === undefined ? undefined : total.value * people
    })
    return regionalFactor(SPECS.buildingsCo2, row.code, share, share.value * territorial.value,
      buildingsShareText(SPECS.buildingsCo2.what, row.name, territorial, share.value, share.area))
  }
  return { population, electricityUse, gridIsPlausible, withFallback, buildingsFromShare }
}

export function loadCountries (read: (file: string) => Read, options: Options): {
  countries: Map<string, Country>
  countryList: Country[]
  unsupportedCountries: UnsupportedCountry[]
  world: WorldStats
} {
  const tables = loadTables(read, options)
  const world = worldStats(tables)
  const iso = readIsoRows(read('countries/iso3166-un-m49.csv'), tables.overrides)
  const { population, electricityUse, gridIsPlausible, withFallback, buildingsFromShare } =
    regionalModel(iso, tables, options)
  const { households, tdLosses } = tables
  const countries = new Map<string, Country>()
  const unsupported: UnsupportedCountry[] = []
  for (const row of iso) {
    const { code, name } = row
    const territorialCo2 = tables.territorialCo2.get(code)
    const territorialCo2FootprintYear = tables.territorialCo2FootprintYear.get(code)
    const grid = tables.gridIntensity.get(code)
    // Supported means every endpoint can answer from data: a region, a national CO2 figure for
    // /footprint and the warnings, and a grid intensity for /energy and electric cars.
    const missing = unsupportedReasons(row.region === '', territorialCo2 === undefined, grid === undefined)
    if (missing.length > 0 || territorialCo2 === undefined || grid === undefined) {
      unsupported.push({ code, name, reason: missing.join('; ') })
      continue
    }
    if (territorialCo2FootprintYear === undefined) {
      throw new Error(`data/calculator/co2_per_capita_2021.csv: ${code} is missing; co2_per_capita.csv has it`)
    }
    const demand = withFallback(row, SPECS.electricityDemand, tables.electricityDemand.get(code),
      'no electricity demand figure',
      (member) => tables.electricityDemand.get(member), population)
    const gridIntensity = withFallback(row, SPECS.gridIntensity, gridIsPlausible(grid) ? grid : undefined,
      gridFallbackReason(grid, options.plausibleMaxGrid),
      (member) => { const own = tables.gridIntensity.get(member); return gridIsPlausible(own) ? own : undefined },
      electricityUse)
    const buildingsCo2 = tables.buildings.perPerson.get(code) ?? buildingsFromShare(row, territorialCo2)
    const householdSize = withFallback(row, SPECS.householdSize, households.get(code), 'no household size figure',
      (member) => households.get(member), population)
    countries.set(code, {
      code,
      name,
      region: row.region,
      subRegion: row.subRegion,
      regionSource: row.regionSource,
      measurementSystem: IMPERIAL_COUNTRIES.has(code) ? 'imperial' : 'metric',
      territorialCo2,
      territorialCo2FootprintYear,
      consumptionCo2: tables.consumptionCo2.get(code),
      ghg: tables.ghg.get(code),
      ghgForComparison: withFallback(row, SPECS.ghg, tables.ghg.get(code), 'no greenhouse-gas figure',
        (member) => tables.ghg.get(member), population),
      gridIntensity,
      meatSupply: tables.meatSupply.get(code),
      buildingsCo2,
      householdSize,
      electricityDemand: demand,
      tdLosses: withFallback(row, SPECS.tdLosses, tdLosses.get(code), 'no World Bank figure',
        (member) => tdLosses.get(member), electricityUse),
      population: population(code),
      transportCo2: withFallback(row, SPECS.transportCo2, tables.transportCo2.get(code), 'no transport CO2 figure',
        (member) => tables.transportCo2.get(member), population)
    })
  }
  const label = 'data/countries/iso3166-un-m49.csv'
  if (countries.size < 150) {
    throw new Error(
    `${label}: only ${countries.size} countries have the data the calculator needs; the data files look damaged`)
  }
  for (const code of IMPERIAL_COUNTRIES) {
    if (!countries.has(code)) {
      throw new Error(
      `${label}: imperial country ${code} is not supported; check the data files`)
    }
  }
  const collator = new Intl.Collator('en')
  const countryList = [...countries.values()].sort((a, b) => collator.compare(a.name, b.name))
  return { countries, countryList, unsupportedCountries: unsupported, world }
}

function readIsoRows ({ table, label }: Read, overrides: Map<string, RegionOverride>): IsoRow[] {
  for (const column of ['name', 'alpha-3', 'region', 'sub-region']) {
    if (!table.header.includes(column)) throw new Error(`${label}: column "${column}" is missing`)
  }
  const seen = new Set<string>()
  return table.rows.map((row, index) => {
    const record = recordOf(index)
    const code = text(row['alpha-3'], label, record, 'alpha-3')
    if (!/^[A-Z]{3}$/.test(code)) throw new Error(`${label}: record ${record}: alpha-3 "${code}" is malformed`)
    if (seen.has(code)) throw new Error(`${label}: record ${record}: duplicate alpha-3 "${code}"`)
    seen.add(code)
    const name = text(row.name, label, record, 'name')
    const override = overrides.get(code)
    if ((row.region ?? '') === '' && override !== undefined) {
      return {
        code,
        name,
        region: override.region,
        subRegion: override.subRegion,
        intermediateRegion: '',
        regionSource: override.evidence.join('; ')
      }
    }
    return {
      code,
      name,
      region: row.region ?? '',
      subRegion: row['sub-region'] ?? '',
      intermediateRegion: row['intermediate-region'] ?? '',
      regionSource: undefined
    }
  })
}

function groupBy (rows: readonly IsoRow[], key: (row: IsoRow) => string): Map<string, string[]> {
  const groups = new Map<string, string[]>()
  for (const row of rows) {
    const name = key(row)
    if (name === '') continue
    groups.set(name, [...(groups.get(name) ?? []), row.code])
  }
  return groups
}
