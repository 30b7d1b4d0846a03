import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Credits, ImportRecord } from '../../src/catalogue/catalogue.schemas.ts'
import { projectCredits, type LedgerSum } from '../../src/ingest/ledger-totals.ts'

// A project's credit totals from its stored ledger (docs/api.md, "Import format"): for each kind the ledger has
// transactions of, the ledger's sums replace the record's; the other kinds keep what the record says.

/** The two fields projectCredits reads; the rest of an import record plays no part. */
const record = (vintages: number[], credits?: Credits): ImportRecord =>
  ({ vintages, ...(credits === undefined ? {} : { credits }) }) as ImportRecord

const sum = (type: LedgerSum['type'], vintage: number | null, quantity: number, firstDate: string | null = null):
LedgerSum => ({ type, vintage, quantity, first_date: firstDate })

const amounts = (credits: ReturnType<typeof projectCredits>) =>
  Object.fromEntries([...credits.vintages].map(([year, a]) => [year, [a.issued, a.retired, a.cancelled]]))

describe('ledger totals', () => {
  test('without a ledger the record\'s totals stand: given, else its vintages\' sum, else null', () => {
    const given = projectCredits(record([2019, 2020], {
      issued: 900,
      retired: null,
      vintages: [{ vintage: 2019, issued: 400, retired: 10 }, { vintage: 2020, issued: 500, retired: 20 }]
    }), [])
    assert.deepEqual(given.totals, { issued: 900, retired: 30, cancelled: null })
    assert.deepEqual(amounts(given), { 2019: [400, 10, null], 2020: [500, 20, null] })
    assert.deepEqual(projectCredits(record([]), []).totals, { issued: null, retired: null, cancelled: null })
  })

  test('a record whose vintages say 0 retired has 0 retired, not an unknown total', () => {
    const credits = projectCredits(record([2019], {
      issued: null, retired: null, vintages: [{ vintage: 2019, issued: 400, retired: 0 }]
    }), [])
    assert.deepEqual(credits.totals, { issued: 400, retired: 0, cancelled: null })
  })

  test('a kind the ledger has replaces the record\'s; the others keep the record\'s', () => {
    const credits = projectCredits(record([2019], {
      issued: 1000, retired: 999, vintages: [{ vintage: 2019, issued: 1000, retired: 999 }]
    }), [sum('retirement', 2019, 300), sum('retirement', 2020, 50)])
    assert.deepEqual(credits.totals, { issued: 1000, retired: 350, cancelled: null })
    assert.deepEqual(credits.years, [2019, 2020])
    assert.deepEqual(amounts(credits), { 2019: [1000, 300, null], 2020: [null, 50, null] })
  })

  test('cancellations are totalled apart and never add to retired', () => {
    const credits = projectCredits(record([2021]), [
      sum('issuance', 2021, 1000), sum('retirement', 2021, 300), sum('cancellation', 2021, 200)
    ])
    assert.deepEqual(credits.totals, { issued: 1000, retired: 300, cancelled: 200 })
    assert.deepEqual(amounts(credits), { 2021: [1000, 300, 200] })
  })

  test('a ledger kind is 0, not unknown, in a vintage that has none of it', () => {
    const credits = projectCredits(record([2018, 2019]), [sum('retirement', 2019, 5)])
    assert.deepEqual(amounts(credits), { 2018: [null, 0, null], 2019: [null, 5, null] })
  })

  test('transactions without a vintage count in the totals, in no vintage', () => {
    const credits = projectCredits(record([]), [sum('issuance', null, 70), sum('issuance', 2022, 30)])
    assert.equal(credits.totals.issued, 100)
    assert.deepEqual(amounts(credits), { 2022: [30, null, null] })
  })

  test('sums carry no binary noise: 0.1 + 0.2 retired is 0.3', () => {
    const credits = projectCredits(record([2020]), [sum('retirement', 2020, 0.1), sum('retirement', 2020, 0.2)])
    assert.equal(credits.totals.retired, 0.3)
    assert.equal(credits.vintages.get(2020)!.retired, 0.3)
  })

  test('a record\'s own vintages carry no binary noise either: 0.1 + 0.2 retired is 0.3 without a ledger', () => {
    const credits = projectCredits(record([2019, 2020], {
      issued: null,
      retired: null,
      vintages: [{ vintage: 2019, issued: null, retired: 0.1 }, { vintage: 2020, issued: null, retired: 0.2 }]
    }), [])
    assert.equal(credits.totals.retired, 0.3)
  })

  test('without a ledger the years are the record\'s, in its order; with one, the record\'s and the ledger\'s, sorted',
    () => {
      assert.deepEqual(projectCredits(record([2021, 2019]), []).years, [2021, 2019])
      assert.deepEqual(projectCredits(record([2021, 2019]), [sum('issuance', 2020, 5)]).years, [2019, 2020, 2021])
    })

  test('first issuance and retirement dates are the earliest dated ones of their type', () => {
    const credits = projectCredits(record([]), [
      sum('issuance', 2020, 1, '2021-05-01'), sum('issuance', 2019, 1, '2020-02-01'), sum('issuance', 2018, 1, null),
      sum('retirement', 2020, 1, '2022-01-01'), sum('cancellation', 2020, 1, '2019-01-01')
    ])
    assert.equal(credits.firstIssuanceDate, '2020-02-01')
    assert.equal(credits.firstRetirementDate, '2022-01-01')
  })
})
