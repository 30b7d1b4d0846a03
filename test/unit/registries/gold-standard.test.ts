import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { goldStandard } from '../../../src/ingest/registries/gold-standard.ts'
import { ledger, perVintage, readRows, retiredTotal } from './read-rows.ts'

// Gold Standard's exports write ISO dates; the reader takes a slashed date day first, as Verra's. Its
// retirements export holds retired and cancelled credits, told apart by Credit Status, which it spells both
// "Cancelled" and (US) "Canceled": either is a cancellation, which retires nothing.

const row = (values: Record<string, string>) => ({
  Vintage: '2024',
  'Credit Status': 'Issued',
  Quantity: '1,000',
  GSID: '11603',
  'Project Name': 'Efficient cooking in Kenya',
  'Project Developer': 'Talanton Trust',
  Country: 'Kenya',
  'Project Type': 'Energy Efficiency - Domestic',
  'Issuance Date': '2025-03-31',
  'Retirement Date': '',
  'Serial Number': '',
  ...values
})

const ISSUED = row({ 'Serial Number': 'GS1-1-KE-GS11603-16-2024-1-1000' })

describe('Gold Standard reader: date order (day first) and type mapping', () => {
  test('Issuance Date and Retirement Date are read day first: 05/04/2025 is 5 April', () => {
    const read = readRows(goldStandard, 'retirements', [row({
      'Credit Status': 'Retired', Quantity: '10', 'Issuance Date': '01/02/2025', 'Retirement Date': '05/04/2025'
    })])
    assert.deepEqual(ledger(read.draft('GS11603')), [['retirement', '2025-04-05', 2024, 10]])
  })

  test('ISO dates with a time keep their day (2026-04-13T12:35:58.842275)', () => {
    const read = readRows(goldStandard, 'issuances', [row({ 'Issuance Date': '2026-04-13T12:35:58.842275' })])
    assert.deepEqual(ledger(read.draft('GS11603')), [['issuance', '2026-04-13', 2024, 1000]])
  })

  test('a "Retired" row is a retirement and adds to retired', () => {
    const read = readRows(goldStandard, 'retirements', [row({
      'Credit Status': 'Retired', Quantity: '300', 'Retirement Date': '2025-06-01', 'Serial Number': 'R1'
    })])
    assert.deepEqual(ledger(read.draft('GS11603')), [['retirement', '2025-06-01', 2024, 300]])
    assert.deepEqual(perVintage(read.draft('GS11603')), { 2024: [null, 300] })
  })

  const spellings: Array<[string, string]> =
    [['Cancelled', ''], ['Canceled', ' (M08: the US spelling)'], ['CANCELED', '']]
  for (const [spelling, why] of spellings) {
    test(`a "${spelling}" row is a cancellation and adds nothing to retired${why}`, () => {
      const read = readRows(goldStandard, 'retirements', [row({
        'Credit Status': spelling, Quantity: '200', 'Retirement Date': '2025-06-01', 'Serial Number': 'C1'
      })])
      assert.deepEqual(ledger(read.draft('GS11603')), [['cancellation', '2025-06-01', 2024, 200]])
      assert.equal(retiredTotal(read.draft('GS11603')), 0)
    })
  }

  test('issued, retired and cancelled rows of one import: retired counts only the retirement', () => {
    const read = readRows(goldStandard, 'retirements', [
      row({ 'Credit Status': 'Retired', Quantity: '300', 'Retirement Date': '2025-06-01', 'Serial Number': 'R1' }),
      row({ 'Credit Status': 'Canceled', Quantity: '200', 'Retirement Date': '2025-06-02', 'Serial Number': 'C1' })
    ])
    assert.equal(retiredTotal(read.draft('GS11603')), 300)
  })

  test('the issuances export takes "Issued" rows only; the retirements export neither issued nor pending ones', () => {
    const issued = readRows(goldStandard, 'issuances', [ISSUED, row({ 'Credit Status': 'Retired' })])
    assert.deepEqual(ledger(issued.draft('GS11603')), [['issuance', '2025-03-31', 2024, 1000]])
    assert.deepEqual(perVintage(issued.draft('GS11603')), { 2024: [1000, null] })
    assert.equal(issued.skipped.length, 1)
    const retired = readRows(goldStandard, 'retirements', [row({ 'Credit Status': 'Issued' }),
      row({ 'Credit Status': 'Pending' })])
    assert.equal(retired.drafts.find('GS11603'), undefined)
    assert.equal(retired.skipped.length, 2)
  })
})
