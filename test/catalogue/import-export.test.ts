import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { importSchemaText, IMPORT_SCHEMA_FILE } from '../../scripts/write-import-schema.ts'
import { tonne } from '../cli.helpers.ts'
import { fixtureProjects, project } from '../fixtures/projects.ts'
import { forEachDatabase } from '../databases.ts'
import { workspace } from '../support/workspace.ts'

const ALL = '/api/v1/commerce/products/?limit=1000'
const json = (records: object[]) => JSON.stringify(records)
const ndjson = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n'

forEachDatabase((database) => {
  describe(`tonne import and export [${database}]`, () => {
    test('imports a JSON array, then upserts by id from NDJSON', async (t) => {
      const ws = await workspace(t, database)
      const first = await tonne(['import', ws.write('a.json', json(fixtureProjects()))], ws.env)
      assert.equal(first.code, 0, first.stderr)
      assert.match(first.stdout, /Imported 12 projects/)
      const changed = [project(3, { name: 'Renamed project', location: 'Peru' }), project(13, { name: 'New project' })]
      const second = await tonne(['import', ws.write('b.ndjson', `\n${ndjson(changed)}\n`)], ws.env)
      assert.equal(second.code, 0, second.stderr)
      const [list, three] = await ws.api([ALL, '/api/v1/commerce/products/3/'])
      assert.equal(JSON.parse(list!).count, 13)
      assert.equal(JSON.parse(three!).name, 'Renamed project')
      assert.equal(JSON.parse(three!).location, 'Peru')
    })

    test('--replace removes the projects that are not in the file; those that stay keep created_at', async (t) => {
      const ws = await workspace(t, database)
      await tonne(['import', ws.write('a.json', json(fixtureProjects()))], ws.env)
      const [before] = await ws.api(['/api/v1/commerce/products/5/'])
      const five = ws.write('b.json', json(fixtureProjects().filter((p) => p.id === 5)))
      const result = await tonne(['import', five, '--replace'], ws.env)
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /Imported 1 projects \(the catalogue was replaced\): 0 new, 0 updated, 1 unchanged\./)
      const [list, after] = await ws.api([ALL, '/api/v1/commerce/products/5/'])
      assert.deepEqual(JSON.parse(list!).results.map((p: { id: number }) => p.id), [5])
      assert.equal(JSON.parse(after!).created_at, JSON.parse(before!).created_at)
      assert.equal(JSON.parse(after!).updated_at, JSON.parse(before!).updated_at)
    })

    test('an import extends the vocabularies that filters accept', async (t) => {
      const ws = await workspace(t, database)
      const [before] = await ws.api(['/api/v1/commerce/products/?registry=NEW_REGISTRY'])
      assert.equal(JSON.parse(before!).code, 'invalid_parameter')
      await tonne(['import',
        ws.write('a.json',
          json([project(1, { registry: { name_id: 'NEW_REGISTRY', verbose_name: 'New' }, location: 'Narnia' })]))],
      ws.env)
      const [after,
        narnia] = await ws.api(['/api/v1/commerce/products/?registry=NEW_REGISTRY',
        '/api/v1/commerce/products/?location=narnia'])
      assert.equal(JSON.parse(after!).count, 1)
      assert.equal(JSON.parse(narnia!).count, 1)
    })

    const badRecords: Array<[string, (r: Record<string, unknown>) => void, RegExp]> = [
      ['a bad date', (r) => { r['date'] = '2020-13-45' }, /record 2.*field "date"/],
      ['a missing field', (r) => { delete r['name'] }, /record 2.*field "name".*required/],
      ['an unknown field', (r) => { r['colour'] = 'green' }, /record 2.*field "colour"/],
      ['a malformed name_id', (r) => { r['registry'] = { name_id: 'lower case', verbose_name: 'x' } },
        /record 2.*field "registry\.name_id"/],
      ['a string vintage', (r) => { r['vintages'] = [2020, '2021'] }, /record 2.*field "vintages\[1\]"/],
      ['a duplicate id', (r) => { r['id'] = 1 }, /record 2.*field "id".*record 0/],
      ['an unknown SDG', (r) => { r['sustainable_development_goals'] = [{ name_id: '18_SPACE' }] },
        /record 2.*sustainable_development_goals\[0\]\.name_id/],
      ['bundles on a non-bundle', (r) => { r['bundles'] = [{ id: 1 }] }, /record 2.*field "bundles"/],
      ['a latitude out of range', (r) => { r['latitude'] = 91 }, /record 2.*field "latitude"/],
      ['a latitude just past a pole', (r) => { r['latitude'] = -90.000001 }, /record 2.*field "latitude"/],
      ['a longitude just past the antimeridian', (r) => { r['longitude'] = 180.000001 },
        /record 2.*field "longitude".*between -180 and 180/],
      ['a conflicting verbose name', (r) => { r['registry'] = { name_id: 'REGISTRY_A', verbose_name: 'Other name' } },
        /record 2.*registry\.verbose_name/],
      ['credits of a year not in vintages', (r) => {
        r['credits'] = { issued: null, retired: null, vintages: [{ vintage: 1999, issued: 1, retired: null }] }
      },
      /record 2.*field "credits\.vintages".*same years as vintages/],
      ['negative credits', (r) => { r['credits'] = { issued: -5, retired: null, vintages: [] }; r['vintages'] = [] },
        /record 2.*field "credits\.issued"/],
      ['a malformed source', (r) => { r['source'] = [{ file: '', lines: [0] }] },
        /record 2.*field "source\[0\]\.file"/],
      // Text PostgreSQL would refuse (NUL, an index row over its limit) or a terminal would obey (ESC, BEL).
      ['a NUL in a name', (r) => { r['name'] = 'a\u0000b' }, /record 2.*field "name".*control character/],
      ['a 3,000-character name', (r) => { r['name'] = 'n'.repeat(3000) }, /record 2.*field "name".*at most 500/],
      ['an escape sequence in a description', (r) => { r['description'] = 'red \u001b[31m text' },
        /record 2.*field "description".*control character/],
      ['a bell in an image title',
        (r) => { r['images'] = [{ title: 'ding\u0007', url: 'https://example.org/a.png' }] },
        /record 2.*field "images\[0\]\.title".*control character/],
      ['a line break in a name', (r) => { r['name'] = 'two\nlines' }, /record 2.*field "name".*line break/],
      ['a 200,001-character description', (r) => { r['description'] = 'd'.repeat(200_001) },
        /record 2.*field "description".*at most 200000/]
    ]
    // One seeded catalogue for every bad file: each must leave it as it was, so each compares with the same answer.
    test('a file with a bad record changes nothing and names the record and field', async (t) => {
      const ws = await workspace(t, database)
      await tonne(['import', ws.write('seed.json', json(fixtureProjects()))], ws.env)
      const [before] = await ws.api([ALL])
      for (const [what, spoil, message] of badRecords) {
        await t.test(what, async () => {
          const records = [project(1, { name: 'changed' }), project(20), project(21)] as unknown as
            Array<Record<string, unknown>>
          spoil(records[2]!)
          const result = await tonne(['import', ws.write('bad.json', json(records))], ws.env)
          assert.equal(result.code, 1)
          assert.match(result.stderr, /nothing was changed/)
          assert.match(result.stderr, message)
          const [after] = await ws.api([ALL])
          assert.equal(after, before)
        })
      }
    })

    test('coordinates on the poles and the antimeridian are taken (the ranges include their ends)', async (t) => {
      const ws = await workspace(t, database)
      const result = await tonne(['import', ws.write('edges.json', json([
        project(1, { latitude: 90, longitude: -180 }), project(2, { latitude: -90, longitude: 180 })]))], ws.env)
      assert.equal(result.code, 0, result.stderr)
      const [first, second] = await ws.api(['/api/v1/commerce/products/1/', '/api/v1/commerce/products/2/'])
      assert.deepEqual([JSON.parse(first!).latitude, JSON.parse(first!).longitude], [90, -180])
      assert.deepEqual([JSON.parse(second!).latitude, JSON.parse(second!).longitude], [-90, 180])
    })

    test('NDJSON errors name the line; invalid JSON is refused whole', async (t) => {
      const ws = await workspace(t, database)
      const result = await tonne(['import', ws.write('bad.ndjson', `${JSON.stringify(project(1))}\n\n{"id": 2,\n`)],
        ws.env)
      assert.equal(result.code, 1)
      assert.match(result.stderr, /record 1 \(line 3\)/)
      const broken = await tonne(['import', ws.write('bad.json', '[{"id": 1},')], ws.env)
      assert.equal(broken.code, 1)
      assert.match(broken.stderr, /not valid JSON/)
      // A record is an object: a number, null or a list is named as such, not as a missing field (record 1, from
      // 0, as README says).
      for (const [index, line] of ['5', 'null', '[{"id": 1}]'].entries()) {
        const odd = await tonne(['import', ws.write(`odd-${index}.ndjson`, `${JSON.stringify(project(1))}\n${line}\n`)],
          ws.env)
        assert.equal(odd.code, 1, line)
        assert.match(odd.stderr, /record 1 \(line 2\): must be a JSON object/, line)
      }
      const [list] = await ws.api([ALL])
      assert.equal(JSON.parse(list!).count, 0)
    })

    test('an external_id that belongs to another project is refused', async (t) => {
      const ws = await workspace(t, database)
      await tonne(['import', ws.write('a.json', json([project(1)]))], ws.env)
      const result = await tonne(['import', ws.write('b.json', json([project(2, { external_id: 'EXT-1' })]))], ws.env)
      assert.equal(result.code, 1)
      assert.match(result.stderr, /record 0.*external_id.*project 1/)
    })

    test('export then import into an empty database gives identical API responses', async (t) => {
      const source = await workspace(t, database)
      await tonne(['import', source.write('a.json', json(fixtureProjects()))], source.env)
      const exportFile = path.join(source.dir, 'export.json')
      const exported = await tonne(['export', exportFile], source.env)
      assert.equal(exported.code, 0, exported.stderr)
      assert.match(exported.stderr, /Exported 12 projects/)
      const toStdout = await tonne(['export'], source.env)
      assert.deepEqual(JSON.parse(toStdout.stdout), JSON.parse(readFileSync(exportFile, 'utf8')))

      const target = await workspace(t, database)
      const imported = await tonne(['import', exportFile], target.env)
      assert.equal(imported.code, 0, imported.stderr)
      const urls = [ALL, ...fixtureProjects().map((p) => `/api/v1/commerce/products/${p.id}/`),
        '/api/v1/commerce/products/?rating=AA&ordering=-name',
        '/api/v1/commerce/products/?location=%C3%A5land%20islands']
      // created_at and updated_at say when this database got the data: the only difference a copy has.
      const untimed = (bodies: string[]) =>
        bodies.map((body) => body.replace(/"(created|updated)_at":"[^"]+"/g, '"$1_at":"…"'))
      const copied = await target.api(urls)
      assert.deepEqual(untimed(copied), untimed(await source.api(urls)))
      const [one] = await target.api(['/api/v1/commerce/products/1/'])
      assert.equal(JSON.parse(one!).created_at, JSON.parse(one!).updated_at)
    })

    test('the published JSON Schema is the one the importer validates with', () => {
      assert.equal(readFileSync(IMPORT_SCHEMA_FILE, 'utf8'), importSchemaText())
    })
  })
})

describe('tonne command line', () => {
  test('--help, unknown commands and a missing FILE', async (t) => {
    const ws = await workspace(t, 'sqlite')
    const help = await tonne(['--help'], ws.env)
    assert.equal(help.code, 0)
    for (const command of ['serve', 'migrate', 'import FILE [--replace]',
      'export [FILE]']) assert.ok(help.stdout.includes(command))
    const unknown = await tonne(['frobnicate'], ws.env)
    assert.equal(unknown.code, 2)
    assert.match(unknown.stderr, /unknown command "frobnicate"/)
    assert.equal((await tonne(['import'], ws.env)).code, 2)
  })

  test('migrate creates the database and is idempotent', async (t) => {
    const ws = await workspace(t, 'sqlite', { migrated: false })
    const first = await tonne(['migrate'], ws.env)
    assert.equal(first.code, 0, first.stderr)
    assert.match(first.stdout, /Applied: 2026_11_22_0001_catalogue/)
    assert.match((await tonne(['migrate'], ws.env)).stdout, /up to date/)
  })

  test('bad configuration stops with a clear message', async (t) => {
    const ws = await workspace(t, 'sqlite')
    const result = await tonne(['migrate'], { ...ws.env, PORT: 'eighty', LOG_LEVEL: 'loud' })
    assert.equal(result.code, 2)
    assert.match(result.stderr, /Invalid configuration/)
    assert.match(result.stderr, /PORT must be an integer/)
    assert.match(result.stderr, /LOG_LEVEL must be one of/)
  })
})
