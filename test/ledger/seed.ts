import type { TestContext } from 'node:test'
import type { ImportRecord } from '../../src/catalogue/catalogue.schemas.ts'
import { bumpCatalogueVersion } from '../../src/catalogue/projects.repository.ts'
import { foldBeneficiary } from '../../src/ledger/beneficiary-key.ts'
import { insertTransactions } from '../../src/ledger/transactions.repository.ts'
import type { TestDatabase } from '../databases.ts'
import { buildTestApp, type TestApp } from '../helpers.ts'

/** The test app with these records imported and their ledgers stored. */
export async function seedLedger (t: TestContext, database: TestDatabase, records: ImportRecord[]): Promise<TestApp> {
  const app = await buildTestApp(t, { database, records: records.map(({ transactions: _t, ...rest }) => rest) })
  const rows = records.flatMap((record) => (record.transactions ?? []).map((tx) => ({
    project_id: record.id,
    registry: record.registry.name_id,
    identity: tx.identity,
    type: tx.type,
    date: tx.date,
    vintage: tx.vintage,
    quantity: tx.quantity,
    beneficiary: tx.beneficiary,
    reason: tx.reason,
    beneficiary_key: tx.beneficiary === null ? null : foldBeneficiary(tx.beneficiary),
    source_file: tx.source?.file ?? null,
    source_line: tx.source?.line ?? null
  })))
  await insertTransactions(app.store.db, rows)
  await bumpCatalogueVersion(app.store.db)
  return app
}
