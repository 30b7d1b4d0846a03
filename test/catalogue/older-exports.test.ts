import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import type { LedgerItem as Transaction } from '../../src/ledger/transactions.schemas.ts'
import { tonne } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import { REPO_ROOT } from '../helpers.ts'
import { importExports, projects, RAW } from '../support/registries.ts'
import type { Workspace } from '../support/workspace.ts'
import { workspace } from '../support/workspace.ts'

// Real registry rows in the layouts of older downloads (test/fixtures/older-exports/SOURCE.md), and what a buyer
// needs of each transaction and project (issue "the whole market", items 6 and 7). Expected values are the rows'
// own, read from the fixture files by eye.

const OLDER = path.join(REPO_ROOT, 'test', 'fixtures', 'older-exports')
const LEDGER = '/api/v1/commerce/transactions/'

interface Page<T> { count: number, results: T[] }
interface Listed {
  id: number
  external_id?: string
  category: string | null
  credits_issued: number | null
  protocol_version: string | null
}
interface Credits {
  issued: number | null
  retired: number | null
  vintages: Array<{ vintage: number, issued: number | null, retired: number | null, corsia_eligible: boolean | null }>
}

const page = async <T> (ws: Workspace, url: string): Promise<Page<T>> =>
  JSON.parse((await ws.api([url]))[0]!) as Page<T>

/** Every project of a registry, as the list shows them. */
const registryProjects = async (ws: Workspace, registry: string): Promise<Listed[]> =>
  (await page<Listed>(ws, `/api/v1/commerce/products/?registry=${registry}&limit=1000`)).results

forEachDatabase((database) => {
  describe(`older registry exports and what a buyer needs [${database}]`, () => {
    test('ACR\'s older retirements layout imports; two-digit years are dates; account, reason, note and serials ' +
      'are fields of their own in the API and CSV', async (t) => {
      const ws = await workspace(t, database)
      const report = await importExports(ws, 'acr', [path.join(OLDER, 'acr-retirements-older.csv')])
      assert.deepEqual(report.files, [{ file: 'acr-retirements-older.csv', export: 'retirements', rows: 3 }])
      assert.deepEqual([report.created, report.skipped, report.warnings], [3, [], []])

      const ledger = await page<Transaction>(ws, `${LEDGER}?ordering=-quantity`)
      assert.equal(ledger.count, 3)
      const { id, ...first } = ledger.results.find((r) => r.quantity === 4212)!
      assert.ok(id > 0)
      assert.deepEqual(first, {
        transaction_id: 'retirement:ACR-FR-1129-2025-2917-30932 to 35143',
        project_id: first['project_id' as keyof typeof first],
        type: 'retirement',
        date: '2026-04-13',
        vintage: 2025,
        quantity: 4212,
        beneficiary: null,
        reason: 'Environmental Benefit',
        note: 'Retirement for 2025 emissions associated with customer usage; AWS',
        account: '1423',
        serials: 'ACR-FR-1129-2025-2917-30932 to 35143',
        vintage_start: null,
        vintage_end: null,
        source: { file: 'acr-retirements-older.csv', line: 2 },
        project_external_id: 'ACR1129',
        project_name: 'Tradewater - Middle East 1'
      })
      // ACR1194's 127,471, ACR1129's 4,212, ACR1107's 2,848.
      assert.deepEqual(ledger.results.map((r) => [r.account, r.date]),
        [['1423', '2026-04-13'], ['1423', '2026-04-13'], ['Duke University', '2026-04-13']])

      const [csv] = await ws.api([`${LEDGER}?format=csv&ordering=quantity`])
      const [header, ...lines] = csv!.trim().split('\n')
      const columns = ['transaction_id', 'type', 'date', 'vintage', 'quantity', 'beneficiary', 'reason', 'note',
        'account', 'serials', 'vintage_start', 'vintage_end']
      const at = columns.map((name) => header!.split(',').indexOf(name))
      assert.ok(at.every((i) => i >= 0), header)
      assert.equal(lines.length, 3)
      // Read by the header's names (no field of this row holds a comma, so a plain split keeps the columns).
      const fields = lines[0]!.split(',')
      assert.deepEqual(at.map((i) => fields[i]), ['retirement:ACR-US-1107-2024-' +
        '2766-64358 to 67205', 'retirement', '2026-04-13', '2024', '2848', '', 'Environmental Benefit',
      'Duke University closing registry account and taking ownership of credits', 'Duke University',
      'ACR-US-1107-2024-2766-64358 to 67205', '', ''])

      // The identity is the registry's: the same rows imported into another database have the same ids.
      const other = await workspace(t, database)
      await importExports(other, 'acr', [path.join(OLDER, 'acr-retirements-older.csv')])
      const again = await page<Transaction>(other, `${LEDGER}?ordering=-quantity`)
      assert.deepEqual(again.results.map((r) => r.transaction_id), ledger.results.map((r) => r.transaction_id))
    })

    test('a 228-character methodology title does not refuse a Gold Standard export; its version and the ' +
      'monitoring period are kept', async (t) => {
      const ws = await workspace(t, database)
      const file = path.join(OLDER, 'gold-standard-issuances-long-methodology.csv')
      const title = readFileSync(file, 'utf8').split('\n')[1]!.split('"')[1]!
      assert.equal(title.length, 228)
      const report = await importExports(ws, 'gold-standard', [file])
      assert.equal(report.created, 2)
      const found = (await projects(ws, ['GS10718'])).get('GS10718')! as unknown as
        { protocol: string[], protocol_version: string | null, id: number }
      assert.deepEqual(found.protocol, [title])
      assert.equal(found.protocol_version, 'V4.0')
      const ledger = await page<Transaction>(ws, `${LEDGER}?project=${found.id}`)
      assert.deepEqual(ledger.results.map((r) => [r.serials, r.vintage_start, r.vintage_end]),
        [['GS1-1-TZ-GS10718-16-2024-30277-1-5019', '2023-05-01', '2024-10-29']])
    })

    test('the same CAR issuances with two-digit years do not double the issued total', async (t) => {
      const ws = await workspace(t, database)
      const current = readFileSync(path.join(RAW, 'climate-action-reserve', 'issuances.csv'), 'utf8')
      await importExports(ws, 'car', [ws.write('issuances.csv', current)])
      const total = async () => (await registryProjects(ws, 'CLIMATE_ACTION_RESERVE'))
        .reduce((sum, p) => sum + (p.credits_issued ?? 0), 0)
      assert.equal(await total(), 10_275_056)
      const transactions = (await page<Transaction>(ws, `${LEDGER}?registry=CLIMATE_ACTION_RESERVE`)).count

      // The older layout's dates: 03/19/2026 written 3/19/26.
      const older = current.replace(/^(\d{2})\/(\d{2})\/\d{2}(\d{2}),/gm,
        (_, month: string, day: string, year: string) => `${Number(month)}/${Number(day)}/${year},`)
      assert.notEqual(older, current)
      const report = await importExports(ws, 'car', [ws.write('issuances-2021.csv', older)])
      assert.deepEqual(report.warnings, [])
      assert.equal(await total(), 10_275_056)
      assert.equal((await page<Transaction>(ws, `${LEDGER}?registry=CLIMATE_ACTION_RESERVE`)).count, transactions)
    })

    test('an older project export imported after a newer one does not undo its fields', async (t) => {
      const ws = await workspace(t, database)
      const original = readFileSync(path.join(RAW, 'verra', 'projects.csv'), 'utf8')
      // The newer export: VCS5962 renamed, VCS5957 registered on 2026-05-20 (after every date of the older one).
      const newer = original
        .replace('Recovery and Avoidance of methane', 'Recovery and avoidance of methane')
        .replace('VM0042,Under development,Kenya,"191,805",Africa,,2024-04-01',
          'VM0042,Registered,Kenya,"191,805",Africa,2026-05-20,2024-04-01')
      assert.notEqual(newer, original)
      await importExports(ws, 'verra', [ws.write('projects-2026-06.csv', newer)])
      const report = await importExports(ws, 'verra', [ws.write('projects-2026-04.csv', original)])
      assert.equal(report.updated, 0)
      assert.ok(report.skipped.some((s) => s.reason === 'VCS5957: the export\'s rows date it 2026-04-10, older ' +
        'than the export of 2026-05-20 that stated the project: its fields are kept'))
      const found = await projects(ws, ['VCS5962', 'VCS5957'])
      assert.match(found.get('VCS5962')!.name, /^Recovery and avoidance of methane/)
      assert.equal((found.get('VCS5957')! as unknown as { status: string }).status, 'Registered')
      assert.equal(found.get('VCS5957')!.date, '2026-05-20')

      // A newer export still updates.
      const newest = newer.replace('Recovery and avoidance of methane', 'Methane recovery')
        .replace('Africa,2026-05-20,2024-04-01', 'Africa,2026-07-01,2024-04-01')
      const later = await importExports(ws, 'verra', [ws.write('projects-2026-08.csv', newest)])
      assert.equal(later.skipped.length, 0)
      assert.match((await projects(ws, ['VCS5962'])).get('VCS5962')!.name, /^Methane recovery/)
    })

    test('after --replace every derived total is recomputed: a project whose only retirement the file removed ' +
      'has none retired', async (t) => {
      const ws = await workspace(t, database)
      await importExports(ws, 'verra', [path.join(RAW, 'verra', 'transactions.csv')])
      const before = (await projects(ws, ['VCS1340'])).get('VCS1340')!
      assert.equal((before.credits as Credits).retired, 425)

      const exported = JSON.parse((await tonne(['export'], ws.env)).stdout) as Array<Record<string, unknown>>
      const edited = exported.map((record) => record['external_id'] !== 'VCS1340'
        ? record
        : {
            ...record,
            transactions: (record['transactions'] as Array<{ type: string }>).filter((t) => t.type !== 'retirement')
          })
      const result = await tonne(['import', ws.write('edited.json', JSON.stringify(edited)), '--replace'], ws.env)
      assert.equal(result.code, 0, result.stderr)
      const after = (await projects(ws, ['VCS1340'])).get('VCS1340')!
      assert.deepEqual(after.credits, {
        issued: 1454054,
        retired: 0,
        cancelled: null,
        vintages: [{ vintage: 2020, issued: 1454054, retired: 0, cancelled: null, corsia_eligible: null }]
      })
      assert.equal((await page<Transaction>(ws, `${LEDGER}?project=${after.id}&type=retirement`)).count, 0)
    })

    test('CORSIA eligibility per vintage; a project is labelled eligible only when every stated vintage is; ' +
      'every ART and CAR project has a category', async (t) => {
      const ws = await workspace(t, database)
      const art = ['projects', 'issuances', 'retirements', 'cancellations']
        .map((name) => path.join(RAW, 'art-trees', `${name}.csv`))
      await importExports(ws, 'art', art.slice(0, 2))
      // The retirements and cancellations read later keep what the issuances said of each vintage.
      await importExports(ws, 'art', art.slice(2))
      const car = ['projects', 'issuances', 'retirements', 'cancellations']
        .map((name) => path.join(RAW, 'climate-action-reserve', `${name}.csv`))
      await importExports(ws, 'car', car)

      const art102 = (await projects(ws, ['ART102'])).get('ART102')!
      assert.deepEqual(art102.certifications.map((c) => c.name_id).filter((c) => /CORSIA/.test(c)), [])
      assert.deepEqual((art102.credits as Credits).vintages.map((v) => [v.vintage, v.corsia_eligible]),
        [[2016, true], [2017, true], [2018, true], [2019, true], [2020, true], [2021, true], [2022, true],
          [2023, false]])

      const artProjects = await registryProjects(ws, 'ART')
      assert.equal(artProjects.length, 28)
      assert.deepEqual(artProjects.filter((p) => p.category === null).map((p) => p.id), [])
      const carProjects = await registryProjects(ws, 'CLIMATE_ACTION_RESERVE')
      assert.equal(carProjects.length, 186)
      assert.deepEqual(carProjects.filter((p) => p.category === null).map((p) => p.id), [])
      assert.deepEqual([...new Set(artProjects.map((p) => p.category))], ['forest'])
      assert.equal(artProjects.find((p) => p.id === art102.id)!.protocol_version, 'Version 2.0')
      // climate-action-reserve/issuances.csv: "Landfill Gas Capture/Combustion - Version 6.0".
      const car888 = (await projects(ws, ['CAR888'])).get('CAR888')!
      assert.equal((car888 as unknown as Listed).protocol_version, 'Version 6.0')
    })

    test('one rule for stated totals: a project whose transactions are read takes its totals from them alone ' +
      '(Isometric EN4R too)', async (t) => {
      const ws = await workspace(t, database)
      await importExports(ws, 'isometric', ['projects', 'issuances', 'retirements']
        .map((name) => path.join(RAW, 'isometric', `${name}.csv`)))
      const ledger = await page<Transaction>(ws,
        `${LEDGER}?registry=ISOMETRIC&limit=1000`)
      const sums = new Map<number, { issued: number, retired: number }>()
      for (const row of ledger.results) {
        const sum = sums.get(row.project_id) ?? { issued: 0, retired: 0 }
        if (row.type === 'issuance') sum.issued += row.quantity
        if (row.type === 'retirement') sum.retired += row.quantity
        sums.set(row.project_id, sum)
      }
      const listed = (await page<Listed & { credits_retired: number | null }>(ws,
        '/api/v1/commerce/products/?registry=ISOMETRIC&limit=1000')).results
      const differing = listed.filter((p) => sums.has(p.id)).filter((p) => {
        const sum = sums.get(p.id)!
        const close = (a: number | null, b: number) => Math.abs((a ?? 0) - b) < 1e-6
        return !close(p.credits_issued, sum.issued) || !close(p.credits_retired, sum.retired)
      })
      assert.equal(sums.size, 16)
      assert.deepEqual(differing.map((p) => p.id), [])
      const en4r = (await projects(ws, ['EN4R'])).get('EN4R')!
      assert.equal((en4r.credits as Credits).retired ?? 0, sums.get(en4r.id)?.retired ?? 0)
    })
  })
})
