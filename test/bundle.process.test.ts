import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { utimesSync } from 'node:fs'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { promisify } from 'node:util'
import { REPO_ROOT, tempDir } from './support/files.ts'
import { FIRST_KEY, startServerProcess, written } from './support/server-process.ts'

// The esbuild bundle that `npm ci` makes (scripts/build-bundle.ts) answers as the TypeScript sources do, and
// bin/tonne.js runs it only while it is newer than its sources. Built into a folder of the test's own
// (TONNE_BUNDLE_DIR), so the project's dist/ is never touched.

const run = promisify(execFile)

interface Served { address: string, key: string | undefined, runsFrom: string | undefined, stop: () => Promise<void> }

/** `tonne serve` over dataDir with TONNE_BUNDLE_DIR=bundleDir, until it listens. */
async function serve (t: TestContext, dataDir: string, bundleDir: string): Promise<Served> {
  const server = await startServerProcess(t, { DATA_DIR: dataDir, TONNE_BUNDLE_DIR: bundleDir })
  const stop = async () => { await server.stop() }
  return { address: server.url, key: written(server, FIRST_KEY), runsFrom: written(server, /"runsFrom":"(\w+)"/), stop }
}

const PATHS = [
  '/api/v1/commerce/products/1/',
  '/api/v1/commerce/products/?limit=20&search=forest&offset=10',
  '/api/v1/commerce/products/facets/',
  '/api/v1/commerce/products/geojson/?registry=VERRA',
  '/api/v1/commerce/products/1000000/',
  '/api/v1/commerce/products/?colour=5',
  '/api/v1/co2-calculator/footprint?country_code=DEU',
  '/api/v1/co2-calculator/flight?country_code=DEU&legs=FRA-JFK',
  '/api/v1/co2-calculator/diet?country_code=GBR&diet_form=vegan',
  '/api/v1/co2-calculator/energy?country_code=IND&household_size=3',
  '/openapi.json',
  '/docs',
  '/'
]

/** Each path's status, type and body (without the request's own id, the server's port and the media links' time). */
async function answers (address: string, key: string): Promise<string[]> {
  return await Promise.all(PATHS.map(async (target) => {
    const response = await fetch(`${address}${target}`, { headers: { authorization: `Bearer ${key}` } })
    const body = (await response.text()).replace(/"request_id":"[^"]*"/g, '').replaceAll(address, 'ADDRESS')
      .replace(/expires=\d+&signature=\w+/g, 'SIGNED')
    return `${target} ${response.status} ${response.headers.get('content-type')}\n${body}`
  }))
}

test('the bundle serves what the sources serve; a bundle older than its sources is not run', async (t) => {
  const dir = tempDir(t)
  const bundleDir = path.join(dir, 'dist')
  await run(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build-bundle.ts'), '--outdir', bundleDir])
  const dataDir = path.join(dir, 'var')

  const source = await serve(t, dataDir, 'off')
  assert.equal(source.runsFrom, 'source')
  assert.ok(source.key, 'the first start prints an API key')
  const expected = await answers(source.address, source.key)
  await source.stop()

  const bundle = await serve(t, dataDir, bundleDir)
  assert.equal(bundle.runsFrom, 'bundle')
  const got = await answers(bundle.address, source.key)
  await bundle.stop()
  assert.equal(expected.filter((answer) => / 200 /.test(answer)).length, PATHS.length - 2)
  for (const [index, answer] of got.entries()) assert.equal(answer, expected[index])

  // Built before every source it was made from: stale, so the sources run.
  const past = new Date('2000-01-01T00:00:00Z')
  utimesSync(path.join(bundleDir, 'tonne.js'), past, past)
  const stale = await serve(t, dataDir, bundleDir)
  assert.equal(stale.runsFrom, 'source')
  await stale.stop()
})
