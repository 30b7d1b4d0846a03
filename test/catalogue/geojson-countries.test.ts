import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

// Issue 36, item 6: the map shows every project with a country, so the GeoJSON answer also counts, per country, the
// matching projects that have a country but no position. Expected counts come from the list's own items.

const PRODUCTS = '/api/v1/commerce/products/'

interface Item { location: string, location_alpha2: string | null, latitude: number | null, longitude: number | null }

forEachDatabase((database) => {
  describe(`GeoJSON: projects without a position, per country [${database}]`, () => {
    test('unlocated_by_country counts each country\'s matching projects without coordinates', async (t) => {
      const { inject } = await buildTestApp(t, { database, records: fixtureProjects() })
      for (const filter of ['', 'registry=REGISTRY_A']) {
        const items = (await inject(`${PRODUCTS}?limit=100&${filter}`)).json().results as Item[]
        const expected = new Map<string, { location: string, alpha2: string | null, count: number }>()
        for (const item of items) {
          if (item.location === '' || (item.latitude !== null && item.longitude !== null)) continue
          const entry = expected.get(item.location) ??
            { location: item.location, alpha2: item.location_alpha2, count: 0 }
          entry.count++
          expected.set(item.location, entry)
        }
        assert.ok(expected.size > 0, 'the fixtures have projects without coordinates')
        const geo = (await inject(`${PRODUCTS}geojson/?${filter}`)).json()
        const byCountry = [...expected.values()].sort((a, b) => a.location.localeCompare(b.location))
        assert.deepEqual([...geo.unlocated_by_country].sort((a: { location: string }, b: { location: string }) =>
          a.location.localeCompare(b.location)), byCountry, filter)
        // With the located ones, every matching project with a country is on the map.
        const withCountry = items.filter((item) => item.location !== '').length
        const unlocated = byCountry.reduce((sum, entry) => sum + entry.count, 0)
        assert.equal(geo.count + unlocated, withCountry)
      }
    })
  })
})
