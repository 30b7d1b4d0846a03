import assert from 'node:assert/strict'
import { test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { loadBundledCatalogueOnce } from '../../src/catalogue/bundled-catalogue.ts'

const LIST = '/api/v1/commerce/products/'

forEachDatabase((database) => {
  test(`the bundled real catalogue loads once and every spec filter example has matches [${database}]`, async (t) => {
    const { inject, store } = await buildTestApp(t, { database, bundled: true })
    const all = (await inject(`${LIST}?limit=1`)).json()
    assert.equal(all.count, 676)
    const expected: Record<string, number> = { Zambia: 2, Indonesia: 6, Brazil: 24, Cambodia: 6, Peru: 5, Chile: 3, Colombia: 56, China: 17 }
    for (const [location, count] of Object.entries(expected)) {
      assert.equal((await inject(`${LIST}?location=${location}&limit=1`)).json().count, count, location)
    }
    assert.equal((await inject(`${LIST}?credit_type=AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE&limit=1`)).json().count, 266)
    // Real data: no invented ratings or prices, nothing in sale until the operator says so.
    assert.equal((await inject(`${LIST}?in_sale=true`)).json().count, 0)
    const page = (await inject(`${LIST}?limit=1000`)).json()
    assert.ok(page.results.every((p: { rating: unknown, inventory_price: unknown }) => p.rating === null && p.inventory_price === null))

    // A second start (or an operator who emptied the catalogue) does not load it again.
    assert.equal(await loadBundledCatalogueOnce(store.db), 0)
  })
})
