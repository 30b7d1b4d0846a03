import { sql, type Insertable, type SqlBool } from 'kysely'
import {
  CHUNK, databaseKind, type CreditTransactionRow, type CreditTransactionTable, type Db
} from '../store/database.ts'

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
  /** Folded text (beneficiary-key.ts) to find inside beneficiary_key. */
  search?: string
}

export interface LedgerOrder {
  field: 'date' | 'quantity'
  descending: boolean
}

/** A transaction as the API shows it: this database's id and the registry's identity. */
export type TransactionRow = Omit<CreditTransactionRow, 'registry' | 'beneficiary_key' | 'url' |
  'beneficiary_harmonised' | 'source_name' | 'from_carb'>

const COLUMNS = ['t.id', 't.project_id', 't.type', 't.date', 't.vintage', 't.quantity', 't.beneficiary', 't.reason',
  't.source_file', 't.source_line', 't.identity', 't.note', 't.account', 't.serials', 't.vintage_start',
  't.vintage_end'] as const

/**
 * How a `search` is read, decided by the trigram index (migrations 0008 and 0015) before the page: the ids of its
 * matches when they are few, or only that they are many (counted once per version, countTransactions; on
 * PostgreSQL `undefined` then). Undefined where no index answers (no pg_trgm; a term under 3 characters): LIKE.
 */
type SearchPlan = { ids: readonly number[] } | { dense: true } | undefined

/**
 * From this many matches on, a page is found sooner by walking the ordering's index and reading each beneficiary
 * than by sorting every match (at 1M transactions, docs/performance.md).
 */
const DENSE_SEARCH = 5000

export async function planSearch (db: Db, search: string): Promise<SearchPlan> {
  return databaseKind(db) === 'sqlite' ? await planSqliteSearch(db, search) : await planPostgresSearch(db, search)
}

/** Rowids a trigram's probe reads at most: enough to rank the term's trigrams, cheap for the commonest. */
const PROBE = 64

/** Trigrams a search's candidates must all hold: the rarest, so the index intersects short lists. */
const DRIVERS = 3

/**
 * SQLite: the FTS phrase matched every trigram of the term in place, leapfrogging each trigram's list, so a name
 * such as "beneficiary 06667" (ten trigrams in every retirement) read hundreds of thousands of entries (150-400 ms
 * at 1M, docs/benchmarks.md). Instead each distinct trigram is probed for its first PROBE rowids (a rare one has
 * fewer: its exact count; a common one is estimated by how far its PROBE-th rowid lies), the DRIVERS rarest are
 * intersected, and the candidates are checked against the term itself as the dense path checks rows (LIKE).
 */
async function planSqliteSearch (db: Db, search: string): Promise<SearchPlan> {
  const pieces = trigrams(db, search)
  if (pieces === undefined) return undefined
  const last = await sql<{ id: number | null }>`select max(id) as id from credit_transactions`.execute(db)
  const top = Number(last.rows[0]?.id ?? 0)
  const probed: Array<{ piece: string, estimate: number }> = []
  for (const piece of pieces) {
    const { rows } = await sql<{ id: number }>`select rowid as id from credit_transactions_search
      where credit_transactions_search match ${ftsPhrase(piece)} limit ${PROBE}`.execute(db)
    // A trigram no row holds: no row holds the term.
    if (rows.length === 0) return { ids: [] }
    const estimate = rows.length < PROBE ? rows.length : PROBE * top / Math.max(1, rows[rows.length - 1]!.id)
    probed.push({ piece, estimate })
  }
  probed.sort((a, b) => a.estimate - b.estimate)
  // Every trigram common (a common word): the phrase finds DENSE_SEARCH matches sooner than rows are checked.
  const { rows } = probed[0]!.estimate >= DENSE_SEARCH
    ? await sql<{ id: number }>`select rowid as id from credit_transactions_search
      where credit_transactions_search match ${ftsPhrase(search)} limit ${DENSE_SEARCH}`.execute(db)
    : await sql<{ id: number }>`select t.id from credit_transactions_search s
      join credit_transactions t on t.id = s.rowid
      where s.credit_transactions_search match ${probed.slice(0, DRIVERS).map(({ piece }) => ftsPhrase(piece))
        .join(' AND ')} and ${likeTerm(search)} limit ${DENSE_SEARCH}`.execute(db)
  // Many matches are counted where counts are remembered (countTransactions), not on every page.
  return rows.length < DENSE_SEARCH ? { ids: rows.map((row) => row.id).sort((a, b) => a - b) } : { dense: true }
}

/** The statistics of each beneficiary's pg_trgm trigrams (migration 0015), refreshed by ANALYZE. */
const TRIGRAM_STATISTICS = 'credit_transactions_beneficiary_trigrams'

/** What ANALYZE kept: the commonest trigrams' share of beneficiaries, and about how many rows the table holds. */
interface TrigramStatistics { frequency: ReadonlyMap<string, number>, rows: number }

/**
 * Statistics read in the last minute, per database: reading them costs 5-10 ms, and they change only with an
 * ANALYZE. Their absence is not kept, so the first read after an ANALYZE uses them.
 */
const trigramStatistics = new WeakMap<Db, { at: number, statistics: TrigramStatistics }>()
const STATISTICS_TTL_MS = 60_000

async function readTrigramStatistics (db: Db): Promise<TrigramStatistics | undefined> {
  const held = trigramStatistics.get(db)
  if (held !== undefined && performance.now() - held.at < STATISTICS_TTL_MS) return held.statistics
  const { rows } = await sql<{ elems: string[] | null, freqs: number[] | null, rows: number }>`select
      e.most_common_elems::text::text[] as elems, e.most_common_elem_freqs as freqs,
      (select reltuples from pg_class where oid = 'credit_transactions'::regclass) as rows
    from pg_stats_ext_exprs e
    where e.statistics_schemaname = current_schema() and e.statistics_name = ${TRIGRAM_STATISTICS}`.execute(db)
  const { elems, freqs, rows: count } = rows[0] ?? {}
  if (elems == null || freqs == null) return undefined
  const statistics = { frequency: new Map(elems.map((elem, i) => [elem, freqs[i] ?? 0])), rows: Number(count) }
  trigramStatistics.set(db, { at: performance.now(), statistics })
  return statistics
}

/**
 * PostgreSQL: the GIN index read every trigram's posting list of the term, ten of them in every retirement for
 * "beneficiary 06667" (170 ms at 1M). Instead the DRIVERS rarest of its trigrams (by the frequencies ANALYZE kept;
 * one it did not keep is rarer than any it did) are asked of the index, each as a LIKE of its own that pg_trgm
 * reads as that one trigram, and the candidates are checked against the term by strpos, which the index does not
 * serve. Only letters and digits: pg_trgm splits words at anything else and pads their ends. Without statistics
 * (no pg_trgm, never analysed), or when even the rarest trigram is common, LIKE as it is: the planner's own.
 */
async function planPostgresSearch (db: Db, search: string): Promise<SearchPlan> {
  const pieces = [...new Set([...search.matchAll(/(?=([a-z0-9]{3}))/g)].map((match) => match[1]!))]
  if (pieces.length === 0) return undefined
  const statistics = await readTrigramStatistics(db)
  if (statistics === undefined) return undefined
  const drivers = pieces.map((piece) => ({ piece, frequency: statistics.frequency.get(piece) ?? 0 }))
    .sort((a, b) => a.frequency - b.frequency).slice(0, DRIVERS)
  if (drivers[0]!.frequency * statistics.rows >= DENSE_SEARCH) return undefined
  let query = db.selectFrom('credit_transactions as t').select('t.id')
  for (const { piece } of drivers) query = query.where('t.beneficiary_key', 'like', `%${piece}%`)
  const rows = await query.where(sql<SqlBool>`strpos(t.beneficiary_key, ${search}) > 0`).limit(DENSE_SEARCH)
    .execute()
  // Many matches: the page walks the ordering's index and the count is LIKE's, remembered per version.
  return rows.length < DENSE_SEARCH ? { ids: rows.map((row) => row.id).sort((a, b) => a - b) } : undefined
}

/** The term's distinct trigrams (by code point) where SQLite's trigram index can answer; else undefined. */
function trigrams (db: Db, search: string): string[] | undefined {
  const points = [...search]
  if (databaseKind(db) !== 'sqlite' || points.length < 3) return undefined
  return [...new Set(points.slice(2).map((_, i) => points.slice(i, i + 3).join('')))]
}

/** As FTS phrase every character is literal. */
function ftsPhrase (text: string): string {
  return `"${text.replace(/"/g, '""')}"`
}

/** beneficiary_key holds `search` (wildcards literal). */
function likeTerm (search: string) {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return sql<SqlBool>`t.beneficiary_key like ${pattern} escape '\\'`
}

/** The FTS phrase of a search, for a count from the index; undefined where no index answers. */
function trigramPhrase (db: Db, search: string): string | undefined {
  return trigrams(db, search) === undefined ? undefined : ftsPhrase(search)
}

interface Scope {
  /** Only transactions with a date (true) or without one (false). */
  dated?: boolean
  /**
   * `search` as a list of matching ids (few): the query starts from them and keeps every other column's index out
   * of the plan (a unary `+`), so a rare name is found by its few rows, never by walking a million.
   */
  ids?: readonly number[]
  /** `search` through the trigram index (many matches), for a count that starts from the index. */
  phrase?: string
}

function filtered (db: Db, filters: LedgerFilters, scope: Scope = {}) {
  let query = db.selectFrom('credit_transactions as t')
  // PostgreSQL has no unary + for text and plans a short id list well by itself.
  const driven = (scope.ids !== undefined || scope.phrase !== undefined) && databaseKind(db) === 'sqlite'
  const column = (name: 'project_id' | 'type' | 'vintage' | 'registry' | 'date') =>
    driven ? sql`+${sql.ref(`t.${name}`)}` : sql.ref(`t.${name}`)
  if (scope.dated !== undefined) query = query.where(column('date'), scope.dated ? 'is not' : 'is', null)
  const { projectId, type, vintage, registry, dateAfter, dateBefore, search } = filters
  if (projectId !== undefined) query = query.where(column('project_id'), '=', projectId)
  if (type !== undefined) query = query.where(column('type'), '=', type)
  if (vintage !== undefined) query = query.where(column('vintage'), '=', vintage)
  if (registry !== undefined) query = query.where(column('registry'), '=', registry)
  if (dateAfter !== undefined) query = query.where(column('date'), '>=', dateAfter)
  if (dateBefore !== undefined) query = query.where(column('date'), '<=', dateBefore)
  if (scope.ids !== undefined) {
    query = query.where('t.id', 'in', scope.ids.length > 0 ? scope.ids : [0])
  } else if (scope.phrase !== undefined) {
    query = query.where('t.id', 'in', sql<number>`(select rowid from credit_transactions_search
      where credit_transactions_search match ${scope.phrase})`)
  } else if (search !== undefined) {
    query = query.where(likeTerm(search))
  }
  return query
}

/** How a search is matched in a count: from its ids, from its index, or by LIKE. */
function searchScope (db: Db, filters: LedgerFilters, plan: SearchPlan): Scope {
  if (plan === undefined || filters.search === undefined) return {}
  return 'ids' in plan ? { ids: plan.ids } : { phrase: trigramPhrase(db, filters.search)! }
}

export async function countTransactions (
  db: Db, filters: LedgerFilters, plan: SearchPlan, dated?: boolean
): Promise<number> {
  const { search: _search, ...others } = filters
  // A search alone is counted by its plan, without visiting the rows it finds.
  if (plan !== undefined && dated === undefined && Object.keys(others).length === 0) {
    if ('ids' in plan) return plan.ids.length
    const count = await sql<{ count: number }>`select count(*) as count from credit_transactions_search
      where credit_transactions_search match ${trigramPhrase(db, filters.search!)}`.execute(db)
    return Number(count.rows[0]?.count ?? 0)
  }
  const row = await filtered(db, filters, { ...searchScope(db, filters, plan), dated })
    .select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()
  // PostgreSQL returns count(*) as a bigint string.
  return Number(row.count)
}

/** Per type, how many transactions match and their summed quantity (types without a match are left out). */
export async function sumTransactions (
  db: Db, filters: LedgerFilters, plan: SearchPlan
): Promise<Array<{ type: TransactionType, count: number, quantity: number }>> {
  const rows = await filtered(db, filters, searchScope(db, filters, plan))
    .select((eb) => ['t.type', eb.fn.countAll().as('count'), eb.fn.sum<number>('t.quantity').as('quantity')])
    .groupBy('t.type')
    .execute()
  // PostgreSQL returns count(*) as a bigint string and sum() of a numeric as a string.
  return rows.map((row) => ({ type: row.type, count: Number(row.count), quantity: Number(row.quantity ?? 0) }))
}

/**
 * One page in `order`, id breaking ties in the same direction, so that every ordering is one walk of an index
 * (migrations 0007 and 0008: (date, id), (quantity, id) and their filtered variants), forwards or backwards.
 * Undated transactions come after the dated ones in both directions. Each database puts nulls at another end of
 * an index (SQLite first, PostgreSQL last), and a NULLS LAST that goes against the index makes both sort every
 * matching row; so the dated rows are one indexed query and the undated ones, when a page reaches them, another.
 * A search with few matches (`plan.ids`) sorts just those, undated last, in one query.
 */
export interface PageSeek {
  /**
   * Where the dated rows' walk starts, as the summary placed `offset` (ledger-summary.ts): from this month's last
   * day (descending) or first day (ascending), `skipped` matches fewer to skip, so a deep page walks one month of
   * the index, not every row before it.
   */
  from?: { day: string, skipped: number }
  /** How many dated rows match, when known: an offset past them all goes straight to the undated ones. */
  dated?: number
}

export async function listTransactions (
  db: Db, filters: LedgerFilters, order: LedgerOrder, limit: number, offset: number, plan: SearchPlan,
  seek: PageSeek = {}
): Promise<TransactionRow[]> {
  const direction = order.descending ? 'desc' : 'asc'
  if (plan !== undefined && 'ids' in plan) {
    if (plan.ids.length === 0) return []
    // By date, undated rows last; by quantity they take their place among the others.
    const undatedLast = order.field === 'date'
    const undated = sql`${sql.ref('t.date')} is null`
    let ids = filtered(db, filters, { ids: plan.ids }).select('t.id')
    if (undatedLast) ids = ids.orderBy(undated)
    ids = ids.orderBy(`t.${order.field}`, direction).orderBy('t.id', direction).limit(limit).offset(offset)
    let rows = db.selectFrom('credit_transactions as t').select(COLUMNS).where('t.id', 'in', ids)
    if (undatedLast) rows = rows.orderBy(undated)
    return await rows.orderBy(`t.${order.field}`, direction).orderBy('t.id', direction).execute()
  }
  // Many matches, or no index: the search is read row by row as the ordering's index is walked.
  if (order.field === 'quantity') {
    return await page(db, filtered(db, filters), 'quantity', direction, limit, offset)
  }
  const past = seek.dated !== undefined && offset >= seek.dated
  let dated: TransactionRow[] = []
  if (!past) {
    const { from } = seek
    const bounded = from === undefined
      ? filters
      : order.descending
        ? { ...filters, dateBefore: min(filters.dateBefore, from.day) }
        : { ...filters, dateAfter: max(filters.dateAfter, from.day) }
    dated = await page(db, filtered(db, bounded, { dated: true }), 'date', direction, limit,
      offset - (from?.skipped ?? 0))
    if (dated.length === limit) return dated
  }
  // The page ends past the last dated row: an empty one means `offset` lies beyond them all, by how many is a count.
  const undatedOffset = dated.length > 0
    ? 0
    : offset - (seek.dated ?? await countTransactions(db, filters, plan, true))
  const undated = await page(db, filtered(db, filters, { dated: false }), undefined, direction,
    limit - dated.length, undatedOffset)
  return [...dated, ...undated]
}

const min = (a: string | undefined, b: string): string => a === undefined || b < a ? b : a
const max = (a: string | undefined, b: string): string => a === undefined || b > a ? b : a

/** Where a walk in `order` stopped: the last row's ordering value and id (undated rows: date null). */
export interface LedgerCursor {
  value: string | number | null
  id: number
}

/**
 * The next `limit` rows after `cursor` (from the start without one) in `order`, found by seeking the ordering's
 * index to the cursor (keyset), so that a walk over every match reads each row once however far it goes (the CSV
 * download). Dated rows first, then undated ones by id, as a page orders them. `ids`: a search's few matches.
 */
export async function listTransactionsAfter (
  db: Db, filters: LedgerFilters, order: LedgerOrder, limit: number, cursor: LedgerCursor | undefined,
  ids?: readonly number[]
): Promise<TransactionRow[]> {
  const direction = order.descending ? 'desc' : 'asc'
  const beyond = order.descending ? '<' : '>'
  const scope = (dated?: boolean): Scope => ({ dated, ...(ids !== undefined && { ids }) })
  const after = (query: Filtered, field: 'date' | 'quantity' | undefined) => {
    if (cursor === undefined) return query
    if (field === undefined) return query.where('t.id', beyond, cursor.id)
    return query.where((eb) => eb.or([
      eb(`t.${field}`, beyond, cursor.value as never),
      eb.and([eb(`t.${field}`, '=', cursor.value as never), eb('t.id', beyond, cursor.id)])
    ]))
  }
  if (order.field === 'quantity') {
    return await page(db, after(filtered(db, filters, scope()), 'quantity'), 'quantity', direction, limit, 0)
  }
  let dated: TransactionRow[] = []
  if (cursor === undefined || cursor.value !== null) {
    dated = await page(db, after(filtered(db, filters, scope(true)), 'date'), 'date', direction, limit, 0)
    if (dated.length === limit) return dated
  }
  // Past an undated cursor, the walk goes on among the undated rows; past a dated one it starts them.
  const undatedAfter = cursor?.value === null ? cursor : undefined
  const undated = filtered(db, filters, scope(false))
  const rest = await page(db, undatedAfter === undefined ? undated : undated.where('t.id', beyond, undatedAfter.id),
    undefined, direction, limit - dated.length, 0)
  return [...dated, ...rest]
}

/**
 * The ledger's summary: how many transactions each (registry, type, vintage, month) holds, undated ones under a
 * null month, as the database keeps it beside every write (migration 0012).
 */
export async function ledgerSummary (db: Db): Promise<Array<{
  registry: string, type: TransactionType, vintage: number | null, month: string | null, count: number
}>> {
  const rows = await db.selectFrom('ledger_counts').select(['registry', 'type', 'vintage', 'month', 'count'])
    .where('count', '>', 0).execute()
  return rows.map((row) => ({
    registry: row.registry,
    type: row.type as TransactionType,
    vintage: row.vintage === 0 ? null : row.vintage,
    month: row.month === '' ? null : row.month,
    count: Number(row.count)
  }))
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

/** What names a project in a row of the ledger's CSV: its registry's id for it, its name, its registry. */
export interface ProjectIdentityRow {
  id: number
  external_id: string
  name: string
  registry: string
  registry_name: string
}

export async function projectIdentities (db: Db, ids: readonly number[]): Promise<ProjectIdentityRow[]> {
  if (ids.length === 0) return []
  return await db.selectFrom('projects as p')
    .innerJoin('registries as r', 'r.name_id', 'p.registry')
    .select(['p.id', 'p.external_id', 'p.name', 'p.registry', 'r.verbose_name as registry_name'])
    .where('p.id', 'in', ids)
    .execute()
}

export async function projectExists (db: Db, id: number): Promise<boolean> {
  return await db.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst() !== undefined
}

/** Inserts transactions as they are (no upsert): for seeding a benchmark's synthetic ledger. */
export async function insertTransactions (db: Db, rows: ReadonlyArray<Insertable<CreditTransactionTable>>):
Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.insertInto('credit_transactions').values(rows.slice(i, i + CHUNK)).execute()
  }
}
