// npm run bench:sync [-- --rows 20000] [--seconds 10] [--connections 4]
//
// Whether serving goes on while `serve` syncs (issue 33, item 3: other clients' p99 at most 2x idle). Starts the
// service as `npm start` does over a fresh data folder (the bundled catalogue) with SYNC_SOURCES pointing at a local
// HTTP server that holds its answer. Measures the catalogue's p99 with autocannon while idle, then lets the
// download through (a synthetic Verra transactions export of `--rows` rows over 500 new projects, made from the
// sample export's first row) and measures again until the sync round has recorded its result. Prints both, the
// import's duration and the load average. Never part of `npm test`; the figures are in docs/benchmarks.md.
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { createKey, log, startService, stop } from './service.ts'

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '4' }
  }
})
const ROWS = Number(values.rows)
const SECONDS = Number(values.seconds)
const CONNECTIONS = Number(values.connections)
const SAMPLE = path.join(import.meta.dirname, '..', '..', 'data', 'catalogue', 'raw', 'offsets-db-data', 'verra',
  'transactions.csv')

/** The sample's header and first row, the row repeated with new project ids, serial numbers and quantities. */
function syntheticExport (rows: number): string {
  const [header, first] = readFileSync(SAMPLE, 'utf8').split('\n')
  const lines = [header!]
  for (let i = 0; i < rows; i++) {
    const project = 900_000 + (i % 500)
    // ID is the fifth column; Serial Number and the quantities are replaced by their values in the row.
    lines.push(first!
      .replace(/^([^,]*,[^,]*,[^,]*,[^,]*,)1340,/, `$1${project},`)
      .replace('19385-941467007-941467431', `${90_000 + i}-${i * 1000}-${i * 1000 + 99}`)
      .replace(/,425,/, `,${100 + (i % 900)},`))
  }
  return `${lines.join('\n')}\n`
}

const body = syntheticExport(ROWS)
let held: ServerResponse | undefined
let release: () => void = () => undefined
const files = createServer((_request, response) => {
  held = response
  release = () => response.writeHead(200, { 'content-type': 'text/csv' }).end(body)
})
files.listen(0, '127.0.0.1')
await once(files, 'listening')
const source = `http://127.0.0.1:${(files.address() as AddressInfo).port}/verra/transactions.csv`

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tonne-bench-sync-'))
const key = createKey(dataDir)
const { child, url } = await startService(dataDir, { SYNC_SOURCES: `verra=${source}`, SYNC_INTERVAL: '7d' })
try {
  const headers = { authorization: `Bearer ${key}` }
  const ids = ((await (await fetch(`${url}/api/v1/commerce/products/?limit=50`, { headers })).json()) as
    { results: Array<{ id: number }> }).results.map((p) => p.id)
  const requests = [
    ...ids.slice(0, 30).map((id) => ({ path: `/api/v1/commerce/products/${id}/` })),
    ...[0, 20, 40, 60].map((offset) => ({ path: `/api/v1/commerce/products/?limit=20&offset=${offset}` })),
    ...[0, 50].map((offset) => ({ path: `/api/v1/commerce/transactions/?limit=50&offset=${offset}` }))
  ]
  const load = (seconds: number) => {
    let instance: autocannon.Instance | undefined
    const result = new Promise<autocannon.Result>((resolve, reject) => {
      instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, requests },
        (error: Error | null, done) => { if (error !== null) reject(error); else resolve(done) })
    })
    return { stop: () => instance?.stop(), result }
  }
  // The service asks for the file as soon as it is ready; the answer waits until the idle figure is taken.
  const asked = () => held !== undefined
  while (!asked()) await new Promise((resolve) => setTimeout(resolve, 50))
  log(`idle: ${SECONDS} s at ${CONNECTIONS} connections, ${requests.length} URLs; load ${loadavg().join(' ')}`)
  const idle = await load(SECONDS).result

  const started = performance.now()
  const during = load(3600)
  release()
  let status: string | null = null
  while (status === null) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    const listed = await (await fetch(`${url}/api/v1/commerce/sources/`, { headers })).json() as
      { results: Array<{ last_status: string | null, last_error: string | null }> }
    status = listed.results[0]?.last_status ?? null
    if (status === 'failed') throw new Error(`the sync failed: ${listed.results[0]?.last_error}`)
  }
  const importMs = performance.now() - started
  during.stop()
  const busy = await during.result
  const load1 = loadavg()
  const ratio = busy.latency.p99 / idle.latency.p99
  console.log(JSON.stringify({
    rows: ROWS,
    bytes: Buffer.byteLength(body),
    connections: CONNECTIONS,
    idle: { p50: idle.latency.p50, p99: idle.latency.p99, rps: idle.requests.average, non2xx: idle.non2xx },
    during_sync: { p50: busy.latency.p50, p99: busy.latency.p99, rps: busy.requests.average, non2xx: busy.non2xx },
    p99_ratio: Math.round(ratio * 100) / 100,
    sync_ms: Math.round(importMs),
    status,
    loadavg: load1
  }, null, 2))
} finally {
  await stop(child)
  files.closeAllConnections()
  files.close()
  rmSync(dataDir, { recursive: true, force: true })
}
