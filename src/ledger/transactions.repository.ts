import { sql, type Insertable, type SqlBool } from 'kysely'
import type { CreditTransactionTable, Db } from '../store/database.ts'

// All ledger SQL lives here. Functions take the database (or a transaction) first and deal in rows.

export type TransactionType = CreditTransactionTable['type']

export interface LedgerFilters {
  projectId?: number
  type?: TransactionType
  vintage?: number
  /** A stored registry name_id. */
  registry?: string
  /** YYYY-MM-DD, inclusive. */
  dateAfter?: string
  dateBefore?: string
  /** Folded text (see foldBeneficiary) to find inside beneficiary_key. */
  search?: string
}

export interface LedgerOrder {
  field: 'date' | 'quantity'
  descending: boolean
}

export interface TransactionRow {
  id: number
  project_id: number
  type: TransactionType
  date: string | null
  vintage: number | null
  quantity: number
  beneficiary: string | null
  reason: string | null
  source_file: string | null
  source_line: number | null
}

const COLUMNS = ['t.id', 't.project_id', 't.type', 't.date', 't.vintage', 't.quantity', 't.beneficiary', 't.reason',
  't.source_file', 't.source_line'] as const

/** `dated`: only transactions with a date (true) or without one (false). */
function filtered (db: Db, filters: LedgerFilters, dated?: boolean) {
  let query = db.selectFrom('credit_transactions as t')
  if (dated !== undefined) query = query.where('t.date', dated ? 'is not' : 'is', null)
  const { projectId, type, vintage, registry, dateAfter, dateBefore, search } = filters
  if (projectId !== undefined) query = query.where('t.project_id', '=', projectId)
  if (type !== undefined) query = query.where('t.type', '=', type)
  if (vintage !== undefined) query = query.where('t.vintage', '=', vintage)
  if (registry !== undefined) query = query.where('t.registry', '=', registry)
  if (dateAfter !== undefined) query = query.where('t.date', '>=', dateAfter)
  if (dateBefore !== undefined) query = query.where('t.date', '<=', dateBefore)
  if (search !== undefined) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    query = query.where(sql<SqlBool>`t.beneficiary_key like ${pattern} escape '\\'`)
  }
  return query
}

export async function countTransactions (db: Db, filters: LedgerFilters, dated?: boolean): Promise<number> {
  const row = await filtered(db, filters, dated).select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()
  // PostgreSQL returns count(*) as a bigint string.
  return Number(row.count)
}

/**
 * One page in `order`, id breaking ties in the same direction, so that every ordering is one walk of an index
 * (migration 0007: (date, id), (quantity, id) and their filtered variants), forwards or backwards.
 * Undated transactions come after the dated ones in both directions. Each database puts nulls at another end of
 * an index (SQLite first, PostgreSQL last), and a NULLS LAST that goes against the index makes both sort every
 * matching row; so the dated rows are one indexed query and the undated ones, when a page reaches them, another.
 */
export async function listTransactions (
  db: Db, filters: LedgerFilters, order: LedgerOrder, limit: number, offset: number
): Promise<TransactionRow[]> {
  const direction = order.descending ? 'desc' : 'asc'
  if (order.field === 'quantity') return await page(db, filtered(db, filters), 'quantity', direction, limit, offset)
  const dated = await page(db, filtered(db, filters, true), 'date', direction, limit, offset)
  if (dated.length === limit) return dated
  // The page ends past the last dated row: an empty one means `offset` lies beyond them all, by how many is a count.
  const undatedOffset = dated.length > 0 ? 0 : offset - await countTransactions(db, filters, true)
  const undated = await page(db, filtered(db, filters, false), undefined, direction, limit - dated.length,
    undatedOffset)
  return [...dated, ...undated]
}

type Filtered = ReturnType<typeof filtered>

/**
 * The page's ids first (OFFSET walks every row it skips, so it walks an index, not rows), then those rows.
 * `field` undefined: id order alone.
 */
async function page (
  db: Db, query: Filtered, field: 'date' | 'quantity' | undefined, direction: 'asc' | 'desc', limit: number,
  offset: number
): Promise<TransactionRow[]> {
  let ids = query.select('t.id')
  if (field !== undefined) ids = ids.orderBy(`t.${field}`, direction)
  ids = ids.orderBy('t.id', direction).limit(limit).offset(offset)
  let rows = db.selectFrom('credit_transactions as t').select(COLUMNS).where('t.id', 'in', ids)
  if (field !== undefined) rows = rows.orderBy(`t.${field}`, direction)
  return await rows.orderBy('t.id', direction).execute()
}

export async function projectExists (db: Db, id: number): Promise<boolean> {
  return await db.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst() !== undefined
}

/** Rows per INSERT: keeps every statement under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 400

/** Inserts transactions as they are (no upsert): for seeding a benchmark's synthetic ledger. */
export async function insertTransactions (db: Db, rows: ReadonlyArray<Insertable<CreditTransactionTable>>):
Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.insertInto('credit_transactions').values(rows.slice(i, i + CHUNK)).execute()
  }
}
