import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { CLIENT_TYPES_FILE, clientTypesText } from '../../scripts/generate-client-types.ts'
import { REPO_ROOT } from '../helpers.ts'

test('client/src/openapi.ts is exactly what `npm run client:generate` writes from the current OpenAPI document',
  async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8')
    assert.ok(committed === await clientTypesText(),
      'client/src/openapi.ts is stale: run `npm run client:generate` and commit the result')
  })

test('the client uses only what browsers also have (no node: modules, no packages)', () => {
  const folder = path.join(REPO_ROOT, 'client', 'src')
  for (const file of readdirSync(folder)) {
    const text = readFileSync(path.join(folder, file), 'utf8')
    for (const [, specifier] of text.matchAll(/\bfrom\s+'([^']+)'/g)) {
      assert.ok(specifier!.startsWith('./'), `${file} imports ${specifier}`)
    }
    assert.doesNotMatch(text, /\bprocess\.|\bBuffer\b|\brequire\(/, `${file} uses a Node.js global`)
  }
})
