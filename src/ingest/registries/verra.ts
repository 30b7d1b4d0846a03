import type { Named } from './project-draft.ts'
import {
  country, date, protocols, quantity, sdgNumbers, serialTransaction, type RegistryDefinition, type Row, type RowContext
} from './registry.ts'
import { creditTypeNamed } from './credit-types.ts'
import { cleanText, integerId, parseDate, parseQuantity } from './values.ts'
import { VERRA, VERRA_STANDARD } from './registry-names.ts'

// Verra (Verified Carbon Standard): the project list and the transactions export (issued blocks and
// retirements). Ids are bare numbers, shown by Verra as VCS<ID>. docs/registries.md has the mapping.

/** The first sectoral scope Verra names (projects may list several, "; "-separated). */
function creditType (context: RowContext, projectType: string, methodology: string): Named | null {
  const first = cleanText(projectType.split(';')[0] ?? '')
  return first === '' ? context.mappings.creditType('', methodology) : creditTypeNamed(first)
}

function projectId (context: RowContext, row: Row): string | undefined {
  const id = integerId(row.get('ID'))
  if (id === undefined) context.skip(`ID "${row.get('ID')}" is not a Verra project number`)
  return id
}

function common (context: RowContext, row: Row, id: string) {
  const type = cleanText(row.get('Project Type').split(';')[0] ?? '')
  const methodology = row.get('Methodology')
  return {
    protocol: protocols(methodology, context),
    project_type: context.mappings.projectTypeName(type) ?? (type || null),
    category: context.mappings.category(methodology, type),
    is_compliance: false,
    name: cleanText(row.get('Name')),
    symbol: `VCS-${id}`,
    standard: VERRA_STANDARD,
    credit_type: creditType(context, row.get('Project Type'), row.get('Methodology')),
    url: `https://registry.verra.org/app/projectDetail/VCS/${id}`,
    location: country(context, 'location', row.get('Country/Area'))
  }
}

export const verra: RegistryDefinition = {
  key: 'verra',
  registry: VERRA,
  exports: () => {
    // Each vintage period's Total Vintage Quantity counts once per project, however many blocks it has.
    const periods = new Set<string>()
    return [{
      kind: 'projects',
      columns: ['ID', 'Name', 'Proponent', 'Project Type', 'Methodology', 'Country/Area'],
      read (row, context) {
        const id = projectId(context, row)
        if (id === undefined) return
        const registered = date(context, 'date', row.get('Project Registration Date'), 'day-first')
        context.state(context.drafts.get(`VCS${id}`), {
          ...common(context, row, id),
          project_developer: cleanText(row.get('Proponent')),
          status: cleanText(row.get('Status')) || null,
          estimated_annual_reductions: quantity(context, 'estimated_annual_reductions',
            row.get('Estimated Annual Emission Reductions'), { zeroIsUnknown: true }),
          date: registered ?? date(context, 'date', row.get('Crediting Period Start Date'), 'day-first')
        })
      }
    }, {
      kind: 'transactions',
      columns: ['ID', 'Vintage Start', 'Vintage End', 'Total Vintage Quantity', 'Quantity Issued',
        'Retirement/Cancellation Date'],
      read (row, context) {
        const id = projectId(context, row)
        if (id === undefined) return
        const end = parseDate(row.get('Vintage End'), 'day-first')
        const notA = (column: string, what: string) => context.skip(`${column} "${row.get(column)}" is not a ${what}`)
        if (end === undefined || end === null) return notA('Vintage End', 'date')
        const start = parseDate(row.get('Vintage Start'), 'day-first') ?? null
        const total = parseQuantity(row.get('Total Vintage Quantity'))
        const block = parseQuantity(row.get('Quantity Issued'))
        if (total === undefined) return notA('Total Vintage Quantity', 'number')
        if (block === undefined || block === null) return notA('Quantity Issued', 'number')
        const draft = context.drafts.get(`VCS${id}`)
        draft.seenAt(context)
        draft.listsTypes(['issuance', 'retirement'])
        draft.fillFields(common(context, row, id))
        // A row with a retirement (or cancellation: Verra's export does not tell them apart) date is retired.
        const retiredOn = row.get('Retirement/Cancellation Date')
        const retired = retiredOn === '' ? 0 : block
        const period = `${id}|${row.get('Vintage Start')}|${row.get('Vintage End')}`
        const first = !periods.has(period)
        periods.add(period)
        const vintage = Number(end.slice(0, 4))
        draft.addCredits(vintage, first ? total : 0, retired)
        // The period's credits are issued once (Total Vintage Quantity), however many blocks it was issued in.
        if (first && total !== null && total > 0) {
          draft.addTransaction({
            type: 'issuance',
            identity: `VCS${id}:${row.get('Vintage Start')}-${row.get('Vintage End')}`,
            date: date(context, 'transactions.date', row.get('Issuance Date'), 'day-first'),
            vintage,
            quantity: total,
            vintageStart: start,
            vintageEnd: end
          }, context)
        }
        if (retiredOn !== '' && block > 0) {
          draft.addTransaction(serialTransaction(context, row,
            { type: 'retirement', date: retiredOn, vintage, quantity: block, vintageStart: start, vintageEnd: end },
            { beneficiary: 'Retirement Beneficiary', reason: 'Retirement Reason', note: 'Retirement Details' }),
          context)
        }
        draft.addSdgs(sdgNumbers(context, row.get('Sustainable Development Goals')))
        draft.addCertifications(row.get('Additional Certifications').split(';').map(cleanText).filter((c) => c !== ''))
      }
    }]
  }
}
