import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { tonne } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import { projects as projectsOf, RAW } from '../support/registries.ts'
import {
  credit, CREDIT_COLUMNS, csvTable, parquetTable, project, PROJECT_COLUMNS, zip, type OdbCredit, type OdbProject
} from '../support/offsetsdb.ts'
import { workspace, type Workspace } from '../support/workspace.ts'
import { loadConfig } from '../../src/config.ts'
import { openStore } from '../../src/store/connect.ts'
import type { OffsetsDbImportReport } from '../../src/ingest/offsetsdb/offsetsdb.import.ts'

// `tonne import --from offsetsdb` (issue 33, items 1 and 2): OffsetsDB's archive as CSV zip, Parquet zip or separate
// tables, told apart by their columns; every column kept; a snapshot per project, in one transaction; only changed
// projects move; a project held by a registry's own files and the archive. The archives are made here, in
// OffsetsDB's layout (test/support/offsetsdb.ts); expected values are the rows' own.

/** What `tonne import --from offsetsdb --json` prints. */
type Report = OffsetsDbImportReport

const PROJECTS: OdbProject[] = [
  project('VCS191', 'verra', {
    name: 'Kariba REDD+',
    proponent: 'Carbon Green Investments',
    protocol: ['vm0009'],
    category: 'forest',
    status: 'Registered',
    country: 'Zimbabwe',
    listed_at: '2011-04-13',
    is_compliance: false,
    issued: 1000,
    retired: 400,
    project_url: 'https://registry.verra.org/app/projectDetail/VCS/191',
    project_type: 'REDD+',
    project_type_source: 'carbonplan'
  }),
  project('GLD1234', 'gold-standard', {
    name: 'Cookstoves in Ghana',
    proponent: 'Stove Co',
    protocol: ['gs-tpddtec'],
    category: 'cookstove',
    status: 'Registered',
    country: 'Ghana',
    is_compliance: false,
    issued: 500,
    retired: 0
  }),
  project('ACR500', 'american-carbon-registry', {
    name: 'Landfill gas',
    protocol: ['acr-landfill', 'arb-landfill'],
    category: 'ghg-management',
    is_compliance: true,
    status: 'Active',
    country: 'United States'
  })
]

const RETIREMENT = credit('VCS191', 'retirement', 200, {
  vintage: 2015,
  transaction_date: '2017-02-03',
  retirement_account: 'Acme Holdings Ltd',
  retirement_beneficiary: 'Ácme Corp.',
  retirement_beneficiary_harmonized: 'Acme',
  retirement_reason: 'Voluntary',
  retirement_note: 'Flights of 2016',
  transaction_url: 'https://registry.verra.org/app/retirement/1'
})

const CREDITS: OdbCredit[] = [
  credit('VCS191', 'issuance', 1000, { vintage: 2015, transaction_date: '2016-01-01' }),
  RETIREMENT,
  // The same row twice: two retirements of the same size on the same day, both kept.
  RETIREMENT,
  credit('GLD1234', 'issuance', 500, { vintage: 2018, transaction_date: '2019-05-06' }),
  // VCS999 is not in the projects table.
  credit('VCS999', 'issuance', 50, { vintage: 2020, transaction_date: '2021-07-08' })
]

const NAMES = ['offsets-db/projects.csv', 'offsets-db/credits.csv']

function csvZip (projects = PROJECTS, credits = CREDITS, names = NAMES) {
  return zip({
    [names[0]!]: csvTable(PROJECT_COLUMNS, projects),
    [names[1]!]: csvTable(CREDIT_COLUMNS, credits),
    'README.txt': Buffer.from('OffsetsDB\n')
  })
}

function parquetZip (projects = PROJECTS, credits = CREDITS) {
  return zip({
    'x/1.parquet': parquetTable(PROJECT_COLUMNS, projects),
    'x/2.parquet': parquetTable(CREDIT_COLUMNS, credits)
  })
}

async function importArchive (ws: Workspace, files: Array<[string, Uint8Array]>) {
  const paths = files.map(([name, bytes]) => {
    const file = path.join(ws.dir, name)
    writeFileSync(file, bytes)
    return file
  })
  return await tonne(['import', '--from', 'offsetsdb', ...paths, '--json'], ws.env)
}

async function imported (ws: Workspace, files: Array<[string, Uint8Array]>): Promise<Report> {
  const result = await importArchive(ws, files)
  assert.equal(result.code, 0, result.stderr)
  return JSON.parse(result.stdout) as Report
}

interface LedgerRow {
  identity: string
  type: string
  quantity: number
  account: string | null
  beneficiary: string | null
  beneficiary_key: string | null
  beneficiary_harmonised: string | null
  reason: string | null
  note: string | null
  url: string | null
  source_name: string | null
}

/**
 * A project's ledger as stored, with the buyer columns the ledger API does not serve yet (issue 33 item 7, another
 * part of the work): read from the database the CLI wrote.
 */
async function ledgerOf (ws: Workspace, externalId: string): Promise<LedgerRow[]> {
  const store = await openStore(loadConfig({ ...ws.env, LOG_LEVEL: 'silent' }))
  try {
    return await store.db.selectFrom('credit_transactions as c').innerJoin('projects as p', 'p.id', 'c.project_id')
      .select(['c.identity', 'c.type', 'c.quantity', 'c.account', 'c.beneficiary', 'c.beneficiary_key',
        'c.beneficiary_harmonised', 'c.reason', 'c.note', 'c.url', 'c.source_name'])
      .where('p.external_id', '=', externalId).orderBy('c.id').execute()
  } finally {
    await store.close()
  }
}

interface Shown {
  id: number
  name: string
  project_developer: string
  protocol: string[]
  category: string | null
  status: string | null
  is_compliance: boolean | null
  listed_date: string | null
  url: string | null
  location: string
  registry: { name_id: string }
  credits: { issued: number | null, retired: number | null }
  sources: string[]
  source: unknown
  updated_at: string
}

async function shown (ws: Workspace, ids: string[]): Promise<Map<string, Shown>> {
  return await projectsOf(ws, ids) as unknown as Map<string, Shown>
}

async function updatedSince (ws: Workspace, since: string): Promise<number> {
  const [page] = await ws.api([`/api/v1/commerce/products/?updated_since=${encodeURIComponent(since)}`])
  return (JSON.parse(page!) as { count: number }).count
}

async function projectCount (ws: Workspace): Promise<number> {
  const [page] = await ws.api(['/api/v1/commerce/products/'])
  return (JSON.parse(page!) as { count: number }).count
}

forEachDatabase((database) => {
  describe(`tonne import --from offsetsdb [${database}]`, () => {
    test('the CSV zip: tables told by their columns, every column kept, a missing project kept', async (t) => {
      const ws = await workspace(t, database)
      const report = await imported(ws, [['archive.zip', csvZip(PROJECTS, CREDITS, ['a/b/zz.csv', 'q.txt'])]])
      assert.deepEqual(report.files.map((f) => [f.table, f.rows]), [['projects', 3], ['credits', 5]])
      assert.deepEqual(report.ignored.map((i) => i.label), ['archive.zip > README.txt'])
      assert.deepEqual(report.missing_projects, [{ project_id: 'VCS999', credits: 1 }])
      assert.equal(report.created, 4)
      assert.equal(report.transactions, 5)
      assert.equal(report.data_as_of, '2021-07-08')

      const found = await shown(ws, ['VCS191', 'GS1234', 'ACR500', 'VCS999'])
      const kariba = found.get('VCS191')!
      assert.equal(kariba.name, 'Kariba REDD+')
      assert.equal(kariba.project_developer, 'Carbon Green Investments')
      assert.deepEqual(kariba.protocol, ['vm0009'])
      assert.equal(kariba.category, 'forest')
      assert.equal(kariba.status, 'Registered')
      assert.equal(kariba.is_compliance, false)
      assert.equal(kariba.listed_date, '2011-04-13')
      assert.equal(kariba.url, 'https://registry.verra.org/app/projectDetail/VCS/191')
      assert.equal(kariba.location, 'Zimbabwe')
      assert.deepEqual([kariba.credits.issued, kariba.credits.retired], [1000, 400])
      assert.deepEqual(kariba.sources, ['offsetsdb'])
      assert.deepEqual(found.get('ACR500')!.protocol, ['acr-landfill', 'arb-landfill'])
      assert.equal(found.get('ACR500')!.is_compliance, true)
      assert.equal(found.get('GS1234')!.registry.name_id, 'GOLD_STANDARD')
      const missing = found.get('VCS999')!
      assert.equal(missing.name, 'VCS999')
      assert.equal(missing.credits.issued, 50)

      const ledger = await ledgerOf(ws, 'VCS191')
      assert.equal(ledger.length, 3)
      const retirements = ledger.filter((r) => r.type === 'retirement')
      assert.equal(new Set(retirements.map((r) => r.identity)).size, 2, 'the identical rows are two transactions')
      assert.deepEqual(retirements.map((r) => [r.account, r.beneficiary, r.beneficiary_key, r.beneficiary_harmonised,
        r.reason, r.note, r.url, r.source_name])[0], ['Acme Holdings Ltd', 'Ácme Corp.', 'acme corp.', 'Acme',
        'Voluntary', 'Flights of 2016', 'https://registry.verra.org/app/retirement/1', 'offsetsdb'])
    })

    test('the Parquet zip is the same content: nothing moves; the same bytes again are not read', async (t) => {
      const ws = await workspace(t, database)
      await imported(ws, [['offsets-db.csv.zip', csvZip()]])
      const before = await shown(ws, ['VCS191'])
      const bytes = parquetZip()
      const parquet = await imported(ws, [['offsets-db.parquet.zip', bytes]])
      assert.deepEqual(parquet.files.map((f) => [f.table, f.rows]), [['projects', 3], ['credits', 5]])
      assert.deepEqual([parquet.created, parquet.updated, parquet.unchanged], [0, 0, 4])
      assert.equal((await shown(ws, ['VCS191'])).get('VCS191')!.updated_at, before.get('VCS191')!.updated_at)
      assert.equal((await ledgerOf(ws, 'VCS191')).length, 3)

      const again = await imported(ws, [['renamed.zip', bytes]])
      assert.equal(again.already_imported, true)
      assert.equal(again.sha256, parquet.sha256)
    })

    test('other names and row order: no project is updated, none is listed by updated_since', async (t) => {
      const ws = await workspace(t, database)
      t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-11-01T00:00:00Z') })
      await imported(ws, [['one.zip', csvZip()]])
      t.mock.timers.setTime(Date.parse('2026-11-02T00:00:00Z'))
      const report = await imported(ws, [['two.zip', csvZip([...PROJECTS].reverse(), [...CREDITS].reverse(),
        ['deep/folder/p', 'c'])]])
      assert.deepEqual([report.created, report.updated, report.unchanged], [0, 0, 4])
      t.mock.timers.reset()
      assert.equal(await updatedSince(ws, '2026-11-01T12:00:00Z'), 0)
    })

    test('a snapshot that removes a transaction: that project alone is updated', async (t) => {
      const ws = await workspace(t, database)
      t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-11-01T00:00:00Z') })
      await imported(ws, [['day1.zip', csvZip()]])
      t.mock.timers.setTime(Date.parse('2026-11-02T00:00:00Z'))
      const report = await imported(ws, [['day2.zip', csvZip(PROJECTS, CREDITS.filter((_, i) => i !== 2))]])
      assert.deepEqual([report.created, report.updated, report.unchanged], [0, 1, 3])
      t.mock.timers.reset()
      const kariba = (await shown(ws, ['VCS191'])).get('VCS191')!
      assert.equal(kariba.credits.retired, 200)
      assert.equal(kariba.updated_at, '2026-11-02T00:00:00.000Z')
      assert.equal((await ledgerOf(ws, 'VCS191')).length, 2)
      assert.equal(await updatedSince(ws, '2026-11-01T12:00:00Z'), 1)
    })

    test('separate tables: projects as Parquet, credits as CSV', async (t) => {
      const ws = await workspace(t, database)
      const report = await imported(ws, [['p.bin', parquetTable(PROJECT_COLUMNS, PROJECTS)],
        ['c.bin', csvTable(CREDIT_COLUMNS, CREDITS)]])
      assert.deepEqual(report.files.map((f) => [f.file, f.table]), [['p.bin', 'projects'], ['c.bin', 'credits']])
      assert.equal(report.transactions, 5)
    })

    test('a truncated zip, a zip bomb and a table broken half-way change nothing', async (t) => {
      const ws = await workspace(t, database)
      await imported(ws, [['good.zip', csvZip()]])
      const before = await ws.api(['/api/v1/commerce/products/?limit=100'])
      const whole = csvZip(PROJECTS, CREDITS.slice(0, 2))
      const truncated = await importArchive(ws, [['cut.zip', whole.subarray(0, Math.floor(whole.length * 0.8))]])
      assert.equal(truncated.code, 1)
      assert.match(truncated.stderr, /nothing was changed\. cut\.zip is not a readable zip/)

      // 8 MiB is past the 1 MiB under which the ratio is not checked; making 64 MiB cost the test a second.
      const padding = Buffer.alloc(8 * 1024 ** 2, 32)
      const bomb = zip({ 'credits.csv': Buffer.concat([csvTable(CREDIT_COLUMNS, CREDITS), padding]) })
      assert.ok(bomb.length * 500 < padding.length, 'a bomb: 8 MiB from over 500 times less, past the limit of 200')
      const exploded = await importArchive(ws, [['bomb.zip', bomb]])
      assert.equal(exploded.code, 1)
      assert.match(exploded.stderr, /nothing was changed\. bomb\.zip > credits\.csv expands \d+ times .*zip bomb/)

      // Thousands of good rows are staged before the broken quote: the whole import is refused all the same.
      const many = Array.from({ length: 2500 }, (_, i) => credit('VCS191', 'retirement', 1, {
        vintage: 2015,
        retirement_note: `row ${i}`
      }))
      const broken = Buffer.concat([csvTable(CREDIT_COLUMNS, many), Buffer.from('VCS191,"1,2015\n')])
      const halfway = await importArchive(ws, [['broken.zip', zip({
        p: csvTable(PROJECT_COLUMNS, PROJECTS),
        c: broken
      })]])
      assert.equal(halfway.code, 1)
      assert.match(halfway.stderr, /nothing was changed\. broken\.zip > c is not a CSV table/)
      assert.deepEqual(await ws.api(['/api/v1/commerce/products/?limit=100']), before)
      assert.equal((await ledgerOf(ws, 'VCS191')).length, 3)
    })

    test('a file that holds no OffsetsDB table is refused, and nothing is written', async (t) => {
      const ws = await workspace(t, database)
      const result = await importArchive(ws, [['other.zip', zip({ 'a.csv': Buffer.from('x,y\n1,2\n') })]])
      assert.equal(result.code, 1)
      assert.match(result.stderr, /no OffsetsDB table found/)
      assert.equal(await projectCount(ws), 0)
    })

    test('a project held by a registry\'s files and the archive: the last import that gives its ledger holds ' +
      'it, and the project names both sources', async (t) => {
      const ws = await workspace(t, database)
      const verra = ['projects.csv', 'transactions.csv'].map((f) => path.join(RAW, 'verra', f))
      const rawLedger = readFileSync(verra[1]!, 'utf8').split('\n')
        .filter((l) => /^[^,]*,[^,]*,[^,]*,[^,]*,1340,/.test(l))
      assert.ok(rawLedger.length > 0, 'the sample has VCS1340 transactions')
      const archive = (quantity: number) =>
        csvZip([project('VCS1340', 'verra', { name: 'Bale Mountains (OffsetsDB)' })],
          [credit('VCS1340', 'issuance', quantity, { vintage: 2020, transaction_date: '2021-01-01' })])

      await imported(ws, [['archive1.zip', archive(777)]])
      const registry = await tonne(['import', '--from', 'verra', ...verra, '--json'], ws.env)
      assert.equal(registry.code, 0, registry.stderr)
      let ledger = await ledgerOf(ws, 'VCS1340')
      assert.ok(ledger.length > 0 && ledger.every((r) => r.source_name === 'verra'), 'the registry\'s rows replace ' +
        'the archive\'s')
      let bale = (await shown(ws, ['VCS1340'])).get('VCS1340')!
      assert.deepEqual(bale.sources, ['offsetsdb', 'verra'])

      await imported(ws, [['archive2.zip', archive(778)]])
      ledger = await ledgerOf(ws, 'VCS1340')
      assert.deepEqual(ledger.map((r) => [r.source_name, r.quantity]), [['offsetsdb', 778]])
      bale = (await shown(ws, ['VCS1340'])).get('VCS1340')!
      assert.equal(bale.credits.issued, 778)
      assert.equal(bale.name, 'Bale Mountains (OffsetsDB)')
      assert.deepEqual(bale.sources, ['offsetsdb', 'verra'])
    })
  })
})
