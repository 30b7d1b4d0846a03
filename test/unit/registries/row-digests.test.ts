import assert from 'node:assert/strict'
import { test } from 'node:test'
import { RowDigests } from '../../../src/ingest/registries/row-digests.ts'

// The table of rows already read starts with 1,024 slots and doubles when half full: 5,000 rows make it grow four
// times, and every row must still be found where it was first seen.
test('a repeated row is found at its first line however many rows came between (the table grows)', () => {
  const digests = new RowDigests()
  const rows = Array.from({ length: 5000 }, (_, i) => `${i},Project ${i},India`)
  rows.forEach((row, i) => { assert.equal(digests.seen(row, i + 2), undefined, `row ${i} is new`) })
  rows.forEach((row, i) => { assert.equal(digests.seen(row, 10_000 + i), i + 2, `row ${i} again`) })
  assert.equal(digests.seen('5000,Project 5000,India', 20_000), undefined, 'a row never seen is new')
  // The same text with a change anywhere is another row.
  assert.equal(digests.seen('0,Project 0,India ', 20_001), undefined)
})
