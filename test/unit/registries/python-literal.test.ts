import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { parsePythonLiteral } from '../../../src/ingest/registries/python-literal.ts'

// Cercarbono's nested columns and OffsetsDB's lists are Python literals (repr of lists, dicts and strings). The
// reader takes exactly that subset and evaluates nothing; what Python would write must read back as it was.

describe('Python literal reader', () => {
  test('lists, tuples, dicts, numbers, True, False and None', () => {
    assert.deepEqual(parsePythonLiteral("[{'code': 8, 'is_buffer': False, 'name': \"Carbono d'Urabá\"}]"),
      [{ code: 8, is_buffer: false, name: 'Carbono d\'Urabá' }])
    assert.deepEqual(parsePythonLiteral('(1, -2.5, 3e2, .5, True, None, [], {})'),
      [1, -2.5, 300, 0.5, true, null, [], {}])
    assert.deepEqual(parsePythonLiteral('{1: \'one\'}'), { 1: 'one' })
  })

  test('escapes as repr() writes them: \\xe9 and \\u00e9 are é, \\u2013 is an en dash, \\n a new line', () => {
    assert.equal(parsePythonLiteral(String.raw`'Caf\xe9'`), 'Café')
    assert.equal(parsePythonLiteral(String.raw`'Caf\u00e9 \u2013 Bogot\xE1'`), 'Café – Bogotá')
    assert.equal(parsePythonLiteral(String.raw`'a\nb\tc\\d\'e'`), 'a\nb\tc\\d\'e')
    // An escape Python leaves as written stays as written.
    assert.equal(parsePythonLiteral(String.raw`'C:\data'`), String.raw`C:\data`)
  })

  test('a bad \\x or \\u escape, an unterminated string and trailing text are errors, not guesses', () => {
    for (const bad of [String.raw`'\x4'`, String.raw`'\u00e'`, String.raw`'\xzz'`, "'open", '[1, 2] 3', 'eval()']) {
      assert.throws(() => parsePythonLiteral(bad), /at character \d+/, bad)
    }
  })

  test('an error says what was found where: the end of the text, or the character that cannot start a value', () => {
    assert.throws(() => parsePythonLiteral('[1, '), /unexpected end at character 5/)
    assert.throws(() => parsePythonLiteral('[1, 2'), /expected "," or "]" at character 6/)
    assert.throws(() => parsePythonLiteral('[1, x]'), /unexpected "x" at character 5/)
  })

  test('a dict key must be a string or a number; "__proto__" is an ordinary key', () => {
    assert.throws(() => parsePythonLiteral('{[1]: 2}'), /a dict key must be a string or a number/)
    assert.throws(() => parsePythonLiteral('{None: 2}'), /a dict key must be a string or a number/)
    const parsed = parsePythonLiteral("{'__proto__': {'polluted': True}}") as Record<string, unknown>
    assert.deepEqual(Object.keys(parsed), ['__proto__'])
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined)
  })
})
