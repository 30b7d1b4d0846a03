// Loaded into a `tonne` process with NODE_OPTIONS=--import: at exit, writes the V8 flags the process ran with
// (after bin/tonne.js restarted it) to the file named by TONNE_TEST_PROBE, for a test to read.
import { writeFileSync } from 'node:fs'
import { isMainThread } from 'node:worker_threads'

const out = process.env['TONNE_TEST_PROBE']
if (out !== undefined && isMainThread) {
  process.on('exit', () => { writeFileSync(out, JSON.stringify({ execArgv: process.execArgv, pid: process.pid })) })
}
