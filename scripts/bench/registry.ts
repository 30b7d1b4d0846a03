// npm run bench:registry [-- --rows 1000000] [--projects 5000] [--databases sqlite,postgres]
//   [--postgres postgres://postgres@127.0.0.1:5432/postgres] [--out docs/registry-benchmarks] [--keep FILE]
//
// `tonne import --from verra FILE` at a registry's full size (issue 33, item 5: a 1M-row Verra transactions export
// in at most 90 s and 300 MB). Writes a synthetic Verra transactions export (synthetic-verra.ts: 1,000,000 rows over
// 5,000 projects) and imports it into a fresh database with the real command, in a process of its own, under GNU
// time (wall seconds, CPU seconds, peak resident memory); then the same bytes again. Prints and writes the figures
// (.md and .json) with the machine's load average before and after each step.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { dropBenchDatabase, loadAverage, log, migratedBenchDatabase, timedTonne } from './service.ts'
import { writeVerraTransactions } from './synthetic-verra.ts'

interface Step {
  step: string
  seconds: number
  /** User and system CPU seconds of the tonne process: on a shared machine, what the import itself cost. */
  cpuSeconds: number
  peakRssMb: number
  loadBefore: string
  loadAfter: string
  report: Record<string, unknown>
}

/** Runs `tonne import --from verra FILE --json` under GNU time, with the load average before and after. */
async function timedImport (file: string, env: Record<string, string>, step: string): Promise<Step> {
  const loadBefore = loadAverage()
  const { stdout, ...timed } = await timedTonne(['import', '--from', 'verra', file, '--json'], env)
  const { skipped, warnings, ...summary } = JSON.parse(stdout) as Record<string, unknown>
  const result = {
    step,
    ...timed,
    loadBefore,
    loadAfter: loadAverage(),
    report: { ...summary, skipped: (skipped as unknown[]).length, warnings: (warnings as unknown[]).length }
  }
  log(`${step}: ${result.seconds} s (${result.cpuSeconds} s CPU), ${result.peakRssMb} MB, load ${result.loadBefore} ` +
    `→ ${result.loadAfter} (${JSON.stringify(result.report)})`)
  return result
}

async function main (): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '1000000' },
      projects: { type: 'string', default: '5000' },
      databases: { type: 'string', default: 'sqlite,postgres' },
      postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
      out: { type: 'string' },
      // Reuse (or keep) the export at this path: writing a million rows takes a while.
      keep: { type: 'string' }
    }
  })
  const shape = { rows: Number(values.rows), projects: Number(values.projects) }
  const work = mkdtempSync(path.join(os.tmpdir(), 'tonne-bench-registry-'))
  const started = new Date().toISOString()
  const loadBefore = loadAverage()
  const results: Record<string, Step[]> = {}
  const file = values.keep ?? path.join(work, 'transactions.csv')
  let bytes = 0
  try {
    if (!existsSync(file)) {
      log(`writing a synthetic Verra transactions export of ${shape.rows} rows over ${shape.projects} projects`)
      await writeVerraTransactions(file, shape)
    }
    bytes = statSync(file).size
    log(`export: ${Math.round(bytes / 1024 ** 2)} MB`)
    for (const database of values.databases.split(',')) {
      const { env, url } = await migratedBenchDatabase(database, path.join(work, database), values.postgres)
      try {
        results[database] = [
          await timedImport(file, env, `import, ${shape.rows.toLocaleString('en')} rows`),
          await timedImport(file, env, 're-import, same bytes')
        ]
      } finally {
        await dropBenchDatabase(values.postgres, url)
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  const summary = {
    started,
    shape,
    bytes,
    loadBefore,
    loadAfter: loadAverage(),
    cores: os.availableParallelism(),
    results
  }
  console.log(JSON.stringify(summary, null, 2))
  if (values.out !== undefined) {
    writeFileSync(`${values.out}.json`, JSON.stringify(summary, null, 2) + '\n')
    const rows = Object.entries(results).flatMap(([database, steps]) =>
      steps.map((s) => `| ${database} | ${s.step} | ${s.seconds} | ${s.cpuSeconds} | ${s.peakRssMb} | ` +
        `${s.loadBefore} → ${s.loadAfter} |`))
    writeFileSync(`${values.out}.md`, [
      `Measured ${started} on ${summary.cores} cores; load average ${loadBefore} before, ${summary.loadAfter} after.`,
      '', '| Database | Step | Wall s | CPU s | Peak RSS (MB) | Load (1/5/15 min) before → after |',
      '|---|---|---:|---:|---:|---|', ...rows, ''
    ].join('\n'))
  }
}

await main()
