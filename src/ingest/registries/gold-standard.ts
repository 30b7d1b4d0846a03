import type { TransactionType } from '../../catalogue/catalogue.schemas.ts'
import {
  country, date, protocols, protocolVersion, quantity, sdgNumbers, serialTransaction, transactionQuantity,
  type RegistryDefinition, type Row, type RowContext
} from './registry.ts'
import { cleanLongText, cleanText, firstSentence, integerId, parseYear } from './values.ts'
import { GOLD_STANDARD, GOLD_STANDARD_STANDARD } from './registry-names.ts'

// Gold Standard: the project list and the issuances export. Ids are GSIDs, shown as GS<GSID>. The project
// list has no methodology, dates or certifications; issuances carry labels (ICVCM CCP) and Article 6 status.

/** Labels that say what kind of credit it is, not a certification the project holds. */
const CREDIT_KIND_LABELS = new Set(['emission reduction', 'emission reductions', 'removal', 'removals', 'reduction'])
const NOT_AUTHORISED = new Set(['', 'not applicable', 'n/a', 'no', 'not authorized', 'not authorised'])

function gsid (context: RowContext, row: Row): string | undefined {
  const id = integerId(row.get('GSID'))
  if (id === undefined) context.skip(`GSID "${row.get('GSID')}" is not a Gold Standard id`)
  return id
}

function common (context: RowContext, row: Row, id: string, developerColumn: string) {
  const type = row.get('Project Type')
  const methodology = row.get('Methodology')
  return {
    protocol: protocols(methodology, context),
    protocol_version: protocolVersion(methodology),
    project_type: context.mappings.projectTypeName(type) ?? (cleanText(type) || null),
    category: context.mappings.category(methodology, type),
    is_compliance: false,
    name: cleanText(row.get('Project Name')),
    symbol: `GS-${id}`,
    standard: GOLD_STANDARD_STANDARD,
    credit_type: context.mappings.creditType(row.get('Project Type'), row.get('Methodology')),
    // Gold Standard's project pages are not addressed by GSID: this is its registry's search for the project.
    url: `https://registry.goldstandard.org/projects?q=gs${id}`,
    location: country(context, 'location', row.get('Country')),
    project_developer: cleanText(row.get(developerColumn))
  }
}

export const goldStandard: RegistryDefinition = {
  key: 'gold-standard',
  registry: GOLD_STANDARD,
  exports: () => [{
    kind: 'projects',
    columns: ['GSID', 'Project Name', 'Project Developer Name', 'Country', 'Estimated Annual Credits'],
    read (row, context) {
      const id = gsid(context, row)
      if (id === undefined) return
      const description = cleanLongText(row.raw('Description'))
      const draft = context.drafts.get(`GS${id}`)
      context.state(draft, {
        ...common(context, row, id, 'Project Developer Name'),
        description,
        short_description: firstSentence(description),
        status: cleanText(row.get('Status')) || null,
        estimated_annual_reductions: quantity(context, 'estimated_annual_reductions',
          row.get('Estimated Annual Credits'), { zeroIsUnknown: true })
      })
      draft.addSdgs(sdgNumbers(context, row.get('Sustainable Development Goals')))
    }
  }, {
    kind: 'issuances',
    columns: ['Vintage', 'Credit Status', 'Quantity', 'GSID', 'Issuance Date'],
    read (row, context) {
      if (row.get('Credit Status').toLowerCase() !== 'issued') {
        return context.skip(`Credit Status "${row.get('Credit Status')}" is not an issuance`)
      }
      readLedgerRow('issuance', row, context)
    }
  }, {
    // Retired and cancelled credits: the issuance columns and the retirement's own (a date, the using entity).
    kind: 'retirements',
    columns: ['Vintage', 'Credit Status', 'Quantity', 'GSID', 'Issuance Date', 'Retirement Date'],
    read (row, context) {
      const status = row.get('Credit Status').toLowerCase()
      if (status !== 'retired' && status !== 'canceled' && status !== 'cancelled') {
        return context.skip(`Credit Status "${row.get('Credit Status')}" is not a retirement or cancellation`)
      }
      readLedgerRow(status === 'retired' ? 'retirement' : 'cancellation', row, context)
    }
  }]
}

/** A row of the issuances or retirements export: one transaction, and what the row repeats of the project. */
function readLedgerRow (type: TransactionType, row: Row, context: RowContext): void {
  const id = gsid(context, row)
  if (id === undefined) return
  const vintage = parseYear(row.get('Vintage'))
  if (vintage === undefined) return context.skip(`Vintage "${row.get('Vintage')}" is not a year`)
  const amount = transactionQuantity(context, 'Quantity', row.get('Quantity'))
  if (amount === undefined) return
  const draft = context.drafts.get(`GS${id}`)
  draft.fillFields(common(context, row, id, 'Project Developer'))
  const when = type === 'issuance' ? row.get('Issuance Date') : row.get('Retirement Date')
  const period = (column: string) => row.get(column) === '' ? null : date(context, column, row.get(column), 'day-first')
  draft.addTransaction(serialTransaction(context, row, {
    type,
    date: when,
    vintage,
    quantity: amount,
    vintageStart: period('Monitoring Period Start'),
    vintageEnd: period('Monitoring Period End')
  }, { beneficiary: 'Using Entity', reason: 'Use Case', note: 'Note' }), context)
  if (type !== 'issuance') return
  const labels = row.get('Label').split(',').map(cleanText)
    .filter((l) => l !== '' && !CREDIT_KIND_LABELS.has(l.toLowerCase()))
  if (!NOT_AUTHORISED.has(row.get('Article Six Authorization').toLowerCase())) labels.push('Article 6 Authorized')
  draft.addCertifications(labels)
}
