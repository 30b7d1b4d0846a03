import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { BUNDLED_CATALOGUE_FILE, loadBundledCatalogueOnce } from '../../src/ingest/bundled-catalogue.ts'
import { buildBundledCatalogue } from '../../scripts/build-bundled-catalogue.ts'

const LIST = '/api/v1/commerce/products/'

describe('the bundled catalogue', () => {
  test('is what the registry importers make of data/catalogue/raw (npm run catalogue:build)', async () => {
    const built = await buildBundledCatalogue()
    assert.equal(built.text, readFileSync(BUNDLED_CATALOGUE_FILE, 'utf8'),
      'run npm run catalogue:build and commit the result')
    assert.equal(built.projects, 736)
    assert.equal(built.forestMatches, 10)
  })
})

forEachDatabase((database) => {
  test(`the bundled real catalogue loads once and every spec filter example has matches [${database}]`, async (t) => {
    const { inject, store } = await buildTestApp(t, { database, bundled: true })
    const all = (await inject(`${LIST}?limit=1`)).json()
    assert.equal(all.count, 736)
    const expected: Record<string,
      number> = { Zambia: 3, Indonesia: 6, Brazil: 24, Cambodia: 6, Peru: 5, Chile: 4, Colombia: 56, China: 17 }
    for (const [location, count] of Object.entries(expected)) {
      assert.equal((await inject(`${LIST}?location=${location}&limit=1`)).json().count, count, location)
    }
    const afolu = `${LIST}?credit_type=AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE&limit=1`
    assert.equal((await inject(afolu)).json().count, 227)
    // Real data: no invented ratings or prices, nothing in sale until the operator says so.
    assert.equal((await inject(`${LIST}?in_sale=true`)).json().count, 0)
    const page = (await inject(`${LIST}?limit=1000`)).json()
    assert.ok(page.results.every((p: { rating: unknown, inventory_price: unknown }) => p.rating === null &&
      p.inventory_price === null))

    // ACR279: issuances from ACR's export; centroid and area (16,908 acres = 6,842.42 ha) from the California
    // forest database.
    const [forest] = (await inject(`${LIST}?search=ACR279`)).json().results as Array<{ id: number }>
    const acr279 = (await inject(`${LIST}${forest!.id}/`)).json()
    assert.equal(acr279.external_id, 'ACR279')
    assert.equal(acr279.area, 6842.42)
    assert.equal(acr279.latitude, 37.03325670975658)
    assert.equal(acr279.longitude, -82.48066391071502)
    assert.deepEqual(acr279.source, [
      { file: 'offsets-db-data/american-carbon-registry/issuances.csv', lines: [33] },
      { file: 'forest-offsets-web/projects-crediting.json', lines: [1509] }
    ])

    // A second start (or an operator who emptied the catalogue) does not load it again.
    assert.equal(await loadBundledCatalogueOnce(store.db), 0)
  })
})
