import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { seekByMonth, summaryCount, type SummaryRow } from '../../src/ledger/ledger-summary.ts'

// Rules of the ledger's summary that a planted mutant once changed without any test noticing (a hand-run mutation
// campaign): each test here fails with that mutant and passes without it.

describe('where a deep page starts: the month an offset lies in', () => {
  // January has 10 matches (offsets 0-9), February 5 (offsets 10-14); offset 15 is the first undated match.
  const months = [{ month: '2021-01', count: 10 }, { month: '2021-02', count: 5 }]

  test('offset 10, the eleventh match, is February\'s first: ten matches come before it', () => {
    assert.deepEqual(seekByMonth(months, false, 9), { month: '2021-01', skipped: 0 })
    assert.deepEqual(seekByMonth(months, false, 10), { month: '2021-02', skipped: 10 })
  })

  test('newest first, offset 5 is January\'s first (February\'s five come before it)', () => {
    assert.deepEqual(seekByMonth(months, true, 4), { month: '2021-02', skipped: 0 })
    assert.deepEqual(seekByMonth(months, true, 5), { month: '2021-01', skipped: 5 })
  })

  test('past the 15 dated matches the offset lies among the undated: offset 15 is the first of them', () => {
    assert.deepEqual(seekByMonth(months, false, 15), { undatedOffset: 0 })
    assert.deepEqual(seekByMonth(months, true, 17), { undatedOffset: 2 })
  })
})

describe('counting by month: date_after and date_before are inclusive days', () => {
  const rows: SummaryRow[] = [
    { registry: 'verra', type: 'retirement', vintage: 2020, month: '2021-01', count: 4 },
    { registry: 'verra', type: 'retirement', vintage: 2020, month: '2021-02', count: 3 },
    { registry: 'verra', type: 'retirement', vintage: 2020, month: null, count: 2 }
  ]

  test('date_before 2021-02-01 takes in February\'s first day: February is cut (counted by the database), not left out',
    () => {
      assert.deepEqual(summaryCount(rows, { dateBefore: '2021-02-01' }),
        { months: [{ month: '2021-01', count: 4 }], partial: ['2021-02'], undated: 0 })
    })

  test('date_after 2021-01-31 takes in January\'s last day: January is cut, February whole', () => {
    assert.deepEqual(summaryCount(rows, { dateAfter: '2021-01-31' }),
      { months: [{ month: '2021-02', count: 3 }], partial: ['2021-01'], undated: 0 })
  })

  test('without a date filter every month is whole and the undated count too', () => {
    assert.deepEqual(summaryCount(rows, {}),
      { months: [{ month: '2021-01', count: 4 }, { month: '2021-02', count: 3 }], partial: [], undated: 2 })
  })
})
