// npm run bench:market [-- --projects 10000] [--credits 1000000] [--databases sqlite,postgres] [--parquet]
//   [--postgres postgres://postgres@127.0.0.1:5432/postgres] [--out docs/market-benchmarks]
//
// `tonne import --from offsetsdb` at the market's scale (issue 33): a synthetic OffsetsDB archive of 10,000
// projects and 1,000,000 credits (synthetic-market.ts) is imported into a fresh database, then the same bytes
// again, then an archive with about 1 % of its credits changed (every credit of about 1 % of the projects), each by
// the real command in a process of its own under GNU time (wall time and peak resident memory). With --parquet, the
// Parquet zip is imported too, into another fresh database. Prints and writes the figures (.md and .json) with the
// machine's load average before and after.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { dropBenchDatabase, loadAverage, log, migratedBenchDatabase, timedTonne } from './service.ts'
import { changedProjects, writeCsvArchive, writeParquetArchive, type MarketShape } from './synthetic-market.ts'

interface Step {
  step: string
  seconds: number
  /** User and system CPU seconds: on a shared machine, what the import itself cost. */
  cpuSeconds: number
  peakRssMb: number
  /** PostgreSQL: CPU seconds of the server processes serving the import's database (its backends). */
  serverCpuSeconds?: number
  loadBefore: string
  loadAfter: string
  report: Record<string, unknown>
}

const TICKS = 100

/**
 * The CPU seconds of the local PostgreSQL processes whose title names `database` (its backends), sampled until
 * `done` settles: on a shared machine the server's share of an import, apart from other databases' work.
 */
async function serverCpu (database: string, done: Promise<unknown>): Promise<number> {
  const seen = new Map<string, number>()
  const sample = () => {
    for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(` ${database} `)) continue
        const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ')
        seen.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS)
      } catch { /* gone */ }
    }
  }
  const state = { finished: false }
  done.finally(() => { state.finished = true }).catch(() => undefined)
  while (!state.finished) {
    sample()
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return Math.round([...seen.values()].reduce((a, b) => a + b, 0) * 10) / 10
}

/** Runs `tonne import --from offsetsdb FILE --json` under GNU time, and on PostgreSQL samples the server's CPU. */
async function timedImport (file: string, env: Record<string, string>, step: string): Promise<Step> {
  const loadBefore = loadAverage()
  const running = timedTonne(['import', '--from', 'offsetsdb', file, '--json'], env)
  const database = env['DATABASE_URL'] === undefined ? undefined : new URL(env['DATABASE_URL']).pathname.slice(1)
  const server = database === undefined ? undefined : serverCpu(database, running)
  const { stdout, ...timed } = await running
  const { missing_projects: _m, skipped: _s, ...summary } = JSON.parse(stdout) as Record<string, unknown>
  const result = {
    step,
    ...timed,
    ...server !== undefined && { serverCpuSeconds: await server },
    loadBefore,
    loadAfter: loadAverage(),
    report: summary
  }
  const serverShare = result.serverCpuSeconds === undefined ? '' : ` + ${result.serverCpuSeconds} s server CPU`
  log(`${step}: ${result.seconds} s (${result.cpuSeconds} s CPU${serverShare}), ${result.peakRssMb} MB ` +
    `(${JSON.stringify(summary)}); load ${loadBefore} → ${result.loadAfter}`)
  return result
}

async function main (): Promise<void> {
  const { values } = parseArgs({
    options: {
      projects: { type: 'string', default: '10000' },
      credits: { type: 'string', default: '1000000' },
      databases: { type: 'string', default: 'sqlite,postgres' },
      postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
      parquet: { type: 'boolean', default: false },
      out: { type: 'string' }
    }
  })
  const shape: MarketShape = { projects: Number(values.projects), credits: Number(values.credits) }
  const work = mkdtempSync(path.join(os.tmpdir(), 'tonne-bench-market-'))
  const loadBefore = loadAverage()
  const started = new Date().toISOString()
  const results: Record<string, Step[]> = {}
  try {
    const csv = path.join(work, 'offsets-db.csv.zip')
    const changed = path.join(work, 'offsets-db-changed.csv.zip')
    const parquet = path.join(work, 'offsets-db.parquet.zip')
    log(`writing a synthetic archive of ${shape.projects} projects and ${shape.credits} credits`)
    await writeCsvArchive(csv, shape)
    await writeCsvArchive(changed, { ...shape, changedEvery: 100 })
    if (values.parquet) await writeParquetArchive(parquet, shape, work)
    const moved = changedProjects({ ...shape, changedEvery: 100 }).size
    log(`archives: ${Math.round(statSync(csv).size / 1024 ** 2)} MB CSV zip; the changed one moves ${moved} projects`)
    for (const database of values.databases.split(',')) {
      const steps: Step[] = []
      const fresh = async (name: string) =>
        await migratedBenchDatabase(database, path.join(work, `${database}-${name}`), values.postgres)
      const first = await fresh('csv')
      steps.push(await timedImport(csv, first.env, 'import (CSV zip)'))
      steps.push(await timedImport(csv, first.env, 're-import, same bytes'))
      steps.push(await timedImport(changed, first.env, `archive with ~1 % of credits changed (${moved} projects)`))
      await dropBenchDatabase(values.postgres, first.url)
      if (values.parquet) {
        const second = await fresh('parquet')
        steps.push(await timedImport(parquet, second.env, 'import (Parquet zip)'))
        await dropBenchDatabase(values.postgres, second.url)
      }
      results[database] = steps
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  const summary = { started, shape, loadBefore, loadAfter: loadAverage(), cores: os.availableParallelism(), results }
  console.log(JSON.stringify(summary, null, 2))
  if (values.out !== undefined) {
    writeFileSync(`${values.out}.json`, JSON.stringify(summary, null, 2) + '\n')
    const rows = Object.entries(results).flatMap(([database, steps]) =>
      steps.map((s) => `| ${database} | ${s.step} | ${s.seconds} | ${s.cpuSeconds} | ${s.serverCpuSeconds ?? '–'} | ` +
        `${s.peakRssMb} | ${String(s.report['created'])} | ${String(s.report['updated'])} | ` +
        `${s.loadBefore} → ${s.loadAfter} |`))
    writeFileSync(`${values.out}.md`, [
      `Measured ${started} on ${summary.cores} cores; load average ${loadBefore} before, ${summary.loadAfter} after.`,
      '', '| Database | Step | Seconds | CPU seconds | Server CPU seconds | Peak RSS (MB) | Projects created | ' +
        'Projects updated | Load (1/5/15 min) before → after |',
      '|---|---|---:|---:|---:|---:|---:|---:|---|', ...rows, ''
    ].join('\n'))
  }
}

await main()
