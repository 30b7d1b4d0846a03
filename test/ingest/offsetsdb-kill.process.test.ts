import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { describe, test } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { tonne } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import { REPO_ROOT } from '../helpers.ts'
import {
  credit, CREDIT_COLUMNS, csvTable, project, PROJECT_COLUMNS, zip, type OdbCredit
} from '../support/offsetsdb.ts'
import { workspace, type Workspace } from '../support/workspace.ts'
import { loadConfig } from '../../src/config.ts'
import { openStore } from '../../src/store/connect.ts'

// Issue 33 item 2: an archive import is one transaction, so a `tonne import --from offsetsdb` process killed with
// SIGKILL in the middle of writing leaves the catalogue exactly as it was: rows, ledger counts, indexes and
// triggers (the bulk path sets the ledger's indexes aside inside that transaction). The kill comes when the
// process is seen writing. On PostgreSQL the test holds the ledger (share mode: reads go through, writes wait), so
// the import, its projects written, waits at its first ledger write (pg_stat_activity) for as long as the test
// likes: any size will do. On SQLite, where the import holds the only write lock, when the process has written
// some megabytes (/proc/PID/io: its temporary stage and the database's write-ahead log), well before an import of
// this size ends.

/** Credits of the archive killed: on SQLite enough that the import is still writing when the kill comes. */
const KILLED_CREDITS = { sqlite: 60_000, postgres: 2_000 }

const PROJECTS = Array.from({ length: 20 }, (_, i) => project(`VCS${100 + i}`, 'verra'))

function credits (n: number, tag: string): OdbCredit[] {
  return Array.from({ length: n }, (_, i) => credit(`VCS${100 + (i % 20)}`, i % 4 === 3 ? 'retirement' : 'issuance',
    i + 1, {
      vintage: 2010 + (i % 9),
      transaction_date: `2020-0${1 + (i % 9)}-1${i % 10}`,
      ...i % 4 === 3 && { retirement_beneficiary: `Beneficiary ${tag} ${i}`, retirement_note: `note ${tag} ${i}` }
    }))
}

function archive (ws: Workspace, name: string, rows: OdbCredit[]): string {
  const file = path.join(ws.dir, name)
  writeFileSync(file, zip({
    'projects.csv': csvTable(PROJECT_COLUMNS, PROJECTS),
    'credits.csv': csvTable(CREDIT_COLUMNS, rows)
  }))
  return file
}

type Db = Awaited<ReturnType<typeof openStore>>['db']

async function withDb<T> (ws: Workspace, read: (db: Db) => Promise<T>): Promise<T> {
  const store = await openStore(loadConfig({ ...ws.env, LOG_LEVEL: 'silent' }))
  try {
    return await read(store.db)
  } finally {
    await store.close()
  }
}

const TABLES = ['projects', 'project_vintages', 'project_sources', 'project_protocols', 'credit_transactions',
  'ledger_counts', 'imported_files']

/** Every row of the catalogue's tables and every index and trigger: what "as it was" means. */
async function state (ws: Workspace, database: string): Promise<Record<string, unknown>> {
  return await withDb(ws, async (db) => {
    const out: Record<string, unknown> = {}
    for (const table of TABLES) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)
      out[table] = rows.map((r) => JSON.stringify(r)).sort()
    }
    out['schema'] = database === 'sqlite'
      ? (await sql`select type, name, sql from sqlite_master order by type, name`.execute(db)).rows
      : [(await sql`select indexname, indexdef from pg_indexes where schemaname = current_schema()
          order by indexname`.execute(db)).rows,
        (await sql`select tgname, pg_get_triggerdef(oid) as def from pg_trigger where not tgisinternal
          order by tgname`.execute(db)).rows]
    return out
  })
}

/** Bytes the process has written (to files and sockets), from /proc. */
function written (pid: number): number {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8')
  return Number(/^wchar: (\d+)$/m.exec(io)?.[1] ?? 0)
}

/**
 * Whether the PostgreSQL database's import backend waits, inside its transaction, to write the ledger: a backend
 * blocked by the test's hold on it (holdLedger), which stops writes to credit_transactions and nothing else.
 */
async function waitingOnLedger (adminDb: Db, database: string, holder: number): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where datname = ${database} and state = 'active' and ${holder} = any(pg_blocking_pids(pid))
    and query ilike '%credit_transactions%'`.execute(adminDb)
  return (rows[0]?.n ?? 0) > 0
}

/** On PostgreSQL, holds the ledger in share mode (its writes wait, reads go on) until `release`. */
async function holdLedger (ws: Workspace): Promise<{ pid: number, release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: ws.env['DATABASE_URL'] })
  await client.connect()
  await client.query('begin')
  await client.query('lock table credit_transactions in share mode')
  const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
  let held = true
  const release = async () => {
    if (!held) return
    held = false
    await client.query('commit')
    await client.end()
  }
  return { pid, release }
}

forEachDatabase((database) => {
  describe(`tonne import --from offsetsdb, killed [${database}]`, () => {
    test('SIGKILL in the middle of writing leaves the catalogue exactly as it was', async (t) => {
      const ws = await workspace(t, database)
      // A committed state to keep: a small archive (the next one adds far more rows: the bulk path).
      const before = await tonne(['import', '--from', 'offsetsdb', archive(ws, 'small.zip', credits(200, 'a')),
        '--json'], ws.env)
      assert.equal(before.code, 0, before.stderr)
      const kept = await state(ws, database)

      const size = KILLED_CREDITS[database]
      const big = archive(ws, 'big.zip', credits(size, 'b'))
      const hold = database === 'postgres' ? await holdLedger(ws) : undefined
      t.after(async () => await hold?.release())
      const env = { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...ws.env }
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'tonne.js'), 'import', '--from', 'offsetsdb',
        big, '--json'], { env, cwd: REPO_ROOT, stdio: 'ignore' })
      const exited = once(child, 'exit')
      let ended = false
      exited.then(() => { ended = true }).catch(() => undefined)
      const admin = database === 'postgres'
        ? await openStore(loadConfig({ ...ws.env, LOG_LEVEL: 'silent' }))
        : undefined
      const name = ws.env['DATABASE_URL'] === undefined ? '' : new URL(ws.env['DATABASE_URL']).pathname.slice(1)
      try {
        // Polled until the process is seen writing (or has ended, which fails the test below).
        for (;;) {
          if (ended) break
          const writing = admin === undefined
            ? written(child.pid!) > 8 * 1024 ** 2
            : await waitingOnLedger(admin.db, name, hold!.pid)
          if (writing) break
          await delay(20)
        }
      } finally {
        await admin?.close()
      }
      assert.equal(ended, false, 'the import ended before it was seen writing: make the archive larger')
      child.kill('SIGKILL')
      const [code, signal] = await exited
      assert.equal(code, null)
      assert.equal(signal, 'SIGKILL')
      await hold?.release()

      assert.deepEqual(await state(ws, database), kept)
      // And the catalogue takes the same archive afterwards (no lock or half-built index left behind).
      const after = await tonne(['import', '--from', 'offsetsdb', big, '--json'], ws.env)
      assert.equal(after.code, 0, after.stderr)
      assert.equal((JSON.parse(after.stdout) as { transactions: number }).transactions, size)
    })
  })
})
