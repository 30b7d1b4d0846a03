// `npm test`'s runner, on Node's test runner (README, "Tests").
//   node scripts/test.ts              (`npm test` after the type check and lint: every test/**/*.test.ts)
//   node scripts/test.ts --fast       (`npm run test:fast`: the unit and in-process files, on SQLite only)
//   node scripts/test.ts --unit       (`npm run test:unit`: the pure unit tests, test/unit/)
//   node scripts/test.ts FILE|GLOB... (those files, one process each)
// Importing the app costs about a second of CPU per process, more than most files' tests. So the files that start
// neither a browser nor a process (all but *.browser.test.ts and *.process.test.ts) share a few processes
// (`--test-isolation=none`), one per core, the files dealt out in turn; the browser and process files keep a
// process each, beside them, one more at once than the machine has cores (TONNE_TEST_CONCURRENCY sets another
// number for both). Every process reuses V8's compiled code from earlier runs (NODE_COMPILE_CACHE, under
// node_modules/.cache/). The files are independent (README, "Writing tests that run in parallel").
import { spawn } from 'node:child_process'
import { globSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'

const given = process.env['TONNE_TEST_CONCURRENCY']
const cores = availableParallelism()
const concurrency = given === undefined || given === '' ? cores + 1 : Number(given)
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`TONNE_TEST_CONCURRENCY must be a whole number from 1 (got "${given}").`)
  process.exit(2)
}

const env = {
  NODE_COMPILE_CACHE: path.join(import.meta.dirname, '..', 'node_modules', '.cache', 'node-compile-cache'),
  ...process.env
}
const all = globSync('test/**/*.test.ts').sort()
const ownProcess = (file: string) => /\.(browser|process)\.test\.ts$/.test(file)
const level = process.argv[2]

const runs: Array<Promise<number>> = []
const children = new Set<ReturnType<typeof spawn>>()
function run (args: string[], extraEnv: Record<string, string> = {}): void {
  runs.push(new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-timeout=180000', ...args],
      { stdio: 'inherit', env: { ...env, ...extraEnv } })
    children.add(child)
    child.on('exit', (code, signal) => {
      children.delete(child)
      resolve(code ?? (signal === null ? 1 : 128 + 15))
    })
  }))
}
/** The files dealt out in turn to `processes` shared processes (at most one per file). */
function shared (files: string[], processes: number, extraEnv: Record<string, string> = {}): void {
  const count = Math.max(1, Math.min(processes, files.length))
  for (let i = 0; i < count; i++) {
    run(['--test-isolation=none', ...files.filter((_, index) => index % count === i)], extraEnv)
  }
}

if (level === '--fast') {
  // Both databases take too long for a fast command; `npm test` runs PostgreSQL (README, "Tests").
  const databases = process.env['TONNE_TEST_DATABASES']
  shared(all.filter((file) => !ownProcess(file)), cores,
    { TONNE_TEST_DATABASES: databases === undefined || databases === '' ? 'sqlite' : databases })
} else if (level === '--unit') {
  shared(globSync('test/unit/**/*.test.ts').sort(), 1)
} else if (process.argv.length > 2) {
  run([`--test-concurrency=${concurrency}`, ...process.argv.slice(2)])
} else {
  shared(all.filter((file) => !ownProcess(file)), Math.min(cores, concurrency))
  run([`--test-concurrency=${concurrency}`, ...all.filter(ownProcess)])
}

// Ctrl-C reaches the runners through the terminal's process group; they are told again in case it came otherwise.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => { for (const child of children) child.kill(signal) })
}
const codes = await Promise.all(runs)
if (codes.length > 1) console.log(`\n${codes.length} test runs: ${codes.filter((c) => c === 0).length} passed.`)
process.exit(codes.find((code) => code !== 0) ?? 0)
