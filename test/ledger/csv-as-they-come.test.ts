import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { parse } from 'csv-parse/sync'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { ledgerProjects } from '../fixtures/ledger.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

// Issue 36, items 2 and 9: CSVs as a person opens them. Every row that names a project carries its identity (the
// registry's id and the name, not only Tonne's id); coded values come as labels with their codes beside them; lists
// are joined by "; "; the file's name follows the filters.

const LEDGER = '/api/v1/commerce/transactions/'
const PRODUCTS = '/api/v1/commerce/products/'

const rowsOf = (body: string) => parse(body, { columns: true }) as Array<Record<string, string>>
const filename = (headers: Record<string, unknown>) =>
  /filename="([^"]+)"/.exec(String(headers['content-disposition']))?.[1]

forEachDatabase((database) => {
  describe(`CSVs as they come [${database}]`, () => {
    test('the ledger CSV names each row\'s project by registry id and name, registry by label and code', async (t) => {
      const { inject } = await buildTestApp(t, { database, records: ledgerProjects() })
      const csv = await inject(`${LEDGER}?format=csv`)
      assert.equal(csv.statusCode, 200, csv.body)
      const rows = rowsOf(csv.body)
      assert.equal(rows.length, 9)
      for (const row of rows) {
        const project = (await inject(`${PRODUCTS}${row['project_id']}/`)).json() as {
          external_id: string, name: string, registry: { name_id: string, verbose_name: string }
        }
        assert.equal(row['project_external_id'], project.external_id)
        assert.equal(row['project_name'], project.name)
        assert.equal(row['registry'], project.registry.verbose_name)
        assert.equal(row['registry_code'], project.registry.name_id)
      }
      assert.equal(filename(csv.headers), 'transactions.csv')
      // The name follows the filters, in a fixed order, safe in any file system.
      const filtered = await inject(`${LEDGER}?format=csv&type=retirement&registry=registry_b&vintage=2017` +
        '&date_after=2020-01-01&date_before=2023-12-31&search=Acme%20air')
      assert.equal(filtered.statusCode, 200, filtered.body)
      assert.equal(filename(filtered.headers),
        'transactions-registry_b-retirement-vintage-2017-from-2020-01-01-to-2023-12-31-acme-air.csv')
      assert.equal(rowsOf(filtered.body).length, 1)
      const project = await inject(`${PRODUCTS}2/transactions/?format=csv&type=issuance`)
      assert.equal(filename(project.headers), 'project-2-transactions-issuance.csv')
    })

    test('the project CSV: registry id, labels with codes beside them, lists joined by "; "', async (t) => {
      const { inject } = await buildTestApp(t, { database, records: fixtureProjects() })
      const csv = await inject(`${PRODUCTS}?format=csv&ordering=id`)
      const rows = rowsOf(csv.body)
      const json = (await inject(`${PRODUCTS}?ordering=id&limit=100`)).json() as { results: Array<{ id: number }> }
      assert.equal(rows.length, json.results.length)
      for (const row of rows) {
        const project = (await inject(`${PRODUCTS}${row['id']}/`)).json() as {
          external_id: string
          registry: { name_id: string, verbose_name: string }
          credit_type: { name_id: string, verbose_name: string } | null
          certifications: Array<{ name_id: string, verbose_name: string }>
          sustainable_development_goals: Array<{ name_id: string, verbose_name: string }>
          vintages: number[]
        }
        assert.equal(row['external_id'], project.external_id)
        assert.equal(row['registry'], project.registry.verbose_name)
        assert.equal(row['registry_code'], project.registry.name_id)
        assert.equal(row['credit_type'], project.credit_type?.verbose_name ?? '')
        assert.equal(row['credit_type_code'], project.credit_type?.name_id ?? '')
        assert.equal(row['certifications'], project.certifications.map((c) => c.verbose_name).join('; '))
        assert.equal(row['certifications_codes'], project.certifications.map((c) => c.name_id).join('; '))
        assert.equal(row['sustainable_development_goals'],
          project.sustainable_development_goals.map((c) => c.verbose_name).join('; '))
        assert.equal(row['vintages'], project.vintages.join('; '))
      }
      assert.ok(rows.some((row) => row['sustainable_development_goals']?.includes('; ')), 'a list of two or more')
      assert.equal(filename(csv.headers), 'projects.csv')
      const filtered = await inject(`${PRODUCTS}?format=csv&registry=REGISTRY_A&search=Forest&sdg=13`)
      assert.equal(filename(filtered.headers), 'projects-registry_a-sdg-13-forest.csv')
    })
  })
})
