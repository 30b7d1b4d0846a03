import type { Factor, FactorStatus } from './data-files.ts'
import type { MeasurementSystem } from './units.ts'

/**
 * The shape every calculation returns before presentation: unrounded numbers, a breakdown
 * whose entries each equal quantity x factor, and every factor that was touched (so the
 * response can list assumptions, unchecked values, country figures and sources without
 * hand-written lists). A calculation is run once per scenario (boundary, radiative forcing,
 * electricity method, interval end); answer.ts combines the runs.
 */

/** life_cycle: direct emissions plus upstream (well-to-tank) and losses; combustion: direct only. */
export const BOUNDARIES = ['life_cycle', 'combustion'] as const
export type Boundary = typeof BOUNDARIES[number]
/** GHG Protocol Scope 2 methods for electricity. */
export const ELECTRICITY_METHODS = ['location_based', 'market_based'] as const
type ElectricityMethod = typeof ELECTRICITY_METHODS[number]
/** Which end of a cited interval of an input a run uses. */
type Bound = 'central' | 'low' | 'high'

export interface Scenario {
  boundary: Boundary
  /** Flights: DESNZ "with RF" factors. */
  radiativeForcing: boolean
  /** Energy: which Scope 2 method the electricity is counted by. */
  method: ElectricityMethod
  bound: Bound
}

export interface BreakdownItem {
  category: string
  label: string
  /** kg CO2e = quantity x factor.value, never set any other way. */
  kg: number
  quantity: number
  quantityUnit: string
  factor: Factor
  note: string | undefined
  /** The cited intervals this entry's low and high runs used (e.g. a study's 95 % range). */
  intervals: string[]
}

export interface DefaultUsed {
  parameter: string
  value: string | number | boolean
  basis: string
}

export interface Calculation<Inputs> {
  countryCode: string
  measurementSystem: MeasurementSystem
  inputs: Inputs
  breakdown: BreakdownItem[]
  /** Plain-language assumptions specific to this request. */
  assumptions: string[]
  /** Every factor used, including parameters and country figures that only shaped a quantity. */
  used: Factor[]
  /** Parameters that were left out, the defaults that stood in and where each comes from. */
  defaults: DefaultUsed[]
  /** Sources of data that are not factors (e.g. airport coordinates). */
  extraSources?: string[]
}

/** A derived factor also carries the factors it was computed from. */
interface DerivedFactor extends Factor {
  derivation: string
  parts: Factor[]
}

export function item (factor: Factor, category: string, label: string, quantity: number, quantityUnit: string,
  note?: string, intervals: string[] = []): BreakdownItem {
  return { category, label, kg: quantity * factor.value, quantity, quantityUnit, factor, note, intervals }
}

export function totalKg (calculation: Pick<Calculation<unknown>, 'breakdown'>): number {
  return calculation.breakdown.reduce((sum, entry) => sum + entry.kg, 0)
}

const STATUS_RANK: Record<FactorStatus, number> = { published: 0, unverified: 1, assumption: 2 }

/** A factor computed from others: its status is the weakest of its parts. */
export function derive (parts: Factor[],
  spec: {
    key: string,
    id: string,
    value: number,
    unit: string,
    description: string,
    derivation: string,
    status?: FactorStatus
  }): DerivedFactor {
  const first = parts[0]
  if (first === undefined) throw new Error(`derived factor ${spec.key} has no parts`)
  const weakest = parts.reduce<FactorStatus>((worst, part) => STATUS_RANK[part.status] > STATUS_RANK[worst]
    ? part.status
    : worst, spec.status ?? 'published')
  return { ...spec, source: first.source, status: weakest, parts }
}

/**
 * A direct factor, or on the life-cycle boundary the direct factor plus its upstream parts
 * (DESNZ well-to-tank rows, distribution losses), as one derived factor.
 */
export function onBoundary (boundary: Boundary, direct: Factor, upstream: Factor[], what: string): Factor {
  if (boundary === 'combustion' || upstream.length === 0) return direct
  const value = upstream.reduce((sum, part) => sum + part.value, direct.value)
  return derive([direct, ...upstream], {
    key: `derived:life_cycle:${direct.key}`,
    id: `${direct.id}+${upstream.map((part) => part.id.slice(part.id.indexOf(':') + 1)).join('+')}`,
    value,
    unit: direct.unit,
    description: `${what}: direct emissions plus upstream (well-to-tank)`,
    derivation: [direct, ...upstream].map((part) => `${part.value} (${part.id})`).join(' + ')
  })
}

export function isDerived (factor: Factor): factor is DerivedFactor {
  return 'parts' in factor
}

/** All leaf factors behind `factors`, derived ones expanded, without duplicates. */
export function leafFactors (factors: Factor[]): Factor[] {
  const seen = new Map<string, Factor>()
  const visit = (factor: Factor): void => {
    if (isDerived(factor)) { factor.parts.forEach(visit); return }
    seen.set(factor.key, factor)
  }
  factors.forEach(visit)
  return [...seen.values()]
}

/** "1 country", "3 countries": counts in generated sentences. */
export function plural (count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`
}
