import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { cercarbono } from '../../../src/ingest/registries/cercarbono.ts'
import { ledger, perVintage, readRows } from './read-rows.ts'

// Cercarbono (EcoRegistry) writes ISO dates; the reader takes a slashed date day first (Colombia's order). A
// serial's vintage is the end year of its "start / end" period, as OffsetsDB reads it; retirements are ranges of
// a serial, named by the serial's project code.

const issuance = (values: Record<string, string>) => ({
  serial: 'CDC_1_1_1_321_14_1',
  issued_quantity: '62740',
  issuance_date: '2019-03-07T18:33:46.000Z',
  vintage_of_credits: '2010-01-01 / 2018-09-30',
  is_buffer: 'False',
  ...values
})

describe('Cercarbono reader: date order (day first) and type mapping', () => {
  test('an issued serial is an issuance of its period\'s end year, dated by its ISO issuance date', () => {
    const read = readRows(cercarbono, 'issuances', [issuance({})])
    assert.deepEqual(ledger(read.draft('CDC-1')), [['issuance', '2019-03-07', 2018, 62740]])
    assert.deepEqual(perVintage(read.draft('CDC-1')), { 2018: [62740, null] })
  })

  test('a slashed issuance date is read day first: 05/04/2019 is 5 April', () => {
    const read = readRows(cercarbono, 'issuances', [issuance({ issuance_date: '05/04/2019' })])
    assert.deepEqual(ledger(read.draft('CDC-1')), [['issuance', '2019-04-05', 2018, 62740]])
  })

  test('a serial whose period does not read is left out, with a warning', () => {
    const read = readRows(cercarbono, 'issuances', [issuance({ vintage_of_credits: '2010-01-01' })])
    assert.equal(read.draft('CDC-1').transactions(), undefined)
    assert.equal(read.warnings.length, 1)
  })

  test('a serial whose quantity does not read, or is negative, is left out, with a warning; 0 issues nothing', () => {
    for (const quantity of ['many', '-5', '']) {
      const read = readRows(cercarbono, 'issuances', [issuance({ issued_quantity: quantity })])
      assert.equal(read.draft('CDC-1').transactions(), undefined, quantity)
      assert.match(read.warnings[0]?.reason ?? '', /has no readable vintage or quantity; left out/, quantity)
    }
    const zero = readRows(cercarbono, 'issuances', [issuance({ issued_quantity: '0' })])
    assert.deepEqual([ledger(zero.draft('CDC-1')), zero.warnings], [[], []])
  })

  test('a buffer serial is issued too; a revised serial (CDC_R_16_…) names project CDC-16', () => {
    const read = readRows(cercarbono, 'issuances', [issuance({ serial: 'CDC_R_16_2_1', is_buffer: 'True' })])
    assert.deepEqual(ledger(read.draft('CDC-16')), [['issuance', '2019-03-07', 2018, 62740]])
  })

  test('the retirement export\'s rows are retirements of the year given, dated, and add to retired', () => {
    const read = readRows(cercarbono, 'retirements', [{
      project_name: 'Carbono Agroporvanda',
      project_id: '1',
      serial: 'CDC_1_1_1_321_14_1_2009',
      vintage: '2009',
      certificate_destination: 'Voluntary compensation',
      end_user: 'Reciclene S.A.S',
      date: '2022-02-24 20:20:59',
      quantity: '546',
      from: '4426',
      to: '4971'
    }, {
      project_id: '1',
      serial: 'CDC_1_1_1_321_14_1_2009',
      vintage: '2009',
      date: '03/02/2022',
      quantity: '4',
      from: '4972',
      to: '4975'
    }])
    assert.deepEqual(ledger(read.draft('CDC-1')),
      [['retirement', '2022-02-24', 2009, 546], ['retirement', '2022-02-03', 2009, 4]])
    assert.deepEqual(perVintage(read.draft('CDC-1')), { 2009: [null, 550] })
  })
})

describe('Cercarbono reader: a serial\'s global goals are the project\'s SDGs', () => {
  test('goals 1 to 17 are kept; 0, 18 and a text are not goals', () => {
    const goals = [1, 17, 0, 18].map((code) => `{'code': ${code}}`).join(', ')
    const serial = "'serial': 'CDC_1_1_1_321_14_1', 'issued_quantity': 10, 'issuance_date': '2019-03-07', " +
      "'vintage_of_credits': '2010-01-01 / 2018-09-30', 'is_buffer': False, 'elegible': []"
    const serials = `[{${serial}, 'global_goals': [${goals}, {'code': 'x'}]}]`
    const read = readRows(cercarbono, 'projects', [{ code: 'CDC-1', name: 'A project', serials }])
    assert.deepEqual(read.draft('CDC-1').sdgs(), [1, 17])
  })

  test('a project code in lower case is the same project (cdc-1 is CDC-1)', () => {
    const read = readRows(cercarbono, 'projects', [{ code: 'cdc-1', name: 'A project' }])
    assert.equal(read.draft('CDC-1').fields().symbol, 'CDC-1')
    assert.deepEqual(read.skipped, [])
  })
})
