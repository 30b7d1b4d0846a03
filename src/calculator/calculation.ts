import type { CalculatorData, Factor, FactorStatus } from './calculator.data.ts'
import { kgToLb, type MeasurementSystem } from './units.ts'

/**
 * The shape every calculation returns before presentation: unrounded numbers, a breakdown
 * whose entries each equal quantity x factor, and every factor that was touched (so the
 * response can list assumptions, unchecked values and sources without hand-written lists).
 */

export interface BreakdownItem {
  category: string
  label: string
  /** kg CO2e = quantity x factor.value, never set any other way. */
  kg: number
  quantity: number
  quantityUnit: string
  factor: Factor
  note: string | undefined
}

export interface Calculation<Inputs> {
  countryCode: string
  measurementSystem: MeasurementSystem
  inputs: Inputs
  breakdown: BreakdownItem[]
  /** Plain-language assumptions specific to this request. */
  assumptions: string[]
  /** Every factor used, including parameters that only shaped a quantity. */
  used: Factor[]
  /** Sources of data that are not factors (e.g. airport coordinates). */
  extraSources?: string[]
}

/** A derived factor also carries the factors it was computed from. */
export interface DerivedFactor extends Factor {
  derivation: string
  parts: Factor[]
}

export function item (factor: Factor, category: string, label: string, quantity: number, quantityUnit: string, note?: string): BreakdownItem {
  return { category, label, kg: quantity * factor.value, quantity, quantityUnit, factor, note }
}

export function totalKg (calculation: Pick<Calculation<unknown>, 'breakdown'>): number {
  return calculation.breakdown.reduce((sum, entry) => sum + entry.kg, 0)
}

const STATUS_RANK: Record<FactorStatus, number> = { published: 0, unverified: 1, assumption: 2 }

/** A factor computed from others: its status is the weakest of its parts. */
export function derive (parts: Factor[], spec: { key: string, id: string, value: number, unit: string, description: string, derivation: string, status?: FactorStatus }): DerivedFactor {
  const first = parts[0]
  if (first === undefined) throw new Error(`derived factor ${spec.key} has no parts`)
  const weakest = parts.reduce<FactorStatus>((worst, part) => STATUS_RANK[part.status] > STATUS_RANK[worst] ? part.status : worst, spec.status ?? 'published')
  return { ...spec, source: first.source, status: weakest, parts }
}

function isDerived (factor: Factor): factor is DerivedFactor {
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

// ---- presentation ----

/** Half-up decimal rounding; shifting by exponent avoids 0.565 * 100 = 56.49999. */
export function round (value: number, decimals: number): number {
  let rounded = Number(`${Math.round(Number(`${value}e${decimals}`))}e-${decimals}`)
  // Values already printed in exponent form (5e-324, 1e+21) do not take the shift.
  if (!Number.isFinite(rounded)) rounded = Math.round(value * 10 ** decimals) / 10 ** decimals
  return rounded === 0 ? 0 : rounded // no "-0" in JSON
}

export interface Mass { kg: number, t: number, lb: number }

export function mass (kg: number): Mass {
  return { kg: round(kg, 2), t: round(kg / 1000, 4), lb: round(kgToLb(kg), 2) }
}

export interface PresentedSource { id: string, name: string, publisher: string, year?: number, licence: string, url?: string, attribution?: string }

export function presentSources (data: CalculatorData, ids: Iterable<string>): PresentedSource[] {
  const unique = [...new Set(ids)]
  return unique.map((id) => {
    const source = data.sources.get(id)
    if (source === undefined) throw new Error(`source "${id}" is not loaded`)
    return {
      id: source.id,
      name: source.name,
      publisher: source.publisher,
      ...(source.year === undefined ? {} : { year: source.year }),
      licence: source.licence,
      ...(source.url === undefined ? {} : { url: source.url }),
      ...(source.attribution === undefined ? {} : { attribution: source.attribution })
    }
  })
}

export interface PresentedItem {
  category: string
  label: string
  kg_co2e: number
  quantity: number
  quantity_unit: string
  factor: number
  factor_unit: string
  factor_id: string
  factor_status: FactorStatus
  source: string
  derivation?: string
  note?: string
}

export function presentItem (entry: BreakdownItem): PresentedItem {
  const derivation = isDerived(entry.factor) ? entry.factor.derivation : undefined
  return {
    category: entry.category,
    label: entry.label,
    kg_co2e: round(entry.kg, 2),
    quantity: round(entry.quantity, 3),
    quantity_unit: entry.quantityUnit,
    // Derived factors carry float noise (570.1724137931035); 6 significant digits keep
    // quantity x factor within 0.001 % of kg_co2e and leave published factors unchanged.
    factor: Number(entry.factor.value.toPrecision(6)),
    factor_unit: entry.factor.unit,
    factor_id: entry.factor.id,
    factor_status: entry.factor.status,
    source: entry.factor.source,
    ...(derivation === undefined ? {} : { derivation }),
    ...(entry.note === undefined ? {} : { note: entry.note })
  }
}

/** Assumption lines: the request's own, then each design assumption used, then unchecked values. */
export function presentAssumptions (calculation: Calculation<unknown>): string[] {
  const leaves = leafFactors([...calculation.used, ...calculation.breakdown.map((entry) => entry.factor)])
  const lines = [...calculation.assumptions]
  for (const factor of leaves.filter((f) => f.status === 'assumption')) {
    lines.push(`Assumption (${factor.id} = ${factor.value} ${factor.unit}): ${factor.description}`)
  }
  const unverified = leaves.filter((f) => f.status === 'unverified')
  if (unverified.length > 0) {
    lines.push(`Not yet checked against the official source (transcribed by a third party): ${unverified.map((f) => `${f.id} = ${f.value} ${f.unit}`).join('; ')}`)
  }
  return [...new Set(lines)]
}

export interface PresentedCalculation<Inputs> {
  country_code: string
  measurement_system: MeasurementSystem
  t_co2: number
  ton: 't'
  co2e: Mass
  period: 'year'
  per: 'person'
  inputs: Inputs
  breakdown: PresentedItem[]
  assumptions: string[]
  sources: PresentedSource[]
}

export function present<Inputs> (data: CalculatorData, calculation: Calculation<Inputs>, extraFactors: Factor[] = []): PresentedCalculation<Inputs> {
  const kg = totalKg(calculation)
  const leaves = leafFactors([...calculation.breakdown.map((entry) => entry.factor), ...calculation.used, ...extraFactors])
  return {
    country_code: calculation.countryCode,
    measurement_system: calculation.measurementSystem,
    t_co2: round(kg / 1000, 2),
    ton: 't',
    co2e: mass(kg),
    period: 'year',
    per: 'person',
    inputs: calculation.inputs,
    breakdown: calculation.breakdown.map(presentItem),
    assumptions: presentAssumptions(calculation),
    sources: presentSources(data, [...leaves.map((factor) => factor.source), ...(calculation.extraSources ?? [])])
  }
}
