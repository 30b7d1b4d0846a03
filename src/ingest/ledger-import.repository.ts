import type { LedgerSum } from './ledger-totals.ts'
import { groupInto } from '../catalogue/project-rows.repository.ts'
import type { TransactionRow } from '../ledger/transactions.repository.ts'
import { sql } from 'kysely'
import { CHUNK, databaseKind, type Db, type NewCreditTransactionRow } from '../store/database.ts'

// The import's SQL over the ledger: transactions it upserts, moves or removes, the sources it records, and the
// sums it derives a project's credits from.

/** Transactions per INSERT: 19 values each, under SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
const LEDGER_CHUNK = 1000
const LEDGER_COLUMNS = ['project_id', 'type', 'date', 'vintage', 'quantity', 'beneficiary', 'reason',
  'beneficiary_key', 'source_file', 'source_line', 'account', 'note', 'serials', 'vintage_start', 'vintage_end',
  'source_name', 'from_carb'] as const

/**
 * Inserts these transactions, or overwrites the stored one of the same (registry, identity): its id stays, so
 * a re-import neither duplicates nor renumbers. A transaction a registry moves to another project moves with it.
 */
export async function upsertTransactions (db: Db, rows: readonly NewCreditTransactionRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += LEDGER_CHUNK) {
    await db.insertInto('credit_transactions').values(rows.slice(i, i + LEDGER_CHUNK))
      .onConflict((oc) => oc.columns(['registry', 'identity']).doUpdateSet((eb) => ({
        project_id: eb.ref('excluded.project_id'),
        type: eb.ref('excluded.type'),
        date: eb.ref('excluded.date'),
        vintage: eb.ref('excluded.vintage'),
        quantity: eb.ref('excluded.quantity'),
        beneficiary: eb.ref('excluded.beneficiary'),
        reason: eb.ref('excluded.reason'),
        beneficiary_key: eb.ref('excluded.beneficiary_key'),
        source_file: eb.ref('excluded.source_file'),
        source_line: eb.ref('excluded.source_line'),
        account: eb.ref('excluded.account'),
        note: eb.ref('excluded.note'),
        serials: eb.ref('excluded.serials'),
        vintage_start: eb.ref('excluded.vintage_start'),
        vintage_end: eb.ref('excluded.vintage_end'),
        source_name: eb.ref('excluded.source_name'),
        from_carb: eb.ref('excluded.from_carb')
      })).where((eb) => eb.or(LEDGER_COLUMNS.map((column) =>
        // A row that is the same is not written again: a re-import writes (and on PostgreSQL, bloats) nothing.
        eb(`credit_transactions.${column}`, 'is distinct from', eb.ref(`excluded.${column}`))))))
      .execute()
  }
}

/** Records that a source states these projects (kept: a project stays listed under every source that named it). */
export async function addProjectSources (db: Db, ids: readonly number[], source: string): Promise<void> {
  for (let i = 0; i < ids.length; i += LEDGER_CHUNK) {
    const rows = ids.slice(i, i + LEDGER_CHUNK).map((id) => ({ project_id: id, source_name: source }))
    if (rows.length > 0) {
      await db.insertInto('project_sources').values(rows)
        .onConflict((oc) => oc.columns(['project_id', 'source_name']).doNothing()).execute()
    }
  }
}

/** Removes the ledger rows these sources hold for these projects (another source takes their ledger over). */
export async function deleteTransactionsOfSources (db: Db, ids: readonly number[], sources: readonly string[]):
Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    await db.deleteFrom('credit_transactions').where('project_id', 'in', ids.slice(i, i + CHUNK))
      .where('source_name', 'in', sources).execute()
  }
}

/** The projects that hold these transactions now (by registry and identity). */
export async function ownersOf (db: Db, transactions: ReadonlyArray<{ registry: string, identity: string }>):
Promise<number[]> {
  const owners = new Set<number>()
  const byRegistry = new Map<string, string[]>()
  for (const { registry, identity } of transactions) {
    const list = byRegistry.get(registry)
    if (list === undefined) byRegistry.set(registry, [identity])
    else list.push(identity)
  }
  for (const [registry, identities] of byRegistry) {
    for (let i = 0; i < identities.length; i += LEDGER_CHUNK) {
      const rows = await db.selectFrom('credit_transactions').select('project_id').distinct()
        .where('registry', '=', registry).where('identity', 'in', identities.slice(i, i + LEDGER_CHUNK)).execute()
      for (const row of rows) owners.add(row.project_id)
    }
  }
  return [...owners]
}

/**
 * Removes every stored transaction whose (registry, identity) is not in `keep` (keys `registry NUL identity`):
 * an import with --replace. Walks the ledger by id, a batch at a time.
 */
export async function deleteTransactionsExcept (db: Db, keep: ReadonlySet<string>): Promise<void> {
  for (let after = 0; ;) {
    const rows = await db.selectFrom('credit_transactions').select(['id', 'registry', 'identity'])
      .where('id', '>', after).orderBy('id').limit(10_000).execute()
    if (rows.length === 0) return
    const gone = rows.filter((r) => !keep.has(`${r.registry}\u0000${r.identity}`)).map((r) => r.id)
    for (let i = 0; i < gone.length; i += CHUNK) {
      await db.deleteFrom('credit_transactions').where('id', 'in', gone.slice(i, i + CHUNK)).execute()
    }
    after = rows[rows.length - 1]!.id
  }
}

/** The ledgers of these projects, each in id order (the order they were first stored in): export. */
export async function transactionsOf (db: Db, ids: readonly number[]): Promise<Map<number, TransactionRow[]>> {
  const ledgers = new Map<number, TransactionRow[]>()
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db.selectFrom('credit_transactions')
      .select(['id', 'project_id', 'identity', 'type', 'date', 'vintage', 'quantity', 'beneficiary', 'reason',
        'source_file', 'source_line', 'account', 'note', 'serials', 'vintage_start', 'vintage_end'])
      .where('project_id', 'in', ids.slice(i, i + CHUNK)).orderBy('project_id').orderBy('id').execute()
    groupInto(ledgers, rows)
  }
  return ledgers
}

interface LedgerSumRow extends LedgerSum { project_id: number }

/** The ledger of these projects summed by type and vintage, with the earliest date of each. */
export async function ledgerSums (db: Db, ids: readonly number[]): Promise<LedgerSumRow[]> {
  const sums: LedgerSumRow[] = []
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK)
    // CARB's issuance table is the authority on the California compliance projects it names (as OffsetsDB's
    // merge_with_arb): their totals come from its transactions (`from_carb`, registries/carb-identity.ts), the
    // registry's own (ROC issuances, conversions to ARB credits) stay in the ledger but do not count.
    // Which projects those are is read first: asked per row (a correlated NOT EXISTS), it was quadratic in a
    // project's ledger (5,201 transactions took seconds and hit PostgreSQL's statement timeout).
    const carb = (await db.selectFrom('credit_transactions').select('project_id').distinct()
      .where('project_id', 'in', chunk).where('from_carb', '=', true).execute()).map((row) => row.project_id)
    let query = db.selectFrom('credit_transactions')
      .select(['project_id', 'type', 'vintage', (eb) => eb.fn.sum<number | string>('quantity').as('quantity'),
        (eb) => eb.fn.min('date').as('first_date')])
      .where('project_id', 'in', chunk)
    if (carb.length > 0) {
      query = query.where((eb) => eb.or([eb('from_carb', '=', true), eb('project_id', 'not in', carb)]))
    }
    const rows = await query.groupBy(['project_id', 'type', 'vintage']).execute()
    // PostgreSQL may hand sums over as text.
    for (const row of rows) sums.push({ ...row, quantity: Number(row.quantity) })
  }
  return sums
}

/**
 * From this share of the catalogue's projects up, an import's ledger sums are read in one pass over the ledger
 * (scanLedgerSums) rather than project by project: an archive's rows are stored in its order, every project's spread
 * over the whole table, so the index path read each page of a million-row ledger many times over (12 s of a first
 * OffsetsDB import's CPU, half of it the kernel's).
 */
export const SCAN_MIN_SHARE = 0.25

/** Whether summing the ledgers of an import whose write changed `projects` projects' ledgers takes one pass. */
export async function scanWorthIt (db: Db, projects: number): Promise<boolean> {
  const stored = await db.selectFrom('projects').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst()
  return projects > 0 && projects >= SCAN_MIN_SHARE * Number(stored?.n ?? 0)
}

/**
 * Sums the ledger of these projects by type, vintage and `from_carb` in one pass over the ledger, into a temporary
 * table (in the import's transaction) that scannedLedgerSums reads a batch at a time and dropLedgerSumsScan drops.
 */
export async function scanLedgerSums (db: Db, ids: readonly number[]): Promise<void> {
  await dropLedgerSumsScan(db)
  await sql`create temporary table import_sum_ids (project_id integer primary key)`.execute(db)
  for (let i = 0; i < ids.length; i += LEDGER_CHUNK) {
    await sql`insert into import_sum_ids (project_id) values ${sql.join(ids.slice(i, i + LEDGER_CHUNK)
      .map((id) => sql`(${id})`))}`.execute(db)
  }
  // SQLite would otherwise walk the project_id index (to group without sorting): a table read per row again.
  const ledger = databaseKind(db) === 'sqlite' ? sql`credit_transactions not indexed` : sql`credit_transactions`
  await sql`create temporary table import_sums as
    select project_id, type, vintage, from_carb, sum(quantity) as quantity, min(date) as first_date from ${ledger}
    where project_id in (select project_id from import_sum_ids)
    group by project_id, type, vintage, from_carb`.execute(db)
  await sql`create index import_sums_project on import_sums (project_id)`.execute(db)
}

/** ledgerSums of these projects (all among those scanLedgerSums summed), from its table. */
export async function scannedLedgerSums (db: Db, ids: readonly number[]): Promise<LedgerSumRow[]> {
  const sums: LedgerSumRow[] = []
  for (let i = 0; i < ids.length; i += CHUNK) {
    const { rows } = await sql<LedgerSumRow & { from_carb: boolean | number }>`select project_id, type, vintage,
      from_carb, quantity, first_date from import_sums where project_id in (${sql.join(ids.slice(i, i + CHUNK))})`
      .execute(db)
    // As ledgerSums: a project with transactions from CARB's table counts those only.
    const carb = new Set(rows.filter((row) => Boolean(row.from_carb)).map((row) => row.project_id))
    for (const { from_carb: fromCarb, ...row } of rows) {
      if (Boolean(fromCarb) || !carb.has(row.project_id)) sums.push({ ...row, quantity: Number(row.quantity) })
    }
  }
  return sums
}

export async function dropLedgerSumsScan (db: Db): Promise<void> {
  for (const table of ['import_sums', 'import_sum_ids']) await sql`drop table if exists ${sql.id(table)}`.execute(db)
}
