import { CalculatorInputError } from './calculator.errors.ts'
import { factorOf, type Airport, type CalculatorData, type CABIN_CLASSES, type Factor } from './calculator.data.ts'
import { derive, item, totalKg, type BreakdownItem, type Calculation } from './calculation.ts'
import type { FlightInputs, FlightQuery } from './calculator.schemas.ts'
import { measurementSystemFor, resolveCountry } from './countries.ts'
import { distanceToKm } from './units.ts'

/**
 * Flights: distance x DESNZ 2025 factor per passenger-km for the distance band and cabin
 * class. DESNZ factors already include the 8 % uplift on great-circle distance, so the
 * distance here is the plain great-circle distance.
 */

type CabinClass = typeof CABIN_CLASSES[number]
type Band = 'domestic' | 'short_haul' | 'long_haul'
const BAND_ORDER: readonly Band[] = ['domestic', 'short_haul', 'long_haul']

export const EARTH_RADIUS_KM = 6371.0
export const MAX_FLIGHT_KM = 20038
const MAX_LEGS = 50

/** Great-circle distance by the haversine formula on a sphere of radius 6,371 km. */
export function greatCircleKm (from: { latitude: number, longitude: number }, to: { latitude: number, longitude: number }): number {
  const rad = Math.PI / 180
  const dLat = (to.latitude - from.latitude) * rad
  const dLon = (to.longitude - from.longitude) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(from.latitude * rad) * Math.cos(to.latitude * rad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

interface BandFactor { factor: Factor, assumption: string | undefined }

/** The DESNZ factor for a band and class, filling DESNZ's gaps in a documented way. */
export function flightFactor (data: CalculatorData, band: Band, cabin: CabinClass, radiativeForcing: boolean): BandFactor {
  const rf = radiativeForcing ? 'with_rf' : 'without_rf'
  if (band === 'domestic') {
    return {
      factor: factorOf(data, `desnz:flight.domestic.average.${rf}`),
      assumption: cabin === 'average' || cabin === 'economy' ? undefined : 'Flights under 500 km use the DESNZ domestic average-passenger factor for every cabin class: DESNZ publishes no class split for them.'
    }
  }
  if (band === 'long_haul') return { factor: factorOf(data, `desnz:flight.long_haul.${cabin}.${rf}`), assumption: undefined }
  if (cabin === 'first') {
    return { factor: factorOf(data, `desnz:flight.short_haul.business.${rf}`), assumption: 'Short-haul first class uses the DESNZ short-haul business factor: DESNZ publishes no short-haul first-class factor.' }
  }
  if (cabin === 'premium_economy') {
    const economy = factorOf(data, `desnz:flight.short_haul.economy.${rf}`)
    const longPremium = factorOf(data, `desnz:flight.long_haul.premium_economy.${rf}`)
    const longEconomy = factorOf(data, `desnz:flight.long_haul.economy.${rf}`)
    return {
      factor: derive([economy, longPremium, longEconomy], {
        key: `derived:flight.short_haul.premium_economy.${rf}`,
        id: `tonne:flight.short_haul.premium_economy.${rf}`,
        value: economy.value * longPremium.value / longEconomy.value,
        unit: economy.unit,
        description: 'Short-haul premium economy, scaled from economy by the long-haul premium/economy ratio',
        derivation: `${economy.value} (${economy.id}, short-haul economy) x ${longPremium.value} / ${longEconomy.value} (${longPremium.id} / ${longEconomy.id}, long-haul premium economy / economy)`,
        status: 'assumption'
      }),
      assumption: 'Short-haul premium economy = short-haul economy x the DESNZ long-haul premium-economy/economy ratio: DESNZ publishes no short-haul premium-economy factor.'
    }
  }
  return { factor: factorOf(data, `desnz:flight.short_haul.${cabin}.${rf}`), assumption: undefined }
}

export function bandOf (data: CalculatorData, distanceKm: number): Band {
  if (distanceKm < factorOf(data, 'param:flight.band.domestic_below_km').value) return 'domestic'
  if (distanceKm <= factorOf(data, 'param:flight.band.short_haul_up_to_km').value) return 'short_haul'
  return 'long_haul'
}

export interface ChargedFlight {
  band: Band
  /** The band whose factor is applied (lower than `band` when the floor applies). */
  chargedBand: Band
  factor: Factor
  /** Distance the factor is applied to: the flight's own, or a band boundary under the floor. */
  chargedKm: number
  assumption: string | undefined
  floor: boolean
}

/**
 * One flight of `distanceKm`. DESNZ factors fall at band boundaries (a 3,701 km flight would
 * otherwise emit less than a 3,700 km one), so a flight is never charged less than a flight
 * at the top of a lower band: kg = max(d x f(band of d), boundary x f(band below)).
 * That keeps "more distance never gives less CO2" true.
 */
export function chargeFlight (data: CalculatorData, distanceKm: number, cabin: CabinClass, radiativeForcing: boolean): ChargedFlight {
  const band = bandOf(data, distanceKm)
  const own = flightFactor(data, band, cabin, radiativeForcing)
  let best: ChargedFlight = { band, chargedBand: band, factor: own.factor, chargedKm: distanceKm, assumption: own.assumption, floor: false }
  const boundaries: Array<{ at: number, below: Band }> = [
    { at: factorOf(data, 'param:flight.band.domestic_below_km').value, below: 'domestic' },
    { at: factorOf(data, 'param:flight.band.short_haul_up_to_km').value, below: 'short_haul' }
  ]
  for (const boundary of boundaries) {
    if (BAND_ORDER.indexOf(band) <= BAND_ORDER.indexOf(boundary.below)) continue
    const lower = flightFactor(data, boundary.below, cabin, radiativeForcing)
    if (boundary.at * lower.factor.value > best.chargedKm * best.factor.value) {
      best = { band, chargedBand: boundary.below, factor: lower.factor, chargedKm: boundary.at, assumption: lower.assumption, floor: true }
    }
  }
  return best
}

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
export function parseLegs (data: CalculatorData, raw: string): Array<{ from: Airport, to: Airport }> {
  const legs: Array<{ from: Airport, to: Airport }> = []
  for (const route of raw.split(',')) {
    const codes = route.split('-').map((code) => code.trim().toUpperCase())
    if (codes.length < 2 || codes.some((code) => code === '')) {
      throw CalculatorInputError.invalid('legs', `legs: "${route.trim()}" is not a route; write each route as airport codes joined by "-", e.g. FRA-JFK, and separate routes with commas`)
    }
    const airports = codes.map((code) => {
      if (!/^[A-Z0-9]{3}$/.test(code)) throw CalculatorInputError.invalid('legs', `legs: "${code}" is not a 3-letter IATA airport code`)
      const airport = data.airports.get(code)
      if (airport === undefined) throw new CalculatorInputError('unknown_airport', 'legs', `legs: unknown IATA airport code "${code}"`)
      return airport
    })
    for (let i = 1; i < airports.length; i++) {
      const from = airports[i - 1] as Airport
      const to = airports[i] as Airport
      if (from.iata === to.iata) throw CalculatorInputError.invalid('legs', `legs: ${from.iata}-${to.iata} starts and ends at the same airport`)
      legs.push({ from, to })
    }
  }
  if (legs.length > MAX_LEGS) throw CalculatorInputError.invalid('legs', `legs: ${legs.length} legs given; at most ${MAX_LEGS} are accepted per request`)
  return legs
}

export interface FlightCalculation {
  withRf: Calculation<FlightInputs>
  withoutRf: Calculation<FlightInputs>
  /** The one the person asked for (radiative_forcing, default true). */
  selected: Calculation<FlightInputs>
}

export function calculateFlight (data: CalculatorData, query: FlightQuery): FlightCalculation {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const modes = flightModes(query)
  const mode = modes[0]
  if (mode === undefined) {
    throw CalculatorInputError.missing('frequency', 'Describe the flights with one of: frequency (never, rare, sometimes, often), short_haul/medium_haul/long_haul counts, legs (e.g. FRA-JFK,JFK-FRA) or distance.')
  }
  const second = modes[1]
  if (second !== undefined) {
    throw CalculatorInputError.conflicting(second.parameter, `Give one way of describing the flights, not several: ${modes.map((m) => m.parameter).join(' and ')} were both given.`)
  }
  if (mode.mode === 'frequency' || mode.mode === 'flight_counts') {
    for (const name of ['trips', 'round_trip'] as const) {
      if (query[name] !== undefined) throw CalculatorInputError.conflicting(name, `${name} applies to legs and distance only; ${mode.parameter} already counts return flights.`)
    }
  }
  const cabin = query.cabin_class ?? 'economy'
  const radiativeForcing = query.radiative_forcing ?? true
  const assumptions: string[] = []
  const used: Factor[] = []
  let groups: FlightGroup[] = []
  const inputs: FlightInputs = { mode: mode.mode, cabin_class: cabin, radiative_forcing: radiativeForcing, flights: 0, flown_km: 0 }

  if (mode.mode === 'frequency' || mode.mode === 'flight_counts') {
    const counts = { short_haul: 0, medium_haul: 0, long_haul: 0 }
    if (mode.mode === 'frequency' && query.frequency !== undefined && query.frequency !== 'never') {
      for (const band of ['short_haul', 'medium_haul', 'long_haul'] as const) {
        const profile = factorOf(data, `param:flight.frequency.${query.frequency}.${band}`)
        used.push(profile)
        counts[band] = profile.value
      }
      assumptions.push(`frequency=${query.frequency} is counted as ${counts.short_haul} short-haul, ${counts.medium_haul} medium-haul and ${counts.long_haul} long-haul return flights a year (Flowcarbon's profile).`)
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
      groups.push({ category: band, label: `${counts[band]} return ${names[band]} flight${counts[band] === 1 ? '' : 's'} of ${distance.value} km each way`, distanceKm: distance.value, flights: counts[band] * 2 })
    }
    if (groups.length > 0) assumptions.push('Each flight-count band uses a representative one-way distance (short-haul 1,484 km, medium-haul 3,000 km, long-haul 6,799 km).')
  } else {
    const trips = query.trips ?? 1
    const roundTrip = query.round_trip ?? false
    const flightsPerLeg = trips * (roundTrip ? 2 : 1)
    inputs.trips = trips
    inputs.round_trip = roundTrip
    if (mode.mode === 'legs') {
      const legs = parseLegs(data, query.legs ?? '')
      const describe = (airport: Airport) => ({ iata: airport.iata, name: airport.name, city: airport.city, country: airport.country })
      inputs.legs = legs.map((leg) => ({ from: describe(leg.from), to: describe(leg.to), distance_km: Math.round(greatCircleKm(leg.from, leg.to) * 10) / 10 }))
      groups = legs.map((leg) => {
        const distanceKm = greatCircleKm(leg.from, leg.to)
        return { category: bandOf(data, distanceKm), label: `${leg.from.iata}-${leg.to.iata}${roundTrip ? ' and back' : ''}`, distanceKm, flights: flightsPerLeg }
      })
      assumptions.push('Leg distances are great-circle distances between the airports (haversine, Earth radius 6,371 km); the DESNZ factors add 8 % for routing and holding.')
    } else {
      const value = query.distance ?? 0
      const distanceKm = distanceToKm(value, system)
      if (distanceKm > MAX_FLIGHT_KM) {
        throw CalculatorInputError.invalid('distance', `distance ${value} ${system === 'imperial' ? 'mi' : 'km'} is longer than any flight can be (half the Earth's circumference, ${MAX_FLIGHT_KM} km)`)
      }
      inputs.distance = { value, unit: system === 'imperial' ? 'mi' : 'km' }
      inputs.distance_km = distanceKm
      groups = [{ category: bandOf(data, distanceKm), label: `${Math.round(distanceKm)} km flight${roundTrip ? ' and back' : ''}`, distanceKm, flights: flightsPerLeg }]
    }
  }
  inputs.flights = groups.reduce((sum, group) => sum + group.flights, 0)
  inputs.flown_km = Math.round(groups.reduce((sum, group) => sum + group.flights * group.distanceKm, 0) * 10) / 10

  const build = (rf: boolean): Calculation<FlightInputs> => {
    const notes: string[] = [...assumptions]
    const breakdown: BreakdownItem[] = groups.map((group) => {
      const charged = chargeFlight(data, group.distanceKm, cabin, rf)
      if (charged.assumption !== undefined) notes.push(charged.assumption)
      const note = charged.floor
        ? `${group.flights} flight${group.flights === 1 ? '' : 's'} of ${group.distanceKm.toFixed(1)} km, each charged as a ${charged.chargedKm} km ${charged.chargedBand.replace('_', '-')} flight: longer flights are never charged less than a flight at the top of a lower DESNZ band`
        : `${group.flights} flight${group.flights === 1 ? '' : 's'} x ${group.distanceKm.toFixed(1)} km`
      if (charged.floor) notes.push('A flight just above a DESNZ band boundary is charged at least as much as a flight at the top of the band below (see docs/methodology.md, "band floor").')
      return item(charged.factor, group.category, group.label, charged.chargedKm * group.flights, 'passenger-km', note)
    })
    notes.push(rf
      ? 'Radiative forcing included: DESNZ 2025 "with RF" factors (non-CO2 effects of aviation, a 1.7 multiplier on the CO2 component).'
      : 'Radiative forcing excluded: DESNZ 2025 "without RF" factors (CO2, CH4 and N2O only).')
    return { countryCode: country.code, measurementSystem: system, inputs, breakdown, assumptions: notes, used, extraSources: mode.mode === 'legs' ? ['openflights'] : [] }
  }
  const withRf = build(true)
  const withoutRf = build(false)
  return { withRf, withoutRf, selected: radiativeForcing ? withRf : withoutRf }
}

export function flightTotals (calculation: FlightCalculation): { withRfKg: number, withoutRfKg: number } {
  return { withRfKg: totalKg(calculation.withRf), withoutRfKg: totalKg(calculation.withoutRf) }
}
