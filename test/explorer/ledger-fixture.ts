import type { ImportRecord, TransactionRecord } from '../../src/catalogue/catalogue.schemas.ts'
import { project } from '../fixtures/projects.ts'

// Four projects with a ledger for the explorer's credit views. Every expected figure of credits in
// project.browser.test.ts and catalogue.browser.test.ts is summed by hand from the transactions below (the sums are
// written next to each project).

type Kind = TransactionRecord['type']

function tx (identity: string, type: Kind, date: string | null, vintage: number, quantity: number,
  beneficiary: string | null = null, reason: string | null = null, line = 2): TransactionRecord {
  const file = type === 'issuance' ? 'registry-a/issuances.csv' : `registry-a/${type}s.csv`
  return { identity, type, date, vintage, quantity, beneficiary, reason, source: { file, line } }
}

/**
 * Mangrove Coast Restoration, 28 transactions:
 * - issued 1,000 (2019-03-15, vintage 2018) + 2,500 (2020-06-01, v2019) + 1,500 (2021-02-10, v2020)
 *   + 300 (no date, v2021) = 5,300;
 * - retired 400 (2020-09-30, v2018, Acme Airlines) + 1,200 (2021-05-05, v2019, Société Générale)
 *   + 100 (2021-11-20, v2018, Acme Airlines) + 20 × 5 (2022-04-01 to 2022-04-20, v2020, Green Cafe Ltd) = 1,800;
 * - cancelled 50 (2022-01-12, v2020).
 * Per year of the date: 2019 issued 1,000 retired 0; 2020 2,500 / 400; 2021 1,500 / 1,300; 2022 0 / 100
 * (the undated 300 in no year). Per vintage: 2018 1,000 / 500; 2019 2,500 / 1,200; 2020 1,500 / 100; 2021 300 / 0.
 */
function mangroveLedger (): TransactionRecord[] {
  const cafe = Array.from({ length: 20 }, (_, i) => tx(`MCR-R-CAFE-${i + 1}`, 'retirement',
    `2022-04-${String(i + 1).padStart(2, '0')}`, 2020, 5, 'Green Cafe Ltd', 'Coffee roasting', 10 + i))
  return [
    tx('MCR-I-1', 'issuance', '2019-03-15', 2018, 1000, null, null, 2),
    tx('MCR-I-2', 'issuance', '2020-06-01', 2019, 2500, null, null, 3),
    tx('MCR-I-3', 'issuance', '2021-02-10', 2020, 1500, null, null, 4),
    tx('MCR-I-4', 'issuance', null, 2021, 300, null, null, 5),
    tx('MCR-R-1', 'retirement', '2020-09-30', 2018, 400, 'Acme Airlines', 'Business travel 2019', 2),
    tx('MCR-R-2', 'retirement', '2021-05-05', 2019, 1200, 'Société Générale', null, 3),
    tx('MCR-R-3', 'retirement', '2021-11-20', 2018, 100, 'Acme Airlines', 'Business travel 2021', 4),
    ...cafe,
    tx('MCR-C-1', 'cancellation', '2022-01-12', 2020, 50, null, 'Double issuance corrected', 2)
  ]
}

export function ledgerProjects (): ImportRecord[] {
  return [
    project(1, {
      name: 'Mangrove Coast Restoration',
      location: 'Kenya',
      vintages: [2018, 2019, 2020, 2021],
      protocol: ['VM0033', 'CDM AR-AM0014'],
      status: 'Registered',
      category: 'forest',
      project_type: 'Mangrove restoration',
      is_compliance: false,
      listed_date: '2017-11-02',
      transactions: mangroveLedger()
    }),
    // No ledger and no totals: every figure is "not reported".
    project(2, { name: 'Savanna Fire Management', location: 'Australia', vintages: [] }),
    // Issued 800, retired 200 (Acme Airlines too: a project's search finds its own ledger only), cancelled 60.
    project(3, {
      name: 'Hill Country Cookstoves',
      location: 'Nepal',
      protocol: ['GS-TPDDTEC'],
      status: 'Registered',
      category: 'cookstove',
      is_compliance: false,
      vintages: [2017],
      transactions: [
        tx('HCC-I-1', 'issuance', '2017-08-01', 2017, 800, null, null, 6),
        tx('HCC-R-1', 'retirement', '2018-02-01', 2017, 200, 'Acme Airlines', null, 6),
        tx('HCC-C-1', 'cancellation', '2018-03-01', 2017, 60, null, null, 6)
      ]
    }),
    // Issued 4,000, retired 3,900, nothing cancelled.
    project(4, {
      name: 'Coastal Wind Farm',
      location: 'Chile',
      protocol: ['ACM0002'],
      status: 'Completed',
      category: 'renewable-energy',
      is_compliance: true,
      vintages: [2019],
      transactions: [
        tx('CWF-I-1', 'issuance', '2020-01-20', 2019, 4000, null, null, 7),
        tx('CWF-R-1', 'retirement', '2020-05-05', 2019, 3900, 'Northwind Bank', null, 7)
      ]
    })
  ]
}

/**
 * One project with 3,001 issuances of 1 credit each (2020-01-01 to 2020-01-31, vintage 2020): issued 3,001, one more
 * than the explorer charts per year.
 */
export function largeLedgerProject (): ImportRecord {
  return project(5, {
    name: 'Large Ledger Project',
    vintages: [2020],
    transactions: Array.from({ length: 3001 }, (_, i) => tx(`LLP-I-${i + 1}`, 'issuance',
      `2020-01-${String((i % 31) + 1).padStart(2, '0')}`, 2020, 1, null, null, i + 2))
  })
}

/** Issuances only (500 on 2021-06-01, vintage 2021): what was retired is unknown, not 0. */
export function issuedOnlyProject (): ImportRecord {
  return project(6, {
    name: 'Solar Rooftops',
    vintages: [2021],
    transactions: [tx('SR-I-1', 'issuance', '2021-06-01', 2021, 500, null, null, 8)]
  })
}

/**
 * Issued 1,000 on 2019-05-01 (vintage 2018); retired 400 with no date, as CARB's table gives retirements: what was
 * retired in a year is unknown, not 0.
 */
export function undatedRetirementsProject (): ImportRecord {
  return project(7, {
    name: 'Undated Retirements Forest',
    vintages: [2018],
    transactions: [
      tx('URF-I-1', 'issuance', '2019-05-01', 2018, 1000, null, null, 9),
      tx('URF-R-1', 'retirement', null, 2018, 400, null, null, 9)
    ]
  })
}

/** No ledger, but totals from the registry's project data: issued 700 (vintage 2016), retired not said. */
export function totalsOnlyProject (): ImportRecord {
  return project(8, {
    name: 'Totals Only Grassland',
    vintages: [2016],
    credits: { issued: 700, retired: null, vintages: [{ vintage: 2016, issued: 700, retired: null }] }
  })
}
