import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { acr, art, car } from '../../../src/ingest/registries/apx.ts'
import type { RegistryDefinition } from '../../../src/ingest/registries/registry.ts'
import { ledger, perVintage, readFiles, readRows, retiredTotal } from './read-rows.ts'

// The APX registries (American Carbon Registry, Climate Action Reserve, ART) write dates month first
// ("1/15/2020", "3/24/2026 9:08:01 PM"; docs/registries.md) and publish issuances, retirements and cancellations
// as three exports: a cancellation export's row is a cancellation, which retires nothing.

interface Layout {
  registry: RegistryDefinition
  id: string
  idColumn: string
  issued: { date: string, quantity: string }
  /** The retirement and cancellation exports' quantity, serial and date columns. */
  ledger: { quantity: string, serial: string, date: string }
  cancelledReason: string
  projectDate: string
  /** The project export's other columns, with a value each. */
  projects: Record<string, string>
}

/** The columns the three registries' exports name alike (docs/registries.md); each layout says where it differs. */
const APX_COLUMNS = {
  idColumn: 'Project ID',
  ledger: { quantity: 'Quantity of Credits', serial: 'Credit Serial Numbers', date: 'Status Effective' },
  cancelledReason: 'Cancellation Reason',
  projectDate: 'Initial Crediting Period Start Date'
}

const LAYOUTS: Layout[] = [{
  ...APX_COLUMNS,
  registry: acr,
  id: 'ACR586',
  issued: { date: 'Date Issued (GMT)', quantity: 'Total Credits Issued' },
  ledger: { ...APX_COLUMNS.ledger, date: 'Status Effective (GMT)' },
  cancelledReason: 'Cancellation Type',
  projects: { 'Project Name': 'Forest', 'Voluntary Status': 'Registered', 'Project Site Country': 'United States' }
}, {
  ...APX_COLUMNS,
  registry: car,
  id: 'CAR1335',
  issued: { date: 'Date Issued', quantity: 'Total Offset Credits Issued' },
  ledger: { ...APX_COLUMNS.ledger, quantity: 'Quantity of Offset Credits', serial: 'Offset Credit Serial Numbers' },
  projectDate: 'Project Registered Date',
  projects: { 'Project Name': 'Nitric acid', 'Project Type': 'Nitric Acid N2O', 'Project Listed Date': '1/2/2012' }
}, {
  ...APX_COLUMNS,
  registry: art,
  id: 'ART130',
  idColumn: 'Program ID',
  issued: { date: 'Date Approved', quantity: 'Credits Verified' },
  projects: { 'Program Name': 'Acre', 'Crediting Program and Standard': 'ART - TREES', Status: 'Listed' }
}]

for (const layout of LAYOUTS) {
  const key = layout.registry.key
  const issuance = (date: string) => ({
    [layout.idColumn]: layout.id, Vintage: '2020', [layout.issued.quantity]: '1,000', [layout.issued.date]: date
  })
  const retirement = (serial: string, quantity: string, date: string) => ({
    [layout.idColumn]: layout.id,
    Vintage: '2020',
    [layout.ledger.serial]: serial,
    [layout.ledger.quantity]: quantity,
    [layout.ledger.date]: date,
    'Retirement Reason': 'Voluntary',
    [layout.cancelledReason]: 'Reversal'
  })

  describe(`${key} reader (APX): date order (month first) and type mapping`, () => {
    test('the issuance date is read month first: 4/5/2021 is 5 April; 12/31/2021 is 31 December', () => {
      const read = readRows(layout.registry, 'issuances', [issuance('4/5/2021'), issuance('12/31/2021')])
      assert.deepEqual(ledger(read.draft(layout.id)),
        [['issuance', '2021-04-05', 2020, 1000], ['issuance', '2021-12-31', 2020, 1000]])
      assert.deepEqual(read.warnings, [])
    })

    test('a date with a time keeps its day (3/24/2026 9:08:01 PM, 2020-01-15 12:00:00)', () => {
      const read = readRows(layout.registry, 'issuances', [issuance('3/24/2026 9:08:01 PM'),
        issuance('2020-01-15 12:00:00')])
      assert.deepEqual(ledger(read.draft(layout.id)).map(([, date]) => date), ['2026-03-24', '2020-01-15'])
    })

    test('a day-first date (31/12/2021) is no date: the field is left empty, with a warning', () => {
      const read = readRows(layout.registry, 'issuances', [issuance('31/12/2021')])
      assert.deepEqual(ledger(read.draft(layout.id)), [['issuance', null, 2020, 1000]])
      assert.equal(read.warnings.length, 1)
    })

    test('the retirement export\'s rows are retirements, dated month first, and add to retired', () => {
      const read = readRows(layout.registry, 'retirements', [retirement('S-1 to 300', '300', '2/3/2022')])
      assert.deepEqual(ledger(read.draft(layout.id)), [['retirement', '2022-02-03', 2020, 300]])
      assert.equal(retiredTotal(read.draft(layout.id)), 300)
    })

    test('the cancellation export\'s rows are cancellations and add nothing to retired', () => {
      const read = readRows(layout.registry, 'cancellations', [retirement('S-301 to 500', '200', '2/4/2022')])
      assert.deepEqual(ledger(read.draft(layout.id)), [['cancellation', '2022-02-04', 2020, 200]])
      assert.equal(retiredTotal(read.draft(layout.id)), 0)
    })

    test(`a lower-case project id (${layout.id.toLowerCase()}) is the registry's ${layout.id}`, () => {
      const read = readRows(layout.registry, 'issuances',
        [{ ...issuance('4/5/2021'), [layout.idColumn]: layout.id.toLowerCase() }])
      assert.deepEqual(read.skipped, [])
      assert.deepEqual(ledger(read.draft(layout.id)), [['issuance', '2021-04-05', 2020, 1000]])
    })

    test('the project export\'s date is read month first (1/2/2012 is 2 January)', () => {
      const read = readRows(layout.registry, 'projects', [{
        [layout.idColumn]: layout.id, ...layout.projects, [layout.projectDate]: '1/2/2012'
      }])
      assert.equal(read.draft(layout.id).fields().date, '2012-01-02')
    })
  })
}

describe('APX ledger of one import', () => {
  test('issued, retired and cancelled credits of a vintage: retired counts the retirement export only', () => {
    const project = { 'Project ID': 'ACR586', Vintage: '2020' }
    const read = readFiles(acr, [
      { kind: 'issuances', rows: [{ ...project, 'Total Credits Issued': '1000', 'Date Issued (GMT)': '1/15/2021' }] },
      { kind: 'retirements', rows: [{ ...project, 'Credit Serial Numbers': 'A', 'Quantity of Credits': '300' }] },
      { kind: 'cancellations', rows: [{ ...project, 'Credit Serial Numbers': 'B', 'Quantity of Credits': '200' }] }
    ])
    assert.deepEqual(perVintage(read.draft('ACR586')), { 2020: [1000, 300] })
  })
})

describe('CAR project labels', () => {
  test('Additional Certification(s) splits on ";", leaving out blanks and "None" in any case', () => {
    const layout = LAYOUTS.find((l) => l.registry === car)!
    const labels = 'CCB Gold; None;; NONE ; Social Carbon'
    const read = readRows(car, 'projects',
      [{ [layout.idColumn]: layout.id, ...layout.projects, 'Additional Certification(s)': labels }])
    assert.deepEqual(read.draft(layout.id).certifications()?.map((c) => c.verbose_name), ['CCB Gold', 'Social Carbon'])
  })
})
