import type { TestContext } from 'node:test'
import type { ImportRecord } from '../../src/catalogue/catalogue.schemas.ts'
import { bumpCatalogueVersion } from '../../src/catalogue/projects.repository.ts'
import { foldBeneficiary } from '../../src/ledger/beneficiary-key.ts'
import { insertTransactions } from '../../src/ledger/transactions.repository.ts'
import type { Db } from '../../src/store/database.ts'
import type { TestDatabase } from '../databases.ts'
import { buildTestApp, type TestApp } from '../helpers.ts'
import { startService, type RunningService } from '../support/service.ts'

/** The records without their ledgers (imported first), and a function that stores the ledgers after. */
function split (records: readonly ImportRecord[]) {
  const projects = records.map(({ transactions: _t, ...rest }) => rest)
  const store = async (db: Db) => {
    await insertTransactions(db, records.flatMap((record) => (record.transactions ?? []).map((tx) => ({
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
    }))))
    await bumpCatalogueVersion(db)
  }
  return { projects, store }
}

/** The test app with these records imported and their ledgers stored. */
export async function seedLedger (t: TestContext, database: TestDatabase, records: ImportRecord[]): Promise<TestApp> {
  const { projects, store } = split(records)
  const app = await buildTestApp(t, { database, records: projects })
  await store(app.store.db)
  return app
}

/** The same, listening (for the client's tests). */
export async function serveLedger (t: TestContext, records: ImportRecord[]): Promise<RunningService> {
  const { projects, store } = split(records)
  const service = await startService(t, { records: projects })
  await store(service.store.db)
  return service
}
