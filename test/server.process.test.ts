import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { test } from 'node:test'
import { REPO_ROOT, tempDir } from './support/files.ts'

test('tonne serve: first start creates the database, loads the bundled catalogue, prints a key, serves, stops on ' +
  'SIGTERM', async (t) => {
  const dataDir = path.join(tempDir(t), 'var')
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'tonne.js'), 'serve'], {
    env: { PATH: process.env['PATH'] ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  t.after(() => child.kill('SIGKILL'))
  let address: string | undefined
  let key: string | undefined
  for await (const line of createInterface({ input: child.stdout })) {
    key ??= /^\s+(tonne_\S+)$/.exec(line)?.[1]
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)
    if (match !== null) { address = match[1]; break }
  }
  assert.ok(address, 'the server reports its address')
  assert.ok(key, 'the first start prints an API key')
  const response = await fetch(`${address}/api/v1/commerce/products/?limit=1`,
    { headers: { authorization: `Bearer ${key}` } })
  assert.equal(response.status, 200)
  assert.equal((await response.json() as { count: number }).count, 736)
  assert.equal((await fetch(`${address}/api/v1/commerce/products/`)).status, 401)
  const exit = once(child, 'exit')
  child.kill('SIGTERM')
  const [code] = await exit
  assert.equal(code, 0)
})
