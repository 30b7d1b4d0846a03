import { sql } from 'kysely'
import { databaseKind, type CreditTransactionTable, type Db } from '../../store/database.ts'
import { StagedInsert } from '../staged-insert.repository.ts'

// A registry import's transactions are staged in temporary tables inside the import's transaction, as the files are
// read, and written to the ledger from there in SQL: a million-row export's ledger never sits in memory. The tables
// go with the transaction (a refused import leaves nothing) and are dropped before it commits.

/** A staged row: the ledger's own columns (credit_transactions), with the draft it belongs to and its order. */
export interface StagedTransaction extends Pick<CreditTransactionTable, 'identity' | 'date' | 'vintage' | 'quantity' |
  'beneficiary' | 'reason' | 'beneficiary_key' | 'note' | 'account' | 'serials' | 'vintage_start' | 'vintage_end'> {
  seq: number
  /** The project draft's external id. */
  draft: string
  type: string
  source_file: string
  source_line: number
  /** CARB's issuance table's transaction (carb-identity.ts): credit_transactions.from_carb. */
  from_carb: boolean
}

interface MappedDraft { draft: string, project_id: number, registry: string, position: number }

/** Rows staged at a time: one round trip each on PostgreSQL, a few statements on SQLite. */
export const STAGE_BATCH = 4000

const STAGE = new StagedInsert<StagedTransaction>('registry_stage', [
  ['seq', 'integer', 'int4'], ['draft', 'varchar(200)', 'text'], ['identity', 'varchar(500)', 'text'],
  ['type', 'varchar(20)', 'text'], ['date', 'varchar(10)', 'text', 'null'], ['vintage', 'integer', 'int4', 'null'],
  ['quantity', 'double precision', 'float8'], ['beneficiary', 'text', 'text', 'null'],
  ['reason', 'text', 'text', 'null'], ['beneficiary_key', 'text', 'text', 'null'], ['note', 'text', 'text', 'null'],
  ['account', 'text', 'text', 'null'], ['serials', 'text', 'text', 'null'],
  ['vintage_start', 'varchar(10)', 'text', 'null'], ['vintage_end', 'varchar(10)', 'text', 'null'],
  ['source_file', 'varchar(500)', 'text'], ['source_line', 'integer', 'int4'], ['from_carb', 'boolean', 'bool']])
const MAP = new StagedInsert<MappedDraft>('registry_map', [['draft', 'varchar(200)', 'text'],
  ['project_id', 'integer', 'int4'], ['registry', 'varchar(200)', 'text'], ['position', 'integer', 'int4']], 'draft')

const TABLES = ['registry_map', 'registry_ledger', 'registry_stage']

export async function createStage (db: Db): Promise<void> {
  await dropStage(db)
  await STAGE.create(db)
}

export async function dropStage (db: Db): Promise<void> {
  for (const table of TABLES) await db.schema.dropTable(table).ifExists().execute()
}

export async function stageTransactions (db: Db, rows: readonly StagedTransaction[]): Promise<void> {
  await STAGE.insert(db, rows)
}

/**
 * One row per (draft, identity): the last the files give (a later row of an identity replaces an earlier one, as
 * in a project's ledger in memory), numbered by where the identity first appeared (the order the ledger keeps).
 */
export async function settleStage (db: Db): Promise<void> {
  await sql`create index registry_stage_identity on registry_stage (draft, identity, seq)`.execute(db)
  await sql`create temporary table registry_ledger as
    select s.*, f.first_seq from registry_stage s join (
      select draft, identity, min(seq) as first_seq, max(seq) as last_seq from registry_stage group by draft, identity
    ) f on f.draft = s.draft and f.identity = s.identity and f.last_seq = s.seq`.execute(db)
  await sql`create index registry_ledger_draft on registry_ledger (draft)`.execute(db)
}

/**
 * Rows a later row of the same identity (in the same project) replaced saying another quantity or vintage, with the
 * row that replaced each: in the order of the replacing rows.
 */
export async function replacedRows (db: Db): Promise<Array<{
  draft: string,
  identity: string,
  file: string,
  line: number,
  by_file: string,
  by_line: number
}>> {
  const rows = await sql<{
    draft: string,
    identity: string,
    file: string,
    line: number | string,
    by_file: string,
    by_line: number | string
  }>`select draft, identity, file, line, by_file, by_line from (
      select draft, identity, source_file as file, source_line as line, quantity, vintage, seq,
        lead(source_file) over w as by_file, lead(source_line) over w as by_line, lead(quantity) over w as by_quantity,
        lead(vintage) over w as by_vintage, lead(seq) over w as by_seq
      from registry_stage where (draft, identity) in (
        select draft, identity from registry_stage group by draft, identity having count(*) > 1)
      window w as (partition by draft, identity order by seq)) t
    where by_seq is not null and (quantity <> by_quantity or vintage is distinct from by_vintage)
    order by by_seq`.execute(db)
  return rows.rows.map((r) => ({ ...r, line: Number(r.line), by_line: Number(r.by_line) }))
}

/** Each draft's settled ledger summed by type and vintage, and its latest date. */
export async function stagedSums (db: Db): Promise<Array<{
  draft: string,
  type: string,
  vintage: number | null,
  quantity: number,
  latest: string | null
}>> {
  const rows = await sql<{
    draft: string,
    type: string,
    vintage: number | null,
    quantity: number | string,
    latest: string | null
  }>`select draft, type, vintage, sum(quantity) as quantity, max(date) as latest
    from registry_ledger group by draft, type, vintage`.execute(db)
  return rows.rows.map((r) => ({ ...r, quantity: Number(r.quantity) }))
}

/** Which project (and registry) each draft became, in the order of the import's records. */
export async function mapDrafts (db: Db, rows: readonly MappedDraft[]): Promise<void> {
  await MAP.create(db)
  for (let i = 0; i < rows.length; i += STAGE_BATCH) await MAP.insert(db, rows.slice(i, i + STAGE_BATCH))
}

/** An identity two projects of one registry give (unique within a registry), if any: the two drafts. */
export async function sharedIdentity (db: Db):
Promise<{ registry: string, identity: string, first: string, second: string } | undefined> {
  const row = (await sql<{ registry: string, identity: string, first: string, second: string }>`
    select m.registry, l.identity, min(l.draft) as first, max(l.draft) as second
    from registry_ledger l join registry_map m on m.draft = l.draft
    group by m.registry, l.identity having count(*) > 1 limit 1`.execute(db)).rows[0]
  return row
}

/** The mapped projects the settled ledger gives transactions for. */
export async function projectsWithStagedLedger (db: Db): Promise<number[]> {
  const rows = await sql<{ project_id: number }>`select m.project_id from registry_map m
    where exists (select 1 from registry_ledger l where l.draft = m.draft)`.execute(db)
  return rows.rows.map((r) => Number(r.project_id))
}

/** The projects that hold the settled transactions now (by registry and identity). */
export async function ownersOfStaged (db: Db): Promise<number[]> {
  const rows = await sql<{ project_id: number }>`select distinct c.project_id from registry_ledger l
    join registry_map m on m.draft = l.draft
    join credit_transactions c on c.registry = m.registry and c.identity = l.identity`.execute(db)
  return rows.rows.map((r) => Number(r.project_id))
}

const COLUMNS = ['project_id', 'type', 'date', 'vintage', 'quantity', 'beneficiary', 'reason', 'beneficiary_key',
  'source_file', 'source_line', 'account', 'note', 'serials', 'vintage_start', 'vintage_end', 'source_name',
  'from_carb'] as const

/**
 * Upserts the settled transactions of the mapped drafts by (registry, identity), as upsertTransactions does: a stored
 * one keeps its id and is written only when it differs. Returns how many rows were given.
 */
export async function writeStagedLedger (db: Db, sourceName: string | null): Promise<void> {
  const set = sql.join(COLUMNS.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`))
  const differs = sql.join(COLUMNS.map((c) =>
    sql`credit_transactions.${sql.ref(c)} is distinct from excluded.${sql.ref(c)}`), sql` or `)
  // SQLite reads "select … from t on conflict" as a join's ON without the WHERE (its documented parsing ambiguity).
  await sql`insert into credit_transactions (project_id, registry, identity, type, date, vintage, quantity,
      beneficiary, reason, beneficiary_key, source_file, source_line, account, note, serials, vintage_start,
      vintage_end, source_name, from_carb)
    select m.project_id, m.registry, l.identity, l.type, l.date, l.vintage, l.quantity, l.beneficiary, l.reason,
      l.beneficiary_key, l.source_file, l.source_line, l.account, l.note, l.serials, l.vintage_start, l.vintage_end,
      ${sourceName}, l.from_carb
    from registry_ledger l join registry_map m on m.draft = l.draft
    where true
    order by m.position, l.first_seq
    on conflict (registry, identity) do update set ${set} where ${differs}`.execute(db)
}

/** How many rows the settled ledger holds. */
export async function settledSize (db: Db): Promise<number> {
  const row = await sql<{ n: number | string }>`select count(*) as n from registry_ledger`.execute(db)
  return Number(row.rows[0]?.n ?? 0)
}

/** SQLite's page cache for this connection, in KiB (the ledger's indexes are read back on every insert). */
export async function pageCache (db: Db, kib: number): Promise<void> {
  if (databaseKind(db) === 'sqlite') await sql`pragma cache_size = ${sql.lit(-kib)}`.execute(db)
}
