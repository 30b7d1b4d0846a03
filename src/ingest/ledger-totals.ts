import type { ImportRecord, TransactionType } from '../catalogue/catalogue.schemas.ts'

// A project's credit totals from its ledger (docs/api.md, "Import format"). For each type
// (issuance, retirement, cancellation) the ledger speaks when the project has at least one transaction of that
// type; otherwise the record's own totals stand (null when it gives none). So a registry that publishes a
// retirements export says "none retired" with `credits.retired: 0`, and a project the export does not cover
// keeps null ("unknown").

/** The stored ledger of one project, summed by type and vintage (null vintage: the export gives none). */
export interface LedgerSum {
  type: TransactionType
  vintage: number | null
  quantity: number
  /** The earliest date among these transactions (null when none is dated). */
  first_date: string | null
}

export type Kind = 'issued' | 'retired' | 'cancelled'
export const KIND: Record<TransactionType, Kind> = {
  issuance: 'issued', retirement: 'retired', cancellation: 'cancelled'
}
const KINDS: readonly Kind[] = ['issued', 'retired', 'cancelled']

type Amounts = Record<Kind, number | null>

export interface ProjectCredits {
  totals: Amounts
  /** Every vintage year, in the record's order (a project with a ledger: the record's and the ledger's, sorted). */
  years: number[]
  vintages: Map<number, Amounts>
  /** CORSIA eligibility per vintage as the record states it (not derived from the ledger). */
  corsia: Map<number, boolean | null>
  firstIssuanceDate: string | null
  firstRetirementDate: string | null
}

/** The record's own total of a kind: given, else the sum of its vintages' (null when no vintage says). */
function recordTotal (record: ImportRecord, kind: Kind): number | null {
  const given = record.credits?.[kind]
  if (given !== undefined && given !== null) return given
  const known = (record.credits?.vintages ?? []).map((v) => v[kind] ?? null).filter((q) => q !== null)
  return known.length === 0 ? null : tidy(known.reduce((sum, q) => sum + q, 0))
}

/**
 * The record's credits, with the ledger's in place of every kind the ledger has transactions of, and of every kind
 * in `emptied` (kinds it had transactions of until this import removed them all: 0, not the record's stale total).
 */
export function projectCredits (
  record: ImportRecord, ledger: readonly LedgerSum[], emptied: ReadonlySet<Kind> = new Set()
): ProjectCredits {
  const given = new Map((record.credits?.vintages ?? []).map((v) => [v.vintage, v]))
  const recordAmounts = (year: number): Amounts => {
    const v = given.get(year)
    return { issued: v?.issued ?? null, retired: v?.retired ?? null, cancelled: v?.cancelled ?? null }
  }
  const corsia = new Map((record.credits?.vintages ?? []).map((v) => [v.vintage, v.corsia_eligible ?? null]))
  if (ledger.length === 0 && emptied.size === 0) {
    const years = [...new Set(record.vintages)]
    return {
      totals: {
        issued: recordTotal(record, 'issued'),
        retired: recordTotal(record, 'retired'),
        cancelled: recordTotal(record, 'cancelled')
      },
      years: record.vintages,
      vintages: new Map(years.map((year) => [year, recordAmounts(year)])),
      corsia,
      firstIssuanceDate: null,
      firstRetirementDate: null
    }
  }
  const covered = new Set([...ledger.map((s) => KIND[s.type]), ...emptied])
  const years = [...new Set([...record.vintages, ...ledger.flatMap((s) => s.vintage === null ? [] : [s.vintage])])]
    .sort((a, b) => a - b)
  const vintages = new Map(years.map((year) => {
    const amounts = recordAmounts(year)
    for (const kind of covered) amounts[kind] = 0
    return [year, amounts]
  }))
  const totals: Amounts = {
    issued: covered.has('issued') ? 0 : recordTotal(record, 'issued'),
    retired: covered.has('retired') ? 0 : recordTotal(record, 'retired'),
    cancelled: covered.has('cancelled') ? 0 : recordTotal(record, 'cancelled')
  }
  const first: Partial<Record<TransactionType, string>> = {}
  for (const sum of ledger) {
    const kind = KIND[sum.type]
    totals[kind] = totals[kind]! + sum.quantity
    if (sum.vintage !== null) {
      const amounts = vintages.get(sum.vintage)!
      amounts[kind] = amounts[kind]! + sum.quantity
    }
    const earliest = first[sum.type]
    if (sum.first_date !== null && (earliest === undefined || sum.first_date < earliest)) {
      first[sum.type] = sum.first_date
    }
  }
  for (const kind of KINDS) totals[kind] = tidy(totals[kind])
  for (const amounts of vintages.values()) for (const kind of KINDS) amounts[kind] = tidy(amounts[kind])
  return {
    totals,
    years,
    vintages,
    corsia,
    firstIssuanceDate: first.issuance ?? null,
    firstRetirementDate: first.retirement ?? null
  }
}

/**
 * A sum of registry quantities without binary noise (0.1 + 0.2 is 0.30000000000000004 in floating point):
 * registries write at most three decimals, so six are exact for any sum a catalogue holds.
 */
function tidy (quantity: number | null): number | null {
  return quantity === null ? null : Math.round(quantity * 1e6) / 1e6
}
