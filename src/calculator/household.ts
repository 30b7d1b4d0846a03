import { factorOf, type CalculatorData, type Country, type Factor } from './calculator.data.ts'
import { KWH_PER_MMBTU, M2_PER_FT2 } from './units.ts'

/**
 * The country's average household: people, electricity, heating fuel and floor area (see
 * docs/methodology.md, "Home energy"). A cited national household figure is used where one exists
 * (anchor). Elsewhere a calibrated model stands in:
 * - electricity = all-sector electricity demand per person x (1 - T&D losses) x household size x the
 *   residential ratio, the ratio of each anchored country's household figure to that same product;
 * - heating = buildings CO2 per person as natural-gas kWh x household size x the residential ratio of
 *   the anchored countries' household fuel to that product (buildings CO2 includes commercial buildings).
 * The ratio is the mean over the anchored countries of the same UN M49 region, else over all of them; its
 * low and high are their smallest and largest ratio: the model's uncertainty.
 */

export interface HouseholdFigure {
  /** kWh a year for the country's average household; low and high are the model's interval. */
  kwh: number
  low: number
  high: number
  /** Short basis for defaults_used. */
  basis: string
  /** The worked line for assumptions. */
  line: string
  /** The interval's basis, when there is one. */
  interval: string | undefined
  used: Factor[]
}

export interface FloorArea { m2: number, line: string, used: Factor[] }

export interface CountryHousehold {
  people: Factor
  electricity: HouseholdFigure
  heating: HouseholdFigure
  floorArea: FloorArea
}

const r4 = (value: number): number => Number(value.toPrecision(4))

interface Anchor { kwh: number, line: string, used: Factor[] }

const param = (data: CalculatorData, key: string): Factor | undefined => data.factors.get(`param:${key}`)

/** "Ofgem (ofgem-tdcv-2023:...)": who published a figure, and its id. */
const cite = (data: CalculatorData, factor: Factor): string =>
  `${data.sources.get(factor.source)?.publisher ?? factor.source}, ${factor.id}`

/** A cited household electricity figure for the country, per household a year. */
function electricityAnchor (data: CalculatorData, country: Country): Anchor | undefined {
  const people = country.householdSize
  const own = param(data, `energy.household_electricity_kwh.${country.code}`)
  if (own !== undefined) {
    return { kwh: own.value, used: [own], line: `${own.value} kWh per household (${cite(data, own)})` }
  }
  const perPerson = param(data, `energy.residential_electricity_kwh_per_person.${country.code}`)
  if (perPerson !== undefined) {
    return {
      kwh: perPerson.value * people.value,
      used: [perPerson, people],
      line: `${perPerson.value} kWh per person (${cite(data, perPerson)}) x ${r4(people.value)} people = ${
        r4(perPerson.value * people.value)} kWh per household`
    }
  }
  const national = param(data, `energy.residential_electricity_twh.${country.code}`)
  if (national !== undefined && country.population !== undefined) {
    const households = country.population / people.value
    const kwh = national.value * 1e9 / households
    return {
      kwh,
      used: [national, people],
      line: `${national.value} TWh used by households (${cite(data, national)}) / (${
        r4(country.population / 1e6)} million ` +
        `people (OWID) / ${r4(people.value)} people per household = ${r4(households / 1e6)} million households) = ${
          r4(kwh)} kWh per household`
    }
  }
  return undefined
}

/** A cited household heating-fuel figure (non-electric site energy), per household a year. */
function heatingAnchor (data: CalculatorData, country: Country): Anchor | undefined {
  const fuel = param(data, `energy.household_fuel_kwh.${country.code}`)
  if (fuel !== undefined) {
    return { kwh: fuel.value, used: [fuel], line: `${fuel.value} kWh per household (${cite(data, fuel)})` }
  }
  const site = param(data, `energy.household_site_energy_mmbtu.${country.code}`)
  const electricity = electricityAnchor(data, country)
  if (site !== undefined && electricity !== undefined) {
    const kwh = site.value * KWH_PER_MMBTU - electricity.kwh
    return {
      kwh,
      used: [site, ...electricity.used],
      line: `${site.value} MMBtu of site energy per household (${cite(data, site)}) x ${
        r4(KWH_PER_MMBTU)} kWh per MMBtu ` +
        `- ${r4(electricity.kwh)} kWh of electricity = ${r4(kwh)} kWh of fuel per household`
    }
  }
  return undefined
}

/** What the model gives before calibration: all-sector electricity, and all buildings CO2 as gas kWh. */
function electricityBase (country: Country): number {
  return country.electricityDemand.value * (1 - country.tdLosses.value / 100) * country.householdSize.value
}

function heatingBase (data: CalculatorData, country: Country): number {
  const gas = factorOf(data, 'desnz:fuel.natural_gas.kwh_gross_cv')
  return country.buildingsCo2.value * 1000 / gas.value * country.householdSize.value
}

interface Ratio { code: string, region: string, ratio: number }

interface Calibration { electricity: Ratio[], heating: Ratio[] }

const calibrations = new WeakMap<CalculatorData, Calibration>()

function calibration (data: CalculatorData): Calibration {
  const known = calibrations.get(data)
  if (known !== undefined) return known
  const electricity: Ratio[] = []
  const heating: Ratio[] = []
  for (const country of data.countryList) {
    const power = electricityAnchor(data, country)
    if (power !== undefined) {
      electricity.push({ code: country.code, region: country.region, ratio: power.kwh / electricityBase(country) })
    }
    const heat = heatingAnchor(data, country)
    const base = heatingBase(data, country)
    if (heat !== undefined && base > 0) {
      heating.push({ code: country.code, region: country.region, ratio: heat.kwh / base })
    }
  }
  if (electricity.length === 0 || heating.length === 0) {
    throw new Error('data/calculator/parameters.csv: no country has a cited household electricity and heating figure')
  }
  const found = { electricity, heating }
  calibrations.set(data, found)
  return found
}

/** The mean ratio of the anchored countries of the country's region, else of all; with their extremes. */
function regionalRatio (ratios: Ratio[], country: Country): { mean: number, low: number, high: number, of: string } {
  const regional = ratios.filter((entry) => entry.region === country.region)
  const pool = regional.length > 0 ? regional : ratios
  const values = pool.map((entry) => entry.ratio)
  const where = regional.length > 0 ? `${country.region}'s anchored countries` : 'all anchored countries'
  return {
    mean: values.reduce((sum, value) => sum + value, 0) / values.length,
    low: Math.min(...values),
    high: Math.max(...values),
    of: `${where} (${pool.map((entry) => `${entry.code} ${r4(entry.ratio)}`).join(', ')})`
  }
}

function anchored (anchor: Anchor, what: string, country: Country): HouseholdFigure {
  return {
    kwh: anchor.kwh,
    low: anchor.kwh,
    high: anchor.kwh,
    basis: `${country.name}'s own figure: ${anchor.line}`,
    line: `Household ${what} (${country.name} default, the country's own figure): ${anchor.line}.`,
    interval: undefined,
    used: anchor.used
  }
}

function modelled (base: number, baseLine: string, ratios: Ratio[], what: string, country: Country,
  used: Factor[]): HouseholdFigure {
  const ratio = regionalRatio(ratios, country)
  const kwh = base * ratio.mean
  return {
    kwh,
    low: base * ratio.low,
    high: base * ratio.high,
    basis: `modelled (no household ${what} figure is cited for ${country.name}): ${baseLine} x the residential ` +
      'ratio of countries with a cited figure (see assumptions)',
    line: `Household ${what} (${country.name} default, modelled: no household figure is cited for the country): ${
      baseLine} = ${r4(base)} kWh, x ${r4(ratio.mean)}, the mean ratio of household ${what} to that product in ${
        ratio.of} = ${r4(kwh)} kWh a year (range ${r4(base * ratio.low)}-${r4(base * ratio.high)} kWh over those ` +
        'ratios).',
    interval: `Household ${what} model: the smallest and largest residential ratio of ${ratio.of}`,
    used
  }
}

export function countryHousehold (data: CalculatorData, country: Country): CountryHousehold {
  const people = country.householdSize
  const { electricity: powerRatios, heating: heatRatios } = calibration(data)
  const power = electricityAnchor(data, country)
  const demand = country.electricityDemand
  const losses = country.tdLosses
  const electricity = power !== undefined
    ? anchored(power, 'electricity', country)
    : modelled(electricityBase(country), `${r4(demand.value)} kWh all-sector demand per person (${
      demand.year ?? ''}) ` +
      `x (1 - ${r4(losses.value)} % losses) x ${r4(people.value)} people`, powerRatios, 'electricity', country,
    [demand, losses, people])
  const heat = heatingAnchor(data, country)
  const gas = factorOf(data, 'desnz:fuel.natural_gas.kwh_gross_cv')
  const buildings = country.buildingsCo2
  const heating = heat !== undefined
    ? anchored(heat, 'heating fuel', country)
    : modelled(heatingBase(data, country), `${r4(buildings.value)} t CO2 per person burned in residential and ` +
      `commercial buildings (${buildings.year ?? ''}) / ${gas.value} kg CO2e per kWh of natural gas x ${
        r4(people.value)} people`, heatRatios, 'heating fuel', country, [buildings, gas, people])
  return { people, electricity, heating, floorArea: floorArea(data, country) }
}

/** The floor area of the country's typical dwelling: cited, else the per-person assumption x household size. */
function floorArea (data: CalculatorData, country: Country): FloorArea {
  const metres = param(data, `energy.dwelling_floor_area_m2.${country.code}`)
  if (metres !== undefined) {
    return { m2: metres.value, used: [metres], line: `${metres.value} m2 (${cite(data, metres)})` }
  }
  const feet = param(data, `energy.dwelling_floor_area_ft2.${country.code}`)
  if (feet !== undefined) {
    return {
      m2: feet.value * M2_PER_FT2,
      used: [feet],
      line: `${feet.value} ft2 (${cite(data, feet)}) = ${r4(feet.value * M2_PER_FT2)} m2`
    }
  }
  const perPerson = factorOf(data, 'param:energy.floor_area_m2_per_person')
  const people = country.householdSize
  return {
    m2: perPerson.value * people.value,
    used: [perPerson, people],
    line: `${perPerson.value} m2 per person (Tonne assumption: no floor area is cited for ${country.name}) x ${
      r4(people.value)} people = ${r4(perPerson.value * people.value)} m2`
  }
}
