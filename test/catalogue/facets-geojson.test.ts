import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp, sharedTestApp } from '../helpers.ts'
import { creditedProjects } from '../fixtures/projects.ts'

const LIST = '/api/v1/commerce/products/'
const FACETS = '/api/v1/commerce/products/facets/'
const GEOJSON = '/api/v1/commerce/products/geojson/'

type Inject = Awaited<ReturnType<typeof buildTestApp>>['inject']
interface FacetValue { value: string, label: string, count: number }
interface Facets { count: number, facets: Record<string, FacetValue[]> }
interface Item {
  id: number
  name: string
  registry: { name_id: string }
  credit_type: { name_id: string } | null
  rating: { name_id: string } | null
  location: string
  vintages: number[]
  certifications: Array<{ name_id: string }>
  sustainable_development_goals: Array<{ name_id: string }>
  latitude: number | null
  longitude: number | null
  credits_issued: number | null
  credits_retired: number | null
}
interface Feature { id: number, geometry: { type: string, coordinates: number[] }, properties: Record<string, unknown> }

async function get<T> (inject: Inject, url: string): Promise<T> {
  const response = await inject(url)
  assert.equal(response.statusCode, 200, `${url}: ${response.body}`)
  return response.json<T>()
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString()

forEachDatabase((database) => {
  describe(`facets [${database}]`, () => {
    // These tests only read (and stay far below the key's rate limit): one app serves them all.
    const shared = sharedTestApp({ database, records: creditedProjects() })
    test('counts per value of every facet, zero counts left out', async () => {
      const { inject } = shared()
      const { with_value: _counted, ...body } = await get<Facets & { with_value: unknown }>(inject, FACETS)
      assert.deepEqual(body, {
        count: 7,
        facets: {
          registry: [
            { value: 'REGISTRY_A', label: 'Registry A', count: 6 },
            { value: 'REGISTRY_B', label: 'Registry B', count: 1 }
          ],
          location: ["Côte d'Ivoire", 'Fiji', 'Kenya', 'Samoa', 'Türkiye', 'United States', 'Vietnam']
            .map((name) => ({ value: name, label: name, count: 1 })),
          credit_type: [
            {
              value: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
              label: 'Agriculture Forestry and Other Land Use',
              count: 4
            },
            { value: 'ENERGY_INDUSTRIES', label: 'Energy industries', count: 2 }
          ],
          rating: [],
          in_sale: [{ value: 'false', label: 'Not in sale', count: 5 }, { value: 'true', label: 'In sale', count: 2 }],
          vintage: ([['2019', 2], ['2020', 3], ['2021', 2]] as const)
            .map(([year, count]) => ({ value: year, label: year, count })),
          certification: [
            { value: 'CCB_VALIDATION_APPROVED', label: 'CCB Validation Approved', count: 2 },
            { value: 'ICVCM_CCP', label: 'ICVCM CCP', count: 2 }
          ],
          sdg: [
            { value: '13_CLIMATE_ACTION', label: 'Climate Action', count: 2 },
            { value: '14_LIFE_BELOW_WATER', label: 'Life Below Water', count: 2 },
            { value: '15_LIFE_ON_LAND', label: 'Life on Land', count: 1 }
          ],
          // These projects have none of the OffsetsDB fields (issue 21).
          status: [],
          category: [],
          protocol: [],
          is_compliance: []
        }
      })
    })

    test('each facet leaves its own filter out, and applies the others', async () => {
      const { inject } = shared()
      const body = await get<Facets>(inject, `${FACETS}?registry=REGISTRY_B`)
      assert.equal(body.count, 1)
      assert.deepEqual(body.facets['registry']!.map((v) => [v.value, v.count]), [['REGISTRY_A', 6], ['REGISTRY_B', 1]])
      assert.deepEqual(body.facets['location']!.map((v) => [v.value, v.count]), [['Samoa', 1]])
      assert.deepEqual(body.facets['vintage']!.map((v) => [v.value, v.count]), [['2020', 1]])
      const both = await get<Facets>(inject, `${FACETS}?vintage=2020&certification=CCB_VALIDATION_APPROVED`)
      assert.equal(both.count, 2)
      assert.deepEqual(both.facets['vintage']!.map((v) => [v.value, v.count]), [['2019', 1], ['2020', 2]])
      assert.deepEqual(both.facets['certification']!.map((v) => [v.value, v.count]),
        [['CCB_VALIDATION_APPROVED', 2], ['ICVCM_CCP', 1]])
      const located = await get<Facets>(inject, `${FACETS}?bbox=170,-20,-170,0&location=us`)
      assert.equal(located.count, 0)
      assert.deepEqual(located.facets['location']!.map((v) => v.value), ['Fiji', 'Samoa'])
    })

    test('with_value counts the matching projects that have each optional ordering field (issue 25, item 2)',
      async () => {
        const { inject } = shared()
        for (const filter of ['', '?registry=REGISTRY_A', '?vintage=2020']) {
          const page = await get<{ results: Array<Record<string, unknown>> }>(inject,
            `${LIST}${filter}${filter === '' ? '?' : '&'}limit=100`)
          const body = await get<{ with_value: Record<string, number> }>(inject, `${FACETS}${filter}`)
          for (const field of ['date', 'area', 'estimated_annual_reductions', 'inventory_price', 'credits_issued',
            'credits_retired']) {
            const having = page.results.filter((item) => item[field] !== null && item[field] !== undefined).length
            assert.equal(body.with_value[field], having, `${field} ${filter}`)
          }
        }
      })

    test('include=facets puts the same facets in the list answer, so a filter panel needs one request',
      async () => {
        const { inject } = shared()
        const filter = 'registry=REGISTRY_A&vintage=2020'
        const page = await get<{ count: number, results: Item[], facets: Omit<Facets, 'count'> }>(inject,
          `${LIST}?${filter}&include=facets&limit=2`)
        const { count, ...facets } = await get<Facets>(inject, `${FACETS}?${filter}`)
        assert.equal(page.count, count)
        assert.equal(page.results.length, 2)
        assert.deepEqual(page.facets, facets)
        assert.equal((await get<Record<string, unknown>>(inject, `${LIST}?${filter}`))['facets'], undefined)
        assert.equal((await inject(`${LIST}?include=everything`)).statusCode, 400)
      })

    test('bad filters are refused as on the list; facets are cached and answer 304 like the list', async () => {
      const { inject } = shared()
      const bad = await inject(`${FACETS}?location=Atlantis`)
      assert.equal(bad.statusCode, 400)
      assert.equal(bad.json().parameter, 'location')
      const first = await inject(FACETS)
      assert.equal(first.headers['cache-control'], 'private, max-age=60')
      const again = await inject({ url: FACETS, headers: { 'if-none-match': first.headers['etag'] as string } })
      assert.equal(again.statusCode, 304)
    })
  })

  describe(`GeoJSON [${database}]`, () => {
    const shared = sharedTestApp({ database, records: creditedProjects() })
    test('a FeatureCollection of the located matching projects, in the list order', async () => {
      const { inject } = shared()
      const response = await inject({ url: `${GEOJSON}?ordering=-credits_issued`, headers: { host: 'tonne.test' } })
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['content-type'], 'application/geo+json; charset=utf-8')
      const body = response.json()
      assert.equal(body.type, 'FeatureCollection')
      assert.equal(body.count, 5)
      assert.equal(body.next, null)
      assert.equal(body.previous, null)
      assert.deepEqual(body.features.map((f: Feature) => f.id), [3, 1, 2, 7, 4])
      assert.deepEqual(body.features[1], {
        type: 'Feature',
        id: 1,
        geometry: { type: 'Point', coordinates: [178.4, -17.8] },
        properties: {
          id: 1,
          name: 'Fiji Mangroves',
          registry: 'REGISTRY_A',
          credit_type: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
          credits_issued: 1500,
          credits_retired: 200
        }
      })
      assert.deepEqual(body.features[4].properties, {
        id: 4,
        name: 'Texas Wind',
        registry: 'REGISTRY_A',
        credit_type: 'ENERGY_INDUSTRIES',
        credits_issued: null,
        credits_retired: null
      })
    })

    test('filters, bbox across the antimeridian, and pages bounded by limit', async () => {
      const { inject } = shared()
      const across = await get<{ features: Feature[] }>(inject, `${GEOJSON}?bbox=170,-20,-170,0`)
      assert.deepEqual(across.features.map((f) => f.id), [1, 2])
      const page = (await inject({ url: `${GEOJSON}?limit=2&offset=2`, headers: { host: 'tonne.test' } })).json()
      assert.equal(page.count, 5)
      assert.deepEqual(page.features.map((f: Feature) => f.id), [3, 4])
      assert.equal(page.next, 'http://tonne.test/api/v1/commerce/products/geojson/?limit=2&offset=4')
      assert.equal(page.previous, 'http://tonne.test/api/v1/commerce/products/geojson/?limit=2')
      for (const bad of ['limit=10001', 'limit=0', 'bbox=1,2,3', 'vintage=x']) {
        assert.equal((await inject(`${GEOJSON}?${bad}`)).statusCode, 400, bad)
      }
    })
  })

  describe(`facets and GeoJSON agree with the list [${database}]`, () => {
    test('for any combination of filters (property)', async (t) => {
      // Facets that must be built cost 10 against the key's limit: this checks the counts, not the limit.
      const env = { RATE_LIMIT_CATALOGUE: '100000' }
      const { inject } = await buildTestApp(t, { database, bundled: true, env })
      const all = await get<Facets>(inject, FACETS)
      const values = (facet: string) => all.facets[facet]!.map((v) => v.value)
      const bbox = fc.tuple(fc.integer({ min: -180, max: 180 }), fc.integer({ min: -90, max: 90 }),
        fc.integer({ min: -180, max: 180 }), fc.integer({ min: -90, max: 90 }))
        .map(([lon1, lat1, lon2, lat2]) => `${lon1},${Math.min(lat1, lat2)},${lon2},${Math.max(lat1, lat2)}`)
      const valueOf = fc.record({
        registry: fc.constantFrom(...values('registry')),
        // Aliases and codes too: the list and the facets resolve them the same way.
        location: fc.constantFrom(...values('location').slice(0, 8), 'US', 'usa', 'co', 'BRA', 'Viet Nam'),
        credit_type: fc.constantFrom(...values('credit_type')),
        in_sale: fc.constantFrom('true', 'false'),
        vintage: fc.constantFrom(...values('vintage'), '1999'),
        certification: fc.constantFrom(...values('certification')),
        sdg: fc.constantFrom(...values('sdg'), '13'),
        bbox: fc.oneof(bbox, fc.constant('-130,20,-60,50'), fc.constant('170,-60,-170,60')),
        search: fc.constantFrom('forest', 'gas', 'project')
      })
      // Up to three filters at once: more rarely match anything in a catalogue of hundreds.
      const keys = fc.constantFrom('registry', 'location', 'credit_type', 'in_sale', 'vintage', 'certification', 'sdg',
        'bbox', 'search')
      const filters = fc.tuple(valueOf, fc.uniqueArray(keys, { maxLength: 3 }))
        .map(([all, keys]) => Object.fromEntries(keys.map((k) => [k, all[k as keyof typeof all]])))

      // The catalogue never changes here, so a list asked for again (the facets' own filters left out, often the
      // same list; the whole catalogue in many runs) is the answer already checked, not another request.
      const lists = new Map<string, Promise<{ count: number, results: Item[] }>>()
      const list = async (params: Record<string, string>) => {
        const url = `${LIST}?${query({ ...params, limit: '1000' })}`
        let answer = lists.get(url)
        if (answer === undefined) lists.set(url, answer = get<{ count: number, results: Item[] }>(inject, url))
        return await answer
      }
      const facetOf: Record<string, (item: Item) => string[]> = {
        registry: (i) => [i.registry.name_id],
        location: (i) => i.location === '' ? [] : [i.location],
        credit_type: (i) => i.credit_type === null ? [] : [i.credit_type.name_id],
        rating: (i) => i.rating === null ? [] : [i.rating.name_id],
        vintage: (i) => [...new Set(i.vintages)].map(String),
        certification: (i) => [...new Set(i.certifications.map((c) => c.name_id))],
        sdg: (i) => [...new Set(i.sustainable_development_goals.map((g) => g.name_id))]
      }

      await fc.assert(fc.asyncProperty(filters, async (chosen) => {
        const params = chosen as Record<string, string>
        const facets = await get<Facets>(inject, `${FACETS}?${query(params)}`)
        const matching = await list(params)
        assert.equal(facets.count, matching.count)
        for (const [facet, valuesOf] of Object.entries(facetOf)) {
          const { [facet]: _own, ...others } = params
          const expected = new Map<string, number>()
          for (const item of (await list(others)).results) {
            for (const value of valuesOf(item)) expected.set(value, (expected.get(value) ?? 0) + 1)
          }
          const counted = new Map(facets.facets[facet]!.map((v) => [v.value, v.count]))
          assert.deepEqual(counted, expected, `facet ${facet} for ${query(params)}`)
        }
        const { in_sale: _inSale, ...withoutInSale } = params
        const inSale = new Map<string, number>()
        for (const value of ['true', 'false']) {
          const count = (await list({ ...withoutInSale, in_sale: value })).count
          if (count > 0) inSale.set(value, count)
        }
        const counted = new Map(facets.facets['in_sale']!.map((v) => [v.value, v.count]))
        assert.deepEqual(counted, inSale, `in_sale for ${query(params)}`)

        const geojson = await get<{ count: number, features: Feature[] }>(inject,
          `${GEOJSON}?${query({ ...params, limit: '10000' })}`)
        const located = matching.results.filter((i) => i.latitude !== null && i.longitude !== null)
        assert.equal(geojson.count, located.length)
        const features = geojson.features
          .map((f) => ({ id: f.id, coordinates: f.geometry.coordinates, ...f.properties }))
        assert.deepEqual(features,
          located.map((i) => ({
            id: i.id,
            coordinates: [i.longitude, i.latitude],
            name: i.name,
            registry: i.registry.name_id,
            credit_type: i.credit_type?.name_id ?? null,
            credits_issued: i.credits_issued,
            credits_retired: i.credits_retired
          })))
      }), { numRuns: 25 })
    })
  })
})
