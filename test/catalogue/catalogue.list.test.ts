import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp, sharedTestApp } from '../helpers.ts'
import { fixtureProjects, project } from '../fixtures/projects.ts'

const LIST = '/api/v1/commerce/products/'

interface Page { count: number, next: string | null, previous: string | null, results: Array<Record<string, unknown>> }

async function page (inject: Awaited<ReturnType<typeof buildTestApp>>['inject'], url: string): Promise<Page> {
  const response = await inject({ method: 'GET', url, headers: { host: 'tonne.test' } })
  assert.equal(response.statusCode, 200, response.body)
  return response.json<Page>()
}

const ids = (p: Page) => p.results.map((r) => r['id'])

forEachDatabase((database) => {
  describe(`catalogue list: paths and pages (rules 1-2) [${database}]`, () => {
    // The tests below that only read share one app.
    const shared = sharedTestApp({ database, records: fixtureProjects() })
    test('answers with and without the trailing slash', async () => {
      const { inject } = shared()
      for (const url of ['/api/v1/commerce/products/', '/api/v1/commerce/products']) {
        const body = await page(inject, url)
        assert.equal(body.count, 12)
        assert.equal(body.results.length, 12)
      }
    })

    test('the spec example: limit=1 gives one result, next carries limit=1&offset=1, previous is null', async () => {
      const { inject } = shared()
      const body = await page(inject, `${LIST}?limit=1`)
      assert.equal(body.results.length, 1)
      assert.equal(body.count, 12)
      assert.equal(body.previous, null)
      const next = new URL(body.next!)
      assert.equal(next.origin, 'http://tonne.test')
      assert.equal(next.pathname, LIST)
      assert.equal(next.searchParams.get('limit'), '1')
      assert.equal(next.searchParams.get('offset'), '1')
    })

    test('next and previous keep every other parameter; previous drops offset at 0; next is null at the end',
      async () => {
        const { inject } = shared()
        const first = await page(inject, `${LIST}?location=brazil&ordering=-name&limit=1`)
        assert.equal(first.count, 2)
        const second = await page(inject, first.next!.replace('http://tonne.test', ''))
        assert.deepEqual(Object.fromEntries(new URL(first.next!).searchParams),
          { location: 'brazil', ordering: '-name', limit: '1', offset: '1' })
        assert.equal(second.next, null)
        const previous = new URL(second.previous!)
        assert.deepEqual(Object.fromEntries(previous.searchParams),
          { location: 'brazil', ordering: '-name', limit: '1' })
        assert.deepEqual(ids(first), [4])
        assert.deepEqual(ids(second), [3])
      })

    test('walking next links visits every project once; previous from a middle page steps back by limit', async () => {
      const { inject } = shared()
      const seen: unknown[] = []
      let url: string | null = `${LIST}?limit=5`
      let pages = 0
      while (url !== null) {
        const body = await page(inject, url.replace('http://tonne.test', ''))
        seen.push(...ids(body))
        url = body.next
        pages++
      }
      assert.equal(pages, 3)
      assert.deepEqual(seen, Array.from({ length: 12 }, (_, i) => i + 1))
      const middle = await page(inject, `${LIST}?limit=5&offset=6`)
      assert.equal(new URL(middle.previous!).searchParams.get('offset'), '1')
      assert.equal(new URL(middle.next!).searchParams.get('offset'), '11')
      assert.equal((await page(inject, `${LIST}?limit=5&offset=7`)).next, null)
      const last = await page(inject, `${LIST}?limit=5&offset=12`)
      assert.deepEqual(last.results, [])
      assert.equal(last.next, null)
    })

    test('previous points at offset 0 (no offset parameter) when 0 < offset < limit', async () => {
      const { inject } = shared()
      for (const offset of [1, 3, 4]) {
        const body = await page(inject, `${LIST}?registry=REGISTRY_A&limit=5&offset=${offset}`)
        assert.notEqual(body.previous, null, `offset ${offset}`)
        const previous = new URL(body.previous!)
        assert.deepEqual(Object.fromEntries(previous.searchParams), { registry: 'REGISTRY_A', limit: '5' })
        assert.deepEqual(ids(await page(inject, `${previous.pathname}${previous.search}`)), [1, 2, 3, 5, 6])
      }
    })

    test('PUBLIC_URL sets the origin of the links', async (t) => {
      const { inject } = await buildTestApp(t,
        { database, records: fixtureProjects(), env: { PUBLIC_URL: 'https://api.example.org/tonne/' } })
      const body = await page(inject, `${LIST}?limit=2`)
      assert.equal(body.next, 'https://api.example.org/tonne/api/v1/commerce/products/?limit=2&offset=2')
    })
  })

  describe(`catalogue list: limit and offset (rule 3) [${database}]`, () => {
    test('limit defaults to 50 and may be 1000', async (t) => {
      const records = Array.from({ length: 60 }, (_, i) => project(i + 1))
      const { inject } = await buildTestApp(t, { database, records })
      const body = await page(inject, LIST)
      assert.equal(body.results.length, 50)
      assert.equal(new URL(body.next!).searchParams.get('limit'), '50')
      assert.equal((await page(inject, `${LIST}?limit=1000`)).results.length, 60)
    })

    test('a bad limit or offset is a 400 naming it', async (t) => {
      const { inject } = await buildTestApp(t, { database })
      for (const [query, parameter] of [
        ['limit=abc', 'limit'], ['limit=1.5', 'limit'], ['limit=-1', 'limit'], ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['offset=-1', 'offset'], ['offset=x', 'offset'], ['offset=2.5', 'offset'], ['limit=1&limit=2', 'limit']
      ] as const) {
        await t.test(`${query} is a 400 naming ${parameter}`, async () => {
          const response = await inject(`${LIST}?${query}`)
          assert.equal(response.statusCode, 400)
          assert.match(response.headers['content-type'] as string, /^application\/problem\+json/)
          const body = response.json()
          assert.equal(body.code, 'invalid_parameter')
          assert.equal(body.parameter, parameter)
          assert.match(body.detail, new RegExp(`^${parameter} `))
        })
      }
    })
  })

  describe(`catalogue list: filters (rule 4) [${database}]`, () => {
    const cases: Array<[string, number[]]> = [
      ['in_sale=true', [1, 2, 4, 5, 8]],
      ['in_sale=True', [1, 2, 4, 5, 8]],
      ['in_sale=1', [1, 2, 4, 5, 8]],
      ['in_sale=false', [3, 6, 7, 9, 10, 11, 12]],
      ['in_sale=False', [3, 6, 7, 9, 10, 11, 12]],
      ['in_sale=0', [3, 6, 7, 9, 10, 11, 12]],
      ['location=Brazil', [3, 4]],
      ['location=bRAZIL', [3, 4]],
      ['location=%C3%A5land%20islands', [12]],
      ['credit_type=AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE', [1, 2, 3, 5, 6, 8, 10, 11, 12]],
      ['registry=REGISTRY_A', [1, 2, 3, 5, 6, 7, 8, 9, 11, 12]],
      ['registry=REGISTRY_B', [4, 10]],
      ['rating=A', [2]],
      ['rating=AA', [1, 8]],
      ['rating=AAA-', [3]],
      ['rating=AA%2B', [5]],
      ['in_sale=true&location=brazil', [4]],
      ['in_sale=true&rating=AA&location=Colombia', [8]],
      ['registry=REGISTRY_A&credit_type=ENERGY_INDUSTRIES', [9]]
    ]
    // These only read: one app over the fixtures answers them all, each a subtest of its own.
    test('each filter and combination over the fixture projects', async (t) => {
      const { inject } = await buildTestApp(t, { database, records: fixtureProjects() })
      for (const [query, expected] of cases) {
        await t.test(query, async () => {
          const body = await page(inject, `${LIST}?${query}`)
          assert.deepEqual(ids(body), expected)
          assert.equal(body.count, expected.length)
        })
      }

      await t.test('a known value that matches nothing is an empty 200 page', async () => {
        for (const query of ['location=Germany', 'rating=AA&location=Peru',
          'registry=REGISTRY_B&in_sale=false&location=Brazil']) {
          const body = await page(inject, `${LIST}?${query}`)
          assert.deepEqual(body, { count: 0, next: null, previous: null, results: [] })
        }
      })

      for (const [parameter, value, mustList] of [
        ['registry', 'REGISTRY_Z', ['REGISTRY_A', 'REGISTRY_B']],
        ['credit_type', 'FORESTRY', ['AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE', 'ENERGY_INDUSTRIES']],
        ['rating', 'B', ['A', 'AA', 'AA+', 'AAA-']],
        ['location', 'Atlantis', ['Brazil', 'Zambia', 'Åland Islands', 'Germany']],
        ['in_sale', 'yes', ['true', 'false', 'True', 'False', '1', '0']]
      ] as const) {
        await t.test(`an unknown ${parameter} is a 400 listing the valid values`, async () => {
          const response = await inject(`${LIST}?${parameter}=${encodeURIComponent(value)}`)
          assert.equal(response.statusCode, 400)
          const body = response.json()
          assert.equal(body.code, 'invalid_parameter')
          assert.equal(body.parameter, parameter)
          for (const allowed of mustList) {
            assert.ok(body.allowed_values.includes(allowed), `${allowed} in allowed_values`)
          }
          assert.ok(!body.allowed_values.includes(value))
        })
      }
    })

    test('vocabularies are seeded by the migrations: the spec ratings exist before any import', async (t) => {
      const { inject } = await buildTestApp(t, { database })
      const body = (await inject(`${LIST}?rating=C`)).json()
      assert.deepEqual(body.allowed_values, ['A', 'AA', 'AA+', 'AAA-'])
      assert.deepEqual(await page(inject, `${LIST}?rating=AAA-`), { count: 0, next: null, previous: null, results: [] })
    })
  })

  describe(`catalogue list: search and ordering (rule 5) [${database}]`, () => {
    // The tests below that only read share one app.
    const shared = sharedTestApp({ database, records: fixtureProjects() })
    const searches: Array<[string, number[]]> = [
      ['kariba', [1, 11]],
      ['KARIBA FOREST', [1, 11]],
      ['vcs902', [11]],
      ['sym-1', [1, 10, 12]],
      ['ext-5', [5]],
      ['énergie verte', [4]],
      ['100%', []],
      ['a_b', []]
    ]
    test('search over the fixture projects', async (t) => {
      const { inject } = shared()
      for (const [term, expected] of searches) {
        await t.test(`search=${term}`, async () => {
          assert.deepEqual(ids(await page(inject, `${LIST}?search=${encodeURIComponent(term)}`)), expected)
        })
      }
    })

    test('ordering by one or more fields, nulls last, id breaking ties', async () => {
      const { inject } = shared()
      assert.deepEqual(ids(await page(inject, `${LIST}?ordering=-id`)), [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
      assert.deepEqual(ids(await page(inject, `${LIST}?ordering=date`)), [2, 1, 3, 5, 4, 6, 7, 8, 9, 10, 11, 12])
      assert.deepEqual(ids(await page(inject, `${LIST}?ordering=-date`)), [4, 3, 5, 1, 2, 6, 7, 8, 9, 10, 11, 12])
      assert.deepEqual(ids(await page(inject, `${LIST}?ordering=-date,-id`)), [4, 5, 3, 1, 2, 12, 11, 10, 9, 8, 7, 6])
      assert.deepEqual(ids(await page(inject, `${LIST}?ordering=-inventory_price&limit=3`)), [1, 2, 3])
      assert.deepEqual(ids(await page(inject, `${LIST}?ordering=name&search=kariba`)), [1, 11])
      assert.deepEqual(ids(await page(inject, `${LIST}?ordering=-estimated_annual_reductions&limit=2`)), [1, 8])
      assert.deepEqual(ids(await page(inject, `${LIST}?ordering=location&limit=7`)), [10, 3, 4, 5, 7, 9, 8])
    })

    test('pages of an ordering with ties are stable and disjoint', async (t) => {
      const records = Array.from({ length: 30 }, (_, i) => project(i + 1, { name: 'Same name' }))
      const { inject } = await buildTestApp(t, { database, records })
      const seen: unknown[] = []
      for (let offset = 0; offset < 30; offset += 7) {
        seen.push(...ids(await page(inject,
        `${LIST}?ordering=name&limit=7&offset=${offset}`)))
      }
      assert.deepEqual(seen, Array.from({ length: 30 }, (_, i) => i + 1))
    })

    test('an unknown or repeated ordering is a 400', async (t) => {
      const { inject } = shared()
      for (const ordering of ['colour', '-description', 'name,name', 'id;drop table projects']) {
        await t.test(`ordering=${ordering} is a 400`, async () => {
          const response = await inject(`${LIST}?ordering=${encodeURIComponent(ordering)}`)
          assert.equal(response.statusCode, 400)
          assert.equal(response.json().parameter, 'ordering')
        })
      }
      assert.equal((await page(inject, LIST)).count, 12, 'the projects are all still there')
    })
  })
})
