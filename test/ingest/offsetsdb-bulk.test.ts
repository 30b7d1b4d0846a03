import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { sql } from 'kysely'
import { tonne } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import {
  credit, CREDIT_COLUMNS, csvTable, project, PROJECT_COLUMNS, zip, type OdbCredit
} from '../support/offsetsdb.ts'
import { workspace, type Workspace } from '../support/workspace.ts'
import { loadConfig } from '../../src/config.ts'
import { openStore } from '../../src/store/connect.ts'

// A first import of OffsetsDB's archive writes the ledger in bulk (its indexes and per-row triggers set aside and
// put back inside the import's transaction, issue 33 item 5). What it leaves must be what a row-by-row write leaves:
// the schema of a freshly migrated database, ledger counts equal to a recount, a beneficiary search that finds the
// rows; and later row-by-row imports must keep all three right.

const PROJECTS = [project('VCS191', 'verra'), project('GLD1234', 'gold-standard'), project('ACR500',
  'american-carbon-registry')]

/** `n` credits over the three projects, every third a retirement with a beneficiary. */
function credits (n: number, tag = ''): OdbCredit[] {
  return Array.from({ length: n }, (_, i) => {
    const id = PROJECTS[i % 3]!.project_id
    if (i % 3 === 2) {
      return credit(id, 'retirement', i + 1, {
        vintage: 2010 + (i % 7),
        transaction_date: `20${10 + (i % 12)}-0${1 + (i % 9)}-15`,
        retirement_beneficiary: i % 2 === 0 ? `Société Générale ${tag}${i}` : `Acme ${tag}${i}`
      })
    }
    return credit(id, i % 5 === 0 ? 'cancellation' : 'issuance', 1000 + i, {
      vintage: i % 11 === 0 ? null : 2010 + (i % 7),
      transaction_date: i % 13 === 0 ? null : `20${10 + (i % 12)}-1${i % 3}-01`
    })
  })
}

async function importArchive (ws: Workspace, name: string, rows: OdbCredit[]) {
  const file = path.join(ws.dir, name)
  writeFileSync(file, zip({
    'projects.csv': csvTable(PROJECT_COLUMNS, PROJECTS),
    'credits.csv': csvTable(CREDIT_COLUMNS, rows)
  }))
  const result = await tonne(['import', '--from', 'offsetsdb', file, '--json'], ws.env)
  assert.equal(result.code, 0, result.stderr)
  return JSON.parse(result.stdout) as { transactions: number, created: number, updated: number }
}

async function withDb<T> (ws: Workspace, read: (db: Awaited<ReturnType<typeof openStore>>['db']) => Promise<T>) {
  const store = await openStore(loadConfig({ ...ws.env, LOG_LEVEL: 'silent' }))
  try {
    return await read(store.db)
  } finally {
    await store.close()
  }
}

type Db = Awaited<ReturnType<typeof openStore>>['db']

/** Every index and trigger of the database, as the catalogue states them. */
async function schemaOf (db: Db, database: string): Promise<unknown[]> {
  if (database === 'sqlite') {
    return (await sql<{ type: string, name: string, tbl_name: string, sql: string | null }>`select type, name, tbl_name,
      sql from sqlite_master order by type, name`.execute(db)).rows
  }
  const indexes = (await sql`select tablename, indexname, indexdef from pg_indexes
    where schemaname = current_schema() order by indexname`.execute(db)).rows
  const triggers = (await sql`select t.tgname, c.relname, pg_get_triggerdef(t.oid) as def from pg_trigger t
    join pg_class c on c.oid = t.tgrelid where not t.tgisinternal order by t.tgname`.execute(db)).rows
  return [...indexes, ...triggers]
}

/** ledger_counts as stored, and as counted here from the ledger's rows. */
async function counts (db: Db): Promise<{ stored: string[], recount: string[] }> {
  const stored = (await db.selectFrom('ledger_counts').select(['registry', 'type', 'vintage', 'month', 'count'])
    .where('count', '<>', 0).execute())
    .map((r) => `${r.registry} ${r.type} ${r.vintage} ${r.month} ${Number(r.count)}`).sort()
  const tally = new Map<string, number>()
  const rows = await db.selectFrom('credit_transactions').select(['registry', 'type', 'vintage', 'date']).execute()
  for (const r of rows) {
    const key = `${r.registry} ${r.type} ${r.vintage ?? 0} ${r.date === null ? '' : r.date.slice(0, 7)}`
    tally.set(key, (tally.get(key) ?? 0) + 1)
  }
  return { stored, recount: [...tally].map(([key, n]) => `${key} ${n}`).sort() }
}

/** The schema as migrated, ledger_counts as the rows count, and (SQLite) the search index whole. */
async function assertIntact (ws: Workspace, database: string, migrated: unknown[]): Promise<void> {
  await withDb(ws, async (db) => {
    assert.deepEqual(await schemaOf(db, database), migrated)
    const { stored, recount } = await counts(db)
    assert.deepEqual(stored, recount)
    if (database === 'sqlite') {
      // FTS5 compares its index with the ledger's rows: an error if a row is missing or stale.
      await sql`insert into credit_transactions_search(credit_transactions_search) values ('integrity-check')`
        .execute(db)
    }
  })
}

async function searchCount (ws: Workspace, term: string): Promise<number> {
  const [body] = await ws.api([`/api/v1/commerce/transactions/?search=${encodeURIComponent(term)}`])
  return (JSON.parse(body!) as { count: number }).count
}

forEachDatabase((database) => {
  describe(`OffsetsDB's archive written in bulk [${database}]`, () => {
    test('a first import leaves the migrated schema, exact ledger counts and a working search; so do later ones',
      async (t) => {
        const ws = await workspace(t, database)
        const fresh = await workspace(t, database)
        const migrated = await withDb(fresh, async (db) => await schemaOf(db, database))

        const first = credits(3000)
        const report = await importArchive(ws, 'first.zip', first)
        assert.equal(report.transactions, 3000)
        assert.equal(report.created, 3)
        await assertIntact(ws, database, migrated)
        // "Société Générale" on every sixth row from 2 (i % 6 === 2); folded, so "societe" finds them.
        const expected = first.filter((c) => c.retirement_beneficiary?.startsWith('Société') === true).length
        assert.equal(await searchCount(ws, 'societe'), expected)

        // Then a row-by-row import (a few rows of one project changed): the put-back triggers keep everything right.
        const changed = first.map((c, i) => i === 5 || i === 8
          ? { ...c, retirement_beneficiary: `Société Nouvelle ${i}`, quantity: c.quantity + 1 }
          : c)
        const again = await importArchive(ws, 'again.zip', changed)
        assert.equal(again.transactions, 3000)
        await assertIntact(ws, database, migrated)
        assert.equal(await searchCount(ws, 'nouvelle'), 2)
        // Row 5 was Acme's, row 8 already Société Générale's.
        assert.equal(await searchCount(ws, 'societe'), expected + 1)

        // Then 2,000 more rows, at least half as many as the ledger holds: SQLite writes them in bulk too, adding to
        // the counts of the same registries, types, vintages and months (PostgreSQL row by row: its ledger is not
        // empty).
        const grown = await importArchive(ws, 'grown.zip', [...changed, ...credits(5000).slice(3000)])
        assert.equal(grown.transactions, 5000)
        await assertIntact(ws, database, migrated)
      })
  })
})
