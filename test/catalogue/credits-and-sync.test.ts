import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { importProjects } from '../../src/ingest/projects.import.ts'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp, sharedTestApp } from '../helpers.ts'
import { creditedProjects, project } from '../fixtures/projects.ts'

const LIST = '/api/v1/commerce/products/'

type Inject = Awaited<ReturnType<typeof buildTestApp>>['inject']

async function ids (inject: Inject, query: string): Promise<number[]> {
  const response = await inject(`${LIST}?${query}`)
  assert.equal(response.statusCode, 200, response.body)
  const body = response.json<{ count: number, results: Array<{ id: number }> }>()
  assert.equal(body.count, body.results.length)
  return body.results.map((p) => p.id)
}

interface Problem { detail: string, allowed_values?: string[] }

async function problem (inject: Inject, query: string, parameter: string): Promise<Problem> {
  const response = await inject(`${LIST}?${query}`)
  assert.equal(response.statusCode, 400, response.body)
  const body = response.json()
  assert.equal(body.code, 'invalid_parameter')
  assert.equal(body.parameter, parameter)
  return body
}

forEachDatabase((database) => {
  describe(`credits per vintage [${database}]`, () => {
    // The tests below that only read share one app.
    const shared = sharedTestApp({ database, records: creditedProjects() })
    test('the detail has credits per vintage and totals; list items have the totals', async () => {
      const { inject } = shared()
      const fiji = (await inject(`${LIST}1/`)).json()
      assert.deepEqual(fiji.vintages, [2019, 2020])
      assert.deepEqual(fiji.credits, {
        issued: 1500,
        retired: 200,
        cancelled: null,
        vintages: [{ vintage: 2019, issued: 1000, retired: 200, cancelled: null, corsia_eligible: null },
          { vintage: 2020, issued: 500, retired: null, cancelled: null, corsia_eligible: null }]
      })
      assert.equal(fiji.credits_issued, 1500)
      assert.equal(fiji.credits_retired, 200)
      // Totals a registry gives stand, even where the vintages it lists add up to less.
      const kenya = (await inject(`${LIST}3/`)).json()
      assert.deepEqual(kenya.credits, {
        issued: 5000,
        retired: 0,
        cancelled: null,
        vintages: [{ vintage: 2021, issued: 4000, retired: 0, cancelled: null, corsia_eligible: null }]
      })
      // Vintages without quantities: the years are known, the amounts are not.
      const hanoi = (await inject(`${LIST}5/`)).json()
      assert.deepEqual(hanoi.credits, {
        issued: null,
        retired: null,
        cancelled: null,
        vintages: [{ vintage: 2019, issued: null, retired: null, cancelled: null, corsia_eligible: null },
          { vintage: 2021, issued: null, retired: null, cancelled: null, corsia_eligible: null }]
      })
      const list = (await inject(`${LIST}?ordering=id`)).json()
      const totals = list.results as Array<{ credits_issued: number | null, credits_retired: number | null }>
      assert.deepEqual(totals.map((p) => p.credits_issued), [1500, 300, 5000, null, null, null, 50])
      assert.deepEqual(totals.map((p) => p.credits_retired), [200, 300, 0, null, null, null, null])
      assert.equal('credits' in list.results[0], false, 'credits per vintage are in the detail only')
    })

    test('vintage, certification and sdg filters', async () => {
      const { inject } = shared()
      assert.deepEqual(await ids(inject, 'vintage=2019'), [1, 5])
      assert.deepEqual(await ids(inject, 'vintage=2020'), [1, 2, 7])
      assert.deepEqual(await ids(inject, 'vintage=1999'), [])
      assert.deepEqual(await ids(inject, 'certification=ICVCM_CCP'), [2, 5])
      assert.deepEqual(await ids(inject, 'certification=CCB_VALIDATION_APPROVED&vintage=2019'), [1])
      assert.deepEqual(await ids(inject, 'sdg=14'), [1, 2])
      assert.deepEqual(await ids(inject, 'sdg=13_CLIMATE_ACTION'), [1, 7])
      assert.deepEqual(await ids(inject, 'sdg=13_climate_action&vintage=2020'), [1, 7])
      const certification = await problem(inject, 'certification=GOLD', 'certification')
      assert.ok(certification.allowed_values!.includes('ICVCM_CCP'))
      const sdg = await problem(inject, 'sdg=18', 'sdg')
      assert.equal(sdg.allowed_values!.length, 17)
      await problem(inject, 'vintage=twenty', 'vintage')
    })

    test('ordering by the totals, nulls last both ways', async () => {
      const { inject } = shared()
      assert.deepEqual(await ids(inject, 'ordering=credits_issued'), [7, 2, 1, 3, 4, 5, 6])
      assert.deepEqual(await ids(inject, 'ordering=-credits_issued'), [3, 1, 2, 7, 4, 5, 6])
      assert.deepEqual(await ids(inject, 'ordering=-credits_retired,name'), [2, 1, 3, 7, 5, 6, 4])
    })
  })

  describe(`created_at, updated_at and updated_since [${database}]`, () => {
    test('re-importing the same data changes nothing; a change moves updated_at only for that project', async (t) => {
      const { inject, store } = await buildTestApp(t, { database, records: creditedProjects() })
      const first = (await inject(`${LIST}1/`)).json()
      assert.equal(first.created_at, '2026-01-15T12:00:00.000Z')
      assert.equal(first.updated_at, '2026-01-15T12:00:00.000Z')

      const again = await importProjects(store.db, JSON.stringify(creditedProjects()),
        { replace: false, now: new Date('2026-02-01T00:00:00Z') })
      assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, 7])
      assert.equal((await inject(`${LIST}1/`)).json().updated_at, '2026-01-15T12:00:00.000Z')

      const changed = creditedProjects()
      changed[1] = { ...changed[1]!, name: 'Samoa Reef Restoration' }
      const later = await importProjects(store.db, JSON.stringify([...changed, project(8, { name: 'New' })]),
        { replace: false, now: new Date('2026-03-01T08:30:00Z') })
      assert.deepEqual([later.created, later.updated, later.unchanged], [1, 1, 6])
      const samoa = (await inject(`${LIST}2/`)).json()
      assert.equal(samoa.created_at, '2026-01-15T12:00:00.000Z')
      assert.equal(samoa.updated_at, '2026-03-01T08:30:00.000Z')

      assert.deepEqual(await ids(inject, 'updated_since=2026-03-01T08:30:00Z'), [2, 8])
      assert.deepEqual(await ids(inject, 'updated_since=2026-03-01T08:30:00.001Z'), [])
      // The last second of a minute and of a day are times (a leap second, :60, is not: it is refused below).
      assert.deepEqual(await ids(inject, 'updated_since=2026-03-01T08:29:59Z'), [2, 8])
      assert.deepEqual(await ids(inject, 'updated_since=2026-02-28T23:59:59Z'), [2, 8])
      assert.deepEqual(await ids(inject, 'updated_since=2026-03-01'), [2, 8])
      // 10:30 at UTC+2 is 08:30 UTC; a "+" sent unencoded arrives as a space and is read back. (24:00, which
      // JavaScript's Date takes as the next midnight, is refused below with the other times that do not exist.)
      assert.deepEqual(await ids(inject, 'updated_since=2026-03-01T10:30:00%2B02:00'), [2, 8])
      assert.deepEqual(await ids(inject, 'updated_since=2026-03-01T10:30:00+02:00'), [2, 8])
      assert.deepEqual(await ids(inject, 'updated_since=2026-03-01T09:30:00%2B02:00&ordering=-updated_at,id'), [2, 8])
      assert.deepEqual((await ids(inject, 'ordering=-updated_at,id')).slice(0, 3), [2, 8, 1])
      for (const bad of ['yesterday', '2026-02-30', '2026-03-01T08:30:00', '2026-03-01T25:00:00Z', '1772353800',
        '2026-03-01T08:29:60Z', '2026-03-01T08:60:00Z', '2026-03-01T24:00:00Z']) {
        await problem(inject, `updated_since=${encodeURIComponent(bad)}`, 'updated_since')
      }
    })

    test('a vocabulary rename updates every project that shows it', async (t) => {
      const { inject, store } = await buildTestApp(t, { database, records: creditedProjects() })
      const renamed = project(9, {
        registry: { name_id: 'REGISTRY_B', verbose_name: 'Registry B (renamed)' },
        standard: { name_id: 'REGISTRY_B_STANDARD', verbose_name: 'Registry B Standard' }
      })
      await importProjects(store.db, JSON.stringify([renamed]),
        { replace: false, now: new Date('2026-04-01T00:00:00Z') })
      assert.deepEqual(await ids(inject, 'updated_since=2026-04-01T00:00:00Z'), [2, 9])
    })
  })

  describe(`bbox [${database}]`, () => {
    test('a box selects the located projects inside it; a box across the antimeridian works', async (t) => {
      const { inject } = await buildTestApp(t, { database, records: creditedProjects() })
      assert.deepEqual(await ids(inject, 'bbox=-10,-5,40,10'), [3, 7])
      assert.deepEqual(await ids(inject, 'bbox=170,-20,-170,0'), [1, 2])
      assert.deepEqual(await ids(inject, 'bbox=178.4,-17.8,178.4,-17.8'), [1], 'edges are inside')
      assert.deepEqual(await ids(inject, 'bbox=-180,-90,180,90'), [1, 2, 3, 4, 7])
      assert.deepEqual(await ids(inject, 'bbox=170,-20,-170,0&registry=REGISTRY_B'), [2])
      for (const bad of ['1,2,3', '0,0,10,a', '-181,0,10,10', '0,-91,10,10', '0,10,10,0', '0,0,10,10,5', '0x1,0,1,1']) {
        await problem(inject, `bbox=${encodeURIComponent(bad)}`, 'bbox')
      }
    })
  })

  describe(`location: names, ISO codes and aliases [${database}]`, () => {
    // The tests below that only read share one app.
    const shared = sharedTestApp({ database, records: creditedProjects() })
    test('each project carries the canonical name and its ISO codes, whatever the import called it', async () => {
      const { inject } = shared()
      const list = (await inject(`${LIST}?ordering=id`)).json()
      assert.deepEqual(list.results.map((p: { location: string }) => p.location),
        ['Fiji', 'Samoa', 'Kenya', 'United States', 'Vietnam', 'Türkiye', "Côte d'Ivoire"])
      const codes = list.results.map((p: { location_alpha2: string, location_alpha3: string }) =>
        `${p.location_alpha2}/${p.location_alpha3}`)
      assert.deepEqual(codes, ['FJ/FJI', 'WS/WSM', 'KE/KEN', 'US/USA', 'VN/VNM', 'TR/TUR', 'CI/CIV'])
    })

    const spellings: Array<[number, string[]]> = [
      [4, ['United States', 'United States of America', 'USA', 'US', 'us', 'united states', 'U.S.A.', 'usa']],
      [5, ['Vietnam', 'Viet Nam', 'VN', 'VNM', 'viet nam']],
      [6, ['Türkiye', 'Turkey', 'turkiye', 'TÜRKIYE', 'TR', 'TUR']],
      [7, ["Côte d'Ivoire", 'Ivory Coast', 'cote d’ivoire', "COTE D'IVOIRE", 'CI', 'CIV']],
      [3, ['Kenya', 'KE', 'KEN']]
    ]
    test('every spelling of a country finds its project', async (t) => {
      const { inject } = shared()
      for (const [id, names] of spellings) {
        await t.test(`${names.join(' = ')}`, async () => {
          for (const name of names) {
            assert.deepEqual(await ids(inject, `location=${encodeURIComponent(name)}`), [id], name)
          }
        })
      }
    })

    test('an unknown country lists the canonical names once each and suggests the closest', async () => {
      const { inject } = shared()
      const body = await problem(inject, 'location=Untied%20States', 'location')
      assert.match(body.detail, /did you mean "United States"\?/)
      const allowed = body.allowed_values!
      assert.ok(allowed.includes('United States') && allowed.includes('Vietnam') && allowed.includes('Türkiye'))
      for (const variant of ['USA', 'US', 'United States of America', 'Viet Nam', 'Turkey', 'Ivory Coast']) {
        assert.ok(!allowed.includes(variant), `${variant} is an alias, not a name`)
      }
      assert.equal(allowed.length, new Set(allowed).size)
      assert.ok(allowed.length < 260)
      assert.match((await problem(inject, 'location=Brasil', 'location')).detail, /did you mean "Brazil"\?/)
      const ivory = await problem(inject, 'location=Cote%20dIvorie', 'location')
      assert.match(ivory.detail, /did you mean "Côte d'Ivoire"\?/)
    })
  })
})
