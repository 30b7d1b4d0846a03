import type { DefaultUsed, Scenario } from './calculation.ts'
import type { FlightQuery } from './calculator.schemas.ts'
import { defaultsFor, systemDefault } from './countries.ts'
import type { BandRule, ChargedFlight, FlightGroup, FlightModel } from './flight.model.ts'

/** What a flight answer says about its numbers (flight.model.ts): labels, details, assumptions and defaults. */

/** Each gap-filling rule of bandFactor, in words. */
const RULES: Record<BandRule, string> = {
  domestic_every_cabin: 'Flights under 500 km use the DESNZ domestic average-passenger factor for every cabin ' +
    'class: DESNZ publishes no class split for them (methodology 8.22).',
  short_haul_first_as_business: 'Short-haul first class uses the DESNZ short-haul business factor: DESNZ\'s ' +
    'short-haul class is "First/Business" (1.5 economy seats, methodology Table 39).',
  short_haul_premium_as_business: 'Short-haul premium economy uses the DESNZ short-haul business factor: economy x ' +
    'the long-haul premium/economy ratio would exceed business (1.6 vs 1.5 economy seats, methodology Table 39), and ' +
    'a premium-economy seat is no larger than a business seat.',
  short_haul_premium_scaled: 'Short-haul premium economy = short-haul economy x the DESNZ long-haul ' +
    'premium-economy/economy ratio: DESNZ publishes no short-haul premium-economy factor.'
}

const BAND_NAMES = { short_haul: 'short-haul', medium_haul: 'medium-haul', long_haul: 'long-haul' }

export function flightDefaults (model: FlightModel, query: FlightQuery): DefaultUsed[] {
  const { mode } = model
  return [
    ...systemDefault(model.country, query),
    ...defaultsFor(query, ['cabin_class', 'radiative_forcing', 'boundary']),
    ...(mode.mode === 'legs' || mode.mode === 'distance' ? defaultsFor(query, ['trips', 'round_trip']) : [])
  ]
}

/** The assumptions every scenario shares: how the flights were counted and measured. */
export function flightAssumptions (model: FlightModel, query: FlightQuery): string[] {
  const assumptions: string[] = []
  const { mode, counts, groups } = model
  if (mode.mode === 'frequency' || mode.mode === 'flight_counts') {
    if (mode.mode === 'frequency' && query.frequency !== undefined && query.frequency !== 'never' &&
      counts !== undefined) {
      assumptions.push(
        `frequency=${query.frequency} is counted as ${counts.short_haul} short-haul, ${counts.medium_haul} ` +
          `medium-haul and ${counts.long_haul} long-haul return flights a year (Flowcarbon's profile).`)
    }
    if (groups.length > 0) {
      assumptions.push(
        'Each flight-count band uses a representative one-way distance (short-haul 1,484 km, medium-haul 3,000 km, ' +
        'long-haul 6,799 km).')
    }
  } else if (mode.mode === 'legs') {
    assumptions.push(
      'Leg distances are great-circle distances between the airports (haversine, Earth radius 6,371 km); the DESNZ ' +
        'factors add 8 % for routing and holding.')
  }
  return assumptions
}

/** A group's label in the breakdown. */
export function groupLabel (group: FlightGroup): string {
  const kind = group.kind
  if (kind.type === 'band') {
    const plural = kind.returnFlights === 1 ? '' : 's'
    return `${kind.returnFlights} return ${BAND_NAMES[kind.band]} flight${plural} of ${group.distanceKm} km each way`
  }
  if (kind.type === 'leg') return `${kind.from.iata}-${kind.to.iata}${kind.roundTrip ? ' and back' : ''}`
  return `${Math.round(group.distanceKm)} km flight${kind.roundTrip ? ' and back' : ''}`
}

/** A group's detail line, and the notes its charge adds to the scenario's assumptions. */
export function chargeText (group: FlightGroup, charged: ChargedFlight): { detail: string, notes: string[] } {
  const notes = charged.rules.map((rule) => RULES[rule])
  const flights = `${group.flights} flight${group.flights === 1 ? '' : 's'} x ${group.distanceKm.toFixed(1)} km`
  const transition = charged.transition
  if (transition === undefined) return { detail: flights, notes }
  notes.push(
    'A flight near a band boundary is charged between the two bands\' factors, so no cabin jumps: kg in a ' +
      'straight line across 300-700 km, the per-km factor by the same ratio every km across 2,700-4,700 km ' +
      '(docs/methodology.md, "transitions").')
  return {
    detail: `${flights}, within the ${transition.from}-${transition.to} km transition between the ${
      transition.lower.replace('_', '-')} and ${transition.upper.replace('_', '-')} factors`,
    notes
  }
}

/** The notes closing every scenario: radiative forcing and the bands. */
export function scenarioNotes (scenario: Scenario): string[] {
  return [
    scenario.radiativeForcing
      ? 'Radiative forcing included: DESNZ 2025 "with RF" factors (non-CO2 effects of aviation, a 1.7 multiplier on ' +
        'the CO2 component).'
      : 'Radiative forcing excluded: DESNZ 2025 "without RF" factors (CO2, CH4 and N2O only).',
    'Bands are Tonne\'s: under 500 km domestic, to 3,700 km short-haul, beyond long-haul. DESNZ 2025 defines haul ' +
      'by destination for UK flights and calls the 3,700 km rule its earlier, crude one (methodology 8.9-8.10).'
  ]
}

export const RF_METHOD = 'DESNZ 2025 "with RF" factors (a 1.7 multiplier on the CO2 component for the non-CO2 ' +
  'effects of aviation) in co2e_with_rf; "without RF" factors in co2e_without_rf; both on the answer\'s boundary'
