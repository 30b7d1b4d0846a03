import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { Migrator, type Migration } from 'kysely'
import type { ImportRecord, TransactionRecord } from '../../src/catalogue/catalogue.schemas.ts'
import { importProjects } from '../../src/ingest/projects.import.ts'
import { forEachDatabase } from '../databases.ts'
import { project } from '../fixtures/projects.ts'
import { buildTestApp, REPO_ROOT, type TestApp } from '../helpers.ts'

// CARB's rule (docs/registries.md, "CARB"): a project that CARB's issuance table names counts only CARB's
// transactions in its totals; the registry's own stay in its ledger. CARB's reader gives its transactions the
// identities `TYPE:arb:…` (src/ingest/registries/arb.ts), and those alone are CARB's. Totals summed by hand.

const tx = (identity: string, type: TransactionRecord['type'], quantity: number): TransactionRecord =>
  ({ identity, type, date: '2020-05-01', vintage: 2019, quantity, beneficiary: null, reason: null, source: null })

const withLedger = (transactions: TransactionRecord[]): ImportRecord =>
  project(1, { vintages: [2019], transactions })

async function issued (inject: TestApp['inject']): Promise<{ issued: number | null, retired: number | null }> {
  const response = await inject('/api/v1/commerce/products/1/')
  assert.equal(response.statusCode, 200, response.body)
  const body = JSON.parse(response.body) as { credits_issued: number | null, credits_retired: number | null }
  return { issued: body.credits_issued, retired: body.credits_retired }
}

forEachDatabase((database) => {
  test(`CARB's transactions alone count for a project CARB names [${database}]`, async (t) => {
    const { inject } = await buildTestApp(t, {
      database,
      records: [withLedger([
        tx('issuance:arb:CAFR5001-A:2019-01-01/2019-12-31', 'issuance', 300),
        tx('retirement:arb:CAFR5001-A:2019-01-01/2019-12-31:Retired Voluntarily', 'retirement', 40),
        // The registry's own issuance of the same credits (a ROC issuance): in the ledger, not in the totals.
        tx('issuance:ROC-1', 'issuance', 100),
        tx('retirement:R-9', 'retirement', 5)
      ])]
    })
    assert.deepEqual(await issued(inject), { issued: 300, retired: 40 })
    const ledger = JSON.parse((await inject('/api/v1/commerce/products/1/transactions/')).body) as { count: number }
    assert.equal(ledger.count, 4)
  })

  test(`a registry's own identity that merely contains ARB is not CARB's [${database}]`, async (t) => {
    // The rule was a LIKE '%:arb:%', which SQLite matched ignoring case: this project counted 100, not 150.
    const { inject } = await buildTestApp(t, {
      database,
      records: [withLedger([tx('issuance:ROC:ARB:7', 'issuance', 100), tx('issuance:ROC-8', 'issuance', 50)])]
    })
    assert.deepEqual(await issued(inject), { issued: 150, retired: null })
  })

  test(`a database from before migration 0014 keeps CARB's rule for the transactions it holds [${database}]`,
    async (t) => {
      const { inject, store } = await buildTestApp(t, {
        database,
        records: [withLedger([tx('issuance:arb:CAFR5001-A:2019-01-01/2019-12-31', 'issuance', 300),
          tx('issuance:ROC-1', 'issuance', 100)])]
      })
      // Back to the schema before 0014 (its column dropped) and forward again: only the migration marks the rows.
      const dir = path.join(REPO_ROOT, 'src', 'store', 'migrations')
      const migrations: Record<string, Migration> = {}
      for (const file of readdirSync(dir).filter((name) => /^\d{4}_\d{2}_\d{2}_\d{4}_\w+\.ts$/.test(name))) {
        migrations[file.slice(0, -3)] = await import(path.join(dir, file)) as Migration
      }
      const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } })
      assert.equal((await migrator.migrateTo('2026_11_27_0013_sync_lease')).error, undefined)
      assert.equal((await migrator.migrateToLatest()).error, undefined)
      // A later import of the project's registry transactions derives its totals again from the whole ledger.
      await importProjects(store.db, JSON.stringify([withLedger([tx('issuance:ROC-2', 'issuance', 60)])]),
        { replace: false })
      assert.deepEqual(await issued(inject), { issued: 300, retired: null })
    })
})
