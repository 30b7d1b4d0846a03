import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isCalendarDay } from '../../src/domain/calendar.ts'

// Leap years by the Gregorian rule (every 4th year, not every 100th, again every 400th): 2000 and 2024 have a
// 29 February, 1900 and 2023 do not.

/** Each rule, with the days (year, month, day) it decides and whether each is a calendar day. */
const RULES: ReadonlyArray<readonly [rule: string, days: ReadonlyArray<readonly [number, number, number, boolean]>]> = [
  ['real days are calendar days; days past a month\'s end are not',
    [[2021, 6, 30, true], [2021, 6, 31, false], [2021, 12, 31, true], [2026, 2, 30, false]]],
  ['29 February only in leap years (2000 and 2024, not 1900 or 2023)',
    [[2024, 2, 29, true], [2000, 2, 29, true], [1900, 2, 29, false], [2023, 2, 29, false]]],
  ['month 0 or 13, day 0, and fractions are no day',
    [[2024, 0, 1, false], [2024, 13, 1, false], [2024, 1, 0, false], [2024, 1.5, 1, false]]],
  ['years below 100 are themselves, not 19xx (Date.UTC would read 0099 as 1999)',
    [[99, 12, 31, true], [4, 2, 29, true]]]
]

for (const [rule, days] of RULES) {
  test(rule, () => {
    for (const [year, month, day, expected] of days) {
      assert.equal(isCalendarDay(year, month, day), expected, `${year}-${month}-${day}`)
    }
  })
}
