import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { tonne } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import { workspace } from '../support/workspace.ts'
import { importExports, projects, RAW } from '../support/registries.ts'

const VERRA_PROJECTS_HEADER = 'ID,Name,Proponent,Project Type,AFOLU Activities,Methodology,Status,Country/Area,' +
  'Estimated Annual Emission Reductions,Region,Project Registration Date,Crediting Period Start Date,' +
  'Crediting Period End Date'
const VERRA_TRANSACTIONS_HEADER = 'Issuance Date,Sustainable Development Goals,Vintage Start,Vintage End,ID,Name,' +
  'Country/Area,Project Type,Methodology,Total Vintage Quantity,Quantity Issued,Serial Number,' +
  'Additional Certifications,Retirement/Cancellation Date'
/** The columns from ID to Methodology of Verra project 9001's transactions. */
const PROJECT_9001 = '9001,Thousands Test,Viet Nam,Energy demand,VM0050'

// Hand-written rows in Verra's export format, each showing one problem a real export can have.
const EDGE_PROJECTS = [
  VERRA_PROJECTS_HEADER,
  /* 2 */ '9001,Thousands Test,Dev A,Energy demand,,VM0050,Registered,Viet Nam,"1,234,567",Asia,,2021-13-45,',
  /* 3 */ '9002,Blank Country,Dev B,Transport,,,Registered,,"12,000",,,31/12/2020,',
  /* 4 */ '9003,Unknown Country,Dev C,Transport,,,Registered,Atlantis,abc,,,,',
  /* 5 */ '9001,Thousands Test,Dev A,Energy demand,,VM0050,Registered,Viet Nam,"1,234,567",Asia,,2021-13-45,',
  /* 6 */ '9002,Blank Country Renamed,Dev B,Transport,,,Registered,  ,"12,000",,,31/12/2020,',
  /* 7 */ 'x9,Bad Id,Dev D,Transport,,,Registered,Kenya,,,,,',
  /* 8 */ '9004,Short Row,Dev E'
].join('\n')

const EDGE_TRANSACTIONS = [
  VERRA_TRANSACTIONS_HEADER,
  /* 2 */ `2024-01-01,01: No Poverty; 19: Space,2020-01-01,2020-12-31,${PROJECT_9001},"2,500,000","1,000",S1,` +
    'ICVCM CCP,2024-02-01',
  /* 3 */ `2024-01-01,,2020-01-01,2020-12-31,${PROJECT_9001},"2,500,000","24,000",S2,,`,
  /* 4 */ `2024-01-01,,2021-01-01,someday,${PROJECT_9001},"10",10,S3,,`,
  /* 5 */ `2024-01-01,,2021-01-01,2021-12-31,${PROJECT_9001},"10",ten,S4,,`
].join('\n')

/** A CSV field in quotes, its quotes doubled (RFC 4180). */
const quoted = (value: string) => `"${value.replace(/"/g, '""')}"`
const CERCARBONO_HEADER = 'id,code,is_public,owner,developer,validator,verifier,credits_type,name,description,' +
  'standard,sector,evaluation_criteria,quantification_method,stage,locations,serials,annualEstimated'
/** A label with an apostrophe: Python writes it in double quotes. */
const USE = '"Carbono d\'Urabá"'
const serial = (vintage: string, quantity: number, buffer: string) =>
  `{'serial': 'CDC_900_${quantity}', 'issued_quantity': ${quantity}, 'is_buffer': ${buffer}, ` +
  `'vintage_of_credits': '${vintage}', ` +
  `'global_goals': [{'code': 13}], 'elegible': [{'description': ${USE}, 'code': 'X'}]}`
// Cercarbono's nested columns are Python literals (single quotes, True/False), inside CSV quoting.
const CERCARBONO_EDGES = [
  CERCARBONO_HEADER,
  ['900', 'CDC-900', 'True', 'Owner', '', 'V', 'V', 'Carbon offsets', 'Literal Test', 'Short. Long.', 'Cercarbono',
    quoted("[{'id': 14, 'description': 'Land use (AFOLU)', 'projectSize': 120.5, 'sizeUnits': 'hectáreas'}]"), 'P', 'Q',
    'Certified', quoted("[{'city': 'X', 'country': 'Colombia', 'data_map': {'latitude': 4.5, 'longitude': -74.1}}]"),
    quoted(`[${serial('2019-01-01 / 2020-06-30', 100, 'False')}, ${serial('2020-01-01 / 2020-12-31', 7, 'True')}]`),
    '0.0'].join(','),
  ['901', 'CDC-901', 'True', 'Owner Two', '', 'V', 'V', 'Carbon offsets', 'Broken Serials', '', 'Cercarbono', '[]', 'P',
    'Q', 'Certified', '[]', quoted("[{'serial': "), '12.5'].join(',')
].join('\n')

forEachDatabase((database) => {
  describe(`registry imports: awkward rows [${database}]`, () => {
    test('control characters are removed and bytes that are not UTF-8 are a warning naming line and field',
      async (t) => {
        const ws = await workspace(t, database)
        const lines = [
          VERRA_PROJECTS_HEADER,
          /* 2 */ '9101,Bell\u0007 and \u001b[31mred,Dev A,Transport,,,Registered,Kenya,,,,,',
          /* 3 */ '9102,Caf\u00e9 Latin,Dev B,Transport,,,Registered,Kenya,,,,,'
        ]
        // Line 3 written in Latin-1, as older exports were: é is the single byte 0xE9, not UTF-8.
        const file = ws.write('projects.csv', '')
        writeFileSync(file, Buffer.concat([Buffer.from(`${lines[0]}\n${lines[1]}\n`, 'utf8'),
          Buffer.from(`${lines[2]}\n`, 'latin1')]))
        const report = await importExports(ws, 'verra', [file])
        assert.equal(report.created, 2)
        assert.deepEqual(report.warnings.map((w) => [w.line, w.field, /control character/.test(w.reason)]),
          [[2, 'Name', true], [3, 'Name', false]])
        assert.match(report.warnings[1]!.reason, /not UTF-8.*Latin-1/)
        const found = await projects(ws, ['VCS9101', 'VCS9102'])
        assert.equal(found.get('VCS9101')!.name, 'Bell and [31mred')
        assert.equal(found.get('VCS9102')!.name, 'Caf\ufffd Latin')
      })

    test('thousands separators, bad dates, blank and unknown countries, duplicate and short rows', async (t) => {
      const ws = await workspace(t, database)
      const files = [ws.write('projects.csv', EDGE_PROJECTS), ws.write('transactions.csv', EDGE_TRANSACTIONS)]
      const report = await importExports(ws, 'verra', files)
      assert.deepEqual([report.created, report.updated, report.unchanged], [3, 0, 0])
      assert.deepEqual(report.skipped, [
        { file: 'projects.csv', line: 5, reason: 'repeats line 2 exactly' },
        { file: 'projects.csv', line: 3, reason: 'VCS9002 again at projects.csv line 6, which is used instead' },
        { file: 'projects.csv', line: 7, reason: 'ID "x9" is not a Verra project number' },
        { file: 'projects.csv', line: 8, reason: 'has 3 fields; the header has 13' },
        { file: 'transactions.csv', line: 4, reason: 'Vintage End "someday" is not a date' },
        { file: 'transactions.csv', line: 5, reason: 'Quantity Issued "ten" is not a number' }
      ])
      assert.deepEqual(report.warnings, [
        { file: 'projects.csv', line: 2, field: 'date', reason: '"2021-13-45" is not a date' },
        {
          file: 'projects.csv',
          line: 4,
          field: 'location',
          reason: '"Atlantis" is not a known country name or code; kept as written'
        },
        { file: 'projects.csv', line: 4, field: 'estimated_annual_reductions', reason: '"abc" is not a number' },
        {
          file: 'transactions.csv',
          line: 2,
          field: 'sustainable_development_goals',
          reason: '"19: Space" names no goal 1 to 17'
        }
      ])
      const found = await projects(ws, ['VCS9001', 'VCS9002', 'VCS9003'])
      const thousands = found.get('VCS9001')!
      assert.equal(thousands.location, 'Vietnam')
      assert.equal(thousands.estimated_annual_reductions, 1234567)
      assert.equal(thousands.date, null)
      // One vintage period counted once (2,500,000) whatever its blocks; the retired block is 1,000.
      assert.deepEqual(thousands.credits, {
        issued: 2500000,
        retired: 1000,
        cancelled: null,
        vintages: [{ vintage: 2020, issued: 2500000, retired: 1000, cancelled: null, corsia_eligible: null }]
      })
      assert.deepEqual(thousands.sustainable_development_goals.map((g) => g.name_id), ['1_NO_POVERTY'])
      assert.deepEqual(thousands.certifications, [{ name_id: 'ICVCM_CCP', verbose_name: 'ICVCM CCP' }])
      assert.deepEqual(thousands.source,
        [{ file: 'projects.csv', lines: [2] }, { file: 'transactions.csv', lines: [2, 3] }])
      const blank = found.get('VCS9002')!
      assert.equal(blank.name, 'Blank Country Renamed')
      assert.equal(blank.location, '')
      assert.equal(blank.date, '2020-12-31', 'Verra writes slashed dates day first')
      assert.deepEqual(blank.source, [{ file: 'projects.csv', lines: [6] }])
      assert.equal(found.get('VCS9003')!.location, 'Atlantis')
      assert.equal(found.get('VCS9003')!.estimated_annual_reductions, null)
      const [atlantis, vietnam] = await ws.api(['/api/v1/commerce/products/?location=atlantis',
        '/api/v1/commerce/products/?location=VN'])
      assert.equal(JSON.parse(atlantis!).count, 1)
      assert.equal(JSON.parse(vietnam!).count, 1)
    })

    test('a newer export updates by (registry, external id); ids and operator fields stay', async (t) => {
      const ws = await workspace(t, database)
      const original = readFileSync(path.join(RAW, 'verra', 'projects.csv'), 'utf8')
      await importExports(ws, 'verra', [ws.write('projects.csv', original)])
      const before = await projects(ws, ['VCS5962', 'VCS5957'])

      // The operator puts one project in sale (a JSON import of its exported record).
      const exported = await tonne(['export'], ws.env)
      const records = JSON.parse(exported.stdout) as Array<Record<string, unknown>>
      const inSale = records.filter((r) => r['external_id'] === 'VCS5957').map((r) => ({ ...r, in_sale: true }))
      assert.equal((await tonne(['import', ws.write('in-sale.json', JSON.stringify(inSale))], ws.env)).code, 0)

      const newer = original.replace('Recovery and Avoidance of methane', 'Recovery and avoidance of methane') +
        '9999,A Project Listed Later,Someone,Transport,,,Under validation,Kenya,"1,000",Africa,,,\n'
      const report = await importExports(ws, 'verra', [ws.write('projects.csv', newer)])
      assert.deepEqual([report.created, report.updated, report.unchanged], [1, 1, 49])
      const after = await projects(ws, ['VCS5962', 'VCS5957', 'VCS9999'])
      assert.equal(after.get('VCS5962')!.id, before.get('VCS5962')!.id)
      assert.equal(after.get('VCS5962')!.name.startsWith('Recovery and avoidance'), true)
      assert.ok(after.get('VCS5962')!.updated_at > before.get('VCS5962')!.updated_at)
      assert.equal(after.get('VCS5957')!.id, before.get('VCS5957')!.id)
      assert.equal(after.get('VCS9999')!.id, Math.max(...records.map((r) => r['id'] as number)) + 1)
      const [sale] = await ws.api(['/api/v1/commerce/products/?in_sale=true'])
      assert.deepEqual(JSON.parse(sale!).results.map((p: { id: number }) => p.id), [before.get('VCS5957')!.id])
    })

    test('a project export and an issuance export imported one after the other make one project', async (t) => {
      const ws = await workspace(t, database)
      await importExports(ws, 'acr', [path.join(RAW, 'american-carbon-registry', 'projects.csv')])
      const listed = (await projects(ws, ['ACR1042'])).get('ACR1042')!
      assert.deepEqual(listed.vintages, [])
      const report = await importExports(ws, 'acr', [path.join(RAW, 'american-carbon-registry', 'issuances.csv')])
      assert.equal(report.updated, 12, 'the 12 projects of both exports gain their issuances')
      const both = (await projects(ws, ['ACR1042'])).get('ACR1042')!
      assert.equal(both.id, listed.id)
      assert.deepEqual(both.vintages, [2024])
      assert.equal(both.project_developer, 'A-Gas US Inc.')
      assert.deepEqual(both.source, [{ file: 'projects.csv', lines: [6] }, { file: 'issuances.csv', lines: [99] }])
    })

    test('files that are not the registry\'s exports, broken CSV and bad arguments change nothing', async (t) => {
      const ws = await workspace(t, database)
      const wrong = await tonne(['import', '--from', 'acr', path.join(RAW, 'verra', 'projects.csv')], ws.env)
      assert.equal(wrong.code, 1)
      assert.match(wrong.stderr, /nothing was changed/)
      assert.match(wrong.stderr,
        /projects\.csv is not a acr export Tonne reads: its header lacks the columns of each \(projects: Project ID/)
      const unterminated = ws.write('broken.csv', `${VERRA_PROJECTS_HEADER}\n1,"unterminated,x\n`)
      const broken = await tonne(['import', '--from', 'verra', unterminated], ws.env)
      assert.equal(broken.code, 1)
      assert.match(broken.stderr, /nothing was changed.*broken\.csv/)
      const empty = ws.write('empty.csv', '')
      const partly = await tonne(['import', '--from', 'verra', path.join(RAW, 'verra', 'projects.csv'), empty], ws.env)
      assert.equal(partly.code, 1)
      assert.match(partly.stderr, /empty\.csv: the file is empty/)
      const [list] = await ws.api(['/api/v1/commerce/products/'])
      assert.equal(JSON.parse(list!).count, 0)

      const unknown = await tonne(['import', '--from', 'puro', 'x.csv'], ws.env)
      assert.equal(unknown.code, 2)
      assert.match(unknown.stderr,
        /unknown registry "puro"; known: verra, gold-standard, acr, car, art, cercarbono, isometric/)
      assert.equal((await tonne(['import', '--from', 'verra'], ws.env)).code, 2)
      assert.equal((await tonne(['import', '--from', 'verra', 'x.csv', '--replace'], ws.env)).code, 2)
    })

    test('Cercarbono: Python-literal columns, an area in hectares, an unreadable serials list', async (t) => {
      const ws = await workspace(t, database)
      const report = await importExports(ws, 'cercarbono', [ws.write('projects.csv', CERCARBONO_EDGES)])
      assert.equal(report.created, 2)
      assert.equal(report.warnings.length, 1)
      assert.match(report.warnings[0]!.reason, /^serials is not a readable list: /)
      const found = await projects(ws, ['CDC-900', 'CDC-901'])
      const literal = found.get('CDC-900')!
      assert.equal(literal.area, 120.5)
      assert.deepEqual([literal.latitude, literal.longitude, literal.location], [4.5, -74.1, 'Colombia'])
      assert.equal(literal.project_developer, 'Owner', 'the owner when no developer is named')
      assert.equal(literal.estimated_annual_reductions, null, '0.0 means unknown')
      // The buffer serial (7 credits) counts as issued (docs/registries.md, "Issued"); the vintage is the end year.
      assert.deepEqual(literal.credits, {
        issued: 107,
        retired: null,
        cancelled: null,
        vintages: [{ vintage: 2020, issued: 107, retired: null, cancelled: null, corsia_eligible: null }]
      })
      assert.deepEqual(literal.sustainable_development_goals.map((g) => g.name_id), ['13_CLIMATE_ACTION'])
      assert.deepEqual(literal.certifications.map((c) => c.verbose_name), ["Carbono d'Urabá"])
      const broken = found.get('CDC-901')!
      assert.equal(broken.estimated_annual_reductions, 12.5)
      assert.deepEqual(broken.vintages, [])
    })

    test('Isometric issuances need their projects export in the same import', async (t) => {
      const ws = await workspace(t, database)
      const report = await importExports(ws, 'isometric', [path.join(RAW, 'isometric', 'issuances.csv')])
      assert.equal(report.created, 0)
      assert.equal(report.skipped.length, 100)
      assert.deepEqual(report.skipped[0], {
        file: 'issuances.csv',
        line: 2,
        reason: 'project prj_1JYCV03BW1S0RTE5 is not in a projects export of this import'
      })
    })

    test('the report in words names the files, the counts and every skipped row', async (t) => {
      const ws = await workspace(t, database)
      const result = await tonne(['import', '--from', 'verra', ws.write('projects.csv', EDGE_PROJECTS)], ws.env)
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout,
        /^Imported 3 projects from verra exports \(projects\.csv: projects, 7 rows\): 3 new, 0 updated, 0 unchanged\./)
      assert.match(result.stdout, /Skipped 4 rows:\n {2}projects\.csv line 5: repeats line 2 exactly/)
      assert.match(result.stdout,
        /3 values could not be read and were left empty:\n {2}projects\.csv line 2, date: "2021-13-45" is not a date/)
    })
  })
})
