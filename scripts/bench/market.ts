// npm run bench:market [-- --projects 10000] [--credits 1000000] [--databases sqlite,postgres] [--parquet]
//   [--postgres postgres://postgres@127.0.0.1:5432/postgres] [--out docs/market-benchmarks]
//
// `tonne import --from offsetsdb` at the market's scale (issue 33): a synthetic OffsetsDB archive of 10,000
// projects and 1,000,000 credits (synthetic-market.ts) is imported into a fresh database, then the same bytes
// again, then an archive with about 1 % of its credits changed (every credit of about 1 % of the projects), each by
// the real command in a process of its own under GNU time (wall time and peak resident memory). With --parquet, the
// Parquet zip is imported too, into another fresh database. Prints and writes the figures (.md and .json) with the
// machine's load average before and after.
import { statSync } from 'node:fs'
import path from 'node:path'
import { importBenchArgs, runImportBench, timedImport, type ImportStep } from './import-bench.ts'
import { log } from './service.ts'
import { changedProjects, writeCsvArchive, writeParquetArchive, type MarketShape } from './synthetic-market.ts'

/** The figures kept from the import's summary: all but the lists of missing projects and skipped rows. */
function report (summary: Record<string, unknown>): Record<string, unknown> {
  const { missing_projects: _m, skipped: _s, ...kept } = summary
  return kept
}

/** Runs `tonne import --from offsetsdb FILE --json` under GNU time, and on PostgreSQL samples the server's CPU. */
async function importStep (file: string, env: Record<string, string>, step: string): Promise<ImportStep> {
  return await timedImport('offsetsdb', file, env, step, { report, serverCpu: true })
}

const values = importBenchArgs({
  projects: { type: 'string', default: '10000' },
  credits: { type: 'string', default: '1000000' },
  parquet: { type: 'boolean', default: false }
})
const shape: MarketShape = { projects: Number(values.projects), credits: Number(values.credits) }

await runImportBench({
  name: 'market',
  values,
  prepare: async (work) => {
    const csv = path.join(work, 'offsets-db.csv.zip')
    const changed = path.join(work, 'offsets-db-changed.csv.zip')
    const parquet = path.join(work, 'offsets-db.parquet.zip')
    log(`writing a synthetic archive of ${shape.projects} projects and ${shape.credits} credits`)
    await writeCsvArchive(csv, shape)
    await writeCsvArchive(changed, { ...shape, changedEvery: 100 })
    if (values.parquet) await writeParquetArchive(parquet, shape, work)
    const moved = changedProjects({ ...shape, changedEvery: 100 }).size
    log(`archives: ${Math.round(statSync(csv).size / 1024 ** 2)} MB CSV zip; the changed one moves ${moved} projects`)
    return {
      summary: { shape },
      steps: async (fresh) => {
        const first = await fresh('csv')
        const steps = [
          await importStep(csv, first, 'import (CSV zip)'),
          await importStep(csv, first, 're-import, same bytes'),
          await importStep(changed, first, `archive with ~1 % of credits changed (${moved} projects)`)
        ]
        if (values.parquet) steps.push(await importStep(parquet, await fresh('parquet'), 'import (Parquet zip)'))
        return steps
      }
    }
  },
  columns: [
    ['Seconds', (s) => s.seconds],
    ['CPU seconds', (s) => s.cpuSeconds],
    ['Server CPU seconds', (s) => s.serverCpuSeconds],
    ['Peak RSS (MB)', (s) => s.peakRssMb],
    ['Projects created', (s) => s.report['created']],
    ['Projects updated', (s) => s.report['updated']]
  ]
})
