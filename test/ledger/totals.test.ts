import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { ledgerProjects } from '../fixtures/ledger.ts'

// Issue 36, item 2: the whole-ledger page names each row's project and shows the totals of the filtered set, so the
// API gives them: per type,
// how many transactions and how many credits, under the list's own filters. Expected sums are worked out by hand
// from the table in test/fixtures/ledger.ts.

const TOTALS = '/api/v1/commerce/transactions/totals/'

forEachDatabase((database) => {
  describe(`ledger totals [${database}]`, () => {
    test('per type, the count and the credits of every transaction matching the filters', async (t) => {
      const { inject, app } = await buildTestApp(t, { database, records: ledgerProjects() })
      const all = await inject(TOTALS)
      assert.equal(all.statusCode, 200, all.body)
      assert.deepEqual(all.json(), {
        count: 9,
        by_type: {
          issuance: { count: 3, quantity: 8500 },
          retirement: { count: 5, quantity: 2770 },
          cancellation: { count: 1, quantity: 75 }
        }
      })
      const acme = (await inject(`${TOTALS}?type=retirement&search=acme`)).json()
      assert.deepEqual(acme, {
        count: 2,
        by_type: {
          issuance: { count: 0, quantity: 0 },
          retirement: { count: 2, quantity: 1250 },
          cancellation: { count: 0, quantity: 0 }
        }
      })
      const b = (await inject(`${TOTALS}?registry=registry_b&date_after=2020-01-01&vintage=2017`)).json()
      assert.deepEqual(b.by_type.retirement, { count: 2, quantity: 2000 })
      assert.deepEqual(b.by_type.issuance, { count: 0, quantity: 0 })
      assert.equal((await inject(`${TOTALS}?project=1`)).json().count, 6)
      // The list's refusals: a bad filter is a 400, and paging is not a parameter here.
      assert.equal((await inject(`${TOTALS}?date_before=2021-02-30`)).json().parameter, 'date_before')
      assert.equal((await inject(`${TOTALS}?limit=5`)).statusCode, 400)
      assert.equal((await app.inject(TOTALS)).statusCode, 401)
    })

    test('a page names each transaction\'s project by its registry id and name, on both routes', async (t) => {
      const { inject } = await buildTestApp(t, { database, records: ledgerProjects() })
      for (const url of ['/api/v1/commerce/transactions/', '/api/v1/commerce/products/2/transactions/']) {
        const page = (await inject(url)).json() as {
          results: Array<{ project_id: number, project_external_id: string, project_name: string }>
        }
        assert.ok(page.results.length > 0)
        for (const item of page.results) {
          const project = (await inject(`/api/v1/commerce/products/${item.project_id}/`)).json() as {
            external_id: string, name: string
          }
          assert.deepEqual([item.project_external_id, item.project_name], [project.external_id, project.name], url)
        }
      }
    })
  })
})
