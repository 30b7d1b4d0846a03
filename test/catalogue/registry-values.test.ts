import assert from 'node:assert/strict'
import { test } from 'node:test'
import { protocolVersion } from '../../src/ingest/registries/registry.ts'
import { fullYear, parseDate } from '../../src/ingest/registries/values.ts'

// Reading registry values (pure): two-digit years as older downloads write them, and methodology versions.

test('two-digit years are dates: 00-68 are 2000-2068, 69-99 are 1969-1999 (POSIX %y)', () => {
  assert.equal(parseDate('8/2/06', 'month-first'), '2006-08-02')
  assert.equal(parseDate('8/2/06', 'day-first'), '2006-02-08')
  assert.equal(parseDate('3/19/26 9:08 PM', 'month-first'), '2026-03-19')
  assert.equal(parseDate('12/31/68', 'month-first'), '2068-12-31')
  assert.equal(parseDate('1/1/69', 'month-first'), '1969-01-01')
  assert.equal(parseDate('2/29/23', 'month-first'), undefined, 'a day that does not exist')
  assert.equal(parseDate('2/29/24', 'month-first'), '2024-02-29')
  assert.equal(parseDate('8/2/6', 'month-first'), undefined, 'one digit is no year')
  assert.deepEqual([0, 68, 69, 99].map(fullYear), [2000, 2068, 1969, 1999])
})

test('a methodology\'s version as the registry writes it', () => {
  assert.equal(protocolVersion('GS TPDDTEC V4.0: REDUCED EMISSIONS FROM COOKING AND HEATING'), 'V4.0')
  assert.equal(protocolVersion('Improved Forest Management Version 2.1'), 'Version 2.1')
  assert.equal(protocolVersion('Forestry - MX - Version 3.0'), 'Version 3.0')
  assert.equal(protocolVersion('Livestock - ARB Compliance - ARB Compliance Offset Protocol Livestock Projects, ' +
    'November 14, 2014'), 'November 14, 2014')
  assert.equal(protocolVersion('VM0007'), undefined)
  assert.equal(protocolVersion('AMS-II.G. Energy Efficiency Measures'), undefined)
})
