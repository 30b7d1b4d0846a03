import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { tempDir } from './support/files.ts'
import { FIRST_KEY, startServerProcess, written } from './support/server-process.ts'

test('tonne serve: first start creates the database, loads the bundled catalogue, prints a key, serves, stops on ' +
  'SIGTERM', async (t) => {
  const dataDir = path.join(tempDir(t), 'var')
  const server = await startServerProcess(t, { DATA_DIR: dataDir })
  const key = written(server, FIRST_KEY)
  assert.ok(key, 'the first start prints an API key')
  const response = await fetch(`${server.url}/api/v1/commerce/products/?limit=1`,
    { headers: { authorization: `Bearer ${key}` } })
  assert.equal(response.status, 200)
  assert.equal((await response.json() as { count: number }).count, 736)
  assert.equal((await fetch(`${server.url}/api/v1/commerce/products/`)).status, 401)
  // Issue 15, finding 16: the start-up log names the explorer's address, where it answers.
  const explorer = /Explorer at (http:\/\/\S+?\/)[;" ]/.exec(await server.line(/Explorer at/))?.[1]
  assert.equal(explorer, `${server.url}/`)
  assert.match(await (await fetch(explorer)).text(), /Tonne/)
  assert.equal(await server.stop(), 0)
})
