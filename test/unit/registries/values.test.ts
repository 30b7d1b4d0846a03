import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { isYes, parseDate, parseQuantity, parseYear } from '../../../src/ingest/registries/values.ts'

// The value readers every registry reader shares: a slashed date in the registry's order, quantities with
// thousands separators, vintage years.

describe('parseDate: the registry\'s order decides slashed dates; ISO dates are ISO', () => {
  test('04/05/2024 is 5 April month first and 4 May day first', () => {
    assert.equal(parseDate('04/05/2024', 'month-first'), '2024-04-05')
    assert.equal(parseDate('04/05/2024', 'day-first'), '2024-05-04')
  })

  test('12/31/2019 exists only month first; 31/12/2019 only day first', () => {
    assert.equal(parseDate('12/31/2019', 'month-first'), '2019-12-31')
    assert.equal(parseDate('12/31/2019', 'day-first'), undefined)
    assert.equal(parseDate('31/12/2019', 'day-first'), '2019-12-31')
    assert.equal(parseDate('31/12/2019', 'month-first'), undefined)
  })

  test('ISO dates and date-times ignore the order and drop the time', () => {
    for (const order of ['month-first', 'day-first'] as const) {
      assert.equal(parseDate('2024-04-01', order), '2024-04-01')
      assert.equal(parseDate('2026-04-13T12:35:58.842275', order), '2026-04-13')
      assert.equal(parseDate('2019-03-07T18:33:46.000Z', order), '2019-03-07')
      assert.equal(parseDate('3/24/2026 9:08:01 PM', 'month-first'), '2026-03-24')
    }
  })

  test('a day that does not exist is no date (2023-02-30, 29 February of a common year); 2024-02-29 is', () => {
    assert.equal(parseDate('2023-02-30', 'day-first'), undefined)
    assert.equal(parseDate('29/02/2023', 'day-first'), undefined)
    assert.equal(parseDate('2/29/2024', 'month-first'), '2024-02-29')
    assert.equal(parseDate('2024-13-01', 'day-first'), undefined)
  })

  test('blank is null (the row does not say); anything else is undefined', () => {
    assert.equal(parseDate('  ', 'day-first'), null)
    assert.equal(parseDate('yesterday', 'day-first'), undefined)
    assert.equal(parseDate('2024/04/01', 'day-first'), undefined)
  })
})

describe('parseQuantity and parseYear', () => {
  test('thousands separators only in groups of three; blank is null; other text undefined', () => {
    assert.equal(parseQuantity('1,454,054'), 1454054)
    assert.equal(parseQuantity('550369.0'), 550369)
    assert.equal(parseQuantity('1,45'), undefined)
    assert.equal(parseQuantity(''), null)
    assert.equal(parseQuantity('n/a'), undefined)
  })

  test('vintage years from 1900 to 2100, written "2024" or "2024.0"', () => {
    assert.equal(parseYear('2024.0'), 2024)
    assert.equal(parseYear('1899'), undefined)
    assert.equal(parseYear('20245'), undefined)
  })
})

describe('isYes: the registries\' eligibility flags', () => {
  test('Yes, Y, True and 1 in any case and spacing are yes; No, blank, 0 and other words are not', () => {
    for (const value of ['Yes', 'YES', 'yes', ' y ', 'Y', 'True', 'TRUE', 'true', '1']) {
      assert.equal(isYes(value), true, value)
    }
    for (const value of ['No', 'N', 'False', '0', '', 'Yes, pending', 'eligible']) {
      assert.equal(isYes(value), false, value)
    }
  })
})

describe('parseYear: a vintage from 1900 to 2100', () => {
  test('1900 and 2100 are years, as "2024.0" is 2024; 1899, 2101 and 24 are not', () => {
    assert.equal(parseYear('1900'), 1900)
    assert.equal(parseYear('2100'), 2100)
    assert.equal(parseYear(' 2024.0 '), 2024)
    for (const text of ['1899', '2101', '24', '2024.5', '']) assert.equal(parseYear(text), undefined, text)
  })

  test('an ISO date may write its month and day with one digit: 2024-4-1 is 1 April', () => {
    assert.equal(parseDate('2024-4-1', 'day-first'), '2024-04-01')
    assert.equal(parseDate('2024-004-01', 'day-first'), undefined)
  })
})
