import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { sharedTestApp } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

const DETAIL = '/api/v1/commerce/products'

forEachDatabase((database) => {
  describe(`catalogue detail (rules 1, 6, 7) [${database}]`, () => {
    // The tests below that only read share one app.
    const shared = sharedTestApp({ database, records: fixtureProjects() })
    test('answers with and without the trailing slash, with external_id; list items leave it out', async () => {
      const { inject } = shared()
      const withSlash = await inject(`${DETAIL}/11/`)
      const without = await inject(`${DETAIL}/11`)
      assert.equal(withSlash.statusCode, 200)
      assert.equal(without.body, withSlash.body)
      const detail = withSlash.json()
      assert.equal(detail.external_id, 'VCS902')
      const list = (await inject(`${DETAIL}/?search=vcs902`)).json()
      assert.equal('external_id' in list.results[0], false)
      const { external_id: _externalId, credits: _credits, source: _source, sources: _sources, ...rest } = detail
      assert.deepEqual(list.results[0], rest)
    })

    test('fields have the types and exact content of spec section 2.1', async () => {
      const { inject } = shared()
      const p = (await inject({ url: `${DETAIL}/1/`, headers: { host: 'tonne.test' } })).json()
      assert.deepEqual(Object.keys(p),
        ['id', 'external_id', 'name', 'symbol', 'vintages', 'registry', 'standard', 'credit_type',
          'short_description', 'rating', 'certifications', 'description', 'url', 'is_bundle', 'bundles',
          'inventory_price',
          'location', 'latitude', 'longitude', 'date', 'area', 'estimated_annual_reductions', 'project_developer',
          'sustainable_development_goals', 'co_benefits', 'images',
          // Additions beyond the original contract, after its fields.
          'credits_issued', 'credits_retired', 'credits_cancelled', 'location_alpha2', 'location_alpha3',
          // The OffsetsDB fields (issue 21).
          'protocol', 'category', 'project_type', 'status', 'protocol_version', 'is_compliance', 'listed_date',
          'first_issuance_date', 'first_retirement_date', 'created_at', 'updated_at', 'credits', 'source',
          // Which sources state the project (issue 33).
          'sources'])
      assert.deepEqual(p.vintages, [2020, 2021])
      assert.deepEqual(p.registry, { name_id: 'REGISTRY_A', verbose_name: 'Registry A' })
      assert.deepEqual(p.standard,
        { name_id: 'REGISTRY_A_VERIFIED_CARBON_STANDARD', verbose_name: 'Verified Carbon Standard' })
      assert.deepEqual(p.rating, { name_id: 'AA', verbose_name: 'AA' })
      assert.deepEqual(p.certifications,
        [{ name_id: 'CCB_VALIDATION_APPROVED', verbose_name: 'CCB Validation Approved' }])
      assert.equal(p.date, '2011-07-01')
      assert.equal(p.inventory_price, 12.5)
      assert.equal(p.is_bundle, false)
      assert.deepEqual(p.bundles, [])
      assert.equal(p.description, '<p>Protects <strong>forest</strong> &amp; wildlife.</p>')
      assert.equal(p.co_benefits, 'Jobs for 300 people\r\nSchools built\r\nWildlife corridors')
      assert.deepEqual(p.sustainable_development_goals.map((g: { name_id: string }) => g.name_id),
        ['13_CLIMATE_ACTION', '15_LIFE_ON_LAND'])
      assert.equal(p.sustainable_development_goals[0].verbose_name, 'Climate Action')
      assert.match(p.sustainable_development_goals[0].icon,
        /^http:\/\/tonne\.test\/media\/sdg\/13\.svg\?expires=\d+&signature=[0-9a-f]{64}$/)
      assert.deepEqual(p.images, [{ title: 'Canopy', url: 'https://example.org/canopy.jpg' }])

      const plain = (await inject(`${DETAIL}/7/`)).json()
      assert.equal(plain.rating, null)
      assert.equal(plain.credit_type, null)
      assert.equal(plain.date, null)
      assert.deepEqual(plain.vintages, [])
      const nonAscii = (await inject(`${DETAIL}/4/`))
      assert.equal(nonAscii.json().name, 'São Paulo Landfill Gas')
      assert.match(nonAscii.body, /"São Paulo Landfill Gas"/)
      assert.equal((await inject(`${DETAIL}/9/`)).json().bundles, null)
      assert.deepEqual((await inject(`${DETAIL}/10/`)).json().bundles, [{ id: 1 }, { id: 2 }])
    })

    test('the SDG icon link serves an SVG of that goal', async () => {
      const { inject } = shared()
      const icon = (await inject(`${DETAIL}/1/`)).json().sustainable_development_goals[1].icon as string
      const url = new URL(icon)
      const response = await inject(`${url.pathname}${url.search}`)
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['content-type'], 'image/svg+xml')
      assert.match(response.body, /^<svg /)
      assert.match(response.body, /fill="#56C02B"/)
      assert.match(response.body, />15</)
      assert.match(response.body, /LIFE ON LAND/)
    })

    for (const id of ['999', '0', 'abc', '1.5', '-3', '99999999999999999999', '2147483648']) {
      test(`id ${id} is a 404 in the error shape`, async () => {
        const { inject } = shared()
        const response = await inject(`${DETAIL}/${id}/`)
        assert.equal(response.statusCode, 404)
        assert.match(response.headers['content-type'] as string, /^application\/problem\+json/)
        assert.equal(response.json().code, 'not_found')
      })
    }
  })
})
