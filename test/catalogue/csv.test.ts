import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { parse } from 'csv-parse/sync'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { fixtureProjects, project } from '../fixtures/projects.ts'

// Issue 25, "Download": the project list as CSV, streamed, with the list's filters and order.

const LIST = '/api/v1/commerce/products/'

forEachDatabase((database) => {
  describe(`project list as CSV [${database}]`, () => {
    test('format=csv and Accept: text/csv give every matching project, in the list\'s order', async (t) => {
      const { inject, key } = await buildTestApp(t, { database, records: fixtureProjects() })
      const auth = { authorization: `Bearer ${key}` }
      const filter = 'registry=REGISTRY_A&ordering=-name'
      const json = (await inject({ url: `${LIST}?${filter}&limit=100`, headers: auth })).json() as {
        count: number, results: Array<{ id: number, name: string, location: string, vintages: number[] }>
      }
      const response = await inject({ url: `${LIST}?${filter}&format=csv&limit=2`, headers: auth })
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8')
      assert.match(String(response.headers['content-disposition']), /attachment; filename="projects-registry_a\.csv"/)
      assert.match(String(response.headers['vary']), /Accept/)
      const rows = parse(response.body, { columns: true }) as Array<Record<string, string>>
      assert.equal(rows.length, json.count, 'limit does not apply: every matching project')
      assert.deepEqual(rows.map((row) => Number(row['id'])), json.results.map((p) => p.id))
      assert.deepEqual(rows.map((row) => row['name']), json.results.map((p) => p.name))
      assert.deepEqual(rows.map((row) => row['vintages']), json.results.map((p) => p.vintages.join('; ')))

      const accepted = await inject({ url: `${LIST}?${filter}`, headers: { ...auth, accept: 'text/csv' } })
      assert.equal(accepted.headers['content-type'], 'text/csv; charset=utf-8')
      assert.equal(accepted.body, response.body)
      const preferred = await inject({ url: LIST, headers: { ...auth, accept: 'application/json, text/csv;q=0.5' } })
      assert.match(String(preferred.headers['content-type']), /application\/json/)

      // Same refusals as the list: a bad filter is a 400 problem body.
      const bad = await inject({ url: `${LIST}?format=csv&registry=NOPE`, headers: auth })
      assert.equal(bad.statusCode, 400)
      assert.equal(bad.json().parameter, 'registry')
      assert.equal((await inject({ url: `${LIST}?format=xml`, headers: auth })).statusCode, 400)
    })

    test('cells that a spreadsheet would run as formulas are escaped; long lists stream whole', async (t) => {
      const formulas = ['=HYPERLINK("http://x.test","click")', '+1+1', '-2+3', '@SUM(A1)']
      const records = [
        ...formulas.map((name, i) => project(i + 1, { name, project_developer: `=cmd|' /C calc'!A0 ${i}` })),
        ...Array.from({ length: 1200 }, (_, i) => project(i + 10, { name: `Project ${i + 10}` }))
      ]
      const { inject, key } = await buildTestApp(t, { database, records })
      const auth = { authorization: `Bearer ${key}` }
      const response = await inject({ url: `${LIST}?format=csv&ordering=id`, headers: auth })
      const rows = parse(response.body, { columns: true }) as Array<Record<string, string>>
      assert.equal(rows.length, 1204)
      assert.deepEqual(rows.slice(0, 4).map((row) => row['name']), formulas.map((name) => `'${name}`))
      for (const row of rows.slice(0, 4)) assert.match(row['project_developer'] ?? '', /^'=cmd/)
      assert.equal(rows[4]?.['name'], 'Project 10')
      assert.equal(rows.at(-1)?.['id'], '1209')
    })
  })
})
