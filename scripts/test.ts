// `npm test`'s runner, on Node's test runner (README, "Tests").
//   node scripts/test.ts --checks     (`npm test`: the type checks and lint, beside every test/**/*.test.ts)
//   node scripts/test.ts              (every test/**/*.test.ts, no checks)
//   node scripts/test.ts --fast       (`npm run test:fast`: the unit and in-process files, on SQLite only, in one
//                                      shared process more than the machine has cores)
//   node scripts/test.ts --unit       (`npm run test:unit`: the pure unit tests, test/unit/)
//   node scripts/test.ts --costs      (every test, then writes each file's measured cost to scripts/test-costs.json)
//   node scripts/test.ts --fast-costs (the fast set, then writes only the costs' `sqlite` column, which it deals by)
//   node scripts/test.ts FILE|GLOB... (those files, one process each)
// Importing the app costs about a second of CPU per process, more than most files' tests. So the files that start
// neither a browser nor a process (all but *.browser.test.ts and *.process.test.ts) share a few processes
// (`--test-isolation=none`), one per core; so do the browser files, in as many processes again, each process with
// one Chromium that its files share (test/explorer/browser.ts); the process files keep a process each, beside
// them, one more at once than the machine has cores (TONNE_TEST_CONCURRENCY sets another number for all three).
// Files are dealt by their measured cost (scripts/test-costs.json), the costliest first, each to the shared
// process with the least work so far, so that the processes end together; the process files start costliest
// first, so that no long one starts last. Every process reuses V8's compiled code from earlier runs
// (NODE_COMPILE_CACHE, under node_modules/.cache/). The files are independent (README, "Writing tests that run in
// parallel").
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process'
import { globSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { costliestFirst, costOf, deal, levelOf, SHARED_PROCESS_FLAGS, type FileCost } from './test-plan.ts'

const ROOT = path.join(import.meta.dirname, '..')
const COSTS_FILE = path.join(ROOT, 'scripts', 'test-costs.json')

const given = process.env['TONNE_TEST_CONCURRENCY']
const cores = availableParallelism()
const concurrency = given === undefined || given === '' ? cores + 1 : Number(given)
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`TONNE_TEST_CONCURRENCY must be a whole number from 1 (got "${given}").`)
  process.exit(2)
}

const env = {
  NODE_COMPILE_CACHE: path.join(ROOT, 'node_modules', '.cache', 'node-compile-cache'),
  ...process.env
}
const all = globSync('test/**/*.test.ts').sort()
const level = process.argv[2]

const costs: Record<string, FileCost> = (() => {
  try {
    return JSON.parse(readFileSync(COSTS_FILE, 'utf8')) as Record<string, FileCost>
  } catch {
    return {}
  }
})()
// The fast command runs SQLite only, where some files' share of the time is not what it is on both databases.
const fast = level === '--fast' || level === '--fast-costs'
const cost = costOf(costs, fast ? 'sqlite' : 'all')

/** With `--costs`, every run also writes its files' durations (scripts/test-cost-reporter.ts) to a file here. */
const recordDir = level === '--costs' || level === '--fast-costs'
  ? path.join(ROOT, 'node_modules', '.cache', 'tonne-test-costs')
  : undefined
const recordFiles: string[] = []
if (recordDir !== undefined) mkdirSync(recordDir, { recursive: true })

const runs: Array<Promise<number>> = []
const children = new Set<ChildProcess>()
function start (args: string[], options: { extraEnv?: Record<string, string>, quiet?: boolean } = {}):
Promise<{ code: number, output: string }> {
  return new Promise((resolve) => {
    const stdio: StdioOptions = options.quiet === true ? ['ignore', 'pipe', 'pipe'] : 'inherit'
    const child = spawn(process.execPath, args, { stdio, env: { ...env, ...options.extraEnv } })
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString() })
    child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString() })
    children.add(child)
    // 'close', not 'exit': a held output is complete only once its pipes have closed.
    child.on('close', (code, signal) => {
      children.delete(child)
      resolve({ code: code ?? (signal === null ? 1 : 128 + 15), output })
    })
  })
}
function run (args: string[], extraEnv: Record<string, string> = {}): void {
  const reporters: string[] = []
  if (recordDir !== undefined) {
    const file = path.join(recordDir, `${runs.length}.json`)
    recordFiles.push(file)
    reporters.push('--test-reporter=spec', '--test-reporter-destination=stdout',
      `--test-reporter=${path.join(ROOT, 'scripts', 'test-cost-reporter.ts')}`, `--test-reporter-destination=${file}`)
  }
  runs.push(start(['--test', '--test-timeout=180000', ...reporters, ...args], { extraEnv }).then((r) => r.code))
}
/** The files shared by at most `processes` processes, dealt by cost (scripts/test-plan.ts). */
function shared (files: string[], processes: number, extraEnv: Record<string, string> = {}): void {
  for (const group of deal(files, processes, cost)) {
    if (group.length > 0) run([...SHARED_PROCESS_FLAGS, ...group], extraEnv)
  }
}

/**
 * The type checks and lint of `npm test`, run beside the tests (each is one thread; the tests leave some of the
 * cores' time idle). Their output is held and printed at the end, where it is not lost among the tests'.
 */
const reports: string[] = []
// As `npm run lint` keeps it: `npm ci` empties node_modules/, and with it a cache an upgrade could leave stale.
const ESLINT_CACHE = ['--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/']
function checks (): void {
  const bin = (file: string) => path.join(ROOT, 'node_modules', file)
  // TypeScript 7's compiler (README, "Two TypeScripts") on one thread: the tests keep both cores busy, and its
  // checker threads cost more CPU than they save there.
  const tsc = bin('typescript-native/bin/tsc')
  const steps = [
    ['tsc --noEmit', [tsc, '--noEmit', '--singleThreaded']],
    ['eslint .', [bin('eslint/bin/eslint.js'), '.', ...ESLINT_CACHE]],
    ['tsc -p src/explorer/public', [tsc, '-p', 'src/explorer/public', '--singleThreaded']]
  ] as const
  for (const [name, args] of steps) {
    runs.push(start([...args], { quiet: true }).then(({ code, output }) => {
      reports.push(`\n${name}: ${code === 0 ? 'passed' : `failed (exit code ${code})`}` +
        (output.trim() === '' ? '' : `\n${output.trimEnd()}`))
      return code
    }))
  }
}

const everyTest = () => {
  // Started first, costliest first: the longest process files set the run's end.
  run([`--test-concurrency=${concurrency}`, ...costliestFirst(all.filter((f) => levelOf(f) === 'process'), cost)])
  shared(all.filter((file) => levelOf(file) === 'browser'), Math.min(cores, concurrency))
  shared(all.filter((file) => levelOf(file) === 'in-process'), Math.min(cores, concurrency))
}

if (fast) {
  // Both databases take too long for a fast command; `npm test` runs PostgreSQL (README, "Tests").
  const databases = process.env['TONNE_TEST_DATABASES']
  // Its apps read on the main thread (TONNE_TEST_READ_WORKERS=0, the smallest containers' setting): booting a
  // read worker per app was about a seventh of its CPU. `npm test` runs the same files with a worker per app.
  // One process more than cores, as for the process files: a process waiting on a timer or a file write leaves its
  // core to another (docs/test-suite.md: 28.7 and 29.4 s against 30.5 and 32.1 s with one per core, alternated).
  shared(all.filter((file) => levelOf(file) === 'in-process'), concurrency, {
    TONNE_TEST_DATABASES: databases === undefined || databases === '' ? 'sqlite' : databases,
    TONNE_TEST_READ_WORKERS: process.env['TONNE_TEST_READ_WORKERS'] ?? '0'
  })
} else if (level === '--unit') {
  shared(globSync('test/unit/**/*.test.ts').sort(), 1)
} else if (level === '--checks') {
  everyTest()
  checks()
} else if (level === '--costs' || level === undefined) {
  everyTest()
} else {
  run([`--test-concurrency=${concurrency}`, ...process.argv.slice(2)])
}

// Ctrl-C reaches the runners through the terminal's process group; they are told again in case it came otherwise.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => { for (const child of children) child.kill(signal) })
}
const codes = await Promise.all(runs)
for (const report of reports) console.log(report)
if (recordDir !== undefined) {
  const measured: Record<string, FileCost> = {}
  for (const file of recordFiles) Object.assign(measured, JSON.parse(readFileSync(file, 'utf8')) as object)
  // The fast set alone deals its two processes better by its own times than by its share of a whole run, where
  // the browser and PostgreSQL suites run beside it; `--fast-costs` keeps each file's `all` from the table.
  if (level === '--fast-costs') {
    for (const [file, cost] of Object.entries({ ...costs, ...measured })) {
      measured[file] = { all: costs[file]?.all ?? cost.all, sqlite: cost.sqlite }
    }
  }
  const sorted = Object.fromEntries(Object.entries(measured).sort(([a], [b]) => a.localeCompare(b)))
  writeFileSync(COSTS_FILE, `${JSON.stringify(sorted, null, 2)}\n`)
  console.log(`\nWrote ${Object.keys(sorted).length} files' costs to ${path.relative(process.cwd(), COSTS_FILE)}.`)
}
if (codes.length > 1) console.log(`\n${codes.length} runs: ${codes.filter((c) => c === 0).length} passed.`)
process.exit(codes.find((code) => code !== 0) ?? 0)
