// The mixed load of `npm run bench:mixed` and `npm run bench:container`: for `seconds`, a random mix of every kind
// of request a deployment sees, many distinct URLs so the answer cache fills and evicts:
//   35 % project detail (any project),  25 % list pages (random filters, search, page size and offset),
//   10 % facets and GeoJSON,  25 % calculator answers (random country and inputs),  5 % errors (unknown ids and
//   parameters); half of them ask for brotli, a quarter for gzip.
import autocannon from 'autocannon'
import { log } from './service.ts'

export interface MixedResult {
  rps: number
  p50: number
  p99: number
  /** Socket errors and timeouts (a service that died or stalled). */
  errors: number
  statuses: Map<number, number>
}

/**
 * Sends the mix to the service at `url`, each request with one of `keys` at random (many clients, or one with a
 * single key); `every30s` is called each 30 s while it runs, with the answers per second since its last call (so a
 * side that slows as a run goes on shows it).
 */
export async function mixedLoad (url: string, keys: readonly string[], seconds: number, connections: number,
  every30s: (second: number, rps: number) => void = () => undefined): Promise<MixedResult> {
  const auth = { authorization: `Bearer ${keys[0]}` }
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
    `${countries.length} calculator countries; ${seconds} s at ${connections} connections`)

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
  const started = performance.now()
  let sampled = { at: started, answers: 0 }
  const sampler = setInterval(() => {
    const now = { at: performance.now(), answers: [...statuses.values()].reduce((sum, n) => sum + n, 0) }
    every30s(Math.round((now.at - started) / 1000),
      Math.round((now.answers - sampled.answers) / ((now.at - sampled.at) / 1000)))
    sampled = now
  }, 30_000)
  try {
    const result = await autocannon({
      url,
      connections,
      duration: seconds,
      requests: [{
        setupRequest: (request) => {
          const encoding = Math.random()
          request.path = next()
          const accept = encoding < 0.5 ? 'br, gzip' : encoding < 0.75 ? 'gzip' : undefined
          request.headers = {
            authorization: `Bearer ${pick(keys)}`, ...(accept === undefined ? {} : { 'accept-encoding': accept })
          }
          return request
        },
        onResponse: (status) => { statuses.set(status, (statuses.get(status) ?? 0) + 1) }
      }]
    })
    return {
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      statuses
    }
  } finally {
    clearInterval(sampler)
  }
}

export const byStatus = (statuses: Map<number, number>): string =>
  [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ')
