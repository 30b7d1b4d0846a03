import {
  InvalidParameterError, ProjectNotFoundError, vocabularyNameId, vocabularyValues, type CountMemo
} from '../catalogue/catalogue-shared.ts'
import { isCalendarDay } from '../domain/calendar.ts'
import { beneficiaryKey } from './beneficiary-key.ts'
import type { Db } from '../store/database.ts'
import {
  LEDGER_ORDERING_DEFAULT, type LedgerItem, type LedgerQuery, type LedgerTotals, type LedgerTotalsQuery,
  type ProjectLedgerQuery, type Transaction, type TransactionCsvRow
} from './transactions.schemas.ts'
import * as repository from './transactions.repository.ts'
import { toTransaction } from './transaction.mapper.ts'
import { firstDay, lastDay, seekByMonth, summaryCount, type SummaryRow } from './ledger-summary.ts'

/** The filters (of either route), checked against the database and normalised; a bad one is InvalidParameterError. */
async function resolveLedgerFilters (db: Db, query: LedgerTotalsQuery): Promise<repository.LedgerFilters> {
  const filters: repository.LedgerFilters = {}
  if (query.project !== undefined) {
    if (!await repository.projectExists(db, query.project)) {
      throw new InvalidParameterError('project', `project ${query.project} is not a project of this catalogue.`)
    }
    filters.projectId = query.project
  }
  if (query.type !== undefined) filters.type = query.type
  if (query.vintage !== undefined) filters.vintage = query.vintage
  if (query.registry !== undefined) {
    // Case does not matter, as in the products filter: registry=verra is VERRA.
    const nameId = await vocabularyNameId(db, 'registries', query.registry)
    if (nameId === undefined) {
      const allowed = await vocabularyValues(db, 'registries')
      throw new InvalidParameterError('registry',
        `registry "${query.registry}" is not a known value; valid values: ${allowed.join(', ')}.`, allowed)
    }
    filters.registry = nameId
  }
  if (query.date_after !== undefined) filters.dateAfter = parseDay('date_after', query.date_after)
  if (query.date_before !== undefined) filters.dateBefore = parseDay('date_before', query.date_before)
  // Folded as the import folds beneficiary_key, so the two always agree.
  const search = query.search === undefined ? undefined : beneficiaryKey(query.search.trim())
  if (search !== undefined && search !== '') filters.search = search
  return filters
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** A calendar day as YYYY-MM-DD (the stored form), or the parameter's 400. */
function parseDay (parameter: string, text: string): string {
  const match = DAY.exec(text.trim())
  const [year, month, day] = (match ?? []).slice(1).map(Number) as [number, number, number]
  if (match === null || !isCalendarDay(year, month, day)) {
    throw new InvalidParameterError(parameter,
      `${parameter} "${text.slice(0, 40)}" is not a calendar day written YYYY-MM-DD (e.g. 2021-06-30).`)
  }
  return match![0]
}

function parseLedgerOrdering (ordering: LedgerQuery['ordering']): repository.LedgerOrder {
  const text = ordering ?? LEDGER_ORDERING_DEFAULT
  const descending = text.startsWith('-')
  return { field: (descending ? text.slice(1) : text) as repository.LedgerOrder['field'], descending }
}

type Page = { count: number, items: LedgerItem[] }

/**
 * What a page is read with besides the database: the catalogue version it reads (imports change it) and where
 * counts are remembered (the answer cache, keyed by that version).
 */
export interface LedgerReads {
  version: string
  counts: CountMemo
}

/** A page of the whole ledger (of one project's with `project`), and how many transactions match. */
export async function listLedgerPage (db: Db, query: LedgerQuery, reads: LedgerReads): Promise<Page> {
  return await ledgerPage(db, await resolveLedgerFilters(db, query), query, reads)
}

/** A page of one project's ledger; an unknown project is ProjectNotFoundError. */
export async function listProjectLedgerPage (
  db: Db, projectId: number, query: ProjectLedgerQuery, reads: LedgerReads
): Promise<Page> {
  if (!await repository.projectExists(db, projectId)) throw new ProjectNotFoundError(projectId)
  const filters = { projectId, ...await resolveLedgerFilters(db, query) }
  return await ledgerPage(db, filters, query, reads)
}

/**
 * The ledger's summary (ledger-summary.ts) of the version last asked for, per database: built by one pass over
 * the table when a version is first read (concurrent requests share it), dropped when a newer version is read.
 */
const summaries = new WeakMap<Db, {
  version: string, rows: Promise<SummaryRow[]>, byColumns: Map<string, SummaryRow[]>
}>()

/** Column filters remembered per version (each a month list of at most a few hundred rows). */
const MAX_COLUMN_FILTERS = 256

/**
 * The summary's rows for one (type, registry, vintage) filter, folded into one row per month: the first page of
 * a filter reads the whole summary once, later ones a few hundred rows.
 */
async function summaryOf (db: Db, version: string, filters: repository.LedgerFilters): Promise<SummaryRow[]> {
  let held = summaries.get(db)
  if (held?.version !== version) {
    const rows = repository.ledgerSummary(db)
    held = { version, rows, byColumns: new Map() }
    summaries.set(db, held)
    // A failed read is not kept: the next request tries again.
    rows.catch(() => { if (summaries.get(db)?.rows === rows) summaries.delete(db) })
  }
  const { type, registry, vintage } = filters
  const key = JSON.stringify([type, registry, vintage])
  const known = held.byColumns.get(key)
  if (known !== undefined) return known
  const months = new Map<string | null, number>()
  for (const row of await held.rows) {
    if ((type !== undefined && row.type !== type) || (registry !== undefined && row.registry !== registry) ||
      (vintage !== undefined && row.vintage !== vintage)) continue
    months.set(row.month, (months.get(row.month) ?? 0) + row.count)
  }
  // Folded rows keep the filter's own values, so summaryCount reads them as it reads the full summary.
  const folded = [...months].map(([month, count]) => ({
    registry: registry ?? '', type: type ?? 'issuance' as const, vintage: vintage ?? null, month, count
  }))
  if (held.byColumns.size >= MAX_COLUMN_FILTERS) held.byColumns.clear()
  held.byColumns.set(key, folded)
  return folded
}

/**
 * How many transactions match, per month, from the summary, the months a date range cuts counted by the database
 * (an index range of at most two months each); undefined for filters the summary cannot answer.
 */
async function monthCounts (db: Db, filters: repository.LedgerFilters, version: string): Promise<{
  months: Array<{ month: string, count: number }>, undated: number
} | undefined> {
  if (filters.projectId !== undefined || filters.search !== undefined) return undefined
  const counted = summaryCount(await summaryOf(db, version, filters), filters)
  if (counted === undefined) return undefined
  const cut = await Promise.all(counted.partial.map(async (month) => ({
    month,
    count: await repository.countTransactions(db, {
      ...filters,
      dateAfter: filters.dateAfter !== undefined && filters.dateAfter > firstDay(month)
        ? filters.dateAfter
        : firstDay(month),
      dateBefore: filters.dateBefore !== undefined && filters.dateBefore < lastDay(month)
        ? filters.dateBefore
        : lastDay(month)
    }, undefined)
  })))
  const months = [...counted.months, ...cut].sort((a, b) => a.month < b.month ? -1 : a.month > b.month ? 1 : 0)
  return { months, undated: counted.undated }
}

async function ledgerPage (
  db: Db, filters: repository.LedgerFilters, query: ProjectLedgerQuery, reads: LedgerReads
): Promise<Page> {
  const order = parseLedgerOrdering(query.ordering)
  const months = await monthCounts(db, filters, reads.version)
  if (months !== undefined) {
    const dated = months.months.reduce((sum, month) => sum + month.count, 0)
    const seek: repository.PageSeek = { dated }
    if (order.field === 'date' && query.offset > 0 && query.offset < dated) {
      const at = seekByMonth(months.months, order.descending, query.offset)
      if ('month' in at) {
        seek.from = { day: order.descending ? lastDay(at.month) : firstDay(at.month), skipped: at.skipped }
      }
    }
    const rows = await repository.listTransactions(db, filters, order, query.limit, query.offset, undefined, seek)
    return { count: dated + months.undated, items: await withIdentities(db, rows) }
  }
  // How a search is read (its matches' ids, or only their number) is decided by its index first.
  const plan = filters.search === undefined ? undefined : await repository.planSearch(db, filters.search)
  // The filters are built in one fixed order, so equal filters give equal text.
  const [count, rows] = await Promise.all([
    reads.counts(`ledger ${JSON.stringify(filters)}`,
      async () => await repository.countTransactions(db, filters, plan)),
    repository.listTransactions(db, filters, order, query.limit, query.offset, plan)
  ])
  return { count, items: await withIdentities(db, rows) }
}

/** The page's rows as items, each project named once (its registry id and name), in one query. */
async function withIdentities (db: Db, rows: repository.TransactionRow[]): Promise<Page['items']> {
  const identities = await repository.projectIdentities(db, [...new Set(rows.map((row) => row.project_id))])
  const named = new Map(identities.map((identity) => [identity.id, identity]))
  return rows.map((row) => ({
    ...toTransaction(row),
    project_external_id: named.get(row.project_id)?.external_id ?? '',
    project_name: named.get(row.project_id)?.name ?? ''
  }))
}

/** Per type, how many transactions match the filters and their credits (the whole-ledger page's totals). */
export async function ledgerTotals (db: Db, query: LedgerTotalsQuery): Promise<LedgerTotals> {
  const filters = await resolveLedgerFilters(db, query)
  const plan = filters.search === undefined ? undefined : await repository.planSearch(db, filters.search)
  const sums = await repository.sumTransactions(db, filters, plan)
  const of = (type: repository.TransactionType) => {
    const found = sums.find((sum) => sum.type === type)
    // Sums of decimal quantities without binary noise (0.1 + 0.2 is 0.3); quantities have at most a few decimals.
    return { count: found?.count ?? 0, quantity: Math.round((found?.quantity ?? 0) * 1e6) / 1e6 }
  }
  return {
    count: sums.reduce((total, sum) => total + sum.count, 0),
    by_type: { issuance: of('issuance'), retirement: of('retirement'), cancellation: of('cancellation') }
  }
}

/** Transactions read per query when a whole ledger is written out (CSV). */
export const CSV_BATCH = 1000

/**
 * Every transaction matching the query, in its order, a batch at a time (the CSV download), each batch found from
 * where the last ended (a keyset), so the download reads every row once and an import meanwhile neither repeats
 * nor skips one at a batch's edge. The filters are resolved first, so a bad one is refused before anything is
 * streamed.
 */
export async function allMatchingTransactions (
  db: Db, query: ProjectLedgerQuery & { project?: number | undefined }, projectId?: number
): Promise<AsyncIterable<Transaction>> {
  if (projectId !== undefined && !await repository.projectExists(db, projectId)) {
    throw new ProjectNotFoundError(projectId)
  }
  const filters = { ...await resolveLedgerFilters(db, query), ...(projectId !== undefined && { projectId }) }
  const order = parseLedgerOrdering(query.ordering)
  const plan = filters.search === undefined ? undefined : await repository.planSearch(db, filters.search)
  const ids = plan !== undefined && 'ids' in plan ? plan.ids : undefined
  return (async function * () {
    if (ids?.length === 0) return
    let cursor: repository.LedgerCursor | undefined
    for (;;) {
      const rows = await repository.listTransactionsAfter(db, filters, order, CSV_BATCH, cursor, ids)
      for (const row of rows) yield toTransaction(row)
      if (rows.length < CSV_BATCH) return
      const last = rows[rows.length - 1]!
      cursor = { value: order.field === 'date' ? last.date : last.quantity, id: last.id }
    }
  })()
}

/** Transactions read before their projects are looked up, in one query per batch. */
const IDENTITY_BATCH = 500

/**
 * Each transaction with its project's identity (registry id, name, registry), for the CSV: looked up a batch at a
 * time, and each project once per download.
 */
export async function * withProjectIdentity (
  db: Db, transactions: AsyncIterable<Transaction>
): AsyncGenerator<TransactionCsvRow> {
  const known = new Map<number, repository.ProjectIdentityRow>()
  let batch: Transaction[] = []
  const flush = async function * () {
    const missing = [...new Set(batch.map((t) => t.project_id))].filter((id) => !known.has(id))
    for (const row of await repository.projectIdentities(db, missing)) known.set(row.id, row)
    for (const t of batch) yield { ...t, project: known.get(t.project_id) }
    batch = []
  }
  for await (const transaction of transactions) {
    batch.push(transaction)
    if (batch.length >= IDENTITY_BATCH) yield * flush()
  }
  yield * flush()
}
