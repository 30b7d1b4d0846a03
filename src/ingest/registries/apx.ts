import type { TransactionType } from '../../catalogue/catalogue.schemas.ts'
import type { Named, ProjectDraft, StatedFields } from './project-draft.ts'
import {
  complianceStandard, country, date, either, protocols, protocolVersion, sdgNumbers, transactionQuantity,
  type ExportDefinition,
  type RegistryDefinition, type Row, type RowContext
} from './registry.ts'
import { cleanLongText, cleanText, isYes, parseYear, upperSnake } from './values.ts'
import { ACR, ACR_STANDARD, ART, CAR, CAR_STANDARD } from './registry-names.ts'

// The three registries on the APX platform: American Carbon Registry, Climate Action Reserve and ART. Their
// exports share conventions: ids with the registry's prefix (ACR586), month-first dates ("1/15/2020"), Yes/No
// eligibility flags, and project pages at prjView.asp?id1=<number>. docs/registries.md has the mappings.

function apxId (context: RowContext, row: Row, column: string, prefix: string): string | undefined {
  const id = row.get(column).toUpperCase()
  if (new RegExp(`^${prefix}\\d+$`).test(id)) return id
  context.skip(`${column} "${row.get(column)}" is not a ${prefix} project id`)
  return undefined
}

const pageUrl = (host: string, id: string, prefix: string) =>
  `https://${host}/mymodule/reg/prjView.asp?id1=${id.slice(prefix.length)}`

function addSdgs (context: RowContext, row: Row, column: string, draft: ProjectDraft): void {
  draft.addSdgs(sdgNumbers(context, row.get(column)))
}

/** Yes-flags of an issuance row → certification labels, in the given order. */
function flagged (row: Row, flags: ReadonlyArray<[string, string]>): string[] {
  return flags.filter(([column]) => isYes(row.get(column))).map(([, label]) => label)
}

/** Yes in any of these columns → true; else No in one → false; blank or absent → undefined (not stated). */
function yesNo (row: Row, columns: readonly string[]): boolean | undefined {
  const values = columns.map((c) => row.get(c))
  if (values.some(isYes)) return true
  return values.some((v) => /^no?$/i.test(v)) ? false : undefined
}

/**
 * The OffsetsDB project fields a row's project type and methodology give (CarbonPlan's mappings). The Reserve names
 * its protocol by the project type ("Mine Methane Capture - ARB Compliance"): OffsetsDB reads that as the protocol
 * (`original_protocol` is CAR's Project Type), so its category comes first from the type as a methodology string.
 */
function offsetsDbFields (context: RowContext, type: string, methodology: string, programme: Programme,
  typeIsProtocol = false) {
  return {
    // A blank methodology column says nothing (the Reserve's project export has none).
    protocol: cleanText(methodology) === '' ? undefined : protocols(methodology, context),
    project_type: context.mappings.projectTypeName(type) ?? (cleanText(type) || null),
    category: (typeIsProtocol ? context.mappings.categoryOfMethodology(type) : undefined) ??
      context.mappings.category(methodology, type),
    is_compliance: programme !== undefined
  }
}

const splitLabels = (value: string) =>
  value.split(';').map(cleanText).filter((l) => l !== '' && l.toLowerCase() !== 'none')

interface LedgerColumns {
  id: string
  prefix: string
  /** The credited quantity, in the spellings of the registry's layouts. */
  quantity: string | readonly string[]
  /** The transaction's date, in the spellings of the registry's layouts. */
  date: readonly string[]
  /** The serial range, where the export gives one (the transaction's identity), in its layouts' spellings. */
  serial?: string | readonly string[]
  /** The identity otherwise, where the row has one (else a digest of the row's content). */
  identity?: (row: Row, id: string, vintage: number, context: RowContext) => string | undefined
  beneficiary?: string
  /** The retirement or cancellation reason, and the free-text note beside it (each in its layouts' spellings). */
  reason?: readonly string[]
  note?: readonly string[]
  /** The account holder that retired or cancelled the credits. */
  account?: string
  /** The vintage's (or assignment period's) start and end dates. */
  vintageStart?: string
  vintageEnd?: string
  /** What the row repeats about its project. */
  fields: (context: RowContext, row: Row, id: string) => StatedFields
  certifications?: (row: Row) => string[]
  sdgs?: string
  /** Whether the row says its vintage is CORSIA eligible (Yes/No); undefined: the export does not say. */
  corsia?: (row: Row) => boolean | undefined
}

const spellings = (column: string | readonly string[]): readonly string[] =>
  typeof column === 'string' ? [column] : column

/** A text column's value, cleaned; '' → null. */
const text = (row: Row, columns: readonly string[] | undefined) =>
  columns === undefined ? null : cleanText(either(row, columns)) || null

/**
 * An APX issuance, retirement or cancellation row: one transaction of the project's ledger, and what it repeats of
 * the project (projects that only these exports name get their name, type and country from it).
 */
function readTransaction (type: TransactionType, columns: LedgerColumns, row: Row, context: RowContext): void {
  const id = apxId(context, row, columns.id, columns.prefix)
  if (id === undefined) return
  const vintage = parseYear(row.get('Vintage'))
  if (vintage === undefined) return context.skip(`Vintage "${row.get('Vintage')}" is not a year`)
  const quantityColumns = spellings(columns.quantity)
  const quantityColumn = quantityColumns.find((c) => row.get(c) !== '') ?? quantityColumns[0]!
  const quantity = transactionQuantity(context, quantityColumn, row.get(quantityColumn))
  if (quantity === undefined) return
  // APX writes "1/15/2020", "8/2/06" (older downloads) or "2020-01-15 12:00:00": the date is the first part.
  const day = (column: string | undefined) => column === undefined || row.get(column) === ''
    ? null
    : date(context, column, row.get(column).split(/\s+/)[0] ?? '', 'month-first')
  const when = date(context, 'transactions.date', either(row, columns.date).split(/\s+/)[0] ?? '', 'month-first')
  const serial = columns.serial === undefined ? undefined : either(row, spellings(columns.serial))
  const draft = context.drafts.get(id)
  draft.fillFields(columns.fields(context, row, id))
  draft.addTransaction({
    type,
    identity: serial ?? columns.identity?.(row, id, vintage, context),
    date: when,
    vintage,
    quantity,
    beneficiary: columns.beneficiary === undefined ? null : cleanText(row.get(columns.beneficiary)),
    reason: type === 'issuance' ? null : text(row, columns.reason),
    note: type === 'issuance' ? null : text(row, columns.note),
    account: columns.account === undefined ? null : cleanText(row.get(columns.account)) || null,
    serials: serial === undefined || serial === '' ? null : serial,
    vintageStart: day(columns.vintageStart),
    vintageEnd: day(columns.vintageEnd)
  }, context)
  if (type === 'issuance') {
    const corsia = columns.corsia?.(row)
    if (corsia !== undefined) draft.corsiaEligible(vintage, corsia)
  }
  if (columns.sdgs !== undefined) addSdgs(context, row, columns.sdgs, draft)
  if (columns.certifications !== undefined) draft.addCertifications(columns.certifications(row))
}

type LedgerExport = Pick<LedgerColumns, 'quantity' | 'date' | 'serial' | 'identity' | 'beneficiary' | 'reason' |
  'note' | 'account' | 'vintageStart' | 'vintageEnd'> & { columns: ExportDefinition['columns'] }

/**
 * A retirement or cancellation export. Both name the serial range, the quantity and the project's id; `own` is the
 * column that tells the one from the other (the reason column unless given).
 */
type TransferExport = Omit<LedgerExport, 'columns' | 'serial' | 'reason'> & {
  serial: NonNullable<LedgerExport['serial']>
  reason: readonly string[]
  own?: ExportDefinition['columns'][number]
}

interface LedgerExports { issuances: LedgerExport, retirements: TransferExport, cancellations: TransferExport }

/** The three ledger exports of an APX registry, told apart by their quantity and reason columns. */
function ledgerExports (common: Omit<LedgerColumns, keyof LedgerExport>, exports: LedgerExports): ExportDefinition[] {
  const transfer = (kind: 'retirements' | 'cancellations', type: TransactionType): ExportDefinition => {
    const { own, ...columns } = exports[kind]
    return {
      kind,
      columns: [columns.serial, columns.quantity, common.id, own ?? columns.reason],
      read: (row, context) => readTransaction(type,
        { ...common, ...columns, certifications: undefined, sdgs: undefined }, row, context)
    }
  }
  return [{
    kind: 'issuances',
    columns: exports.issuances.columns,
    read: (row, context) => readTransaction('issuance', { ...common, ...exports.issuances }, row, context)
  }, transfer('retirements', 'retirement'), transfer('cancellations', 'cancellation')]
}

/**
 * An APX registry: its project export, whose rows name the project by the same prefixed id as its ledger exports
 * (`read` gets that id; a row without one is skipped), then its three ledger exports.
 */
function apxRegistry ({ projects, ledger, exports, ...named }: Pick<RegistryDefinition, 'key' | 'registry'> & {
  projects: { columns: ExportDefinition['columns'], read: (row: Row, context: RowContext, id: string) => void }
  ledger: Omit<LedgerColumns, keyof LedgerExport>
  exports: LedgerExports
}): RegistryDefinition {
  return {
    ...named,
    exports: () => [{
      kind: 'projects',
      columns: projects.columns,
      read (row, context) {
        const id = apxId(context, row, ledger.id, ledger.prefix)
        if (id !== undefined) projects.read(row, context, id)
      }
    }, ...ledgerExports(ledger, exports)]
  }
}

// --- American Carbon Registry ---------------------------------------------------------------------------

/** California (ARB) or Washington (Ecology) compliance, by protocol name or compliance id (CAOD…, ECYOD…). */
type Programme = 'california' | 'washington' | undefined

function acrProgramme (context: RowContext, protocol: string, complianceId: string): Programme {
  if (/^ARB Compliance Offset Protocol/i.test(protocol) || /^CA/i.test(complianceId)) return 'california'
  if (/^ECY Compliance Offset Protocol/i.test(protocol) || /^ECY/i.test(complianceId)) return 'washington'
  return context.mappings.compliance(protocol)
}

function acrCommon (context: RowContext, row: Row, id: string, complianceId: string) {
  const protocol = row.get('Project Methodology/Protocol')
  const programme = acrProgramme(context, protocol, complianceId)
  return {
    name: cleanText(row.get('Project Name')),
    symbol: `ACR-${id.slice(3)}`,
    standard: complianceStandard(ACR.name_id, programme, ACR_STANDARD),
    credit_type: context.mappings.creditType(row.get('Project Type'), protocol),
    url: pageUrl('acr2.apx.com', id, 'ACR'),
    location: country(context, 'location', row.get('Project Site Country')),
    project_developer: cleanText(row.get('Project Developer')),
    // The ledger exports name the methodology's version; the project export does not (undefined: not stated).
    protocol_version: cleanText(row.get('Methodology/Protocol Version')) || undefined,
    ...offsetsDbFields(context, row.get('Project Type'), protocol, programme)
  }
}

/** ACR's status: the compliance programme's, unless the project is not in one (then the voluntary status). */
function acrStatus (row: Row): string | null {
  const compliance = cleanText(row.get('Compliance Program Status (ARB or Ecology)'))
  const voluntary = cleanText(row.get('Voluntary Status'))
  return (compliance === '' || /^Not ARB or Ecology Eligible$/i.test(compliance) ? voluntary : compliance) || null
}

/** What ACR's retirement and cancellation exports name alike. */
const ACR_TRANSFERS = {
  date: ['Status Effective (GMT)', 'Status Effective'],
  account: 'Account Holder',
  vintageStart: 'Vintage Assignment Period Start Date',
  vintageEnd: 'Vintage Assignment Period End Date'
}

export const acr = apxRegistry({
  key: 'acr',
  registry: ACR,
  projects: {
    columns: ['Project ID', 'Project Name', 'Voluntary Status', 'Project Site Country'],
    read (row, context, id) {
      const draft = context.drafts.get(id)
      context.state(draft, {
        ...acrCommon(context, row, id, row.get('Compliance Program ID (ARB or Ecology)')),
        date: date(context, 'date', row.get('Initial Crediting Period Start Date'), 'month-first'),
        status: acrStatus(row)
      })
      addSdgs(context, row, 'Sustainable Development Goal(s)', draft)
    }
  },
  ledger: {
    id: 'Project ID',
    prefix: 'ACR',
    fields: (c, r, id) => ({
      ...acrCommon(c, r, id, ''),
      date: r.get('Project Crediting Period Start Date') === ''
        ? undefined
        : date(c, 'date', r.get('Project Crediting Period Start Date'), 'month-first')
    }),
    certifications: (r) => flagged(r, [['ARB Eligible', 'ARB Eligible'],
      ['Ecology Eligible', 'Washington Ecology Eligible'], ['CCP Approved', 'ICVCM CCP'],
      ['Verified Removal', 'Verified Removal']]),
    sdgs: 'Sustainable Development Goal(s)'
  },
  exports: {
    // Older downloads wrote "Date Issued" (no time zone).
    issuances: {
      columns: [['Date Issued (GMT)', 'Date Issued'], 'Vintage', 'Total Credits Issued', 'Project ID'],
      // Credits issued to the project and to the buffer pool (docs/registries.md, "Issued").
      quantity: 'Total Credits Issued',
      date: ['Date Issued (GMT)', 'Date Issued'],
    },
    // Older downloads (2021) used the Reserve's spellings: Offset Credit Serial Numbers, Quantity of Offset
    // Credits, Status Effective, Retirement Reason Details, and no beneficiary column.
    retirements: {
      ...ACR_TRANSFERS,
      own: ['Retired on Behalf of', 'Retirement Reason'],
      quantity: ['Quantity of Credits', 'Quantity of Offset Credits'],
      serial: ['Credit Serial Numbers', 'Offset Credit Serial Numbers'],
      beneficiary: 'Retired on Behalf of',
      reason: ['Retirement Reason'],
      note: ['Purpose of Retirement', 'Retirement Reason Details']
    },
    cancellations: {
      ...ACR_TRANSFERS,
      quantity: 'Quantity of Credits',
      serial: 'Credit Serial Numbers',
      reason: ['Cancellation Type'],
      note: ['Cancellation Details']
    }
  }
})

// --- Climate Action Reserve -----------------------------------------------------------------------------

function carProgramme (type: string, arbId: string, waId: string): Programme {
  if (arbId !== '' || /ARB Compliance$/i.test(type)) return 'california'
  if (waId !== '' || /WA ECO Compliance$/i.test(type)) return 'washington'
  return undefined
}

function carCommon (context: RowContext, row: Row, id: string, programme: Programme) {
  const type = row.get('Project Type')
  return {
    name: cleanText(row.get('Project Name')),
    symbol: `CAR-${id.slice(3)}`,
    standard: complianceStandard(CAR.name_id, programme, CAR_STANDARD),
    credit_type: context.mappings.creditType(type, type),
    url: pageUrl('thereserve2.apx.com', id, 'CAR'),
    location: country(context, 'location', row.get('Project Site Country')),
    // The Reserve names a developer for most projects, else only the owner.
    project_developer: cleanText(row.get('Project Developer')) || cleanText(row.get('Project Owner')),
    // The project export names no protocol; the ledger exports do ("Protocol and Version").
    protocol_version: protocolVersion(row.get('Protocol and Version')),
    ...offsetsDbFields(context, type, row.get('Protocol and Version'), programme, true)
  }
}

/** What the Reserve's retirement and cancellation exports name alike. */
const CAR_TRANSFERS = {
  quantity: 'Quantity of Offset Credits', serial: 'Offset Credit Serial Numbers', date: ['Status Effective']
}

export const car = apxRegistry({
  key: 'car',
  registry: CAR,
  projects: {
    columns: ['Project ID', 'Project Name', 'Project Type', 'Project Listed Date'],
    read (row, context, id) {
      const programme = carProgramme(row.get('Project Type'), row.get('ARB ID'), row.get('WA ECO'))
      const registered = date(context, 'date', row.get('Project Registered Date'), 'month-first')
      const listed = date(context, 'listed_date', row.get('Project Listed Date'), 'month-first')
      const draft = context.drafts.get(id)
      context.state(draft, {
        ...carCommon(context, row, id, programme),
        date: registered ?? listed,
        listed_date: listed,
        status: cleanText(row.get('Status')) || null,
        description: cleanLongText(row.raw('Project Notes'))
      })
      addSdgs(context, row, 'SDG Impact', draft)
      draft.addCertifications(splitLabels(row.get('Additional Certification(s)')))
    }
  },
  ledger: {
    id: 'Project ID',
    prefix: 'CAR',
    fields: (c, r, id) => carCommon(c, r, id, carProgramme(r.get('Project Type'), '', '')),
    certifications: (r) => [
      ...flagged(r, [['ARB Eligible', 'ARB Eligible'], ['WA ECO Eligible', 'Washington Ecology Eligible'],
        ['Corresponding Adjustment', 'Corresponding Adjustment'], ['CCP Approved', 'ICVCM CCP']]),
      ...splitLabels(r.get('Additional Certification(s)'))
    ],
    // CORSIA eligibility is stated per issuance (so per vintage), for each compliance period.
    corsia: (r) => yesNo(r, ['Eligible for CORSIA 2021-2023 Compliance Period',
      'Eligible for CORSIA 2024-2026 Compliance Period'])
  },
  exports: {
    issuances: {
      columns: ['Date Issued', 'Project ID', 'Vintage', 'Total Offset Credits Issued'],
      quantity: 'Total Offset Credits Issued',
      date: ['Date Issued']
    },
    retirements: {
      ...CAR_TRANSFERS,
      // The Reserve's export names the account holder, not on whose behalf: no beneficiary.
      reason: ['Retirement Reason'],
      note: ['Retirement Reason Details'],
      account: 'Account Holder'
    },
    cancellations: { ...CAR_TRANSFERS, reason: ['Cancellation Reason'], note: ['Export Notes'] }
  }
})

// --- ART (Architecture for REDD+ Transactions) ----------------------------------------------------------

/** "ART - The REDD+ Environmental Excellence Standard (TREES)" → that standard; ART also hosts FCPF programmes. */
function artStandard (value: string): Named {
  const text = cleanText(value).replace(/^ART\s*-\s*/i, '') || 'The REDD+ Environmental Excellence Standard (TREES)'
  return { name_id: `ART_${upperSnake(text)}`, verbose_name: text }
}

function artCommon (context: RowContext, row: Row, id: string) {
  const type = row.get('Program Type')
  return {
    name: cleanText(row.get('Program Name')),
    symbol: `ART-${id.slice(3)}`,
    standard: artStandard(row.get('Crediting Program and Standard')),
    credit_type: context.mappings.creditType(type),
    url: pageUrl('art.apx.com', id, 'ART'),
    location: country(context, 'location', row.get('Program Country')),
    project_developer: cleanText(row.get('Sovereign Program Developer')),
    // ART has one standard, TREES (CarbonPlan's protocol id art-trees), written in its own column.
    protocol: protocols(row.get('Crediting Program and Standard'), context),
    protocol_version: cleanText(row.get('Standard Version')) || undefined,
    project_type: context.mappings.projectTypeName(type) ?? (cleanText(type) || null),
    // OffsetsDB gives every ART programme the protocol art-trees, whose category is CarbonPlan's (forest).
    category: context.mappings.categoryOfProtocol('art-trees') ?? context.mappings.category('', type),
    is_compliance: false
  }
}

/** What ART's retirement and cancellation exports name alike. */
const ART_TRANSFERS = { quantity: 'Quantity of Credits', serial: 'Credit Serial Numbers', date: ['Status Effective'] }

export const art = apxRegistry({
  key: 'art',
  registry: ART,
  projects: {
    columns: ['Program ID', 'Program Name', 'Crediting Program and Standard', 'Status'],
    read (row, context, id) {
      context.state(context.drafts.get(id), {
        ...artCommon(context, row, id),
        date: date(context, 'date', row.get('Initial Crediting Period Start Date'), 'month-first'),
        status: cleanText(row.get('Status')) || null,
        description: cleanLongText(row.raw('Program Notes'))
      })
    }
  },
  ledger: {
    id: 'Program ID',
    prefix: 'ART',
    fields: artCommon,
    certifications: (r) => flagged(r, [['CCP Approved', 'ICVCM CCP']]),
    corsia: (r) => yesNo(r, ['CORSIA Eligible'])
  },
  exports: {
    issuances: {
      columns: ['Date Approved', 'Program ID', 'Vintage', 'Credits Verified'],
      // The programme's credits net of the buffer deposit (docs/registries.md, "Issued").
      quantity: 'Credits Verified',
      date: ['Date Approved']
    },
    retirements: {
      ...ART_TRANSFERS,
      own: 'Retired on Behalf of',
      beneficiary: 'Retired on Behalf of',
      reason: ['Retirement Reason'],
      note: ['Purpose of Retirement'],
      account: 'Account Holder'
    },
    cancellations: { ...ART_TRANSFERS, reason: ['Cancellation Reason'], note: ['Cancellation Details'] }
  }
})
