// npm run bench:mixed [-- --minutes 5] [--connections 50]
//
// Resident memory under mixed load (issue 23: ≤ 200 MB after 5 minutes, default cache sizes). Starts the service as
// `npm start` does over a fresh data folder (the bundled catalogue), then sends the mix of mixed-load.ts for
// `--minutes`. Prints resident memory and V8 heap every 30 s and the answers by status. Never part of `npm test`;
// the mix and the figures are in docs/performance.md. `npm run bench:container` runs the same mix under a memory limit.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { byStatus, mixedLoad } from './mixed-load.ts'
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
  const samples: Array<{ second: number, residentMb: number, heapUsedMb: number }> = []
  const result = await mixedLoad(url, [createKey(dataDir)], SECONDS, CONNECTIONS, (second, rps) => {
    memory(url).then((sample) => {
      samples.push({ second, ...sample })
      log(`${second} s: ${rps} answers/s, resident ${sample.residentMb} MB, heap in use ${sample.heapUsedMb} MB`)
    }, () => undefined)
  })
  const final = await memory(url)
  console.log(`Mixed load, ${SECONDS} s at ${CONNECTIONS} connections: ${result.rps} req/s ` +
    `on average (p50 ${result.p50} ms, p99 ${result.p99} ms), ${result.errors} errors; ${byStatus(result.statuses)}`)
  console.log('| After | Resident memory, MB | V8 heap in use, MB |\n|---:|---:|---:|')
  for (const sample of samples) console.log(`| ${sample.second} s | ${sample.residentMb} | ${sample.heapUsedMb} |`)
  console.log(`| end | ${final.residentMb} | ${final.heapUsedMb} |`)
  console.log(`Load average at the end: ${os.loadavg().map((load) => load.toFixed(2)).join(', ')}`)
} finally {
  await stop(child)
  rmSync(dataDir, { recursive: true, force: true })
}
