import { CalculatorInputError, oneMode } from './calculator.errors.ts'
import {
  factorOf, type Airport, type CalculatorData, type CABIN_CLASSES, type Country, type Factor
} from './calculator.data.ts'
import { derive, onBoundary, type Scenario } from './calculation.ts'
import type { FlightInputs, FlightQuery } from './calculator.schemas.ts'
import { measurementSystemFor, resolveCountry } from './countries.ts'
import { distanceToKm, type MeasurementSystem } from './units.ts'

/**
 * The numbers of a flight answer (docs/methodology.md, "Flights"), apart from their explanation
 * (flight.explanation.ts): great-circle distance x DESNZ 2025 factor per passenger-km for the distance band and
 * cabin class, with the DESNZ well-to-tank factor added on the life-cycle boundary. DESNZ factors already include
 * the 8 % uplift on great-circle distance. Bands are Tonne's (DESNZ defines haul by destination for UK flights); at
 * each band boundary the result moves smoothly across a transition (chargeFlight), so no cabin jumps or ramps
 * steeply.
 */

export type CabinClass = typeof CABIN_CLASSES[number]
export type Band = 'domestic' | 'short_haul' | 'long_haul'

const EARTH_RADIUS_KM = 6371.0
export const MAX_FLIGHT_KM = 20038
const MAX_LEGS = 50

/** Great-circle distance by the haversine formula on a sphere of radius 6,371 km. */
export function greatCircleKm (from: { latitude: number, longitude: number },
  to: { latitude: number, longitude: number }): number {
  const rad = Math.PI / 180
  const dLat = (to.latitude - from.latitude) * rad
  const dLon = (to.longitude - from.longitude) * rad
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(from.latitude * rad) * Math.cos(to.latitude * rad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** Which of Tonne's documented rules filled a gap in DESNZ's factors (flight.explanation.ts words them). */
export type BandRule = 'domestic_every_cabin' | 'short_haul_first_as_business' | 'short_haul_premium_as_business' |
  'short_haul_premium_scaled'

interface BandFactor { factor: Factor, rule: BandRule | undefined }

/** The DESNZ factor for a band and class in one scenario, filling DESNZ's gaps in a documented way. */
function bandFactor (data: CalculatorData, band: Band, cabin: CabinClass, scenario: Pick<Scenario,
  'boundary' | 'radiativeForcing'>): BandFactor {
  const rf = scenario.radiativeForcing ? 'with_rf' : 'without_rf'
  const desnz = (key: string): Factor =>
    onBoundary(scenario.boundary, factorOf(data, `desnz:${key}.${rf}`), [factorOf(data, `desnz:wtt.${key}.${rf}`)],
      `DESNZ 2025 ${key.replaceAll('_', ' ')}`)
  if (band === 'domestic') {
    return {
      factor: desnz('flight.domestic.average'),
      rule: cabin === 'average' || cabin === 'economy' ? undefined : 'domestic_every_cabin'
    }
  }
  if (band === 'long_haul') return { factor: desnz(`flight.long_haul.${cabin}`), rule: undefined }
  if (cabin === 'first') {
    return {
      factor: desnz('flight.short_haul.business'),
      rule: 'short_haul_first_as_business'
    }
  }
  if (cabin === 'premium_economy') {
    const economy = desnz('flight.short_haul.economy')
    const business = desnz('flight.short_haul.business')
    const ratio = desnz('flight.long_haul.premium_economy').value / desnz('flight.long_haul.economy').value
    // The long-haul premium seat (1.6 economy seats) is larger than DESNZ's short-haul business
    // seat (1.5): scaled, premium economy would cost more than business. It never may.
    if (economy.value * ratio >= business.value) {
      return {
        factor: business,
        rule: 'short_haul_premium_as_business'
      }
    }
    return {
      factor: derive([economy, business], {
        key: `derived:flight.short_haul.premium_economy.${rf}.${scenario.boundary}`,
        id: `tonne:flight.short_haul.premium_economy.${rf}`,
        value: economy.value * ratio,
        unit: economy.unit,
        description: 'Short-haul premium economy, scaled from economy by the long-haul premium/economy ratio',
        derivation: `${economy.value} (${economy.id}) x ${ratio} (long-haul premium economy / economy)`,
        status: 'assumption'
      }),
      rule: 'short_haul_premium_scaled'
    }
  }
  return { factor: desnz(`flight.short_haul.${cabin}`), rule: undefined }
}

interface Bands { domesticBelow: Factor, shortUpTo: Factor, halfWidth: Factor, longHalfWidth: Factor }

export function bands (data: CalculatorData): Bands {
  return {
    domesticBelow: factorOf(data, 'param:flight.band.domestic_below_km'),
    shortUpTo: factorOf(data, 'param:flight.band.short_haul_up_to_km'),
    halfWidth: factorOf(data, 'param:flight.band.transition_half_width_km'),
    longHalfWidth: factorOf(data, 'param:flight.band.long_haul_transition_half_width_km')
  }
}

export function bandOf (data: CalculatorData, distanceKm: number): Band {
  const { domesticBelow, shortUpTo } = bands(data)
  if (distanceKm < domesticBelow.value) return 'domestic'
  if (distanceKm <= shortUpTo.value) return 'short_haul'
  return 'long_haul'
}

export interface ChargedFlight {
  band: Band
  /** kg CO2e per passenger-km at this distance (a band factor, or the transition's effective factor). */
  factor: Factor
  rules: BandRule[]
  /** Set when the flight lies within a transition between two bands. */
  transition: { from: number, to: number, lower: Band, upper: Band } | undefined
}

/**
 * One flight of `distanceKm`: the band factor, except near a band boundary. At 500 km (within
 * `halfWidth`) kg runs in a straight line from the domestic value at (500 - halfWidth) to the
 * short-haul one at (500 + halfWidth): the per-km factor falls steeply there (take-off dominates
 * short flights) and a straight line in kg is what keeps kg rising. At 3,700 km (within
 * `longHalfWidth`) the per-km factor moves geometrically from the short-haul to the long-haul
 * factor, the same ratio every km: long-haul premium seats are up to 2.6 times the short-haul
 * ones, and a straight line in kg over a narrow ramp put that whole step into a few hundred km.
 * Continuous in distance for every cabin, rising, and cabins stay in order (a geometric mean of
 * ordered factors is ordered).
 */
export function chargeFlight (data: CalculatorData, distanceKm: number, cabin: CabinClass, scenario: Pick<Scenario,
  'boundary' | 'radiativeForcing'>): ChargedFlight {
  const band = bandOf(data, distanceKm)
  const { domesticBelow, shortUpTo, halfWidth, longHalfWidth } = bands(data)
  for (const [boundary, width, lower, upper, shape] of [
    [domesticBelow, halfWidth, 'domestic', 'short_haul', 'linear_kg'],
    [shortUpTo, longHalfWidth, 'short_haul', 'long_haul', 'geometric_per_km']] as const) {
    const w = width.value
    const from = boundary.value - w
    const to = boundary.value + w
    if (distanceKm <= from || distanceKm >= to) continue
    const low = bandFactor(data, lower, cabin, scenario)
    const high = bandFactor(data, upper, cabin, scenario)
    const share = (distanceKm - from) / (to - from)
    let value: number
    let derivation: string
    if (shape === 'linear_kg') {
      const fromKg = from * low.factor.value
      const toKg = to * high.factor.value
      value = (fromKg + (toKg - fromKg) * share) / distanceKm
      derivation = `(${round6(fromKg)} kg at ${from} km (${low.factor.id}) + (${round6(
        toKg)} kg at ${to} km (${high.factor.id}) - ${round6(fromKg)}) x (${round6(distanceKm)} - ${from}) / ${
          to - from}) / ${round6(distanceKm)} km`
    } else {
      value = low.factor.value ** (1 - share) * high.factor.value ** share
      derivation = `${round6(low.factor.value)} (${low.factor.id}) ^ (1 - s) x ${round6(high.factor.value)} (${
        high.factor.id}) ^ s, s = (${round6(distanceKm)} - ${from}) / ${to - from} = ${round6(share)}`
    }
    const factor = derive([low.factor, high.factor, boundary, width], {
      key: `derived:flight.transition.${lower}.${cabin}.${String(
        scenario.radiativeForcing)}.${scenario.boundary}.${distanceKm}`,
      id: `tonne:flight.transition.${lower}_to_${upper}`,
      value,
      unit: low.factor.unit,
      description: `Transition between the ${lower.replace('_', '-')} and ${upper.replace('_',
        '-')} factors around ${boundary.value} km`,
      derivation,
      status: 'assumption'
    })
    return {
      band,
      factor,
      rules: [low.rule, high.rule].filter((rule) => rule !== undefined),
      transition: { from, to, lower, upper }
    }
  }
  const own = bandFactor(data, band, cabin, scenario)
  return {
    band,
    factor: own.factor,
    rules: own.rule === undefined ? [] : [own.rule],
    transition: undefined
  }
}

const round6 = (value: number): number => Number(value.toPrecision(6))

/** A group of identical flights; `kind` says what the explanation needs to label it. */
export interface FlightGroup {
  category: string
  distanceKm: number
  flights: number
  kind: { type: 'band', band: 'short_haul' | 'medium_haul' | 'long_haul', returnFlights: number }
    | { type: 'leg', from: Airport, to: Airport, roundTrip: boolean }
    | { type: 'distance', roundTrip: boolean }
}

function flightModes (query: FlightQuery): Array<{ mode: FlightInputs['mode'], parameter: string }> {
  const modes: Array<{ mode: FlightInputs['mode'], parameter: string }> = []
  if (query.frequency !== undefined) modes.push({ mode: 'frequency', parameter: 'frequency' })
  const counts = (['short_haul', 'medium_haul', 'long_haul'] as const).filter((name) => query[name] !== undefined)
  if (counts[0] !== undefined) modes.push({ mode: 'flight_counts', parameter: counts[0] })
  if (query.legs !== undefined) modes.push({ mode: 'legs', parameter: 'legs' })
  if (query.distance !== undefined) modes.push({ mode: 'distance', parameter: 'distance' })
  return modes
}

/** Parses "FRA-JFK,JFK-LAX" (or "FRA-JFK-LAX") into legs; unknown codes are a 400. */
function parseLegs (data: CalculatorData, raw: string): Array<{ from: Airport, to: Airport }> {
  const legs: Array<{ from: Airport, to: Airport }> = []
  for (const route of raw.split(',')) {
    const codes = route.split('-').map((code) => code.trim().toUpperCase())
    if (codes.length < 2 || codes.some((code) => code === '')) {
      throw CalculatorInputError.invalid('legs',
        `legs: "${route.trim()}" is not a route; write each route as airport codes joined by "-", e.g. FRA-JFK, and ` +
          'separate routes with commas')
    }
    const airports = codes.map((code) => {
      if (!/^[A-Z0-9]{3}$/.test(code)) {
        throw CalculatorInputError.invalid('legs',
        `legs: "${code}" is not a 3-letter IATA airport code`)
      }
      const airport = data.airports.get(code)
      if (airport === undefined) {
        throw new CalculatorInputError('unknown_airport', 'legs',
        `legs: unknown IATA airport code "${code}"`)
      }
      return airport
    })
    for (let i = 1; i < airports.length; i++) {
      const from = airports[i - 1] as Airport
      const to = airports[i] as Airport
      if (from.iata === to.iata) {
        throw CalculatorInputError.invalid('legs',
        `legs: ${from.iata}-${to.iata} starts and ends at the same airport`)
      }
      legs.push({ from, to })
    }
  }
  if (legs.length > MAX_LEGS) {
    throw CalculatorInputError.invalid('legs',
    `legs: ${legs.length} legs given; at most ${MAX_LEGS} are accepted per request`)
  }
  return legs
}

/**
 * With radiative forcing, the low and high runs scale the non-CO2 uplift (with RF - without RF) by the 5th and 95th
 * percentile of aviation's net non-CO2 forcing over its best estimate (Lee et al. 2021, DESNZ 2025 Table 47):
 * the RF multiplier is "subject to significant uncertainty" (DESNZ 8.40), and this is its cited spread.
 */
export function rfInterval (data: CalculatorData, withRf: Factor, scenario: Scenario, withoutRf: () => Factor):
{ factor: Factor, intervals: string[] } {
  if (!scenario.radiativeForcing || scenario.bound === 'central') return { factor: withRf, intervals: [] }
  const central = factorOf(data, 'param:flight.rf.non_co2_erf')
  const end = factorOf(data, `param:flight.rf.non_co2_erf.${scenario.bound}`)
  const without = withoutRf()
  const share = end.value / central.value
  return {
    factor: derive([withRf, without, central, end], {
      key: `${withRf.key}:rf.${scenario.bound}`,
      id: withRf.id,
      value: without.value + (withRf.value - without.value) * share,
      unit: withRf.unit,
      description: `${withRf.description}, non-CO2 uplift at the ${scenario.bound === 'low' ? '5th' : '95th'} ` +
        'percentile of aviation\'s non-CO2 forcing',
      derivation: `${without.value} + (${withRf.value} - ${without.value}) x ${end.value} / ${central.value}`
    }),
    intervals: ['Radiative forcing: the non-CO2 uplift scaled by the 5-95 % range of aviation\'s net non-CO2 ' +
      'forcing (21-111 mW/m2 around 66.6; Lee et al. 2021, DESNZ 2025 methodology Table 47)']
  }
}

export interface FlightModel {
  country: Country
  system: MeasurementSystem
  /** How the request described the flights, and by which parameter. */
  mode: { mode: FlightInputs['mode'], parameter: string }
  cabin: CabinClass
  radiativeForcing: boolean
  boundary: NonNullable<FlightQuery['boundary']>
  inputs: FlightInputs
  groups: FlightGroup[]
  /** Return flights a year by band, for frequency and flight counts. */
  counts: { short_haul: number, medium_haul: number, long_haul: number } | undefined
  /** Every factor the groups rest on, in the order the answer lists them. */
  used: Factor[]
}

/** The flights a request describes, as groups of identical flights with their distance; refuses what cannot be. */
export function flightModel (data: CalculatorData, query: FlightQuery): FlightModel {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const mode = oneMode(flightModes(query), 'the flights', {
    parameter: 'frequency',
    ways: 'frequency (never, rare, sometimes, often), short_haul/medium_haul/long_haul counts, legs (e.g. ' +
      'FRA-JFK,JFK-FRA) or distance'
  })
  if (mode.mode === 'frequency' || mode.mode === 'flight_counts') {
    for (const name of ['trips', 'round_trip'] as const) {
      if (query[name] !== undefined) {
        throw CalculatorInputError.conflicting(name,
        `${name} applies to legs and distance only; ${mode.parameter} already counts return flights.`)
      }
    }
  }
  const cabin = query.cabin_class ?? 'economy'
  const radiativeForcing = query.radiative_forcing ?? true
  const used: Factor[] = []
  let groups: FlightGroup[] = []
  let counted: FlightModel['counts']
  const inputs: FlightInputs = {
    mode: mode.mode,
    cabin_class: cabin,
    radiative_forcing: radiativeForcing,
    flights: 0,
    flown_km: 0
  }
  if (mode.mode === 'frequency' || mode.mode === 'flight_counts') {
    const counts = { short_haul: 0, medium_haul: 0, long_haul: 0 }
    if (mode.mode === 'frequency' && query.frequency !== undefined && query.frequency !== 'never') {
      for (const band of ['short_haul', 'medium_haul', 'long_haul'] as const) {
        const profile = factorOf(data, `param:flight.frequency.${query.frequency}.${band}`)
        used.push(profile)
        counts[band] = profile.value
      }
    } else if (mode.mode === 'flight_counts') {
      counts.short_haul = query.short_haul ?? 0
      counts.medium_haul = query.medium_haul ?? 0
      counts.long_haul = query.long_haul ?? 0
    }
    counted = counts
    if (mode.mode === 'frequency') inputs.frequency = query.frequency
    inputs.return_flights = counts
    for (const band of ['short_haul', 'medium_haul', 'long_haul'] as const) {
      if (counts[band] === 0) continue
      const distance = factorOf(data, `param:flight.distance.${band}`)
      used.push(distance)
      groups.push({
        category: band,
        distanceKm: distance.value,
        flights: counts[band] * 2,
        kind: { type: 'band', band, returnFlights: counts[band] }
      })
    }
  } else {
    const trips = query.trips ?? 1
    const roundTrip = query.round_trip ?? false
    const flightsPerLeg = trips * (roundTrip ? 2 : 1)
    inputs.trips = trips
    inputs.round_trip = roundTrip
    if (mode.mode === 'legs') {
      const legs = parseLegs(data, query.legs ?? '')
      const describe = (airport: Airport) =>
        ({ iata: airport.iata, name: airport.name, city: airport.city, country: airport.country })
      inputs.legs = legs.map((leg) =>
        ({
          from: describe(leg.from),
          to: describe(leg.to),
          distance_km: Math.round(greatCircleKm(leg.from, leg.to) * 10) / 10
        }))
      groups = legs.map((leg) => {
        const distanceKm = greatCircleKm(leg.from, leg.to)
        return {
          category: bandOf(data, distanceKm),
          distanceKm,
          flights: flightsPerLeg,
          kind: { type: 'leg', from: leg.from, to: leg.to, roundTrip }
        }
      })
    } else {
      const value = query.distance ?? 0
      const distanceKm = distanceToKm(value, system)
      if (distanceKm > MAX_FLIGHT_KM) {
        const unit = system === 'imperial' ? 'mi' : 'km'
        throw CalculatorInputError.invalid('distance',
          `distance ${value} ${unit} is longer than any flight can be ` +
          `(half the Earth's circumference, ${MAX_FLIGHT_KM} km)`)
      }
      inputs.distance = { value, unit: system === 'imperial' ? 'mi' : 'km' }
      inputs.distance_km = distanceKm
      groups = [{
        category: bandOf(data, distanceKm),
        distanceKm,
        flights: flightsPerLeg,
        kind: { type: 'distance', roundTrip }
      }]
    }
  }
  // The band limits decide every flight's factor: each answer with a flight names them.
  if (groups.length > 0) used.push(...Object.values(bands(data)))
  inputs.flights = groups.reduce((sum, group) => sum + group.flights, 0)
  inputs.flown_km = Math.round(groups.reduce((sum, group) => sum + group.flights * group.distanceKm, 0) * 10) / 10
  return {
    country,
    system,
    mode,
    cabin,
    radiativeForcing,
    boundary: query.boundary ?? 'life_cycle',
    inputs,
    groups,
    counts: counted,
    used
  }
}
