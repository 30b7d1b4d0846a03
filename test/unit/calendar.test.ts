import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isCalendarDay } from '../../src/domain/calendar.ts'

// Leap years by the Gregorian rule (every 4th year, not every 100th, again every 400th): 2000 and 2024 have a
// 29 February, 1900 and 2023 do not.

test('real days are calendar days; days past a month\'s end are not', () => {
  assert.equal(isCalendarDay(2021, 6, 30), true)
  assert.equal(isCalendarDay(2021, 6, 31), false)
  assert.equal(isCalendarDay(2021, 12, 31), true)
  assert.equal(isCalendarDay(2026, 2, 30), false)
})

test('29 February only in leap years (2000 and 2024, not 1900 or 2023)', () => {
  assert.equal(isCalendarDay(2024, 2, 29), true)
  assert.equal(isCalendarDay(2000, 2, 29), true)
  assert.equal(isCalendarDay(1900, 2, 29), false)
  assert.equal(isCalendarDay(2023, 2, 29), false)
})

test('month 0 or 13, day 0, and fractions are no day', () => {
  assert.equal(isCalendarDay(2024, 0, 1), false)
  assert.equal(isCalendarDay(2024, 13, 1), false)
  assert.equal(isCalendarDay(2024, 1, 0), false)
  assert.equal(isCalendarDay(2024, 1.5, 1), false)
})

test('years below 100 are themselves, not 19xx (Date.UTC would read 0099 as 1999)', () => {
  assert.equal(isCalendarDay(99, 12, 31), true)
  assert.equal(isCalendarDay(4, 2, 29), true)
})
