import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { isometric } from '../../../src/ingest/registries/isometric.ts'
import { ledger, readFiles } from './read-rows.ts'

// Isometric's API writes ISO date-times (2026-04-09T18:21:22.047712Z); the reader takes a slashed date day
// first. A credit's vintage is the year it was sequestered, as OffsetsDB gives it; issuances and retirements name
// the project by its API id, so they need the projects export in the same import.

const PROJECT = {
  id: 'prj_1',
  name: 'Biochar project',
  short_code: 'TS26',
  protocol_slug: 'biochar',
  pathway: 'biochar',
  status: 'active',
  crediting_period_start: '2024-02-01',
  'issued_credits_total.credits': '1,000',
  'retired_credits_total.credits': '531'
}

describe('Isometric reader: date order (ISO, else day first) and type mapping', () => {
  test('issuances and retirements: dated by their ISO date-time, vintage the year sequestered', () => {
    const read = readFiles(isometric, [
      { kind: 'projects', rows: [PROJECT] },
      {
        kind: 'issuances',
        rows: [{
          id: 'iss_1',
          issued_at: '2026-03-01T10:00:00Z',
          project_id: 'prj_1',
          'credit_batch_size_total.credits': '1000',
          sequestered_on: '2025-11-30'
        }]
      },
      {
        kind: 'retirements',
        rows: [{
          retirement_id: 'ret_1',
          retired_at: '2026-04-09T18:21:22.047712Z',
          project_id: 'prj_1',
          'credit_batch_size_total.credits': '531.0',
          sequestered_on: '2026-01-22',
          purposes: "['corporate_targets']"
        }]
      }
    ])
    assert.deepEqual(read.skipped, [])
    assert.deepEqual(ledger(read.draft('TS26')),
      [['issuance', '2026-03-01', 2025, 1000], ['retirement', '2026-04-09', 2026, 531]])
  })

  test('the project export\'s totals are the registry\'s own; its crediting start is read day first', () => {
    const rows = [{ ...PROJECT, crediting_period_start: '01/02/2024' }]
    const read = readFiles(isometric, [{ kind: 'projects', rows }])
    const draft = read.draft('TS26')
    assert.equal(draft.fields().date, '2024-02-01')
    assert.deepEqual([draft.credits()?.issued, draft.credits()?.retired], [1000, 531])
  })

  test('a short code in lower case is the same project (ts26 is TS26)', () => {
    const read = readFiles(isometric, [{ kind: 'projects', rows: [{ ...PROJECT, short_code: 'ts26' }] }])
    assert.equal(read.draft('TS26').fields().symbol, 'ISO-TS26')
  })

  test('a short code is 2 to 12 letters or digits: 1 and 13 are no code', () => {
    const read = (code: string) =>
      readFiles(isometric, [{ kind: 'projects', rows: [{ ...PROJECT, short_code: code }] }])
    for (const code of ['T2', 'ABCDEF123456']) assert.deepEqual(read(code).skipped, [], code)
    for (const code of ['T', 'ABCDEF1234567', 'TS-26']) {
      assert.match(read(code).skipped[0]?.reason ?? '', /is not an Isometric project code/, code)
    }
  })

  test('a negative total is no total: left empty, with a warning', () => {
    const rows = [{ ...PROJECT, 'retired_credits_total.credits': '-5' }]
    const read = readFiles(isometric, [{ kind: 'projects', rows }])
    assert.deepEqual([read.draft('TS26').credits()?.issued, read.draft('TS26').credits()?.retired], [1000, null])
    assert.deepEqual(read.warnings.map((w) => [w.field, w.reason]), [['credits.retired', '-5 is negative']])
  })

  test('a ledger row of a project the import does not list is skipped', () => {
    const read = readFiles(isometric, [{
      kind: 'retirements',
      rows: [{
        retirement_id: 'ret_2', retired_at: '2026-04-09', project_id: 'prj_9', 'credit_batch_size_total.credits': '5'
      }]
    }])
    assert.equal(read.skipped.length, 1)
    assert.equal(read.drafts.all().length, 0)
  })
})
