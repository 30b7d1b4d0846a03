import type { CsvColumn } from '../http/csv.ts'
import { Type, type Static } from 'typebox'
import { Nullable, NullableDate, PageSchema, StringEnum } from '../http/schemas.ts'
import { MAX_PROJECT_ID, TRANSACTION_TYPES } from '../catalogue/catalogue-shared.ts'

const LEDGER_LIMIT_DEFAULT = 50
const LEDGER_LIMIT_MAX = 1000
/** Offsets past this are refused rather than handed to the database (2^53 - 1). */
const LEDGER_OFFSET_MAX = Number.MAX_SAFE_INTEGER

/** Fields `ordering` accepts, each with or without "-"; id breaks ties in the same direction. */
const LEDGER_ORDERINGS = ['date', '-date', 'quantity', '-quantity'] as const
type LedgerOrdering = typeof LEDGER_ORDERINGS[number]
export const LEDGER_ORDERING_DEFAULT: LedgerOrdering = '-date'

// Examples are values of the bundled catalogue's ledger, so that they work when tried.
const TransactionSchema = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'The transaction\'s id in this service (stable across re-imports).' }),
  transaction_id: Type.String({
    description: 'The registry\'s identity of the transaction, prefixed by its type: a serial range or transaction ' +
      'id ' +
      '(retirement:GS1-1-KE-…), or a digest of what the row states where the export gives none ' +
      '(issuance:sha256:…). Unique within the registry and the same in every database and after every re-import ' +
      '(docs/registries.md, "The ledger").',
    examples: ['retirement:19385-941467007-941467431-VCS-VCU-1507-VER-ET-14-1340-01012020-31122020-1']
  }),
  project_id: Type.Integer({ minimum: 1, maximum: MAX_PROJECT_ID, description: 'The project (`/products/{id}/`).' }),
  type: StringEnum(TRANSACTION_TYPES, { description: 'What happened to the credits.' }),
  date: NullableDate('YYYY-MM-DD, as the registry dates the transaction; null when it gives none.'),
  vintage: Nullable(Type.Integer({ minimum: 1000, maximum: 9999, description: 'The credits\' vintage year.' })),
  quantity: Type.Number({ minimum: 0, description: 'Credits (tonnes CO2e).' }),
  beneficiary: Nullable(Type.String({
    description: 'For retirements: on whose behalf, as the registry publishes it; null when the export has none.'
  })),
  reason: Nullable(Type.String({
    description: 'For retirements and cancellations: why, as the registry gives it (its reason column); null when it ' +
      'does not.'
  })),
  note: Nullable(Type.String({
    description: 'The free text beside the reason (the registry\'s details, purpose or note); null when none.'
  })),
  account: Nullable(Type.String({
    description: 'The account holder that retired or cancelled the credits, where the registry publishes it.'
  })),
  serials: Nullable(Type.String({
    description: 'Serial numbers or block range of the credits, as the registry writes them; null when not given.'
  })),
  vintage_start: NullableDate('First day of the vintage (monitoring or assignment period); null when not given.'),
  vintage_end: NullableDate('Last day of the vintage (monitoring or assignment period); null when not given.'),
  source: Nullable(Type.Object({
    file: Type.String({ description: 'The file the import read (e.g. offsets-db-data/verra/transactions.csv).' }),
    line: Nullable(Type.Integer({ minimum: 1, description: 'Its line (1 is the header); null when not known.' }))
  }, { description: 'Where the transaction came from; null when the import did not say.' }))
}, { title: 'Transaction' })
export type Transaction = Static<typeof TransactionSchema>

/** A transaction in a page: with its project named as a person knows it (the whole ledger lists many projects). */
const LedgerItemSchema = Type.Object({
  ...TransactionSchema.properties,
  project_external_id: Type.String({
    description: 'The project\'s id in its registry (e.g. VCS1340).', examples: ['VCS1340']
  }),
  project_name: Type.String({ description: 'The project\'s name.' })
}, { title: 'LedgerItem' })
export type LedgerItem = Static<typeof LedgerItemSchema>

export const TransactionPageSchema = PageSchema('TransactionPage',
  Type.Integer({ minimum: 0, description: 'Transactions matching every filter.' }), LedgerItemSchema, {})

/** The filters both ledger routes take (the per-project route has no `project`). */
const FilterFields = {
  type: Type.Optional(StringEnum(TRANSACTION_TYPES, { description: 'Only transactions of this type.' })),
  vintage: Type.Optional(Type.Integer({
    minimum: 1000, maximum: 9999, description: 'Only credits of this vintage year.', examples: [2015]
  })),
  registry: Type.Optional(Type.String({
    maxLength: 200,
    description: 'Registry name_id (e.g. VERRA), case-insensitive, as the products filter: an unknown one is a 400 ' +
      'listing the known ones.',
    examples: ['VERRA']
  })),
  date_after: Type.Optional(Type.String({
    maxLength: 10,
    description: 'YYYY-MM-DD: transactions dated on or after this day (inclusive). A transaction without a date ' +
      'never matches a date filter.',
    examples: ['2020-01-01']
  })),
  date_before: Type.Optional(Type.String({
    maxLength: 10,
    description: 'YYYY-MM-DD: transactions dated on or before this day (inclusive).',
    examples: ['2023-12-31']
  })),
  search: Type.Optional(Type.String({
    maxLength: 200,
    description: 'Text inside the beneficiary, case- and accent-insensitive ("societe" finds "Société Générale"). ' +
      'Costs 5 requests of the rate limit when the answer is not cached.',
    examples: ['bank']
  }))
}

/** `format`: the page as JSON (default) or every matching transaction as CSV. */
const formatField = {
  format: Type.Optional(StringEnum(['json', 'csv'], {
    description: '`csv`: every matching transaction as CSV (text/csv), streamed, in the same order (`limit` and ' +
      '`offset` do not apply); as `Accept: text/csv`.'
  }))
}

const paging = {
  limit: Type.Integer({
    minimum: 1,
    maximum: LEDGER_LIMIT_MAX,
    default: LEDGER_LIMIT_DEFAULT,
    description: `Page size, 1 to ${LEDGER_LIMIT_MAX}.`
  }),
  offset: Type.Integer({
    minimum: 0, maximum: LEDGER_OFFSET_MAX, default: 0, description: 'Number of matching transactions to skip.'
  }),
  ordering: Type.Optional(StringEnum(LEDGER_ORDERINGS, {
    description: 'date or quantity, "-" for descending; default -date (newest first). Ties are broken by id in the ' +
      'same direction; transactions without a date come last in both directions.'
  }))
}

export const LedgerQuerySchema = Type.Object({
  ...paging,
  ...FilterFields,
  ...formatField,
  project: Type.Optional(Type.Integer({
    // Project 51 of the bundled catalogue (Verra VCS1340) has a ledger, so the example finds transactions.
    minimum: 1, maximum: MAX_PROJECT_ID, description: 'Only this project\'s transactions (its id).', examples: [51]
  }))
})
export type LedgerQuery = Static<typeof LedgerQuerySchema>

export const ProjectLedgerQuerySchema = Type.Object({ ...paging, ...FilterFields, ...formatField })
export type ProjectLedgerQuery = Static<typeof ProjectLedgerQuerySchema>

/** The whole ledger's filters alone (the totals: no paging, ordering or format). */
export const LedgerTotalsQuerySchema = Type.Object({
  ...FilterFields,
  project: LedgerQuerySchema.properties.project
})
export type LedgerTotalsQuery = Static<typeof LedgerTotalsQuerySchema>

const TypeTotal = (type: string) => Type.Object({
  count: Type.Integer({ minimum: 0, description: `Matching ${type} transactions.` }),
  quantity: Type.Number({ minimum: 0, description: 'Their credits (tonnes CO2e), summed.' })
})

export const LedgerTotalsSchema = Type.Object({
  count: Type.Integer({ minimum: 0, description: 'Transactions matching every filter (as the list\'s count).' }),
  by_type: Type.Object({
    issuance: TypeTotal('issuance'),
    retirement: TypeTotal('retirement'),
    cancellation: TypeTotal('cancellation')
  }, { description: 'Per type: a sum over types would add credits issued to the same credits retired.' })
}, { title: 'LedgerTotals', description: 'Totals of the transactions matching the filters.' })
export type LedgerTotals = Static<typeof LedgerTotalsSchema>

export const ProjectLedgerParamsSchema = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_PROJECT_ID, description: 'The project id.', examples: [51] })
})

/** What names a project in a row of the ledger's CSV. */
interface ProjectIdentity { external_id: string, name: string, registry: string, registry_name: string }
/** A transaction as a row of the CSV; `project` is undefined only for a project removed while the file streams. */
export type TransactionCsvRow = Transaction & { project: ProjectIdentity | undefined }

/**
 * The ledger as CSV: one line per transaction, the item's fields with `source` as two columns, and the project it
 * belongs to named as a person knows it (its registry's id and its name) beside Tonne's id; the registry by label
 * and code (docs/api.md, "CSV"). The header is the same whatever the rows hold.
 */
export const TRANSACTION_CSV_COLUMNS: ReadonlyArray<CsvColumn<TransactionCsvRow>> = [
  { header: 'id', value: (t) => t.id },
  { header: 'transaction_id', value: (t) => t.transaction_id },
  { header: 'project_id', value: (t) => t.project_id },
  { header: 'project_external_id', value: (t) => t.project?.external_id },
  { header: 'project_name', value: (t) => t.project?.name },
  { header: 'registry', value: (t) => t.project?.registry_name },
  { header: 'registry_code', value: (t) => t.project?.registry },
  { header: 'type', value: (t) => t.type },
  { header: 'date', value: (t) => t.date },
  { header: 'vintage', value: (t) => t.vintage },
  { header: 'quantity', value: (t) => t.quantity },
  { header: 'beneficiary', value: (t) => t.beneficiary },
  { header: 'reason', value: (t) => t.reason },
  { header: 'note', value: (t) => t.note },
  { header: 'account', value: (t) => t.account },
  { header: 'serials', value: (t) => t.serials },
  { header: 'vintage_start', value: (t) => t.vintage_start },
  { header: 'vintage_end', value: (t) => t.vintage_end },
  { header: 'source_file', value: (t) => t.source?.file },
  { header: 'source_line', value: (t) => t.source?.line }
]

/** The CSV's header line, as the OpenAPI example shows it. */
export const TRANSACTION_CSV_HEADER = TRANSACTION_CSV_COLUMNS.map((column) => column.header).join(',')

/** The download's file name: the filters in this order (csvFilename). */
export const TRANSACTION_CSV_NAMING = {
  names: ['project', 'registry', 'type', 'vintage', ['date_after', 'from'], ['date_before', 'to'], 'search'],
  bare: ['registry', 'type', 'search']
} as const satisfies { names: ReadonlyArray<string | readonly [string, string]>, bare: readonly string[] }
