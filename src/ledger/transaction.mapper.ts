import type { TransactionRow } from './transactions.repository.ts'
import type { Transaction } from './transactions.schemas.ts'

/**
 * A stored transaction as every answer shows it (the API's JSON and CSV, and the export, which renames its id):
 * one reading of the row, so `source` is the same everywhere. A file without a line keeps its file; no file is null.
 */
export function toTransaction (row: TransactionRow): Transaction {
  return {
    id: row.id,
    transaction_id: row.identity,
    project_id: row.project_id,
    type: row.type,
    date: row.date,
    vintage: row.vintage,
    quantity: row.quantity,
    beneficiary: row.beneficiary,
    reason: row.reason,
    note: row.note,
    account: row.account,
    serials: row.serials,
    vintage_start: row.vintage_start,
    vintage_end: row.vintage_end,
    source: row.source_file === null ? null : { file: row.source_file, line: row.source_line }
  }
}
