// npm run bench [-- --sizes 1000,100000,1000000] [--duration 8] [--rounds 3] [--growth-duration 5] [--connections 50]
//                  [--postgres URL | --no-postgres] [--quick] [--ledger-sizes 1000,100000,1000000]
//                  [--ledger-projects 10000]
//
// Starts the service in production mode as its own process (on SQLite, and on PostgreSQL beside it),
// load-tests it with autocannon from this process, and in the same run load-tests a bare node:http
// server that answers each path with the very bytes the service returned (the ceiling for Node on
// this machine). Also measures resident memory after the load and the time from a restart to the
// first answer. Writes docs/benchmarks.md and docs/benchmarks.json. Never part of `npm test`.
// BENCH_DURATION (seconds per path) overrides --duration and --growth-duration; --quick is a 1 s
// smoke run that checks the benchmark works end to end (its numbers say nothing). Last, the credit ledger at
// --ledger-sizes transactions (scripts/bench/ledger.ts, `npm run bench:ledger` alone; `--ledger-sizes ''` skips it),
// which writes docs/ledger-benchmarks.md and .json.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { openStore } from '../../src/store/connect.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { buildSyntheticCatalogue } from './synthetic-catalogue.ts'
import { benchLedger } from './ledger.ts'
import {
  benchDatabase, createKey, directorySizeMb, dropBenchDatabase, load as loadWith, log, memory, restartToFirstAnswer,
  startService, stop, type Load
} from './service.ts'

const KEEP_MARKER = '\n<!-- Below: kept by npm run bench (measured by other scripts). -->\n'
const ROOT = path.join(import.meta.dirname, '..', '..')
const bundledCount = readFileSync(path.join(ROOT, 'data', 'catalogue', 'projects.ndjson'), 'utf8').trim()
  .split('\n').length
const { values } = parseArgs({
  options: {
    sizes: { type: 'string' },
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    'growth-duration': { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    postgres: {
      type: 'string',
      default: process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres'
    },
    'no-postgres': { type: 'boolean', default: false },
    'ledger-sizes': { type: 'string', default: '1000,100000,1000000' },
    'ledger-projects': { type: 'string', default: '10000' },
    quick: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(ROOT, 'docs', 'benchmarks') }
  }
})
const durationOverride = values.quick ? '1' : process.env['BENCH_DURATION']
const DURATION = Number(durationOverride ?? values.duration)
const GROWTH_DURATION = Number(durationOverride ?? values['growth-duration'])
const POSTGRES_ADMIN = values['no-postgres'] ? undefined : values.postgres
const CONNECTIONS = Number(values.connections)
// Interleaved rounds, each target warmed for a second first; a path's figure is the median round (issue 23's
// method: JIT and heap warm-up favoured whichever server ran later, by up to 2x on a 10 s single run).
const ROUNDS = values.quick ? 1 : Number(values.rounds)
const WARMUP_SECONDS = values.quick ? 0 : 1
const SIZES = values.sizes === undefined ? [] : values.sizes.split(',').map(Number)
const load = async (url: string, headers: Record<string, string>, seconds: number) =>
  await loadWith(url, headers, seconds, CONNECTIONS)

interface Scenario { name: string, path: string, catalogue: boolean }

// --- 1. the service against the ceiling, on the real bundled catalogue ------------------------

const SCENARIOS: Scenario[] = [
  { name: 'list, default page', path: '/api/v1/commerce/products/', catalogue: true },
  {
    name: 'list, two filters',
    path: '/api/v1/commerce/products/?registry=CLIMATE_ACTION_RESERVE&location=United%20States',
    catalogue: true
  },
  { name: 'list, search', path: '/api/v1/commerce/products/?search=forest', catalogue: true },
  { name: 'list, deep offset', path: '/api/v1/commerce/products/?offset=600&limit=50', catalogue: true },
  { name: 'detail', path: '/api/v1/commerce/products/42/', catalogue: true },
  { name: 'facets, no filter', path: '/api/v1/commerce/products/facets/', catalogue: true },
  {
    name: 'facets, two filters',
    path: '/api/v1/commerce/products/facets/?registry=CLIMATE_ACTION_RESERVE&location=US',
    catalogue: true
  },
  { name: 'geojson, every located project', path: '/api/v1/commerce/products/geojson/', catalogue: true },
  {
    name: 'geojson, bbox across the antimeridian',
    path: '/api/v1/commerce/products/geojson/?bbox=100,-50,-60,60',
    catalogue: true
  },
  { name: 'calculator /countries', path: '/api/v1/co2-calculator/countries', catalogue: false },
  {
    name: 'calculator /flight (legs)',
    path: '/api/v1/co2-calculator/flight?country_code=DEU&legs=FRA-JFK,JFK-LAX&cabin_class=business',
    catalogue: false
  },
  {
    name: 'calculator /energy',
    path: '/api/v1/co2-calculator/energy?country_code=DEU&household_size=2&home_size=80&heating_type=heat_pump',
    catalogue: false
  }
]

// Issue 23's targets: list pages 70 % of the ceiling, detail and calculator answers 50 %.
const TARGETS: Record<string, number> = { list: 0.7, detail: 0.5, calculator: 0.5 }
const target = (name: string) => TARGETS[name.split(/[ ,]/)[0]!] ?? 0.5

const workDir = mkdtempSync(path.join(os.tmpdir(), 'tonne-bench-'))
process.on('exit', () => rmSync(workDir, { recursive: true, force: true }))

const realDir = path.join(workDir, 'real')
const key = createKey(realDir)
const service = await startService(realDir)
const auth = { authorization: `Bearer ${key}` }
log(`service on ${service.url} (first start, loading the bundled catalogue: ${Math.round(service.startupMs)} ms)`)

// The same service over PostgreSQL, beside it in the same run.
const postgresUrl = await benchDatabase(POSTGRES_ADMIN)
const pgEnv: Record<string, string> = postgresUrl === undefined ? {} : { DATABASE_URL: postgresUrl }
const pgDir = path.join(workDir, 'postgres')
const pgKey = postgresUrl === undefined ? undefined : createKey(pgDir, pgEnv)
const pgService = postgresUrl === undefined ? undefined : await startService(pgDir, pgEnv)
const pgAuth = { authorization: `Bearer ${pgKey ?? ''}` }
if (pgService !== undefined) {
  log(`service over PostgreSQL on ${pgService.url} (first start ${Math.round(pgService.startupMs)} ms)`)
}

const captured: Record<string, { status: number, contentType: string, body: string }> = {}
for (const s of SCENARIOS) {
  const response = await fetch(`${service.url}${s.path}`, { headers: s.catalogue ? auth : {} })
  if (response.status !== 200) throw new Error(`${s.path} answered ${response.status}`)
  captured[s.path] = {
    status: 200,
    contentType: response.headers.get('content-type') ?? '',
    body: Buffer.from(await response.arrayBuffer()).toString('base64')
  }
}
const capturesFile = path.join(workDir, 'captured.json')
writeFileSync(capturesFile, JSON.stringify(captured))
async function startReference (script: string): Promise<{ child: ChildProcess, url: string }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, script), capturesFile],
    { stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve) => {
    createInterface({ input: child.stdout! })
      .once('line', (line) => resolve(`http://127.0.0.1:${/(\d+)$/.exec(line)![1]}`))
  })
  return { child, url }
}
const ceiling = await startReference('ceiling-server.ts')
const fastifyFloor = await startReference('fastify-floor-server.ts')

// The same paths on a second process with ANSWER_CACHE=false: what a request costs when nothing is reused.
const uncachedService = await startService(path.join(workDir, 'real'), { ANSWER_CACHE: 'false' })

const none: Load = { rps: 0, p50: 0, p99: 0, non2xx: 0, errors: 0 }
const rows: Array<Scenario & {
  bytes: number,
  service: Load,
  postgres: Load | undefined,
  uncached: Load,
  fastify: Load,
  ceiling: Load,
  ratio: number,
  postgresRatio: number | undefined,
  target: number
}> = []
/** Loads `url` for WARMUP_SECONDS unmeasured, then for DURATION. */
const measure = async (url: string, headers: Record<string, string>): Promise<Load> => {
  if (WARMUP_SECONDS > 0) await load(url, headers, WARMUP_SECONDS)
  return await load(url, headers, DURATION)
}
const median = (runs: Load[]): Load => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!
for (const s of SCENARIOS) {
  const runs: Record<'service' | 'postgres' | 'uncached' | 'fastify' | 'ceiling', Load[]> =
    { service: [], postgres: [], uncached: [], fastify: [], ceiling: [] }
  for (let round = 1; round <= ROUNDS; round++) {
    log(`${s.name}: round ${round} of ${ROUNDS}`)
    runs.service.push(await measure(`${service.url}${s.path}`, s.catalogue ? auth : {}))
    if (pgService !== undefined) {
      runs.postgres.push(await measure(`${pgService.url}${s.path}`, s.catalogue ? pgAuth : {}))
    }
    runs.uncached.push(await measure(`${uncachedService.url}${s.path}`, s.catalogue ? auth : {}))
    runs.fastify.push(await measure(`${fastifyFloor.url}${s.path}`, {}))
    runs.ceiling.push(await measure(`${ceiling.url}${s.path}`, {}))
  }
  const measured = median(runs.service)
  const postgres = pgService === undefined ? undefined : median(runs.postgres)
  const uncached = median(runs.uncached)
  const fastify = median(runs.fastify)
  const top = median(runs.ceiling)
  const loads = [['service', measured], ['postgres', postgres ?? none], ['uncached', uncached]] as const
  for (const [name, result] of loads) {
    if (result.non2xx > 0 || result.errors > 0) {
      log(`${s.name}: ${name} had ${result.non2xx} non-2xx and ${result.errors} errors`)
    }
  }
  rows.push({
    ...s,
    bytes: Buffer.from(captured[s.path]!.body, 'base64').length,
    service: measured,
    postgres,
    uncached,
    fastify,
    ceiling: top,
    ratio: measured.rps / top.rps,
    postgresRatio: postgres === undefined ? undefined : postgres.rps / top.rps,
    target: target(s.name)
  })
}
const realMemory = await memory(service.url)
const pgMemory = pgService === undefined ? undefined : await memory(pgService.url)
const uncachedMemory = await memory(uncachedService.url)
await stop(service.child)
await stop(uncachedService.child)
if (pgService !== undefined) await stop(pgService.child)
ceiling.child.kill('SIGTERM')
fastifyFloor.child.kill('SIGTERM')

// Restart: the database is ready (migrated, catalogue loaded); spawn to the first catalogue answer.
log('restart to first answer')
const restartMs = await restartToFirstAnswer(realDir, auth, 5)
const pgRestartMs = pgService === undefined ? undefined : await restartToFirstAnswer(pgDir, pgAuth, 5, pgEnv)
await dropBenchDatabase(POSTGRES_ADMIN, postgresUrl)

// --- 2. growth with the catalogue's size (synthetic catalogues) -----------------------------

interface Growth {
  size: number
  buildSeconds: number
  startupMs: number
  databaseMb: number
  memory: { residentMb: number, heapUsedMb: number }
  results: Record<string, Load>
}
const growth: Growth[] = []
for (const size of SIZES) {
  const dir = path.join(workDir, `synthetic-${size}`)
  log(`building a synthetic catalogue of ${size} projects`)
  const built = performance.now()
  const store = await openStore({ dataDir: dir, databaseUrl: undefined })
  await migrateToLatest(store.db)
  await buildSyntheticCatalogue(store.db, size)
  await store.close()
  const buildSeconds = Math.round((performance.now() - built) / 100) / 10
  const growthKey = createKey(dir)
  // Uncached, so that each request pays the database's real cost at this size.
  const server = await startService(dir, { LOAD_BUNDLED_CATALOGUE: 'false', ANSWER_CACHE: 'false' })
  const headers = { authorization: `Bearer ${growthKey}` }
  const paths: Record<string, string> = {
    'filtered first page': '/api/v1/commerce/products/?registry=SYNTHETIC_REGISTRY_3&in_sale=true',
    search: '/api/v1/commerce/products/?search=mangrove%20delta',
    detail: `/api/v1/commerce/products/${Math.ceil(size / 2)}/`,
    'deep offset': `/api/v1/commerce/products/?offset=${Math.max(0, size - 100)}&limit=50`,
    'facets, one filter': '/api/v1/commerce/products/facets/?registry=SYNTHETIC_REGISTRY_3',
    'geojson, bbox': '/api/v1/commerce/products/geojson/?bbox=-20,-35,55,38&limit=1000'
  }
  const results: Record<string, Load> = {}
  for (const [name, url] of Object.entries(paths)) {
    log(`${size}: ${name}`)
    results[name] = await load(`${server.url}${url}`, headers, GROWTH_DURATION)
  }
  growth.push({
    size,
    buildSeconds,
    startupMs: Math.round(server.startupMs),
    databaseMb: directorySizeMb(dir),
    memory: await memory(server.url),
    results
  })
  await stop(server.child)
  rmSync(dir, { recursive: true, force: true })
}

// --- 3. the report ----------------------------------------------------------------------------

const machine = {
  cores: os.availableParallelism(),
  memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
  cpu: os.cpus()[0]?.model ?? 'unknown',
  node: process.version
}
const command = `npm run bench${SIZES.length > 0 ? ` -- --sizes ${SIZES.join(',')}` : ''}`
const pct = (x: number) => `${Math.round(x * 100)}%`
const fmt = (l: Load | undefined) => l === undefined ? '–' : `${l.rps} (${l.p50} / ${l.p99})`
const lines = [
  '# Benchmarks',
  '',
  `Measured on ${new Date().toISOString().slice(0, 10)}: ${machine.cores} cores (${machine.cpu}), ` +
    `${machine.memoryGiB} GiB, Node ${machine.node}.`,
  `Reproduce with \`${command}\` (raw numbers: [benchmarks.json](benchmarks.json)).`,
  '',
  `Each path is loaded in ${ROUNDS} interleaved round(s); in each, every server is warmed for ${WARMUP_SECONDS} s ` +
    'and ' +
    `then loaded for ${DURATION} s by autocannon (${CONNECTIONS} connections) from the benchmark process, and a ` +
    'cell is the median round: first the',
  'service (one process, `NODE_ENV=production`, `LOG_LEVEL=warn`, the bundled catalogue of ' +
    `${bundledCount} real projects), on SQLite and ` +
    `${pgService === undefined ? '(not in this run) ' : ''}on PostgreSQL,`,
  'then against the *ceiling*: a bare `node:http` server answering the same path with the very bytes the service',
  'returned. The ratio is service requests per second ÷ ceiling requests per second, both measured in this run.',
  'Both servers share the machine with the load generator, so absolute numbers are low; the ratio is the point.',
  'Each cell is requests per second (p50 / p99 latency in ms).',
  '',
  '| Path | Bytes | SQLite | PostgreSQL | Uncached (SQLite) | Bare Fastify | Ceiling | SQLite ratio | ' +
    'PostgreSQL ratio | Target |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.name} (\`${r.path.replace(/\|/g, '\\|')}\`) | ${r.bytes} | ${fmt(r.service)} | ` +
    `${fmt(r.postgres)} | ${fmt(r.uncached)} | ${r.fastify.rps} (${pct(r.fastify.rps / r.ceiling.rps)}) | ` +
    `${r.ceiling.rps} | ${pct(r.ratio)} | ${r.postgresRatio === undefined ? '–' : pct(r.postgresRatio)} | ` +
    `${pct(r.target)} ${r.ratio >= r.target ? 'met' : '**not met**'} |`),
  '',
  '"Uncached" is the same path on a second process started with `ANSWER_CACHE=false`: every request queries,',
  'assembles, signs and serialises. The ratios are the default (cached) service over the ceiling; ' +
    '"Target" judges SQLite.',
  '',
  '| Memory and start | SQLite | PostgreSQL | Target |',
  '|---|---:|---:|---:|',
  `| Resident memory after the load, MB (V8 heap in use) | ${realMemory.residentMb} (${realMemory.heapUsedMb}) | ` +
    `${pgMemory === undefined ? '–' : `${pgMemory.residentMb} (${pgMemory.heapUsedMb})`} | ≤ 200 |`,
  '| Resident memory of the uncached process after the load, MB | ' +
    `${uncachedMemory.residentMb} (${uncachedMemory.heapUsedMb}) | – | – |`,
  `| First start to listening (migrations, loading the bundled catalogue), ms | ${Math.round(service.startupMs)} | ` +
    `${pgService === undefined ? '–' : Math.round(pgService.startupMs)} | – |`,
  `| Restart to the first catalogue answer, ms (median of 5) | ${restartMs} | ${pgRestartMs ?? '–'} | ≤ 400 |`
]
if (growth.length > 0) {
  const names = Object.keys(growth[0]!.results)
  lines.push('', '## Growth with the catalogue', '',
    'Synthetic catalogues (generated by `scripts/bench/synthetic-catalogue.ts`, every record labelled synthetic, ' +
      'never mixed',
    'into the real data), the service started with `ANSWER_CACHE=false` so every request pays the database\'s cost,',
    `each path loaded for ${GROWTH_DURATION} s. Latency is p50 / p99 in ms; memory is resident / V8 heap in use ` +
      'after the load.', '',
    '| Projects | Build s | Start-up ms | Database MB | Memory MB | ' +
      `${names.map((n) => `${n} req/s | ${n} p50/p99`).join(' | ')} |`,
    `|---:|---:|---:|---:|---:|${names.map(() => '---:|---:').join('|')}|`,
    ...growth.map((g) => `| ${g.size} | ${g.buildSeconds} | ${g.startupMs} | ${g.databaseMb} | ` +
      `${g.memory.residentMb} / ${g.memory.heapUsedMb} | ` +
      `${names.map((n) => `${g.results[n]!.rps} | ${g.results[n]!.p50} / ${g.results[n]!.p99}`).join(' | ')} |`))
  const first = growth[0]!
  const last = growth[growth.length - 1]!
  lines.push('', `From ${first.size} to ${last.size} projects, p50 latency grows by:`, '',
    ...names.map((n) => `- ${n}: ×${(last.results[n]!.p50 / Math.max(first.results[n]!.p50, 0.01)).toFixed(2)}`))
}
lines.push('')
// Sections other scripts measure (bench:sync) are written by hand below this marker and kept.
const kept = existsSync(`${values.out}.md`) ? readFileSync(`${values.out}.md`, 'utf8').split(KEEP_MARKER)[1] : undefined
writeFileSync(`${values.out}.md`, lines.join('\n') + (kept === undefined ? '' : `${KEEP_MARKER}${kept}`))
const raw = {
  machine,
  command,
  duration: DURATION,
  rounds: ROUNDS,
  connections: CONNECTIONS,
  rows,
  realMemoryMb: realMemory,
  postgresMemoryMb: pgMemory,
  uncachedMemoryMb: uncachedMemory,
  firstStartMs: Math.round(service.startupMs),
  restartMs,
  postgresRestartMs: pgRestartMs,
  growth
}
writeFileSync(`${values.out}.json`, `${JSON.stringify(raw, null, 2)}\n`)
log(`wrote ${path.relative(ROOT, values.out)}.md and .json`)

// --- 4. the credit ledger (scripts/bench/ledger.ts; its own report) ------------------------------
const LEDGER_SIZES = values['ledger-sizes'].split(',').filter((n) => n.trim() !== '').map(Number)
if (LEDGER_SIZES.length > 0) {
  await benchLedger({
    sizes: LEDGER_SIZES,
    projects: Number(values['ledger-projects']),
    seconds: GROWTH_DURATION,
    connections: CONNECTIONS,
    out: path.join(path.dirname(values.out), 'ledger-benchmarks')
  })
}
process.exit(0)
