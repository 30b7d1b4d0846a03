import assert from 'node:assert/strict'
import { test } from 'node:test'
import { TonneApiError, TonneClient, type ProjectListItem } from '../../client/src/index.ts'
import { creditedProjects, fixtureProjects } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'

/** The real fetch, with every answer's status noted: what the service actually saw. */
function observedFetch (): { fetch: typeof fetch, statuses: number[] } {
  const statuses: number[] = []
  return {
    statuses,
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      statuses.push(response.status)
      return response
    }
  }
}

test('projects.list returns one typed page with the filters applied', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects() })
  const tonne = new TonneClient({ baseUrl, apiKey: key })

  const page = await tonne.projects.list({ location: 'brazil', ordering: '-name', limit: 1 })
  assert.equal(page.count, 2)
  assert.deepEqual(page.results.map((p) => p.name), ['São Paulo Landfill Gas'])
  assert.ok(page.next?.includes('offset=1'))
  assert.equal(page.previous, null)

  const inSale = await tonne.projects.list({ in_sale: true, search: 'kariba' })
  assert.deepEqual(inSale.results.map((p) => p.id), [1])
  const empty = await tonne.projects.list({ registry: 'REGISTRY_B', location: 'Zambia' })
  assert.deepEqual(empty, { count: 0, next: null, previous: null, results: [] })
})

test('projects.get returns the full project, external_id included', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects() })
  const project = await new TonneClient({ baseUrl, apiKey: key }).projects.get(1)
  assert.equal(project.external_id, 'EXT-1')
  assert.equal(project.rating?.name_id, 'AA')
  assert.deepEqual(project.sustainable_development_goals.map((g) => g.name_id),
    ['13_CLIMATE_ACTION', '15_LIFE_ON_LAND'])
  assert.match(project.sustainable_development_goals[0]!.icon, new RegExp(`^${baseUrl}/media/`))
})

test('projects.pages and projects.all walk every page, as the loop asks for them', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects() })
  const { fetch, statuses } = observedFetch()
  const tonne = new TonneClient({ baseUrl, apiKey: key, fetch })

  const sizes: number[] = []
  for await (const page of tonne.projects.pages({ limit: 5, ordering: 'id' })) sizes.push(page.results.length)
  assert.deepEqual(sizes, [5, 5, 2])
  assert.equal(statuses.length, 3)

  const ids: number[] = []
  for await (const project of tonne.projects.all({ limit: 4, offset: 2 })) ids.push(project.id)
  assert.deepEqual(ids, [3, 4, 5, 6, 7, 8, 9, 10, 11, 12])

  const filtered: ProjectListItem[] = []
  for await (const project of tonne.projects.all({ location: 'Zambia' })) filtered.push(project)
  assert.deepEqual(filtered.map((p) => p.id), [1, 11])

  // Leaving the loop early fetches nothing more.
  statuses.length = 0
  for await (const project of tonne.projects.all({ limit: 2 })) { if (project.id === 2) break }
  assert.equal(statuses.length, 1)
})

test('errors are TonneApiErrors carrying the service\'s problem, and other 4xx are never retried', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects() })
  const { fetch, statuses } = observedFetch()
  const retrying = { maxAttempts: 5 }
  const tonne = new TonneClient({ baseUrl, apiKey: key, fetch, retry: retrying })

  const missing = await tonne.projects.get(999).then(() => assert.fail('expected a 404'), (e: unknown) => e)
  assert.ok(missing instanceof TonneApiError)
  assert.equal(missing.status, 404)
  assert.equal(missing.code, 'not_found')
  assert.equal(missing.attempts, 1)
  assert.match(missing.requestId ?? '', /\S/)

  const invalid = await tonne.projects.list({ registry: 'NO_SUCH_REGISTRY' }).catch((e: unknown) => e)
  assert.ok(invalid instanceof TonneApiError)
  assert.equal(invalid.status, 400)
  assert.equal(invalid.code, 'invalid_parameter')
  assert.equal(invalid.parameter, 'registry')
  assert.deepEqual(invalid.allowedValues, ['REGISTRY_A', 'REGISTRY_B'])
  assert.match(invalid.message, /^400 invalid_parameter: /)

  const tooBig = await tonne.projects.list({ limit: 5000 }).catch((e: unknown) => e)
  assert.ok(tooBig instanceof TonneApiError && tooBig.parameter === 'limit')

  // (With no key at all, nothing is sent: see api-key.test.ts.)
  const wrongKey = new TonneClient({ baseUrl, apiKey: 'tonne_000000000000_nope', fetch, retry: retrying })
  const refused = await wrongKey.projects.get(1).catch((e: unknown) => e)
  assert.ok(refused instanceof TonneApiError)
  assert.equal(refused.status, 401)
  assert.equal(refused.code, 'unauthorized')

  assert.deepEqual(statuses, [404, 400, 400, 401], 'each failed once, with no retry')
})

test('projects.facets and projects.geojson: typed answers with the filters applied', async (t) => {
  const { baseUrl, key } = await startService(t, { records: creditedProjects() })
  const tonne = new TonneClient({ baseUrl, apiKey: key })
  const facets = await tonne.projects.facets({ in_sale: true })
  assert.equal(facets.count, 2)
  assert.deepEqual(facets.facets.in_sale.map((v) => [v.value, v.count]), [['false', 5], ['true', 2]])
  assert.deepEqual(facets.facets.registry.map((v) => [v.value, v.count]), [['REGISTRY_A', 1], ['REGISTRY_B', 1]])
  const map = await tonne.projects.geojson({ bbox: '170,-20,-170,0', limit: 10 })
  assert.equal(map.type, 'FeatureCollection')
  assert.deepEqual(map.features.map((f) => [f.id, f.geometry.coordinates]), [[1, [178.4, -17.8]], [2, [-172.1, -13.8]]])
  await assert.rejects(tonne.projects.facets({ location: 'Atlantis' }), (error: unknown) =>
    error instanceof TonneApiError && error.status === 400 && error.parameter === 'location')
})
