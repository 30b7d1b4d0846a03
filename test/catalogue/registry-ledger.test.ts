import assert from 'node:assert/strict'
import { copyFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { exported, importExports, RAW } from '../support/registries.ts'
import { workspace } from '../support/workspace.ts'

// The ledger side of `tonne import --from` (issue 21): every export of the 7 registries and CARB's table, read
// by their columns in current and older layouts, and the import rules: older exports add transactions without
// replacing newer fields, the same bytes under another name change nothing. Expected values are read by hand from
// the sample rows (lines cited). Two imports at once (read-merge-write inside the import lock) and a missing file,
// which need processes of their own: registry-ledger.process.test.ts.

const file = (...parts: string[]) => path.join(RAW, ...parts)

/** Each registry's sample files and the export each is, as its columns tell. */
const EXPORTS: Record<string, Array<[string, string]>> = {
  verra: [['verra/projects.csv', 'projects'], ['verra/transactions.csv', 'transactions']],
  'gold-standard': [['gold-standard/projects.csv', 'projects'], ['gold-standard/issuances.csv', 'issuances'],
    ['gold-standard/retirements.csv', 'retirements']],
  acr: ['projects', 'issuances', 'retirements', 'cancellations'].map((k) => [`american-carbon-registry/${k}.csv`, k]),
  car: ['projects', 'issuances', 'retirements', 'cancellations'].map((k) => [`climate-action-reserve/${k}.csv`, k]),
  art: ['projects', 'issuances', 'retirements', 'cancellations'].map((k) => [`art-trees/${k}.csv`, k]),
  cercarbono: ['projects', 'issuances', 'retirements'].map((k) => [`cercarbono/${k}.csv`, k]),
  isometric: ['projects', 'issuances', 'retirements'].map((k) => [`isometric/${k}.csv`, k])
}

forEachDatabase((database) => {
  describe(`tonne import --from: the ledger exports [${database}]`, () => {
    test('every export of the 7 registries is read, each told apart by its columns', async (t) => {
      const ws = await workspace(t, database)
      for (const [registry, files] of Object.entries(EXPORTS)) {
        const report = await importExports(ws, registry, files.map(([f]) => file(f)))
        assert.deepEqual(report.files.map((f) => [f.file, f.export]).sort(),
          files.map(([f, kind]) => [path.basename(f), kind]).sort(), registry)
      }
    })

    test('Gold Standard\'s retirements are retirements, with their beneficiary and date', async (t) => {
      const ws = await workspace(t, database)
      const report = await importExports(ws, 'gold-standard',
        [file('gold-standard', 'projects.csv'), file('gold-standard', 'retirements.csv')])
      assert.deepEqual(report.skipped.filter((s) => /issuance/.test(s.reason)), [])
      const gs11603 = (await exported(ws)).get('GS11603')!
      // retirements.csv lines 2 and 3: 5,354 and 12,139 retired on 2026-04-10 on behalf of Hilti Corporation.
      assert.equal(gs11603.credits?.retired, 5354 + 12139)
      const line2 = gs11603.transactions!.find((x) => x.source?.line === 2)!
      assert.deepEqual([line2.type, line2.date, line2.vintage, line2.quantity, line2.beneficiary],
        ['retirement', '2026-04-10', 2025, 5354, 'Hilti Corporation'])
      assert.equal(line2.identity, 'retirement:GS1-1-KE-GS11603-16-2025-30256-110-5463')
    })

    test('the OffsetsDB project fields and a Verra retirement\'s beneficiary', async (t) => {
      const ws = await workspace(t, database)
      await importExports(ws, 'verra', EXPORTS['verra']!.map(([f]) => file(f)))
      await importExports(ws, 'acr', [file('american-carbon-registry', 'projects.csv')])
      const projects = await exported(ws)
      // verra/projects.csv line 16: Methodology "VM0007; VM0033", Status "Under development".
      const vcs5922 = projects.get('VCS5922')!
      assert.deepEqual([vcs5922.protocol, vcs5922.status, vcs5922.is_compliance],
        [['VM0007', 'VM0033'], 'Under development', false])
      // american-carbon-registry/projects.csv line 3: an ARB ozone protocol, "ARB Completed"; CarbonPlan's
      // all-protocol-mapping lists that string under arb-ozone, category ghg-management; its type-category mapping
      // has no "ozone depleting substances", so the registry's type stands.
      const acr206 = projects.get('ACR206')!
      assert.deepEqual([acr206.protocol, acr206.status, acr206.is_compliance, acr206.category, acr206.project_type], [
        ['ARB Compliance Offset Protocol: Destruction of U.S. Ozone Depleting Substances Banks'], 'ARB Completed', true,
        'ghg-management', 'Ozone Depleting Substances'])
      // verra/transactions.csv line 4: 28,571 retired 2026-04-06 for Lindblad Expeditions Family of Companies.
      const line4 = projects.get('VCS3005')!.transactions!.find((x) => x.source?.line === 4)!
      // Retirement Reason and Retirement Details are two fields.
      assert.deepEqual([line4.type, line4.date, line4.quantity, line4.beneficiary, line4.reason, line4.note],
        ['retirement', '2026-04-06', 28571, 'Lindblad Expeditions Family of Companies', 'Environmental Benefit',
          'Retired on behalf of the Lindblad Expeditions family of companies 2025 emissions.'])
    })

    test('CARB\'s issuance table adds California credits to the ACR and CAR projects it names', async (t) => {
      const ws = await workspace(t, database)
      await importExports(ws, 'acr', EXPORTS['acr']!.map(([f]) => file(f)))
      await importExports(ws, 'car', EXPORTS['car']!.map(([f]) => file(f)))
      await importExports(ws, 'arb', [file('arb', 'nc-arboc_issuance_sheet3.csv')])
      const projects = await exported(ws)
      // nc-arboc_issuance_sheet3.csv: ACR1051 CAMM1051-A 6,045 and -B 14,653; CAR1011 CAOD5018-A 93,055, of which
      // 89,436 retired in the 1st compliance period and the rest in later columns of the same row.
      assert.equal(projects.get('ACR1051')!.credits?.issued, 6045 + 14653)
      assert.equal(projects.get('CAR1011')!.credits?.issued, 93055)
      assert.equal(projects.get('CAR1011')!.credits?.retired, 93055)
    })
  })

  describe(`tonne import --from: import rules [${database}]`, () => {
    test('CARB\'s table counts for the projects it names whichever is imported first', async (t) => {
      const ws = await workspace(t, database)
      await importExports(ws, 'arb', [file('arb', 'nc-arboc_issuance_sheet3.csv')])
      await importExports(ws, 'acr', EXPORTS['acr']!.map(([f]) => file(f)))
      const acr1051 = (await exported(ws)).get('ACR1051')!
      // CAMM1051-A 6,045 + -B 14,653; ACR's own issuance of -B (issuances.csv, 14,653) and its conversion
      // cancellations stay in the ledger without counting again.
      assert.deepEqual([acr1051.credits?.issued, acr1051.credits?.cancelled], [20698, null])
      assert.ok(acr1051.transactions!.some((x) => x.source?.file === 'issuances.csv'))
    })

    test('older layouts: header cells broken over lines, ACR\'s "Date Issued" without (GMT)', async (t) => {
      const ws = await workspace(t, database)
      const csv = ws.write('acr-2019.csv', [
        '"Date \nIssued","Vintage","Total Credits\nIssued","Project ID","Project Name","Project Site Country"',
        '3/15/2019,2018,"1,250",ACR9001,Older Layout Forest,United States'
      ].join('\n'))
      const report = await importExports(ws, 'acr', [csv])
      assert.deepEqual(report.files, [{ file: 'acr-2019.csv', export: 'issuances', rows: 1 }])
      const project = (await exported(ws)).get('ACR9001')!
      assert.equal(project.credits?.issued, 1250)
      assert.equal(project.transactions![0]!.date, '2019-03-15')
    })

    test('a serial range listed twice, with other quantities: the later row is used and the earlier reported',
      async (t) => {
        const ws = await workspace(t, database)
        const csv = ws.write('car-retirements.csv', [
          'Vintage,Offset Credit Serial Numbers,Quantity of Offset Credits,Status Effective,Project ID,Project Name,' +
          'Retirement Reason',
          '2020,CAR-1-US-9-2020-1-100,100,1/5/2024,CAR9001,Serial Twice,Voluntary',
          '2020,CAR-1-US-9-2020-1-100,90,1/6/2024,CAR9001,Serial Twice,Voluntary'
        ].join('\n'))
        const report = await importExports(ws, 'car', [csv])
        assert.deepEqual(report.skipped, [{
          file: 'car-retirements.csv',
          line: 2,
          reason: 'retirement:CAR-1-US-9-2020-1-100 again at car-retirements.csv line 3, which is used instead'
        }])
        assert.equal((await exported(ws)).get('CAR9001')!.credits?.retired, 90)
      })

    test('the same bytes under another name change nothing', async (t) => {
      const ws = await workspace(t, database)
      await importExports(ws, 'car', [file('climate-action-reserve', 'projects.csv')])
      const before = await exported(ws)
      mkdirSync(path.join(ws.dir, 'renamed'))
      const copy = path.join(ws.dir, 'renamed', 'car-projects-2026-04.csv')
      copyFileSync(file('climate-action-reserve', 'projects.csv'), copy)
      const report = await importExports(ws, 'car', [copy])
      assert.equal(report.updated, 0)
      assert.deepEqual(report.already_imported, [{ file: 'car-projects-2026-04.csv', as: 'projects.csv' }])
      assert.deepEqual(await exported(ws), before)
    })

    test('an older or partial export adds its transactions and does not replace newer fields', async (t) => {
      const ws = await workspace(t, database)
      const header = 'Vintage,Credit Status,Quantity,GSID,Project Name,Project Developer,Country,Issuance Date,' +
        'Serial Number'
      const newer = ws.write('gs-2024.csv', [header,
        '2023,Issued,500,9100,Clean Cookstoves Kenya,Renamed Developer 2024,Kenya,2024-05-02,GS1-1-KE-9100-2023-1-500'
      ].join('\n'))
      const older = ws.write('gs-2021.csv', [header,
        '2019,Issued,300,9100,Old Cookstoves Name,Developer 2021,Kenya,2021-03-01,GS1-1-KE-9100-2019-1-300'
      ].join('\n'))
      await importExports(ws, 'gold-standard', [newer])
      await importExports(ws, 'gold-standard', [older])
      const project = (await exported(ws)).get('GS9100')!
      assert.equal(project.name, 'Clean Cookstoves Kenya')
      // Both issuances are in the ledger: 500 (2024 file) + 300 (2021 file).
      assert.equal(project.credits?.issued, 800)
      assert.deepEqual(project.transactions!.map((x) => x.vintage).sort(), [2019, 2023])
    })
  })
})
