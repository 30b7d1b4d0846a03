import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

// The explorer's map finds a project's country by its ISO 3166-1 numeric code (src/explorer/public/vendor/
// iso-numeric.json, served to the page); the codes must be the ones the service's own country table states.

const ROOT = path.join(import.meta.dirname, '..', '..')

test('the map\'s country codes are the ISO 3166-1 numeric codes of data/countries', () => {
  const lines = readFileSync(path.join(ROOT, 'data/countries/iso3166-un-m49.csv'), 'utf8').trim().split('\n').slice(1)
  const served = JSON.parse(readFileSync(path.join(ROOT, 'src/explorer/public/vendor/iso-numeric.json'), 'utf8')) as
    Record<string, string>
  // Names may hold quoted commas; alpha-2 and the numeric code follow the last quoted name field.
  const codes = lines.map((line) => /^(?:"[^"]*"|[^,]*),([A-Z]{2}),[A-Z]{3},(\d{3}),/.exec(line))
  assert.ok(codes.every((match) => match !== null))
  assert.deepEqual(served, Object.fromEntries(codes.map((match) => [match![1], match![2]])))
})
