// What the import benchmarks (market.ts, registry.ts) share: their database options, a work folder and fresh
// databases, one timed `tonne import` step with the load average before and after, and the figures printed and
// written as .json and a .md table.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'
import { dropBenchDatabase, loadAverage, log, migratedBenchDatabase, timedTonne } from './service.ts'

/** The options of every import benchmark, beside its own (the size of what it imports). */
const IMPORT_BENCH_OPTIONS = {
  databases: { type: 'string', default: 'sqlite,postgres' },
  postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  // Output path without extension (.md and .json are written); without it the figures are only printed.
  out: { type: 'string' }
} as const

/** The command line's values: the benchmark's own `options` and IMPORT_BENCH_OPTIONS. */
export function importBenchArgs<O extends ParseArgsOptionsConfig> (options: O) {
  return parseArgs({ options: { ...options, ...IMPORT_BENCH_OPTIONS } }).values
}

export interface ImportStep {
  step: string
  seconds: number
  /** User and system CPU seconds of the tonne process: on a shared machine, what the import itself cost. */
  cpuSeconds: number
  peakRssMb: number
  /** PostgreSQL, where asked for: CPU seconds of the server processes serving the import's database (its backends). */
  serverCpuSeconds?: number
  loadBefore: string
  loadAfter: string
  report: Record<string, unknown>
}

interface ImportOptions {
  /** The figures kept from the import's JSON summary. */
  report: (summary: Record<string, unknown>) => Record<string, unknown>
  /** Whether to sample the PostgreSQL server's CPU for the import's database. */
  serverCpu?: boolean
}

/** Runs `tonne import --from SOURCE FILE --json` under GNU time, with the load average before and after. */
export async function timedImport (source: string, file: string, env: Record<string, string>, step: string,
  options: ImportOptions): Promise<ImportStep> {
  const loadBefore = loadAverage()
  const running = timedTonne(['import', '--from', source, file, '--json'], env)
  const database = options.serverCpu !== true || env['DATABASE_URL'] === undefined
    ? undefined
    : new URL(env['DATABASE_URL']).pathname.slice(1)
  const server = database === undefined ? undefined : serverCpu(database, running)
  const { stdout, ...timed } = await running
  const result = {
    step,
    ...timed,
    ...server !== undefined && { serverCpuSeconds: await server },
    loadBefore,
    loadAfter: loadAverage(),
    report: options.report(JSON.parse(stdout) as Record<string, unknown>)
  }
  const serverShare = result.serverCpuSeconds === undefined ? '' : ` + ${result.serverCpuSeconds} s server CPU`
  log(`${step}: ${result.seconds} s (${result.cpuSeconds} s CPU${serverShare}), ${result.peakRssMb} MB ` +
    `(${JSON.stringify(result.report)}); load ${loadBefore} → ${result.loadAfter}`)
  return result
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

interface ImportSummary {
  started: string
  loadBefore: string
  loadAfter: string
  cores: number
  results: Record<string, ImportStep[]>
}

/** A column of the .md table: its heading, and its cell of a step. */
export type StepColumn = readonly [heading: string, cell: (step: ImportStep) => unknown]

interface ImportBench {
  /** Names the work folder (in the system's temp folder, removed at the end). */
  name: string
  values: { databases: string, postgres: string, out?: string | undefined }
  /**
   * Writes what is to be imported into `work`; returns what the summary states about it, and one kind of database's
   * steps, where `fresh(name)` is a fresh migrated database of that kind (its environment; dropped after the steps).
   */
  prepare: (work: string) => Promise<{
    summary: object
    steps: (fresh: (name: string) => Promise<Record<string, string>>) => Promise<ImportStep[]>
  }>
  columns: readonly StepColumn[]
}

/** Prepares the benchmark's files, runs its steps on each database asked for, and prints and writes the figures. */
export async function runImportBench ({ name, values, prepare, columns }: ImportBench): Promise<void> {
  const { databases, postgres, out } = values
  const work = mkdtempSync(path.join(os.tmpdir(), `tonne-bench-${name}-`))
  const started = new Date().toISOString()
  const loadBefore = loadAverage()
  const results: Record<string, ImportStep[]> = {}
  let summary: object
  try {
    const prepared = await prepare(work)
    summary = prepared.summary
    for (const database of databases.split(',')) {
      const urls: Array<string | undefined> = []
      const fresh = async (step: string) => {
        const { env, url } = await migratedBenchDatabase(database, path.join(work, `${database}-${step}`), postgres)
        urls.push(url)
        return env
      }
      try {
        results[database] = await prepared.steps(fresh)
      } finally {
        for (const url of urls) await dropBenchDatabase(postgres, url)
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  const loadAfter = loadAverage()
  writeImportResults(out, { started, ...summary, loadBefore, loadAfter, cores: os.availableParallelism(), results },
    columns)
}

/**
 * Prints the summary and, with an `out` path, writes it to OUT.json and a table of its steps to OUT.md: database,
 * step, `columns` (numbers, right-aligned) and the load average before and after.
 */
function writeImportResults (out: string | undefined, summary: ImportSummary,
  columns: readonly StepColumn[]): void {
  console.log(JSON.stringify(summary, null, 2))
  if (out === undefined) return
  writeFileSync(`${out}.json`, JSON.stringify(summary, null, 2) + '\n')
  const row = (cells: readonly unknown[]) => `| ${cells.map(String).join(' | ')} |`
  const rows = Object.entries(summary.results).flatMap(([database, steps]) => steps.map((s) =>
    row([database, s.step, ...columns.map(([, cell]) => cell(s) ?? '–'), `${s.loadBefore} → ${s.loadAfter}`])))
  writeFileSync(`${out}.md`, [
    `Measured ${summary.started} on ${summary.cores} cores; load average ${summary.loadBefore} before, ` +
      `${summary.loadAfter} after.`,
    '',
    row(['Database', 'Step', ...columns.map(([heading]) => heading), 'Load (1/5/15 min) before → after']),
    row(['---', '---', ...columns.map(() => '---:'), '---']).replaceAll(' ', ''),
    ...rows,
    ''
  ].join('\n'))
}
