import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely'
import type { Db } from './database.ts'
import * as catalogue0001 from './migrations/2026_11_22_0001_catalogue.ts'
import * as apiKeys0002 from './migrations/2026_11_22_0002_api_keys.ts'
import * as searchAndJson0003 from './migrations/2026_11_22_0003_search_and_json.ts'
import * as creditsSyncCountries0005 from './migrations/2026_11_23_0005_credits_sync_countries.ts'
import * as pageIndex0006 from './migrations/2026_11_23_0006_page_index.ts'
import * as ledger0007 from './migrations/2026_11_25_0007_ledger.ts'
import * as ledgerReads0008 from './migrations/2026_11_25_0008_ledger_reads.ts'
import * as market0009 from './migrations/2026_11_27_0009_market.ts'
import * as projectSources0010 from './migrations/2026_11_27_0010_project_sources.ts'
import * as longValues0011 from './migrations/2026_11_27_0011_long_values.ts'
import * as ledgerCounts0012 from './migrations/2026_11_27_0012_ledger_counts.ts'
import * as syncLease0013 from './migrations/2026_11_27_0013_sync_lease.ts'
import * as carbTransactions0014 from './migrations/2026_11_27_0014_carb_transactions.ts'
import * as beneficiaryTrigramStatistics0015 from './migrations/2026_11_27_0015_beneficiary_trigram_statistics.ts'

/** Listed explicitly (no folder scan): the order is the names' order, and a typo fails the type check. */
const MIGRATIONS: Record<string, Migration> = {
  '2026_11_22_0001_catalogue': catalogue0001,
  '2026_11_22_0002_api_keys': apiKeys0002,
  '2026_11_22_0003_search_and_json': searchAndJson0003,
  '2026_11_23_0005_credits_sync_countries': creditsSyncCountries0005,
  '2026_11_23_0006_page_index': pageIndex0006,
  '2026_11_25_0007_ledger': ledger0007,
  '2026_11_25_0008_ledger_reads': ledgerReads0008,
  '2026_11_27_0009_market': market0009,
  '2026_11_27_0010_project_sources': projectSources0010,
  '2026_11_27_0011_long_values': longValues0011,
  '2026_11_27_0012_ledger_counts': ledgerCounts0012,
  '2026_11_27_0013_sync_lease': syncLease0013,
  '2026_11_27_0014_carb_transactions': carbTransactions0014,
  '2026_11_27_0015_beneficiary_trigram_statistics': beneficiaryTrigramStatistics0015
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS }

interface MigrationReport {
  applied: string[]
}

/** Brings the schema to the latest version; throws with the failing migration's name. */
export async function migrateToLatest (db: Db): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider })
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error !== undefined) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`, { cause: error })
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) }
}
