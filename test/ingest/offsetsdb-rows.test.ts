import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  creditDigest, creditOf, isoDate, list, projectOf, targetOf
} from '../../src/ingest/offsetsdb/offsetsdb-rows.ts'

// OffsetsDB's values as CSV writes them and as Parquet gives them read to the same fields (issue 33, item 1).

describe('OffsetsDB rows', () => {
  test('CSV text and Parquet values read alike', () => {
    assert.equal(isoDate('2021-03-04 00:00:00+00:00'), '2021-03-04')
    assert.equal(isoDate(new Date('2021-03-04T00:00:00Z')), '2021-03-04')
    assert.equal(isoDate('not a date'), null)
    assert.deepEqual(list("['vm0042', 'vm0048']"), ['vm0042', 'vm0048'])
    assert.deepEqual(list(['vm0042', 'vm0048']), ['vm0042', 'vm0048'])
    assert.deepEqual(list('[]'), [])
    assert.deepEqual(list(''), [])
    const csv = creditOf({
      project_id: 'VCS1',
      quantity: '10.0',
      vintage: '2015',
      transaction_type: 'retirement',
      transaction_date: '2016-01-02 00:00:00+00:00',
      retirement_note: ''
    })
    const parquet = creditOf({
      project_id: 'VCS1',
      quantity: 10,
      vintage: 2015n,
      transaction_type: 'retirement',
      transaction_date: new Date('2016-01-02T00:00:00Z'),
      retirement_note: null
    })
    assert.deepEqual(csv, parquet)
    assert.equal(creditDigest(csv as Exclude<typeof csv, string>), creditDigest(parquet as Exclude<typeof csv, string>))
    const project = projectOf({ project_id: 'GLD5', registry: 'gold-standard', name: 'X', is_compliance: 'False' })
    assert.equal(typeof project === 'string' ? project : project.isCompliance, false)
  })

  test('a vintage is a whole four-digit year; anything else is no vintage, not a refused row', () => {
    const vintage = (value: unknown) => {
      const credit = creditOf({ project_id: 'VCS1', quantity: '1', transaction_type: 'issuance', vintage: value })
      return typeof credit === 'string' ? credit : credit.vintage
    }
    assert.equal(vintage('2015'), 2015)
    assert.equal(vintage(2015n), 2015)
    assert.equal(vintage('1000'), 1000)
    assert.equal(vintage('9999'), 9999)
    for (const none of ['', '999', '10000', '2015.5', 'x', null]) assert.equal(vintage(none), null, String(none))
  })

  test('rows that cannot be used say why', () => {
    assert.match(String(creditOf({ project_id: 'VCS1', quantity: '', transaction_type: 'issuance' })), /quantity/)
    assert.match(String(creditOf({ project_id: 'VCS1', quantity: '1', transaction_type: 'transfer' })), /transfer/)
    assert.equal(projectOf({ name: 'no id' }), 'no project_id')
  })

  test('ids go where Tonne\'s own readers put them', () => {
    assert.equal(targetOf('GLD1234', 'gold-standard').externalId, 'GS1234')
    assert.equal(targetOf('ISO17', undefined).registry.name_id, 'ISOMETRIC')
    assert.equal(targetOf('ISO17', undefined).externalId, '17')
    assert.equal(targetOf('VCS9', undefined).registry.name_id, 'VERRA')
    assert.equal(targetOf('XYZ1', 'puro-earth').registry.name_id, 'OFFSETSDB_PURO_EARTH')
  })
})
