import type { LedgerFilters, TransactionType } from './transactions.repository.ts'

// How many transactions match a filter, and where a deep page begins, read from the ledger's summary instead of
// its rows: one row per (registry, type, vintage, month) with its count, built once per catalogue version
// (transactions.service.ts). Pure: the service counts in SQL only what the summary cannot say.

export interface SummaryRow {
  registry: string
  type: TransactionType
  vintage: number | null
  /** YYYY-MM, or null for the undated transactions. */
  month: string | null
  count: number
}

/** What the summary says of one filter (undefined: a filter it cannot answer, `project` or `search`). */
interface SummaryCount {
  /** Matching dated transactions per month, months fully inside the date range only, in ascending order. */
  months: Array<{ month: string, count: number }>
  /** Months the date range cuts, whose matches the database counts (at most two: the range's ends). */
  partial: string[]
  undated: number
}

export const firstDay = (month: string): string => `${month}-01`
// Every stored day of the month compares at or below its 31st (dates are YYYY-MM-DD text).
export const lastDay = (month: string): string => `${month}-31`

export function summaryCount (rows: readonly SummaryRow[], filters: LedgerFilters): SummaryCount | undefined {
  if (filters.projectId !== undefined || filters.search !== undefined) return undefined
  const { type, registry, vintage, dateAfter, dateBefore } = filters
  const dateFiltered = dateAfter !== undefined || dateBefore !== undefined
  const full = new Map<string, number>()
  const partial = new Set<string>()
  let undated = 0
  for (const row of rows) {
    if ((type !== undefined && row.type !== type) || (registry !== undefined && row.registry !== registry) ||
      (vintage !== undefined && row.vintage !== vintage)) continue
    if (row.month === null) {
      if (!dateFiltered) undated += row.count
      continue
    }
    const first = firstDay(row.month)
    const last = lastDay(row.month)
    if ((dateAfter !== undefined && dateAfter > last) || (dateBefore !== undefined && dateBefore < first)) continue
    if ((dateAfter !== undefined && dateAfter > first) || (dateBefore !== undefined && dateBefore < last)) {
      partial.add(row.month)
    } else {
      full.set(row.month, (full.get(row.month) ?? 0) + row.count)
    }
  }
  const months = [...full].map(([month, count]) => ({ month, count }))
    .sort((a, b) => a.month < b.month ? -1 : a.month > b.month ? 1 : 0)
  return { months, partial: [...partial].sort(), undated }
}

/** Where offset `offset` lies in date order: in a month (`skipped` matches come before it) or among the undated. */
type Seek = { month: string, skipped: number } | { undatedOffset: number }

/** `months`: every month's matches (partial months counted), ascending. */
export function seekByMonth (
  months: ReadonlyArray<{ month: string, count: number }>, descending: boolean, offset: number
): Seek {
  let skipped = 0
  for (let i = 0; i < months.length; i++) {
    const { month, count } = months[descending ? months.length - 1 - i : i]!
    if (skipped + count > offset) return { month, skipped }
    skipped += count
  }
  return { undatedOffset: offset - skipped }
}
