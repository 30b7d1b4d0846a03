import { sql } from 'kysely'
import { StagedInsert, type StagedColumns } from '../staged-insert.repository.ts'
import { databaseKind, type Db } from '../../store/database.ts'
import { bulkWorthIt, withLedgerIndexesAfter } from '../ledger-bulk.repository.ts'

// The archive's credits are staged in temporary tables inside the import's transaction, numbered and compared with
// the stored ledger in SQL: the table is never held in memory, and only the rows that differ are written. The
// temporary tables go with the transaction (a refused import leaves nothing) and are dropped before it commits.

export const SOURCE_NAME = 'offsetsdb'

export interface StagedCredit {
  seq: number
  odb_project: string
  digest: string
  type: string
  date: string | null
  vintage: number | null
  quantity: number
  account: string | null
  beneficiary: string | null
  beneficiary_key: string | null
  harmonised: string | null
  reason: string | null
  note: string | null
  url: string | null
  source_file: string
  source_line: number
}

// A type, not an interface: withTables needs an index signature.
type Staging = {
  offsetsdb_stage: StagedCredit
  offsetsdb_map: { odb_project: string, project_id: number, registry: string }
  offsetsdb_changed: { project_id: number, digest: string }
  offsetsdb_numbered: { project_id: number }
}

const staging = (db: Db) => db.withTables<Staging>()

/** The staged credits' columns: one list for the table and its INSERT. */
const STAGE_COLUMNS: StagedColumns<StagedCredit> = [
  ['seq', 'integer', 'int4'], ['odb_project', 'varchar(200)', 'text'], ['digest', 'varchar(40)', 'text'],
  ['type', 'varchar(20)', 'text'], ['date', 'varchar(10)', 'text', 'null'], ['vintage', 'integer', 'int4', 'null'],
  ['quantity', 'double precision', 'float8'], ['account', 'text', 'text', 'null'],
  ['beneficiary', 'text', 'text', 'null'], ['beneficiary_key', 'text', 'text', 'null'],
  ['harmonised', 'text', 'text', 'null'], ['reason', 'text', 'text', 'null'], ['note', 'text', 'text', 'null'],
  ['url', 'text', 'text', 'null'], ['source_file', 'varchar(500)', 'text'], ['source_line', 'integer', 'int4']]

// The rows' order (seq, numbered as read) is SQLite's rowid: the ledger is written in it without a sort.
const stage = new StagedInsert<StagedCredit>('offsetsdb_stage', STAGE_COLUMNS, 'seq')

/** Rows per INSERT: 16 values each, under SQLite's 32,766 parameters. */
export const STAGE_BATCH = 2000

export async function createStage (db: Db): Promise<void> {
  await dropStage(db)
  await stage.create(db)
  await db.schema.createTable('offsetsdb_map').temporary()
    .addColumn('odb_project', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('registry', 'varchar(200)', (c) => c.notNull())
    .execute()
}

export async function dropStage (db: Db): Promise<void> {
  for (const table of ['offsetsdb_numbered', 'offsetsdb_changed', 'offsetsdb_map', 'offsetsdb_stage']) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}

/** Adds rows to the stage (compiled by StagedInsert, not the query builder). */
export async function stageCredits (db: Db, rows: readonly StagedCredit[]): Promise<void> {
  await stage.insert(db, rows)
}

/** Each project the staged credits name, with how many credits, and the latest transaction date of all. */
export async function stagedProjects (db: Db): Promise<{ projects: Map<string, number>, latest: string | null }> {
  const rows = await staging(db).selectFrom('offsetsdb_stage')
    .select(['odb_project', (eb) => eb.fn.countAll<number | string>().as('n')]).groupBy('odb_project').execute()
  const latest = await staging(db).selectFrom('offsetsdb_stage')
    .select((eb) => eb.fn.max('date').as('latest')).executeTakeFirst()
  return { projects: new Map(rows.map((r) => [r.odb_project, Number(r.n)])), latest: latest?.latest ?? null }
}

export async function mapProjects (db: Db,
  rows: ReadonlyArray<{ odb_project: string, project_id: number, registry: string }>): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    await staging(db).insertInto('offsetsdb_map').values(rows.slice(i, i + 5000)).execute()
  }
}

/**
 * Makes the ledger of every mapped project exactly the staged credits, touching only the projects whose ledger
 * differs from what the archive said last time (their digest in project_sources, their count of the archive's rows,
 * or rows another source holds). Within those, each staged row's identity is its digest and its occurrence among
 * identical rows (`odb:DIGEST.N`, numbered in table order); stored rows the archive lacks are removed (of any
 * source), staged rows the ledger lacks are added, the rest stay with their ids. Returns the projects whose ledger
 * changed.
 */
export async function applySnapshot (db: Db, staged: ReadonlyMap<number, { digest: string, credits: number }>):
Promise<Set<number>> {
  const stored = new Map((await db.selectFrom('project_sources').select(['project_id', 'digest'])
    .where('source_name', '=', SOURCE_NAME).execute()).map((r) => [r.project_id, r.digest]))
  const counts = new Map((await db.selectFrom('credit_transactions')
    .select(['project_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('source_name', '=', SOURCE_NAME).groupBy('project_id').execute()).map((r) => [r.project_id, Number(r.n)]))
  const foreign = new Set((await db.selectFrom('credit_transactions').select('project_id').distinct()
    .where((eb) => eb.or([eb('source_name', 'is', null), eb('source_name', '<>', SOURCE_NAME)])).execute())
    .map((r) => r.project_id))
  const differing = [...staged].filter(([id, now]) => stored.get(id) !== now.digest ||
    (counts.get(id) ?? 0) !== now.credits || foreign.has(id)).map(([id]) => id)
  const changed = new Set<number>()
  if (differing.length === 0) return changed
  await db.schema.createTable('offsetsdb_changed').temporary()
    .addColumn('project_id', 'integer', (c) => c.primaryKey())
    .addColumn('digest', 'varchar(200)', (c) => c.notNull()).execute()
  for (let i = 0; i < differing.length; i += 5000) {
    await staging(db).insertInto('offsetsdb_changed')
      .values(differing.slice(i, i + 5000).map((id) => ({ project_id: id, digest: staged.get(id)!.digest }))).execute()
  }
  // Each staged row's identity and project, keyed by its seq: the rest of the row stays in the stage (numbering a
  // million rows sorted only these columns, not whole rows).
  await sql`create temporary table offsetsdb_numbered (seq integer primary key, project_id integer not null,
    registry varchar(200) not null, identity varchar(500) not null)`.execute(db)
  await sql`insert into offsetsdb_numbered (seq, project_id, registry, identity)
    select s.seq, m.project_id, m.registry,
      'odb:' || s.digest || '.' || cast(row_number() over (partition by s.odb_project, s.digest order by s.seq)
        as varchar(20))
    from offsetsdb_stage s join offsetsdb_map m on m.odb_project = s.odb_project
    where m.project_id in (select project_id from offsetsdb_changed)
    order by s.seq`.execute(db)
  await sql`create index offsetsdb_numbered_identity on offsetsdb_numbered (registry, identity)`.execute(db)
  const added = await sql<{ project_id: number }>`select distinct n.project_id from offsetsdb_numbered n
    where not exists (select 1 from credit_transactions c
      where c.registry = n.registry and c.identity = n.identity and c.project_id = n.project_id)`.execute(db)
  const removed = await sql<{ project_id: number }>`select distinct c.project_id from credit_transactions c
    where c.project_id in (select project_id from offsetsdb_changed)
    and not exists (select 1 from offsetsdb_numbered n
      where n.registry = c.registry and n.identity = c.identity and n.project_id = c.project_id)`.execute(db)
  for (const row of [...added.rows, ...removed.rows]) changed.add(Number(row.project_id))
  // Every row goes into a dozen ledger indexes and the beneficiary search: with SQLite's default 2 MB page cache
  // each insert read pages back from the disk (a 100,000-row import spent 8 s of system time). 16 MB for the write:
  // 64 MB cost 100 MB more resident memory at 200,000 credits for the same CPU time (docs/benchmarks.md).
  const sqlite = databaseKind(db) === 'sqlite'
  if (sqlite) await sql`pragma cache_size = -16384`.execute(db)
  if (removed.rows.length > 0) {
    await sql`delete from credit_transactions
      where project_id in (select project_id from offsetsdb_changed)
      and not exists (select 1 from offsetsdb_numbered n where n.registry = credit_transactions.registry
        and n.identity = credit_transactions.identity and n.project_id = credit_transactions.project_id)`.execute(db)
  }
  if (added.rows.length > 0) {
    const insert = sql`insert into credit_transactions (project_id, registry, identity, type, date, vintage, quantity,
        beneficiary, reason, beneficiary_key, source_file, source_line, account, note, url, beneficiary_harmonised,
        source_name)
      select n.project_id, n.registry, n.identity, s.type, s.date, s.vintage, s.quantity, s.beneficiary, s.reason,
        s.beneficiary_key, s.source_file, s.source_line, s.account, s.note, s.url, s.harmonised, ${SOURCE_NAME}
      from offsetsdb_stage s join offsetsdb_numbered n on n.seq = s.seq
      where not exists (select 1 from credit_transactions c where c.registry = n.registry and c.identity = n.identity)
      order by s.seq`
    const rows = await staging(db).selectFrom('offsetsdb_numbered')
      .select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst()
    if (await bulkWorthIt(db, Number(rows?.n ?? 0))) {
      await withLedgerIndexesAfter(db, async () => { await insert.execute(db) })
    } else {
      await insert.execute(db)
    }
  }
  if (sqlite) await sql`pragma cache_size = -2000`.execute(db)
  // What the archive said of each project that differed, for the next snapshot to compare.
  // One statement: at a first import that is every project (10,000 single updates took seconds).
  await sql`update project_sources set digest = (select c.digest from offsetsdb_changed c
      where c.project_id = project_sources.project_id)
    where source_name = ${SOURCE_NAME} and project_id in (select project_id from offsetsdb_changed)`.execute(db)
  return changed
}

/** How many projects the source states, and how many ledger rows it holds. */
export async function sourceCounts (db: Db): Promise<{ projects: number, transactions: number }> {
  const projects = await db.selectFrom('project_sources').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('source_name', '=', SOURCE_NAME).executeTakeFirst()
  const transactions = await db.selectFrom('credit_transactions')
    .select((eb) => eb.fn.countAll<number | string>().as('n')).where('source_name', '=', SOURCE_NAME).executeTakeFirst()
  return { projects: Number(projects?.n ?? 0), transactions: Number(transactions?.n ?? 0) }
}

/** PostgreSQL's planner statistics after a bulk change (SQLite's planner needs none here). */
export async function analyze (db: Db): Promise<void> {
  if (databaseKind(db) === 'postgres') await sql`analyze credit_transactions, projects, project_vintages`.execute(db)
}
