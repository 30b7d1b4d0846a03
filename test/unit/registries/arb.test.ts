import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { arb } from '../../../src/ingest/registries/arb.ts'
import { ledger, perVintage, readRows, sampleRows } from './read-rows.ts'

// CARB's issuance table (nc-arboc_issuance_sheet3) writes dates month first, as US agencies do ("12/31/2019").
// Each row is one issuance to an ACR, CAR or Verra project, with the credits retired from it by column.

const issuance = sampleRows({
  'OPR Project ID': 'CAR1011',
  'Offset Project Name': 'Forest project',
  'Offset Project Operator': 'Operator',
  'Project Type': 'U.S. Forest',
  'Reporting Period Start Date': '1/1/2019',
  'Reporting Period End Date': '12/31/2019',
  Vintage: '2019',
  'ARB Offset Credits Issued': '1,000',
  'Issuance Date': '4/5/2020',
  'CARB Issuance ID': 'CAFR1011-A'
})

describe('CARB reader: date order (month first) and type mapping', () => {
  test('Issuance Date is read month first: 4/5/2020 is 5 April (M09: day first would make it 4 May)', () => {
    const read = readRows(arb, 'issuances', [issuance({})])
    assert.deepEqual(ledger(read.draft('CAR1011')), [['issuance', '2020-04-05', 2019, 1000]])
    assert.deepEqual(read.warnings, [])
  })

  test('Issuance Date 12/31/2020 is 31 December, not a day that does not exist', () => {
    const read = readRows(arb, 'issuances', [issuance({ 'Issuance Date': '12/31/2020' })])
    assert.deepEqual(ledger(read.draft('CAR1011')), [['issuance', '2020-12-31', 2019, 1000]])
    assert.deepEqual(read.warnings, [])
  })

  test('Reporting Period dates are read month first: 12/31/2019 is a date, not a warning', () => {
    const read = readRows(arb, 'issuances', [issuance({ 'Reporting Period End Date': '12/31/2019' })])
    assert.deepEqual(read.warnings, [])
    const dayFirst = readRows(arb, 'issuances', [issuance({ 'Reporting Period End Date': '31/12/2019' })])
    assert.equal(dayFirst.warnings.length, 1)
    assert.match(dayFirst.warnings[0]!.reason, /31\/12\/2019/)
  })

  test('retired columns are retirements of the vintage, undated; issued credits are the issuance', () => {
    const read = readRows(arb, 'issuances', [issuance({
      'Retired Voluntarily': '100',
      'Retired 1st Compliance Period (CA)': '0',
      'Retired for Compliance in Quebec': '25'
    })])
    assert.deepEqual(ledger(read.draft('CAR1011')), [
      ['issuance', '2020-04-05', 2019, 1000], ['retirement', null, 2019, 100], ['retirement', null, 2019, 25]
    ])
    assert.deepEqual(perVintage(read.draft('CAR1011')), { 2019: [1000, 125] })
  })

  test('a retired column that is no quantity is reported and not counted; the row\'s other columns still count', () => {
    const read = readRows(arb, 'issuances', [issuance({
      'Retired Voluntarily': 'n/a',
      'Retired 1st Compliance Period (CA)': '-5',
      'Retired for Compliance in Quebec': '25'
    })])
    // The issuance and the readable retirement are kept, so the row is not reported as skipped.
    assert.deepEqual(read.skipped, [])
    assert.deepEqual(ledger(read.draft('CAR1011')), [
      ['issuance', '2020-04-05', 2019, 1000], ['retirement', null, 2019, 25]
    ])
    assert.deepEqual(read.warnings.map((w) => [w.line, w.field, w.reason]), [
      [2, 'transactions.quantity', 'Retired Voluntarily "n/a" is not a number: not counted'],
      [2, 'transactions.quantity', 'Retired 1st Compliance Period (CA) is -5: not counted']
    ])
  })

  test('a Verra number names the Verra project; anything else is skipped', () => {
    const read = readRows(arb, 'issuances',
      [issuance({ 'OPR Project ID': '1234' }), issuance({ 'OPR Project ID': 'X9' })])
    assert.ok(read.drafts.find('VCS1234') !== undefined)
    assert.equal(read.skipped.length, 1)
  })

  test('a project id in lower case is the same project (car1011 is CAR1011)', () => {
    const read = readRows(arb, 'issuances', [issuance({ 'OPR Project ID': 'car1011' })])
    assert.deepEqual(perVintage(read.draft('CAR1011')), { 2019: [1000, null] })
    assert.deepEqual(read.skipped, [])
  })
})
