import assert from 'node:assert/strict'
import { test } from 'node:test'
import { tempDir } from '../support/files.ts'
import { startServerProcess } from '../support/server-process.ts'

interface Logged {
  msg: string
  memory?: {
    limitMb?: number,
    source?: string,
    readWorkers: number,
    heapLimitMb: number,
    v8Flags: string[],
    explicit: string[]
  }
}

// What only a process shows: V8 takes heap sizes as it starts, so `tonne serve` must start with them. The choices
// themselves are unit-tested in test/sizing.test.ts.
test('tonne serve under a memory limit starts with the V8 heap sized for it, logs its choices, and keeps the ' +
  'operator\'s own settings', { timeout: 180_000 }, async (t) => {
  const server = await startServerProcess(t, {
    DATA_DIR: tempDir(t),
    CREATE_INITIAL_API_KEY: 'false',
    LOAD_BUNDLED_CATALOGUE: 'false',
    MEMORY_LIMIT_MB: '160',
    SQLITE_READ_WORKERS: '2',
    NODE_OPTIONS: '--max-semi-space-size=4'
  })
  // Logged before the server listens, and startServerProcess waits for that.
  const line = server.output.find((text) => text.includes('memory limit'))
  assert.ok(line, 'the start logs its memory limit and choices')
  const logged = JSON.parse(line) as Logged
  assert.match(logged.msg, /sized for a memory limit of 160 MB \(MEMORY_LIMIT_MB\)/)
  const memory = logged.memory!
  assert.equal(memory.limitMb, 160)
  // The heap limit V8 reports, not the flag asked for: without the re-start it would be V8's default (GBs here).
  assert.ok(memory.heapLimitMb < 160, `V8 heap limit ${memory.heapLimitMb} MB`)
  assert.ok(memory.v8Flags.some((flag) => flag.startsWith('--max-old-space-size=')))
  assert.ok(memory.v8Flags.includes('--no-allocation-site-pretenuring'))
  // The operator's flag (NODE_OPTIONS) and setting won over the sizing's.
  assert.deepEqual(memory.v8Flags.filter((flag) => flag.startsWith('--max-semi-space-size')),
    ['--max-semi-space-size=4'])
  assert.equal(memory.readWorkers, 2)
  assert.deepEqual(memory.explicit, ['SQLITE_READ_WORKERS'])
  assert.equal((await fetch(`${server.url}/health/live`)).status, 200)
  assert.equal(await server.stop(), 0)
})
