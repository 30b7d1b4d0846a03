// `npm test`'s runner: Node's test runner with one test file per process and one more file at once than the
// machine has cores (TONNE_TEST_CONCURRENCY sets another number). Files spend part of their time waiting on
// browsers, databases and child processes, so one extra file keeps the cores busy (README, "Tests"). Node's own
// default is one less than the cores; the files are independent (README, "Writing tests that run in parallel").
//   node scripts/test.ts [FILE or GLOB...]     (default: every test/**/*.test.ts)
//   node scripts/test.ts --fast                (`npm run test:fast`: every file but those that start a browser,
//                                               *.browser.test.ts, or a process, *.process.test.ts; README, "Tests")
//   node scripts/test.ts --unit                (`npm run test:unit`: the pure unit tests, test/unit/)
import { spawn } from 'node:child_process'
import { globSync } from 'node:fs'
import { availableParallelism } from 'node:os'

const given = process.env['TONNE_TEST_CONCURRENCY']
const concurrency = given === undefined || given === '' ? availableParallelism() + 1 : Number(given)
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`TONNE_TEST_CONCURRENCY must be a whole number from 1 (got "${given}").`)
  process.exit(2)
}
const level = process.argv[2]
const files = level === '--fast'
  ? globSync('test/**/*.test.ts').filter((file) => !/\.(browser|process)\.test\.ts$/.test(file)).sort()
  : level === '--unit' ? globSync('test/unit/**/*.test.ts').sort() : process.argv.slice(2)
const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, '--test-timeout=180000',
  ...(files.length > 0 ? files : ['test/**/*.test.ts'])], { stdio: 'inherit' })
// Ctrl-C reaches the runner through the terminal's process group; the exit code is the runner's.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128 + 15)))
