// npm run bench:mixed [-- --minutes 5] [--connections 50]
//
// Resident memory under mixed load (issue 23: ≤ 200 MB after 5 minutes, default cache sizes). Starts the service as
// `npm start` does over a fresh data folder (the bundled catalogue), then sends, for `--minutes`, a random mix of
// every kind of request a deployment sees, many distinct URLs so the answer cache fills and evicts:
//   35 % project detail (any project),  25 % list pages (random filters, search, page size and offset),
//   10 % facets and GeoJSON,  25 % calculator answers (random country and inputs),  5 % errors (unknown ids and
//   parameters); half of them ask for brotli, a quarter for gzip. Prints resident memory and V8 heap every 30 s
// and the answers by status. Never part of `npm test`; the mix and the figures are in docs/performance.md.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { createKey, log, memory, startService, stop } from './service.ts'

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' }
  }
})
const SECONDS = Math.round(Number(values.minutes) * 60)
const CONNECTIONS = Number(values.connections)

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tonne-bench-mixed-'))
const { child, url } = await startService(dataDir)
try {
  const key = createKey(dataDir)
  const auth = { authorization: `Bearer ${key}` }
  const getJson = async (target: string): Promise<unknown> => {
    const response = await fetch(`${url}${target}`, { headers: auth })
    if (!response.ok) throw new Error(`${target}: ${response.status}`)
    return await response.json()
  }

  // What the catalogue and the calculator hold, so the mix asks real questions.
  const ids: number[] = []
  for (let next: string | null = '/api/v1/commerce/products/?limit=100'; next !== null;) {
    const page = await getJson(next) as { next: string | null, results: Array<{ id: number }> }
    ids.push(...page.results.map((project) => project.id))
    next = page.next === null ? null : new URL(page.next).pathname + new URL(page.next).search
  }
  const facets = await getJson('/api/v1/commerce/products/facets/') as
    { facets: Record<string, Array<{ value: unknown }>> }
  const valuesOf = (facet: string) => (facets.facets[facet] ?? []).map(({ value }) => String(value))
  const registries = valuesOf('registry')
  const locations = valuesOf('location')
  const countries = (await getJson('/api/v1/co2-calculator/countries') as Array<{ country_code: string }>)
    .map((country) => country.country_code)
  log(`mixed load: ${ids.length} projects, ${registries.length} registries, ${locations.length} locations, ` +
    `${countries.length} calculator countries; ${SECONDS} s at ${CONNECTIONS} connections`)

  const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!
  const chance = (p: number) => Math.random() < p
  const AIRPORTS = ['FRA', 'JFK', 'LHR', 'CDG', 'LAX', 'SIN', 'DEL', 'GRU', 'JNB', 'SYD', 'NRT', 'DXB', 'NBO', 'MEX']
  const WORDS = ['forest', 'cookstove', 'wind', 'solar', 'landfill', 'mangrove', 'methane', 'water', 'redd']
  const list = (base: string, paged = true) => {
    const query = new URLSearchParams()
    if (chance(0.5)) query.set('registry', pick(registries))
    if (chance(0.4)) query.set('location', pick(locations))
    if (chance(0.3)) query.set('search', pick(WORDS))
    if (chance(0.3)) query.set('in_sale', String(chance(0.5)))
    if (paged) query.set('limit', String(pick([10, 20, 50, 100])))
    if (paged && chance(0.5)) query.set('offset', String(10 * Math.floor(Math.random() * 20)))
    return query.size === 0 ? base : `${base}?${query.toString()}`
  }
  const calculator = () => {
    const base = `/api/v1/co2-calculator/${pick(['energy', 'flight', 'diet', 'footprint', 'config'])}`
    const country = `country_code=${pick(countries)}`
    if (base.endsWith('energy')) return `${base}?${country}&household_size=${1 + Math.floor(Math.random() * 6)}`
    const from = pick(AIRPORTS)
    if (base.endsWith('flight')) return `${base}?${country}&legs=${from}-${pick(AIRPORTS.filter((to) => to !== from))}`
    if (base.endsWith('diet')) return `${base}?${country}&diet_form=${pick(['everything', 'vegan', 'vegetarian'])}`
    return `${base}?${country}`
  }
  const next = (): string => {
    const roll = Math.random()
    if (roll < 0.35) return `/api/v1/commerce/products/${pick(ids)}/`
    if (roll < 0.60) return list('/api/v1/commerce/products/')
    if (roll < 0.70) return list(`/api/v1/commerce/products/${pick(['facets', 'geojson'])}/`, false)
    if (roll < 0.95) return calculator()
    const wrong = Math.floor(Math.random() * 1000)
    const base = '/api/v1/commerce/products/'
    return chance(0.5) ? `${base}${1_000_000 + wrong}/` : `${base}?colour=${wrong}`
  }

  const statuses = new Map<number, number>()
  const samples: Array<{ second: number, residentMb: number, heapUsedMb: number }> = []
  const started = performance.now()
  const sampler = setInterval(() => {
    memory(url).then((sample) => {
      samples.push({ second: Math.round((performance.now() - started) / 1000), ...sample })
      log(`${samples.at(-1)!.second} s: resident ${sample.residentMb} MB, heap in use ${sample.heapUsedMb} MB`)
    }, () => undefined)
  }, 30_000)
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{
      setupRequest: (request) => {
        const encoding = Math.random()
        request.path = next()
        request.headers = {
          ...auth,
          ...(encoding < 0.5 ? { 'accept-encoding': 'br, gzip' } : encoding < 0.75 ? { 'accept-encoding': 'gzip' } : {})
        }
        return request
      },
      onResponse: (status) => { statuses.set(status, (statuses.get(status) ?? 0) + 1) }
    }]
  })
  clearInterval(sampler)
  const final = await memory(url)
  const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ')
  console.log(`Mixed load, ${SECONDS} s at ${CONNECTIONS} connections: ${Math.round(result.requests.average)} req/s ` +
    `on average (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms), ${result.errors} errors; ${byStatus}`)
  console.log('| After | Resident memory, MB | V8 heap in use, MB |\n|---:|---:|---:|')
  for (const sample of samples) console.log(`| ${sample.second} s | ${sample.residentMb} | ${sample.heapUsedMb} |`)
  console.log(`| end | ${final.residentMb} | ${final.heapUsedMb} |`)
  console.log(`Load average at the end: ${os.loadavg().map((load) => load.toFixed(2)).join(', ')}`)
} finally {
  await stop(child)
  rmSync(dataDir, { recursive: true, force: true })
}
