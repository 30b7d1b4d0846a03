import { InvalidParameterError, ProjectNotFoundError } from '../catalogue/catalogue.errors.ts'
import { isCalendarDay } from '../domain/calendar.ts'
import { beneficiaryKey } from './beneficiary-key.ts'
import { vocabularyNameId, vocabularyValues } from '../catalogue/projects.repository.ts'
import type { CountMemo } from '../catalogue/projects.service.ts'
import type { Db } from '../store/database.ts'
import {
  LEDGER_ORDERING_DEFAULT, type LedgerItem, type LedgerQuery, type LedgerTotals, type LedgerTotalsQuery,
  type ProjectLedgerQuery, type Transaction, type TransactionCsvRow
} from './transactions.schemas.ts'
import * as repository from './transactions.repository.ts'

/** The filters (of either route), checked against the database and normalised; a bad one is InvalidParameterError. */
export async function resolveLedgerFilters (db: Db, query: LedgerTotalsQuery): Promise<repository.LedgerFilters> {
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
export function parseDay (parameter: string, text: string): string {
  const match = DAY.exec(text.trim())
  const [year, month, day] = (match ?? []).slice(1).map(Number) as [number, number, number]
  if (match === null || !isCalendarDay(year, month, day)) {
    throw new InvalidParameterError(parameter,
      `${parameter} "${text.slice(0, 40)}" is not a calendar day written YYYY-MM-DD (e.g. 2021-06-30).`)
  }
  return match![0]
}

export function parseLedgerOrdering (ordering: LedgerQuery['ordering']): repository.LedgerOrder {
  const text = ordering ?? LEDGER_ORDERING_DEFAULT
  const descending = text.startsWith('-')
  return { field: (descending ? text.slice(1) : text) as repository.LedgerOrder['field'], descending }
}

export function toTransaction (row: repository.TransactionRow): Transaction {
  return {
    id: row.id,
    transaction_id: row.identity,
    project_id: row.project_id,
    type: row.type,
    date: row.date,
    vintage: row.vintage,
    quantity: row.quantity,
    beneficiary: row.beneficiary,
    reason: row.reason,
    note: row.note,
    account: row.account,
    serials: row.serials,
    vintage_start: row.vintage_start,
    vintage_end: row.vintage_end,
    source: row.source_file === null ? null : { file: row.source_file, line: row.source_line }
  }
}

type Page = { count: number, items: LedgerItem[] }

/** A page of the whole ledger (of one project's with `project`), and how many transactions match. */
export async function listLedgerPage (db: Db, query: LedgerQuery, counts: CountMemo): Promise<Page> {
  return await ledgerPage(db, await resolveLedgerFilters(db, query), query, counts)
}

/** A page of one project's ledger; an unknown project is ProjectNotFoundError. */
export async function listProjectLedgerPage (
  db: Db, projectId: number, query: ProjectLedgerQuery, counts: CountMemo
): Promise<Page> {
  if (!await repository.projectExists(db, projectId)) throw new ProjectNotFoundError(projectId)
  const filters = { projectId, ...await resolveLedgerFilters(db, query) }
  return await ledgerPage(db, filters, query, counts)
}

async function ledgerPage (
  db: Db, filters: repository.LedgerFilters, query: ProjectLedgerQuery, counts: CountMemo
): Promise<Page> {
  const order = parseLedgerOrdering(query.ordering)
  // How a search is read (its matches' ids, or only their number) is decided by its index first.
  const plan = filters.search === undefined ? undefined : await repository.planSearch(db, filters.search)
  // The filters are built in one fixed order, so equal filters give equal text.
  const [count, rows] = await Promise.all([
    counts(`ledger ${JSON.stringify(filters)}`, async () => await repository.countTransactions(db, filters, plan)),
    repository.listTransactions(db, filters, order, query.limit, query.offset, plan)
  ])
  // Each project on the page named once (its registry id and name), in one query.
  const identities = await repository.projectIdentities(db, [...new Set(rows.map((row) => row.project_id))])
  const named = new Map(identities.map((identity) => [identity.id, identity]))
  return {
    count,
    items: rows.map((row) => ({
      ...toTransaction(row),
      project_external_id: named.get(row.project_id)?.external_id ?? '',
      project_name: named.get(row.project_id)?.name ?? ''
    }))
  }
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
const CSV_BATCH = 1000

/**
 * Every transaction matching the query, in its order, a batch at a time (the CSV download). The filters are
 * resolved first, so a bad one is refused before anything is streamed.
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
  return (async function * () {
    for (let offset = 0; ; offset += CSV_BATCH) {
      const rows = await repository.listTransactions(db, filters, order, CSV_BATCH, offset, plan)
      for (const row of rows) yield toTransaction(row)
      if (rows.length < CSV_BATCH) return
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
