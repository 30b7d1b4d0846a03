import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { SHARED_PROCESS_FLAGS } from '../scripts/test-plan.ts'
import { tempDir } from './support/files.ts'

// The processes that share test files run without the test runner's async hook (scripts/test-without-async-hook.ts),
// to save CPU. The price is that an error escaping a test is reported for the file's run, not pinned on the test;
// it must still fail the run, with the error's message.

/** A test file run as scripts/test.ts runs a shared process's files; the runner's exit code and output. */
function runShared (t: TestContext, source: string) {
  const file = path.join(tempDir(t), 'escape.test.mjs')
  writeFileSync(file, source)
  const run = spawnSync(process.execPath, [...SHARED_PROCESS_FLAGS, '--test', '--test-reporter=spec', file],
    { encoding: 'utf8', env: { ...process.env, NODE_TEST_CONTEXT: undefined } })
  return { code: run.status, output: run.stdout + run.stderr }
}

test('an error that escapes its test still fails the shared run, reported without the hook that pins it on the test',
  (t) => {
    const { code, output } = runShared(t, `import { test } from 'node:test'
test('throws from work it started', async () => {
  setImmediate(() => { throw new Error('escaped from its test') })
  await new Promise((resolve) => setImmediate(() => setImmediate(resolve)))
})
test('a later test still runs', () => {})
`)
    assert.equal(code, 1, output)
    assert.match(output, /A resource generated asynchronous activity after the test ended/)
    assert.match(output, /escaped from its test/)
    assert.match(output, /a later test still runs/)
  })

test('a shared run whose tests pass exits 0', (t) => {
  const { code, output } = runShared(t, `import { test } from 'node:test'
test('awaits its own work', async () => { await new Promise((resolve) => setImmediate(resolve)) })
`)
  assert.equal(code, 0, output)
})
