import type { Named, ProjectDraft, StatedFields } from './project-draft.ts'
import {
  complianceStandard, country, date, issuedQuantity, sdgNumbers, type RegistryDefinition, type Row, type RowContext
} from './registry.ts'
import { cleanLongText, cleanText, isYes, parseYear, upperSnake } from './values.ts'

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

const splitLabels = (value: string) =>
  value.split(';').map(cleanText).filter((l) => l !== '' && l.toLowerCase() !== 'none')

interface IssuanceColumns {
  id: string
  prefix: string
  quantity: string
  /** What the row repeats about its project. */
  fields: (context: RowContext, row: Row, id: string) => StatedFields
  certifications: (row: Row) => string[]
  sdgs?: string
}

/** An APX issuance row: one vintage's credits (retirements are another export), and what it repeats of the project. */
function readIssuance (columns: IssuanceColumns, row: Row, context: RowContext): void {
  const id = apxId(context, row, columns.id, columns.prefix)
  if (id === undefined) return
  const vintage = parseYear(row.get('Vintage'))
  if (vintage === undefined) return context.skip(`Vintage "${row.get('Vintage')}" is not a year`)
  const issued = issuedQuantity(context, columns.quantity, row.get(columns.quantity))
  if (issued === undefined) return
  const draft = context.drafts.get(id)
  draft.seenAt(context)
  draft.fillFields(columns.fields(context, row, id))
  draft.addCredits(vintage, issued, null)
  if (columns.sdgs !== undefined) addSdgs(context, row, columns.sdgs, draft)
  draft.addCertifications(columns.certifications(row))
}

// --- American Carbon Registry ---------------------------------------------------------------------------

const ACR = { name_id: 'AMERICAN_CARBON_REGISTRY', verbose_name: 'American Carbon Registry' }
const ACR_STANDARD = { name_id: 'AMERICAN_CARBON_REGISTRY_ACR_STANDARD', verbose_name: 'ACR Standard' }

/** California (ARB) or Washington (Ecology) compliance, by protocol name or compliance id (CAOD…, ECYOD…). */
type Programme = 'california' | 'washington' | undefined

function acrProgramme (context: RowContext, protocol: string, complianceId: string): Programme {
  if (/^ARB Compliance Offset Protocol/i.test(protocol) || /^CA/i.test(complianceId)) return 'california'
  if (/^ECY Compliance Offset Protocol/i.test(protocol) || /^ECY/i.test(complianceId)) return 'washington'
  return context.mappings.compliance(protocol)
}

function acrCommon (context: RowContext, row: Row, id: string, complianceId: string) {
  const protocol = row.get('Project Methodology/Protocol')
  return {
    name: cleanText(row.get('Project Name')),
    symbol: `ACR-${id.slice(3)}`,
    standard: complianceStandard(ACR.name_id, acrProgramme(context, protocol, complianceId), ACR_STANDARD),
    credit_type: context.mappings.creditType(row.get('Project Type'), protocol),
    url: pageUrl('acr2.apx.com', id, 'ACR'),
    location: country(context, 'location', row.get('Project Site Country')),
    project_developer: cleanText(row.get('Project Developer'))
  }
}

export const acr: RegistryDefinition = {
  key: 'acr',
  registry: ACR,
  exports: () => [{
    kind: 'projects',
    columns: ['Project ID', 'Project Name', 'Voluntary Status', 'Project Site Country'],
    read (row, context) {
      const id = apxId(context, row, 'Project ID', 'ACR')
      if (id === undefined) return
      const draft = context.drafts.get(id)
      context.state(draft, {
        ...acrCommon(context, row, id, row.get('Compliance Program ID (ARB or Ecology)')),
        date: date(context, 'date', row.get('Initial Crediting Period Start Date'), 'month-first')
      })
      addSdgs(context, row, 'Sustainable Development Goal(s)', draft)
    }
  }, {
    kind: 'issuances',
    columns: ['Date Issued (GMT)', 'Vintage', 'Total Credits Issued', 'Project ID'],
    read: (row, context) => readIssuance({
      id: 'Project ID',
      prefix: 'ACR',
      quantity: 'Total Credits Issued',
      fields: (c, r, id) => ({
        ...acrCommon(c, r, id, ''), date: date(c, 'date', r.get('Project Crediting Period Start Date'), 'month-first')
      }),
      certifications: (r) => flagged(r, [['ARB Eligible', 'ARB Eligible'],
        ['Ecology Eligible', 'Washington Ecology Eligible'], ['CCP Approved', 'ICVCM CCP'],
        ['Verified Removal', 'Verified Removal']]),
      sdgs: 'Sustainable Development Goal(s)'
    }, row, context)
  }]
}

// --- Climate Action Reserve -----------------------------------------------------------------------------

const CAR = { name_id: 'CLIMATE_ACTION_RESERVE', verbose_name: 'Climate Action Reserve' }
const CAR_STANDARD = {
  name_id: 'CLIMATE_ACTION_RESERVE_CLIMATE_ACTION_RESERVE_OFFSET_PROTOCOLS',
  verbose_name: 'Climate Action Reserve Offset Protocols'
}

function carProgramme (type: string, arbId: string, waId: string): Programme {
  if (arbId !== '' || /ARB Compliance$/i.test(type)) return 'california'
  if (waId !== '' || /WA ECO Compliance$/i.test(type)) return 'washington'
  return undefined
}

function carCommon (context: RowContext, row: Row, id: string, programme: Programme) {
  return {
    name: cleanText(row.get('Project Name')),
    symbol: `CAR-${id.slice(3)}`,
    standard: complianceStandard(CAR.name_id, programme, CAR_STANDARD),
    credit_type: context.mappings.creditType(row.get('Project Type'), row.get('Project Type')),
    url: pageUrl('thereserve2.apx.com', id, 'CAR'),
    location: country(context, 'location', row.get('Project Site Country')),
    // The Reserve names a developer for most projects, else only the owner.
    project_developer: cleanText(row.get('Project Developer')) || cleanText(row.get('Project Owner'))
  }
}

export const car: RegistryDefinition = {
  key: 'car',
  registry: CAR,
  exports: () => [{
    kind: 'projects',
    columns: ['Project ID', 'Project Name', 'Project Type', 'Project Listed Date'],
    read (row, context) {
      const id = apxId(context, row, 'Project ID', 'CAR')
      if (id === undefined) return
      const programme = carProgramme(row.get('Project Type'), row.get('ARB ID'), row.get('WA ECO'))
      const registered = date(context, 'date', row.get('Project Registered Date'), 'month-first')
      const draft = context.drafts.get(id)
      context.state(draft, {
        ...carCommon(context, row, id, programme),
        date: registered ?? date(context, 'date', row.get('Project Listed Date'), 'month-first'),
        description: cleanLongText(row.raw('Project Notes'))
      })
      addSdgs(context, row, 'SDG Impact', draft)
      draft.addCertifications(splitLabels(row.get('Additional Certification(s)')))
    }
  }, {
    kind: 'issuances',
    columns: ['Date Issued', 'Project ID', 'Vintage', 'Total Offset Credits Issued'],
    read: (row, context) => readIssuance({
      id: 'Project ID',
      prefix: 'CAR',
      quantity: 'Total Offset Credits Issued',
      fields: (c, r, id) => carCommon(c, r, id, carProgramme(r.get('Project Type'), '', '')),
      certifications: (r) => [
        ...flagged(r, [['ARB Eligible', 'ARB Eligible'], ['WA ECO Eligible', 'Washington Ecology Eligible'],
          ['Eligible for CORSIA 2021-2023 Compliance Period', 'CORSIA Eligible'],
          ['Eligible for CORSIA 2024-2026 Compliance Period', 'CORSIA Eligible'],
          ['Corresponding Adjustment', 'Corresponding Adjustment'], ['CCP Approved', 'ICVCM CCP']]),
        ...splitLabels(r.get('Additional Certification(s)'))
      ]
    }, row, context)
  }]
}

// --- ART (Architecture for REDD+ Transactions) ----------------------------------------------------------

const ART = { name_id: 'ART', verbose_name: 'Architecture for REDD+ Transactions (ART)' }

/** "ART - The REDD+ Environmental Excellence Standard (TREES)" → that standard; ART also hosts FCPF programmes. */
function artStandard (value: string): Named {
  const text = cleanText(value).replace(/^ART\s*-\s*/i, '') || 'The REDD+ Environmental Excellence Standard (TREES)'
  return { name_id: `ART_${upperSnake(text)}`, verbose_name: text }
}

function artCommon (context: RowContext, row: Row, id: string) {
  return {
    name: cleanText(row.get('Program Name')),
    symbol: `ART-${id.slice(3)}`,
    standard: artStandard(row.get('Crediting Program and Standard')),
    credit_type: context.mappings.creditType(row.get('Program Type')),
    url: pageUrl('art.apx.com', id, 'ART'),
    location: country(context, 'location', row.get('Program Country')),
    project_developer: cleanText(row.get('Sovereign Program Developer'))
  }
}

export const art: RegistryDefinition = {
  key: 'art',
  registry: ART,
  exports: () => [{
    kind: 'projects',
    columns: ['Program ID', 'Program Name', 'Crediting Program and Standard', 'Status'],
    read (row, context) {
      const id = apxId(context, row, 'Program ID', 'ART')
      if (id === undefined) return
      context.state(context.drafts.get(id), {
        ...artCommon(context, row, id),
        date: date(context, 'date', row.get('Initial Crediting Period Start Date'), 'month-first'),
        description: cleanLongText(row.raw('Program Notes'))
      })
    }
  }, {
    kind: 'issuances',
    columns: ['Date Approved', 'Program ID', 'Vintage', 'Credits Verified'],
    read: (row, context) => readIssuance({
      id: 'Program ID',
      prefix: 'ART',
      // The programme's credits net of the buffer deposit.
      quantity: 'Credits Verified',
      fields: artCommon,
      certifications: (r) => flagged(r, [['CORSIA Eligible', 'CORSIA Eligible'], ['CCP Approved', 'ICVCM CCP']])
    }, row, context)
  }]
}
