import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { test } from 'node:test'
import { REPO_ROOT, tempDir } from './helpers.ts'

test('tonne serve: first start creates the database, loads the bundled catalogue, serves, stops on SIGTERM', async (t) => {
  const dataDir = path.join(tempDir(t), 'var')
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'tonne.js'), 'serve'], {
    env: { PATH: process.env['PATH'] ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  t.after(() => child.kill('SIGKILL'))
  let address: string | undefined
  for await (const line of createInterface({ input: child.stdout })) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)
    if (match !== null) { address = match[1]; break }
  }
  assert.ok(address, 'the server reports its address')
  const page = await (await fetch(`${address}/api/v1/commerce/products/?limit=1`)).json() as { count: number }
  assert.equal(page.count, 676)
  const exit = once(child, 'exit')
  child.kill('SIGTERM')
  const [code] = await exit
  assert.equal(code, 0)
})
