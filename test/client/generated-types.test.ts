import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { generatedFiles } from '../../scripts/generate-client-types.ts'
import { REPO_ROOT } from '../helpers.ts'

test('client/src/openapi.ts, client/src/calculator.ts and the explorer\'s calculator-categories.js are exactly ' +
  'what `npm run client:generate` writes from the current OpenAPI document', async () => {
  const files = await generatedFiles()
  assert.deepEqual(files.map(({ file }) => path.relative(REPO_ROOT, file).split(path.sep).join('/')),
    ['client/src/openapi.ts', 'client/src/calculator.ts', 'src/explorer/public/js/calculator-categories.js'])
  for (const { file, text } of files) {
    assert.ok(readFileSync(file, 'utf8') === text,
      `${path.relative(REPO_ROOT, file)} is stale: run \`npm run client:generate\` and commit the result`)
  }
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
