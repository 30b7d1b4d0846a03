import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { tonneProcess } from '../cli.helpers.ts'
import { tempDir } from '../support/files.ts'

// What only a process shows: V8 takes its young generation's size as it starts, so `tonne import` must restart
// itself with it (bin/tonne.js). Streaming a million registry rows with V8's default young generation let the heap
// grow to about four times the live data (docs/benchmarks.md, "Registry exports at scale").

const HEADER = 'Issuance Date,Sustainable Development Goals,Vintage Start,Vintage End,ID,Name,Country/Area,' +
  'Project Type,Methodology,Total Vintage Quantity,Quantity Issued,Serial Number,Additional Certifications,' +
  'Retirement/Cancellation Date,Retirement Beneficiary,Retirement Reason,Retirement Details'
const ROW = '2021-03-01,,2020-01-01,2020-12-31,4242,Probe Project,India,Energy industries,ACM0002,"1,000",10,' +
  '1-10-19-VCS-VCU-1-VER-IN-1-4242-01012020-31122020-0,,,,,'
const PROBE = path.join(import.meta.dirname, '..', 'support', 'v8-probe.ts')

async function importWith (t: TestContext, nodeOptions: string): Promise<string[]> {
  const dir = tempDir(t)
  const file = path.join(dir, 'transactions.csv')
  writeFileSync(file, `${HEADER}\n${ROW}\n`)
  const probe = path.join(dir, 'probe.json')
  const result = await tonneProcess(['import', '--from', 'verra', file],
    { DATA_DIR: path.join(dir, 'data'), NODE_OPTIONS: `--import=${PROBE} ${nodeOptions}`, TONNE_TEST_PROBE: probe })
  assert.equal(result.code, 0, result.stderr)
  assert.match(result.stdout, /Imported 1 projects/)
  const flags = (JSON.parse(readFileSync(probe, 'utf8')) as { execArgv: string[] }).execArgv
  // NODE_OPTIONS is not in execArgv: the flags there are the ones the restart added.
  return flags.filter((flag) => flag.startsWith('--') && !flag.startsWith('--import'))
}

test('tonne import --from runs with a small young generation, no pretenuring and a slower-growing heap',
  { timeout: 180_000 }, async (t) => {
    const flags = await importWith(t, '')
    assert.ok(flags.some((flag) => /^--max-semi-space-size=[12]$/.test(flag)), flags.join(' '))
    assert.ok(flags.includes('--no-allocation-site-pretenuring'), flags.join(' '))
    assert.ok(flags.some((flag) => flag.startsWith('--heap-growing-percent=')), flags.join(' '))
  })

test('the operator\'s own young-generation flag wins over the import\'s', { timeout: 180_000 }, async (t) => {
  const flags = await importWith(t, '--max-semi-space-size=8')
  assert.deepEqual(flags.filter((flag) => flag.startsWith('--max-semi-space-size')), [])
  assert.ok(flags.includes('--no-allocation-site-pretenuring'), flags.join(' '))
})
