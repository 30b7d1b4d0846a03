import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { test } from 'node:test'
import { EXPLORER_DIR } from '../../src/explorer/explorer.routes.ts'
import { buildTestApp } from '../helpers.ts'

test('/ serves the explorer page with a strict CSP of its own; JSON answers are unchanged', async (t) => {
  const { app } = await buildTestApp(t)
  const page = await app.inject('/')
  assert.equal(page.statusCode, 200)
  assert.match(page.headers['content-type'] as string, /^text\/html/)
  const csp = page.headers['content-security-policy'] as string
  const directives = ["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
    "connect-src 'self'"]
  for (const directive of directives) {
    assert.ok(csp.includes(directive), `CSP has ${directive}`)
  }
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/)
  assert.equal(page.headers['x-content-type-options'], 'nosniff', 'helmet\'s headers stay on')
  assert.doesNotMatch(page.body, /<script>|\sstyle=|\son[a-z]+=/, 'no inline script, style or handler')

  const script = await app.inject('/explorer/js/main.js')
  assert.equal(script.statusCode, 200)
  assert.match(script.headers['content-type'] as string, /javascript/)
  assert.equal((await app.inject('/explorer/style.css')).statusCode, 200)
  assert.equal((await app.inject('/explorer/vendor/countries-110m.json')).statusCode, 200)

  const missing = await app.inject('/explorer/nothing.js')
  assert.equal(missing.statusCode, 404)
  assert.equal(missing.json().code, 'not_found')
  assert.equal((await app.inject('/explorer/../explorer.routes.ts')).statusCode, 404,
    'only the public folder is served')

  const json = await app.inject('/api/v1/co2-calculator/ping')
  assert.equal(json.headers['content-security-policy'], undefined)
  const doc = (await app.inject('/openapi.json')).json()
  assert.ok(!('/' in doc.paths) && !Object.keys(doc.paths).some((p) => p.startsWith('/explorer')),
    'hidden from the OpenAPI document')
})

test('the bundled map is world-atlas\'s countries-110m.json, byte for byte, with its source note', () => {
  const require = createRequire(import.meta.url)
  const published = readFileSync(require.resolve('world-atlas/countries-110m.json'))
  assert.ok(readFileSync(path.join(EXPLORER_DIR, 'vendor', 'countries-110m.json')).equals(published))
  const note = readFileSync(path.join(EXPLORER_DIR, 'vendor', 'SOURCE.md'), 'utf8')
  assert.match(note, /Natural Earth/)
  assert.match(note, /ISC/)
})
