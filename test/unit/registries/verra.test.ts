import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { verra } from '../../../src/ingest/registries/verra.ts'
import { ledger, perVintage, readRows, sampleRows } from './read-rows.ts'

// Verra writes slashed dates day first ("31/12/2019", as its web export and OffsetsDB read them) and does not tell
// retirements from cancellations: a block with a Retirement/Cancellation Date is retired (docs/registries.md).

const block = sampleRows({
  ID: '1340',
  Name: 'Bale Mountains Eco-region REDD+ project',
  'Country/Area': 'Kenya',
  'Project Type': 'Agriculture Forestry and Other Land Use',
  Methodology: 'VM0015',
  'Vintage Start': '01/01/2019',
  'Vintage End': '31/12/2019',
  'Total Vintage Quantity': '1,000',
  'Quantity Issued': '400',
  'Issuance Date': '05/04/2021',
  'Serial Number': '',
  'Retirement/Cancellation Date': ''
})

describe('Verra reader: date order (day first) and type mapping', () => {
  test('Vintage End is read day first: 31/12/2019 is vintage 2019 (M06: month first would skip the row)', () => {
    const read = readRows(verra, 'transactions', [block({})])
    assert.deepEqual(read.skipped, [])
    assert.deepEqual(perVintage(read.draft('VCS1340')), { 2019: [1000, 0] })
    assert.deepEqual(ledger(read.draft('VCS1340')), [['issuance', '2021-04-05', 2019, 1000]])
  })

  test('Vintage End 13/01/2020 is 13 January: vintage 2020', () => {
    const read = readRows(verra, 'transactions',
      [block({ 'Vintage Start': '14/01/2019', 'Vintage End': '13/01/2020' })])
    assert.deepEqual(read.skipped, [])
    assert.deepEqual(perVintage(read.draft('VCS1340')), { 2020: [1000, 0] })
  })

  test('a Vintage End that is no date skips the row, saying why', () => {
    const read = readRows(verra, 'transactions', [block({ 'Vintage End': '12/31/2019' })])
    assert.equal(read.skipped.length, 1)
    assert.match(read.skipped[0]!.reason, /Vintage End/)
    assert.equal(read.drafts.find('VCS1340'), undefined)
  })

  test('Issuance Date and Retirement/Cancellation Date are read day first (05/04/2021 is 5 April)', () => {
    const read = readRows(verra, 'transactions', [block({
      'Serial Number': '19385-941467007-941467431-VCS-VCU',
      'Retirement/Cancellation Date': '02/03/2022',
      'Retirement Beneficiary': 'Acme'
    })])
    assert.deepEqual(ledger(read.draft('VCS1340')),
      [['issuance', '2021-04-05', 2019, 1000], ['retirement', '2022-03-02', 2019, 400]])
  })

  test('Project Registration Date is read day first (01/02/2015 is 1 February)', () => {
    const read = readRows(verra, 'projects', [{
      ID: '5962',
      Name: 'Wastewater',
      Proponent: 'KIS',
      'Project Type': 'Waste handling and disposal',
      Methodology: 'AMS-III.H.',
      'Country/Area': 'India',
      'Project Registration Date': '01/02/2015'
    }])
    assert.equal(read.draft('VCS5962').fields().date, '2015-02-01')
  })

  test('blocks of one vintage period issue its Total Vintage Quantity once; dated blocks are retired', () => {
    const read = readRows(verra, 'transactions', [
      block({ 'Quantity Issued': '400', 'Serial Number': 'A', 'Retirement/Cancellation Date': '02/03/2022' }),
      block({ 'Quantity Issued': '250', 'Serial Number': 'B', 'Retirement/Cancellation Date': '' }),
      block({ 'Quantity Issued': '350', 'Serial Number': 'C', 'Retirement/Cancellation Date': '10/03/2022' })
    ])
    assert.deepEqual(perVintage(read.draft('VCS1340')), { 2019: [1000, 750] })
    assert.deepEqual(ledger(read.draft('VCS1340')).map(([type, , , quantity]) => [type, quantity]),
      [['issuance', 1000], ['retirement', 400], ['retirement', 350]])
  })

  test('a dated block of 0 credits retires nothing and adds no transaction', () => {
    const read = readRows(verra, 'transactions', [block({
      'Quantity Issued': '0', 'Serial Number': 'A', 'Retirement/Cancellation Date': '02/03/2022'
    })])
    assert.deepEqual(ledger(read.draft('VCS1340')), [['issuance', '2021-04-05', 2019, 1000]])
  })

  test('a block without a total or a retirement date says its vintage, with nothing retired', () => {
    const read = readRows(verra, 'transactions', [block({ 'Total Vintage Quantity': '', 'Quantity Issued': '400' })])
    assert.deepEqual(ledger(read.draft('VCS1340')), [])
    assert.deepEqual(perVintage(read.draft('VCS1340')), { 2019: [null, 0] })
  })

  test('a period of 1 credit issues 1', () => {
    const read = readRows(verra, 'transactions', [block({ 'Total Vintage Quantity': '1', 'Quantity Issued': '1' })])
    assert.deepEqual(ledger(read.draft('VCS1340')), [['issuance', '2021-04-05', 2019, 1]])
  })
})
