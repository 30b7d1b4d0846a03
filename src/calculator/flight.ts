import { mass, present, runScenarios, type PresentedCalculation } from './answer.ts'
import { CalculatorInputError } from './calculator.errors.ts'
import { factorOf, type Airport, type CalculatorData, type CABIN_CLASSES, type Factor } from './calculator.data.ts'
import {
  derive, item, onBoundary, totalKg, type BreakdownItem, type Calculation, type DefaultUsed,
  type Scenario
} from './calculation.ts'
import type { FlightInputs, FlightQuery } from './calculator.schemas.ts'
import { defaultsFor, measurementSystemFor, resolveCountry, systemDefault } from './countries.ts'
import { distanceToKm } from './units.ts'

/**
 * Flights: great-circle distance x DESNZ 2025 factor per passenger-km for the distance band and
 * cabin class, with the DESNZ well-to-tank factor added on the life-cycle boundary. DESNZ
 * factors already include the 8 % uplift on great-circle distance. Bands are Tonne's (DESNZ
 * defines haul by destination for UK flights); at each band boundary the result moves smoothly
 * across a transition (chargeFlight), so no cabin jumps or ramps steeply.
 */

type CabinClass = typeof CABIN_CLASSES[number]
type Band = 'domestic' | 'short_haul' | 'long_haul'

const EARTH_RADIUS_KM = 6371.0
export const MAX_FLIGHT_KM = 20038
const MAX_LEGS = 50

/** Great-circle distance by the haversine formula on a sphere of radius 6,371 km. */
function greatCircleKm (from: { latitude: number, longitude: number },
  to: { latitude: number, longitude: number }): number {
  const rad = Math.PI / 180
  const dLat = (to.latitude - from.latitude) * rad
  const dLon = (to.longitude - from.longitude) * rad
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(from.latitude * rad) * Math.cos(to.latitude * rad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

interface BandFactor { factor: Factor, assumption: string | undefined }

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
      assumption: cabin === 'average' || cabin === 'economy'
        ? undefined
        : 'Flights under 500 km use the DESNZ domestic average-passenger factor for every cabin class: DESNZ ' +
          'publishes no class split for them (methodology 8.22).'
    }
  }
  if (band === 'long_haul') return { factor: desnz(`flight.long_haul.${cabin}`), assumption: undefined }
  if (cabin === 'first') {
    return {
      factor: desnz('flight.short_haul.business'),
      assumption: 'Short-haul first class uses the DESNZ short-haul business factor: DESNZ\'s short-haul class is ' +
        '"First/Business" (1.5 economy seats, methodology Table 39).'
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
        assumption: 'Short-haul premium economy uses the DESNZ short-haul business factor: economy x the long-haul ' +
          'premium/economy ratio would exceed business (1.6 vs 1.5 economy seats, methodology Table 39), and a ' +
          'premium-economy seat is no larger than a business seat.'
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
      assumption: 'Short-haul premium economy = short-haul economy x the DESNZ long-haul premium-economy/economy ' +
        'ratio: DESNZ publishes no short-haul premium-economy factor.'
    }
  }
  return { factor: desnz(`flight.short_haul.${cabin}`), assumption: undefined }
}

interface Bands { domesticBelow: Factor, shortUpTo: Factor, halfWidth: Factor, longHalfWidth: Factor }

function bands (data: CalculatorData): Bands {
  return {
    domesticBelow: factorOf(data, 'param:flight.band.domestic_below_km'),
    shortUpTo: factorOf(data, 'param:flight.band.short_haul_up_to_km'),
    halfWidth: factorOf(data, 'param:flight.band.transition_half_width_km'),
    longHalfWidth: factorOf(data, 'param:flight.band.long_haul_transition_half_width_km')
  }
}

function bandOf (data: CalculatorData, distanceKm: number): Band {
  const { domesticBelow, shortUpTo } = bands(data)
  if (distanceKm < domesticBelow.value) return 'domestic'
  if (distanceKm <= shortUpTo.value) return 'short_haul'
  return 'long_haul'
}

interface ChargedFlight {
  band: Band
  /** kg CO2e per passenger-km at this distance (a band factor, or the transition's effective factor). */
  factor: Factor
  assumptions: string[]
  transition: string | undefined
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
function chargeFlight (data: CalculatorData, distanceKm: number, cabin: CabinClass, scenario: Pick<Scenario,
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
    const transition = `within the ${from}-${to} km transition between the ${lower.replace('_',
      '-')} and ${upper.replace('_', '-')} factors`
    return {
      band,
      factor,
      assumptions: [low.assumption, high.assumption].filter((line) => line !== undefined),
      transition
    }
  }
  const own = bandFactor(data, band, cabin, scenario)
  return {
    band,
    factor: own.factor,
    assumptions: own.assumption === undefined ? [] : [own.assumption],
    transition: undefined
  }
}

const round6 = (value: number): number => Number(value.toPrecision(6))

interface FlightGroup {
  category: string
  label: string
  distanceKm: number
  flights: number
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

interface FlightAnswer extends PresentedCalculation<FlightInputs> {
  co2e_with_rf: ReturnType<typeof mass>
  co2e_without_rf: ReturnType<typeof mass>
  radiative_forcing: { included: boolean, method: string }
}

/** The /flight answer: every scenario run, presented. */
/**
 * With radiative forcing, the low and high runs scale the non-CO2 uplift (with RF - without RF) by the 5th and 95th
 * percentile of aviation's net non-CO2 forcing over its best estimate (Lee et al. 2021, DESNZ 2025 Table 47):
 * the RF multiplier is "subject to significant uncertainty" (DESNZ 8.40), and this is its cited spread.
 */
function rfInterval (data: CalculatorData, withRf: Factor, scenario: Scenario, withoutRf: () => Factor):
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

export function flightAnswer (data: CalculatorData, query: FlightQuery): FlightAnswer {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const modes = flightModes(query)
  const mode = modes[0]
  if (mode === undefined) {
    throw CalculatorInputError.missing('frequency',
      'Describe the flights with one of: frequency (never, rare, sometimes, often), short_haul/medium_haul/long_haul ' +
        'counts, legs (e.g. FRA-JFK,JFK-FRA) or distance.')
  }
  const second = modes[1]
  if (second !== undefined) {
    throw CalculatorInputError.conflicting(second.parameter,
      `Give one way of describing the flights, not several: ${modes.map((m) =>
        m.parameter).join(' and ')} were both given.`)
  }
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
  const assumptions: string[] = []
  const used: Factor[] = []
  let groups: FlightGroup[] = []
  const boundary = query.boundary ?? 'life_cycle'
  const inputs: FlightInputs = {
    mode: mode.mode,
    cabin_class: cabin,
    radiative_forcing: radiativeForcing,
    flights: 0,
    flown_km: 0
  }
  const defaults: DefaultUsed[] = [
    ...systemDefault(country, query),
    ...defaultsFor(query, ['cabin_class', 'radiative_forcing', 'boundary']),
    ...(mode.mode === 'legs' || mode.mode === 'distance' ? defaultsFor(query, ['trips', 'round_trip']) : [])
  ]

  if (mode.mode === 'frequency' || mode.mode === 'flight_counts') {
    const counts = { short_haul: 0, medium_haul: 0, long_haul: 0 }
    if (mode.mode === 'frequency' && query.frequency !== undefined && query.frequency !== 'never') {
      for (const band of ['short_haul', 'medium_haul', 'long_haul'] as const) {
        const profile = factorOf(data, `param:flight.frequency.${query.frequency}.${band}`)
        used.push(profile)
        counts[band] = profile.value
      }
      assumptions.push(
        `frequency=${query.frequency} is counted as ${counts.short_haul} short-haul, ${counts.medium_haul} ` +
          `medium-haul and ${counts.long_haul} long-haul return flights a year (Flowcarbon's profile).`)
    } else if (mode.mode === 'flight_counts') {
      counts.short_haul = query.short_haul ?? 0
      counts.medium_haul = query.medium_haul ?? 0
      counts.long_haul = query.long_haul ?? 0
    }
    if (mode.mode === 'frequency') inputs.frequency = query.frequency
    inputs.return_flights = counts
    const names = { short_haul: 'short-haul', medium_haul: 'medium-haul', long_haul: 'long-haul' }
    for (const band of ['short_haul', 'medium_haul', 'long_haul'] as const) {
      if (counts[band] === 0) continue
      const distance = factorOf(data, `param:flight.distance.${band}`)
      used.push(distance)
      const plural = counts[band] === 1 ? '' : 's'
      groups.push({
        category: band,
        label: `${counts[band]} return ${names[band]} flight${plural} of ${distance.value} km each way`,
        distanceKm: distance.value,
        flights: counts[band] * 2
      })
    }
    if (groups.length > 0) {
      assumptions.push(
        'Each flight-count band uses a representative one-way distance (short-haul 1,484 km, medium-haul 3,000 km, ' +
        'long-haul 6,799 km).')
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
          label: `${leg.from.iata}-${leg.to.iata}${roundTrip ? ' and back' : ''}`,
          distanceKm,
          flights: flightsPerLeg
        }
      })
      assumptions.push(
        'Leg distances are great-circle distances between the airports (haversine, Earth radius 6,371 km); the DESNZ ' +
          'factors add 8 % for routing and holding.')
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
        label: `${Math.round(distanceKm)} km flight${roundTrip ? ' and back' : ''}`,
        distanceKm,
        flights: flightsPerLeg
      }]
    }
  }
  // The band limits decide every flight's factor: each answer with a flight names them.
  if (groups.length > 0) used.push(...Object.values(bands(data)))
  inputs.flights = groups.reduce((sum, group) => sum + group.flights, 0)
  inputs.flown_km = Math.round(groups.reduce((sum, group) => sum + group.flights * group.distanceKm, 0) * 10) / 10

  const run = (scenario: Scenario): Calculation<FlightInputs> => {
    const notes: string[] = [...assumptions]
    const breakdown: BreakdownItem[] = groups.map((group) => {
      const charged = chargeFlight(data, group.distanceKm, cabin, scenario)
      notes.push(...charged.assumptions)
      const flights = `${group.flights} flight${group.flights === 1 ? '' : 's'} x ${group.distanceKm.toFixed(1)} km`
      if (charged.transition !== undefined) {
        notes.push(
          'A flight near a band boundary is charged between the two bands\' factors, so no cabin jumps: kg in a ' +
            'straight line across 300-700 km, the per-km factor by the same ratio every km across 2,700-4,700 km ' +
            '(docs/methodology.md, "transitions").')
      }
      const { factor, intervals } = rfInterval(data, charged.factor, scenario,
        () => chargeFlight(data, group.distanceKm, cabin, { ...scenario, radiativeForcing: false }).factor)
      return item(factor, group.category, group.label, group.distanceKm * group.flights, 'passenger-km',
        charged.transition === undefined ? flights : `${flights}, ${charged.transition}`, intervals)
    })
    notes.push(scenario.radiativeForcing
      ? 'Radiative forcing included: DESNZ 2025 "with RF" factors (non-CO2 effects of aviation, a 1.7 multiplier on ' +
        'the CO2 component).'
      : 'Radiative forcing excluded: DESNZ 2025 "without RF" factors (CO2, CH4 and N2O only).')
    notes.push(
      'Bands are Tonne\'s: under 500 km domestic, to 3,700 km short-haul, beyond long-haul. DESNZ 2025 defines haul ' +
        'by destination for UK flights and calls the 3,700 km rule its earlier, crude one (methodology 8.9-8.10).')
    return {
      countryCode: country.code,
      measurementSystem: system,
      inputs,
      breakdown,
      assumptions: notes,
      used,
      defaults,
      extraSources: mode.mode === 'legs' ? ['openflights'] : []
    }
  }
  const runs = runScenarios({ boundary, radiativeForcing, method: 'location_based', bound: 'central' },
    { radiativeForcing: true, method: false }, run)
  return {
    ...present(data, runs, { category: 'flights', warn: true }),
    co2e_with_rf: mass(totalKg(runs.get({ radiativeForcing: true }))),
    co2e_without_rf: mass(totalKg(runs.get({ radiativeForcing: false }))),
    radiative_forcing: {
      included: radiativeForcing,
      method: 'DESNZ 2025 "with RF" factors (a 1.7 multiplier on the CO2 component for the non-CO2 effects of ' +
        'aviation) in co2e_with_rf; "without RF" factors in co2e_without_rf; both on the answer\'s boundary'
    }
  }
}
