import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { textProblem } from '../../src/ingest/import-text.ts'

// The import format's text limits as docs/api.md ("Import format") states them, at the edge: the limit passes,
// one character more is refused, naming the field. Paths use [] for an element of a list.
const LIMITS: Array<[string, number]> = [
  ['external_id', 200], ['symbol', 200], ['location', 200], ['name', 500], ['project_developer', 500],
  ['images[].title', 500], ['url', 2000], ['images[].url', 2000], ['short_description', 5000],
  ['co_benefits', 20_000], ['description', 200_000], ['protocol[]', 600], ['status', 100], ['category', 100],
  ['project_type', 200], ['protocol_version', 200], ['transactions[].identity', 500],
  ['transactions[].beneficiary', 2000], ['transactions[].reason', 2000], ['transactions[].note', 10_000],
  ['transactions[].account', 2000], ['transactions[].serials', 2000], ['source[].file', 500],
  ['transactions[].source.file', 500], ['sdgs[].name', 500]
]

/** A record holding `text` at `path` ("transactions[].source.file": transactions[0].source.file). */
function place (path: string, text: string): unknown {
  const [head = '', ...rest] = path.split('.')
  const inner = rest.length === 0 ? text : place(rest.join('.'), text)
  return head.endsWith('[]') ? { [head.slice(0, -2)]: [inner] } : { [head]: inner }
}

describe('import text limits (docs/api.md)', () => {
  for (const [path, limit] of LIMITS) {
    test(`${path}: ${limit} characters pass, ${limit + 1} are refused`, () => {
      assert.equal(textProblem(place(path, 'a'.repeat(limit))), undefined)
      const problem = textProblem(place(path, 'a'.repeat(limit + 1)))
      assert.equal(problem?.field, path.replaceAll('[]', '[0]'))
      assert.match(problem?.message ?? '', new RegExp(`takes at most ${limit}$`))
    })
  }
})
