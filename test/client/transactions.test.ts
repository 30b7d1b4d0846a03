import assert from 'node:assert/strict'
import { test } from 'node:test'
import { TonneApiError, TonneClient, TonneError, type Transaction } from '../../client/src/index.ts'
import { ledgerProjects } from '../fixtures/ledger.ts'
import { startService } from '../support/service.ts'

// Expected values are read off the ledger table in test/fixtures/ledger.ts (every quantity is unique).

test('transactions.list returns one typed page with the filters applied', async (t) => {
  const { baseUrl, key } = await startService(t, { records: ledgerProjects() })
  const tonne = new TonneClient({ baseUrl, apiKey: key })

  const page = await tonne.transactions.list({ type: 'retirement', ordering: '-quantity', limit: 2 })
  assert.equal(page.count, 5)
  assert.deepEqual(page.results.map((item) => item.quantity), [1200, 800])
  assert.ok(page.next?.includes('offset=2'))
  assert.equal(page.previous, null)
  const first: Transaction = page.results[0]!
  assert.deepEqual([first.project_id, first.date, first.vintage, first.beneficiary],
    [2, '2023-02-28', 2017, 'Générale Energy Co'])

  const found = await tonne.transactions.list({ search: 'société', registry: 'registry_a', date_after: '2021-01-01' })
  assert.deepEqual(found.results.map((item) => item.quantity), [300])
  assert.deepEqual((await tonne.transactions.list({ project: 2, vintage: 2017, type: 'issuance' }))
    .results.map((item) => item.quantity), [5000])
})

test('transactions.listForProject: one project\'s ledger; an unknown project is a 404 TonneApiError', async (t) => {
  const { baseUrl, key } = await startService(t, { records: ledgerProjects() })
  const tonne = new TonneClient({ baseUrl, apiKey: key })
  const page = await tonne.transactions.listForProject(1, { type: 'issuance', ordering: 'date' })
  assert.deepEqual(page.results.map((item) => item.quantity), [1000, 2500])
  const missing = await tonne.transactions.listForProject(999).then(() => assert.fail('expected a 404'),
    (e: unknown) => e)
  assert.ok(missing instanceof TonneApiError)
  assert.equal(missing.status, 404)
  assert.equal(missing.code, 'not_found')
  const bad = await tonne.transactions.list({ date_before: '2021-02-30' }).then(() => assert.fail('expected a 400'),
    (e: unknown) => e)
  assert.ok(bad instanceof TonneApiError)
  assert.equal(bad.status, 400)
  assert.equal(bad.parameter, 'date_before')
})

test('transactions.pages and .all walk every page, of the ledger and of one project', async (t) => {
  const { baseUrl, key } = await startService(t, { records: ledgerProjects() })
  const tonne = new TonneClient({ baseUrl, apiKey: key })

  const sizes: number[] = []
  for await (const page of tonne.transactions.pages({ limit: 4, ordering: 'quantity' })) {
    sizes.push(page.results.length)
  }
  assert.deepEqual(sizes, [4, 4, 1])

  const quantities: number[] = []
  for await (const item of tonne.transactions.all({ limit: 2, offset: 3, ordering: 'quantity' })) {
    quantities.push(item.quantity)
  }
  assert.deepEqual(quantities, [450, 800, 1000, 1200, 2500, 5000])

  const ofProject: number[] = []
  for await (const item of tonne.transactions.allForProject(2, { limit: 1, ordering: '-quantity' })) {
    ofProject.push(item.quantity)
  }
  assert.deepEqual(ofProject, [5000, 1200, 800])
  let pages = 0
  for await (const page of tonne.transactions.pagesForProject(3)) pages += page.results.length === 0 ? 1 : 0
  assert.equal(pages, 1)
})

test('without a key the ledger methods refuse before sending anything', async () => {
  const tonne = new TonneClient({ baseUrl: 'http://127.0.0.1:9', fetch: async () => assert.fail('no request') })
  for (const call of [() => tonne.transactions.list(), () => tonne.transactions.listForProject(1)]) {
    const error = await call().then(() => assert.fail('expected a refusal'), (e: unknown) => e)
    assert.ok(error instanceof TonneError)
    assert.match(error.message, /tonne\.transactions.*needs an API key/)
  }
})
