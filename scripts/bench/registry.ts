// npm run bench:registry [-- --rows 1000000] [--projects 5000] [--databases sqlite,postgres]
//   [--postgres postgres://postgres@127.0.0.1:5432/postgres] [--out docs/registry-benchmarks] [--keep FILE]
//
// `tonne import --from verra FILE` at a registry's full size (issue 33, item 5: a 1M-row Verra transactions export
// in at most 90 s and 300 MB). Writes a synthetic Verra transactions export (synthetic-verra.ts: 1,000,000 rows over
// 5,000 projects) and imports it into a fresh database with the real command, in a process of its own, under GNU
// time (wall seconds, CPU seconds, peak resident memory); then the same bytes again. Prints and writes the figures
// (.md and .json) with the machine's load average before and after each step.
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { importBenchArgs, runImportBench, timedImport, type ImportStep } from './import-bench.ts'
import { log } from './service.ts'
import { writeVerraTransactions } from './synthetic-verra.ts'

/** The figures kept from the import's summary, with the skipped rows and the warnings counted. */
function report ({ skipped, warnings, ...summary }: Record<string, unknown>): Record<string, unknown> {
  return { ...summary, skipped: (skipped as unknown[]).length, warnings: (warnings as unknown[]).length }
}

/** Runs `tonne import --from verra FILE --json` under GNU time, with the load average before and after. */
async function importStep (file: string, env: Record<string, string>, step: string): Promise<ImportStep> {
  return await timedImport('verra', file, env, step, { report })
}

const values = importBenchArgs({
  rows: { type: 'string', default: '1000000' },
  projects: { type: 'string', default: '5000' },
  // Reuse (or keep) the export at this path: writing a million rows takes a while.
  keep: { type: 'string' }
})
const shape = { rows: Number(values.rows), projects: Number(values.projects) }

await runImportBench({
  name: 'registry',
  values,
  prepare: async (work) => {
    const file = values.keep ?? path.join(work, 'transactions.csv')
    if (!existsSync(file)) {
      log(`writing a synthetic Verra transactions export of ${shape.rows} rows over ${shape.projects} projects`)
      await writeVerraTransactions(file, shape)
    }
    const bytes = statSync(file).size
    log(`export: ${Math.round(bytes / 1024 ** 2)} MB`)
    return {
      summary: { shape, bytes },
      steps: async (fresh) => {
        const env = await fresh('verra')
        return [
          await importStep(file, env, `import, ${shape.rows.toLocaleString('en')} rows`),
          await importStep(file, env, 're-import, same bytes')
        ]
      }
    }
  },
  columns: [
    ['Wall s', (s) => s.seconds],
    ['CPU s', (s) => s.cpuSeconds],
    ['Peak RSS (MB)', (s) => s.peakRssMb]
  ]
})
