// Adds a clearly synthetic credit ledger to a synthetic catalogue (synthetic-catalogue.ts) for the benchmark:
// every identity starts SYN-TX-, every beneficiary says "Synthetic", and none of it is ever mixed into real data.
// Rows go straight in with batched INSERTs (not through `tonne import`), as the benchmark only reads them.
import { bumpCatalogueVersion } from '../../src/catalogue/catalogue-version.repository.ts'
import { beneficiaryKey } from '../../src/ledger/beneficiary-key.ts'
import { insertTransactions } from '../../src/ledger/transactions.repository.ts'
import type { CreditTransactionTable, Db } from '../../src/store/database.ts'
import type { Insertable } from 'kysely'
import { random } from './synthetic-catalogue.ts'

/** Words in beneficiary names: `search=airlines` finds about one retirement in eight. */
export const BENEFICIARY_WORDS = ['airlines', 'bank', 'energy', 'logistics', 'foods', 'motors', 'telecom', 'société']
/** Distinct beneficiaries: `search=beneficiary 04242` finds one of them. */
export const BENEFICIARIES = 20_000

const DAY_MS = 86_400_000
const FIRST_DAY = Date.UTC(2005, 0, 1)
const DAYS = Math.round((Date.UTC(2025, 11, 31) - FIRST_DAY) / DAY_MS)

/**
 * Grows the ledger to `total` transactions (it holds `from` already, made by an earlier call), spread over the
 * catalogue's projects: 60 % retirements (with a beneficiary and reason), 30 % issuances, 10 % cancellations;
 * dates 2005–2025, vintages up to 15 years before; 1 in 200 undated. Each batch is one transaction.
 */
export async function growSyntheticLedger (db: Db, from: number, total: number, batch = 20_000): Promise<void> {
  const projects = await db.selectFrom('projects').select(['id', 'registry']).orderBy('id').execute()
  const next = random(7 + from)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!
  for (let start = from; start < total; start += batch) {
    const rows: Array<Insertable<CreditTransactionTable>> = []
    for (let i = start; i < Math.min(start + batch, total); i++) {
      const project = pick(projects)
      const roll = next()
      const type = roll < 0.6 ? 'retirement' as const : roll < 0.9 ? 'issuance' as const : 'cancellation' as const
      const day = new Date(FIRST_DAY + Math.floor(next() * DAYS) * DAY_MS)
      const vintage = day.getUTCFullYear() - Math.floor(next() * 15)
      const beneficiary = type === 'retirement'
        ? `Synthetic beneficiary ${String(1 + Math.floor(next() * BENEFICIARIES)).padStart(5, '0')} ` +
          pick(BENEFICIARY_WORDS)
        : null
      rows.push({
        project_id: project.id,
        registry: project.registry,
        identity: `SYN-TX-${i + 1}`,
        type,
        date: next() < 0.005 ? null : day.toISOString().slice(0, 10),
        vintage,
        quantity: type === 'issuance' ? 1 + Math.floor(next() * 500_000) : 1 + Math.floor(next() * 20_000),
        beneficiary,
        reason: type === 'retirement' ? 'Synthetic benchmark retirement' : null,
        beneficiary_key: beneficiary === null ? null : beneficiaryKey(beneficiary),
        source_file: 'synthetic/transactions.csv',
        source_line: i + 2
      })
    }
    await db.transaction().execute(async (trx) => { await insertTransactions(trx, rows) })
  }
  await bumpCatalogueVersion(db)
}
