import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { REPO_ROOT } from '../helpers.ts'

const CATALOGUE = path.join(REPO_ROOT, 'src', 'catalogue')
/** The catalogue's HTTP layer: routes, their response handling and schemas. Everything else is domain code. */
const HTTP_LAYER = /\.(routes|responses|schemas)\.ts$/

test('catalogue domain code neither imports src/http nor throws HTTP errors', () => {
  const files = readdirSync(CATALOGUE, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !HTTP_LAYER.test(f))
  assert.ok(files.includes('projects.service.ts') && files.includes('project-list.repository.ts'))
  for (const file of files) {
    const text = readFileSync(path.join(CATALOGUE, file), 'utf8')
    for (const [, specifier] of text.matchAll(/from '([^']+)'/g)) {
      const target = path.resolve(path.dirname(path.join(CATALOGUE, file)), specifier!)
      assert.ok(!target.startsWith(path.join(REPO_ROOT, 'src', 'http')), `${file} imports ${specifier}`)
    }
    assert.doesNotMatch(text, /\bAppError\b|statusCode|FastifyReply/, `${file} speaks HTTP`)
  }
})
