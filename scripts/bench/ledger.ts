// npm run bench:ledger [-- --sizes 1000,100000,1000000] [--projects 10000] [--duration 5] [--connections 10]
// npm run bench:ledger -- --reuse DIR|postgres://... [--out PATH]   (a ledger grown once, e.g. by --keep, reused)
//
// The credit ledger at 1k, 100k and 1M transactions (also the last part of `npm run bench`). Two copies of one
// synthetic catalogue (synthetic-catalogue.ts) are served side by side, uncached (ANSWER_CACHE=false, so every
// request pays the database's cost), on SQLite: one without a ledger, one whose ledger grows to each size
// (synthetic-ledger.ts, batched INSERTs). At each size:
// - the project list and detail are loaded on both, alternately (without, with, without, with), to tell
//   whether the ledger slows them (target: within 10 %);
// - the ledger's paths are loaded on the copy with the ledger, with one connection (the latency of an answer;
//   target: a filtered page under 50 ms at p99) and with --connections (throughput under concurrency).
// Writes docs/ledger-benchmarks.md and .json, with the machine's load average before and after.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { openStore } from '../../src/store/connect.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { buildSyntheticCatalogue } from './synthetic-catalogue.ts'
import { BENEFICIARIES, growSyntheticLedger } from './synthetic-ledger.ts'
import { createKey, directorySizeMb, load, log, memory, startService, stop, type Load } from './service.ts'

const ROOT = path.join(import.meta.dirname, '..', '..')

export interface LedgerBenchOptions {
  sizes: readonly number[]
  projects: number
  seconds: number
  connections: number
  /** Output path without extension (.md and .json are written). */
  out: string
  /**
   * A store whose synthetic ledger is already grown (a data directory, or a PostgreSQL URL): its ledger paths are
   * loaded as they are, without the growth and the comparison with a catalogue without a ledger. A 1M ledger takes
   * 10 to 15 minutes to grow; reusing it keeps the builds on a shared machine to one per database.
   */
  reuse?: string | undefined
  /** Keep the grown SQLite data directory here (for --reuse). */
  keep?: string | undefined
}

interface LedgerSize {
  size: number
  growSeconds: number
  databaseMb: number
  /** Per catalogue path: the copy without a ledger and the one with it (two alternating rounds each). */
  catalogue: Record<string, { without: Load[], with: Load[] }>
  /** Per ledger path: one connection, and `connections`. */
  ledger: Record<string, { single: Load, concurrent: Load, filtered: boolean }>
  memory: { residentMb: number, heapUsedMb: number }
}

const loadAverage = () => os.loadavg().map((x) => x.toFixed(2)).join(' / ')

/** The ledger's paths at `size` transactions over `projects` projects; every filtered one has a target. */
function ledgerPaths (size: number, projects: number): Record<string, { url: string, filtered: boolean }> {
  const middle = Math.ceil(projects / 2)
  return {
    'whole ledger, first page': { url: '/api/v1/commerce/transactions/', filtered: false },
    'type=retirement': { url: '/api/v1/commerce/transactions/?type=retirement', filtered: true },
    'registry + type': {
      url: '/api/v1/commerce/transactions/?registry=SYNTHETIC_REGISTRY_3&type=retirement', filtered: true
    },
    'date range (cuts months)': {
      url: '/api/v1/commerce/transactions/?date_after=2020-03-10&date_before=2020-08-20', filtered: true
    },
    'retirements of one year': {
      url: '/api/v1/commerce/transactions/?type=retirement&date_after=2020-01-01&date_before=2020-12-31',
      filtered: true
    },
    'registry and vintage': {
      url: '/api/v1/commerce/transactions/?registry=SYNTHETIC_REGISTRY_3&vintage=2015', filtered: true
    },
    'cancellations, largest first': {
      url: '/api/v1/commerce/transactions/?type=cancellation&ordering=-quantity', filtered: true
    },
    'one project (project=)': { url: `/api/v1/commerce/transactions/?project=${middle}`, filtered: true },
    'one project\'s ledger, retirements': {
      url: `/api/v1/commerce/products/${middle}/transactions/?type=retirement&ordering=-quantity`, filtered: true
    },
    'search, a common word': { url: '/api/v1/commerce/transactions/?search=airlines', filtered: false },
    'search, one beneficiary': {
      url: `/api/v1/commerce/transactions/?search=beneficiary%20${String(Math.ceil(BENEFICIARIES / 3))
        .padStart(5, '0')}`,
      filtered: false
    },
    'deep offset (middle of the ledger)': {
      url: `/api/v1/commerce/transactions/?offset=${Math.floor(size / 2)}&limit=50`, filtered: false
    },
    'deep offset, 1,000 rows': {
      url: `/api/v1/commerce/transactions/?offset=${Math.floor(size / 4)}&limit=1000`, filtered: false
    }
  }
}

/** Loads each ledger path on a running service (one connection, then `connections`). */
async function loadLedger (
  url: string, headers: Record<string, string>, size: number, options: LedgerBenchOptions
): Promise<LedgerSize['ledger']> {
  const ledger: LedgerSize['ledger'] = {}
  for (const [name, { url: path, filtered }] of Object.entries(ledgerPaths(size, options.projects))) {
    // The last path's concurrent load may still hold the key's expensive read (a 429 until it ends).
    let check = await fetch(`${url}${path}`, { headers })
    for (let tries = 0; check.status === 429 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      check = await fetch(`${url}${path}`, { headers })
    }
    if (check.status !== 200) throw new Error(`${path} answered ${check.status}: ${await check.text()}`)
    log(`ledger ${size}: ${name}`)
    ledger[name] = {
      single: await load(`${url}${path}`, headers, options.seconds, 1),
      concurrent: await load(`${url}${path}`, headers, options.seconds, options.connections),
      filtered
    }
  }
  return ledger
}

/** The ledger paths of a store grown earlier (--reuse), on SQLite or PostgreSQL. */
async function benchReused (options: LedgerBenchOptions, reuse: string): Promise<void> {
  const postgres = reuse.startsWith('postgres')
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'tonne-bench-ledger-'))
  const loadBefore = loadAverage()
  const started = new Date()
  try {
    const dataDir = postgres ? workDir : reuse
    const database: Record<string, string> = postgres ? { DATABASE_URL: reuse } : {}
    const store = await openStore({ dataDir, databaseUrl: postgres ? reuse : undefined })
    await migrateToLatest(store.db)
    const { size } = await store.db.selectFrom('credit_transactions')
      .select((eb) => eb.fn.countAll<number>().as('size')).executeTakeFirstOrThrow()
    await store.close()
    const key = createKey(dataDir, database)
    // One key loads every path: it may run as many expensive reads as the service takes (a pool of 10 on
    // PostgreSQL: 9; SQLite's 2 read workers: 1), so the concurrent figures show the cap of all keys, not one's.
    const expensive = postgres ? '9' : '1'
    const service = await startService(dataDir, {
      LOAD_BUNDLED_CATALOGUE: 'false',
      ANSWER_CACHE: 'false',
      EXPENSIVE_READS: expensive,
      EXPENSIVE_READS_PER_KEY: expensive,
      ...database
    })
    const headers = { authorization: `Bearer ${key}` }
    const ledger = await loadLedger(service.url, headers, Number(size), options)
    const result: LedgerSize = {
      size: Number(size),
      growSeconds: 0,
      databaseMb: postgres ? 0 : directorySizeMb(dataDir),
      catalogue: {},
      ledger,
      memory: await memory(service.url)
    }
    await stop(service.child)
    writeReport(options, [result], {
      started, loadBefore, loadAfter: loadAverage(), baseMb: 0, database: postgres ? 'PostgreSQL' : 'SQLite'
    })
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

export async function benchLedger (options: LedgerBenchOptions): Promise<void> {
  if (options.reuse !== undefined) return await benchReused(options, options.reuse)
  const { sizes, projects, seconds, connections } = options
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'tonne-bench-ledger-'))
  const loadBefore = loadAverage()
  const started = new Date()
  try {
    const baseDir = path.join(workDir, 'without-ledger')
    log(`ledger: building a synthetic catalogue of ${projects} projects`)
    const base = await openStore({ dataDir: baseDir, databaseUrl: undefined })
    await migrateToLatest(base.db)
    await buildSyntheticCatalogue(base.db, projects)
    await base.close()
    const key = createKey(baseDir)
    // The copy shares the catalogue and the key; only its ledger differs.
    const growDir = path.join(workDir, 'with-ledger')
    mkdirSync(growDir)
    for (const file of readdirSync(baseDir)) copyFileSync(path.join(baseDir, file), path.join(growDir, file))
    const env = { LOAD_BUNDLED_CATALOGUE: 'false', ANSWER_CACHE: 'false' }
    const without = await startService(baseDir, env)
    const headers = { authorization: `Bearer ${key}` }
    const middle = Math.ceil(projects / 2)
    const cataloguePaths: Record<string, string> = {
      'list, first page': '/api/v1/commerce/products/',
      'list, filtered': '/api/v1/commerce/products/?registry=SYNTHETIC_REGISTRY_3&in_sale=true',
      detail: `/api/v1/commerce/products/${middle}/`
    }
    const results: LedgerSize[] = []
    let held = 0
    for (const size of sizes) {
      log(`ledger: growing to ${size} transactions`)
      const grown = performance.now()
      const store = await openStore({ dataDir: growDir, databaseUrl: undefined })
      await growSyntheticLedger(store.db, held, size)
      await store.close()
      held = size
      const growSeconds = Math.round((performance.now() - grown) / 100) / 10
      const withLedger = await startService(growDir, env)
      const catalogue: LedgerSize['catalogue'] = {}
      for (const [name, url] of Object.entries(cataloguePaths)) {
        catalogue[name] = { without: [], with: [] }
        for (let round = 0; round < 2; round++) {
          log(`ledger ${size}: ${name}, without and with the ledger (round ${round + 1})`)
          catalogue[name].without.push(await load(`${without.url}${url}`, headers, seconds, connections))
          catalogue[name].with.push(await load(`${withLedger.url}${url}`, headers, seconds, connections))
        }
      }
      const ledger = await loadLedger(withLedger.url, headers, size, options)
      results.push({
        size, growSeconds, databaseMb: directorySizeMb(growDir), catalogue, ledger, memory: await memory(withLedger.url)
      })
      await stop(withLedger.child)
    }
    await stop(without.child)
    writeReport(options, results, { started, loadBefore, loadAfter: loadAverage(), baseMb: directorySizeMb(baseDir) })
    if (options.keep !== undefined) {
      mkdirSync(options.keep, { recursive: true })
      for (const file of readdirSync(growDir)) copyFileSync(path.join(growDir, file), path.join(options.keep, file))
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length

function writeReport (options: LedgerBenchOptions, results: LedgerSize[],
  run: { started: Date, loadBefore: string, loadAfter: string, baseMb: number, database?: string }): void {
  const { projects, seconds, connections } = options
  const machine = {
    cores: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    node: process.version
  }
  const command = options.reuse === undefined
    ? `npm run bench:ledger -- --sizes ${options.sizes.join(',')} --projects ${projects}`
    : `npm run bench:ledger -- --reuse ${run.database === 'PostgreSQL' ? 'postgres://…' : 'DIR'} --duration ${seconds}` +
      ` --out docs/${path.basename(options.out)}`
  const lines = [
    '# Ledger benchmarks',
    '',
    `Measured on ${run.started.toISOString().slice(0, 16).replace('T', ' ')} UTC: ${machine.cores} cores ` +
      `(${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}. Load average (1 / 5 / 15 min) ` +
      `${run.loadBefore} before the run, ${run.loadAfter} after it.`,
    `Reproduce with \`${command}\` (also the last part of \`npm run bench\`; raw numbers: ` +
      `[${path.basename(options.out)}.json](${path.basename(options.out)}.json)). Written by ` +
      '`scripts/bench/ledger.ts`.',
    '',
    ...(run.database === undefined
      ? ['A million transactions on both databases, grown once and reused (`--reuse`): ' +
          '[SQLite](ledger-benchmarks-1m-sqlite.md), [PostgreSQL](ledger-benchmarks-1m-postgres.md).', '']
      : [`**${run.database}**, a synthetic ledger grown earlier and reused ` +
      '(`--reuse`); the catalogue comparison below is left out.', '']),
    `A synthetic catalogue of ${projects} projects (\`scripts/bench/synthetic-catalogue.ts\`) in two copies on ` +
      'SQLite, each served by its own process',
    '(`NODE_ENV=production`, `ANSWER_CACHE=false`, so every request pays the database\'s cost): one without a ' +
      'ledger, one whose',
    'synthetic ledger (`scripts/bench/synthetic-ledger.ts`: 60 % retirements, 30 % issuances, 10 % cancellations, ' +
      '2005–2025) grows to each size.',
    `Each path is loaded for ${seconds} s by autocannon. Latency is p50 / p99 in ms.`,
    '',
    '## The project list and detail, without and with the ledger',
    '',
    `${connections} connections; two alternating rounds per copy (without, with, without, with); the mean of ` +
      'the two rounds.',
    '',
    '| Transactions | Path | Without: req/s | Without: p50 / p99 | With: req/s | With: p50 / p99 | With ÷ without |',
    '|---:|---|---:|---:|---:|---:|---:|',
    ...results.flatMap((r) => Object.entries(r.catalogue).map(([name, { without, with: withLedger }]) => {
      const a = mean(without.map((l) => l.rps))
      const b = mean(withLedger.map((l) => l.rps))
      const latency = (loads: Load[]) => `${mean(loads.map((l) => l.p50)).toFixed(1)} / ` +
        `${mean(loads.map((l) => l.p99)).toFixed(1)}`
      return `| ${r.size} | ${name} | ${Math.round(a)} | ${latency(without)} | ${Math.round(b)} | ` +
        `${latency(withLedger)} | ${(b / a * 100).toFixed(0)} % |`
    })),
    '',
    '## The ledger\'s paths',
    '',
    `One connection (the time of one answer), then ${connections} connections. "Filtered" marks the pages the ` +
      'target (p99 under 50 ms with one connection) is about.',
    '',
    '| Transactions | Path | Filtered | 1 conn: req/s | 1 conn: p50 / p99 | ' +
      `${connections} conn: req/s | ${connections} conn: p50 / p99 |`,
    '|---:|---|---|---:|---:|---:|---:|',
    ...results.flatMap((r) => Object.entries(r.ledger).map(([name, l]) =>
      `| ${r.size} | ${name} | ${l.filtered ? 'yes' : ''} | ${l.single.rps} | ${l.single.p50} / ${l.single.p99} | ` +
      `${l.concurrent.rps} | ${l.concurrent.p50} / ${l.concurrent.p99} |`)),
    '',
    '| Transactions | Growing to it, s | Database MB (without a ledger: ' + `${run.baseMb}) | ` +
      'Memory after the load, MB (resident / heap) |',
    '|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.size} | ${r.growSeconds} | ${r.databaseMb} | ${r.memory.residentMb} / ` +
      `${r.memory.heapUsedMb} |`),
    ''
  ]
  const errors = results.flatMap((r) => [
    ...Object.entries(r.catalogue).flatMap(([name, c]) => [...c.without, ...c.with].map((l) => ({ name, l }))),
    ...Object.entries(r.ledger).flatMap(([name, l]) => [l.single, l.concurrent].map((x) => ({ name, l: x })))
  ].filter(({ l }) => l.non2xx > 0 || l.errors > 0).map(({ name, l }) =>
    `- ${r.size}, ${name}: ${l.non2xx} non-2xx answers, ${l.errors} errors`))
  if (errors.length > 0) lines.push('Failed requests (the figures above include them):', '', ...errors, '')
  writeFileSync(`${options.out}.md`, lines.join('\n'))
  writeFileSync(`${options.out}.json`, `${JSON.stringify({
    machine,
command,
seconds,
connections,
projects,
started: run.started.toISOString(),
    loadAverage: { before: run.loadBefore, after: run.loadAfter },
withoutLedgerMb: run.baseMb,
results
  }, null, 2)}\n`)
  log(`wrote ${path.relative(ROOT, options.out)}.md and .json`)
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,100000,1000000' },
      projects: { type: 'string', default: '10000' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      quick: { type: 'boolean', default: false },
      reuse: { type: 'string' },
      keep: { type: 'string' },
      out: { type: 'string', default: path.join(ROOT, 'docs', 'ledger-benchmarks') }
    }
  })
  await benchLedger({
    sizes: values.sizes.split(',').map(Number),
    projects: Number(values.projects),
    seconds: values.quick ? 1 : Number(process.env['BENCH_DURATION'] ?? values.duration),
    connections: Number(values.connections),
    out: values.out,
    reuse: values.reuse,
    keep: values.keep
  })
  process.exit(0)
}
