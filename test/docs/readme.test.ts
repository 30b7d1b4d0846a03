import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { REPO_ROOT } from '../support/files.ts'

// Issue 15, finding 16: a newcomer learns the explorer's address from the README's quick start (and from the
// start-up log: test/server.process.test.ts).

test('the README\'s quick start gives the explorer\'s address', () => {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')
  const start = readme.indexOf('## Quick start')
  assert.ok(start >= 0, 'the README has a quick start')
  const quickStart = readme.slice(start, readme.indexOf('\n## ', start + 1))
  assert.match(quickStart, /explorer[^\n]*http:\/\/127\.0\.0\.1:3000\/(?!docs)/i)
})
