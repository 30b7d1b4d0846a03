import type { Named } from './project-draft.ts'
import { date, transactionQuantity, type ExportDefinition, type Row, type RowContext } from './registry.ts'
import { cleanText, integerId, parseQuantity, parseYear } from './values.ts'

// CARB's (California Air Resources Board) issuance table of compliance offset credits, nc-arboc_issuance_sheet3:
// one row per issuance, with what became of its credits (retired for each compliance period, voluntarily, in
// Quebec). Its projects are the ACR, CAR and Verra projects it names (OPR Project ID: ACR1051, CAR1011, or a
// Verra number); it adds their California issuances and retirements to the ledger of projects the catalogue has.

/** The registries whose projects CARB's table names, by the id's prefix. */
export const ARB_TARGETS: ReadonlyArray<{ prefix: string, registry: Named }> = [
  { prefix: 'ACR', registry: { name_id: 'AMERICAN_CARBON_REGISTRY', verbose_name: 'American Carbon Registry' } },
  { prefix: 'CAR', registry: { name_id: 'CLIMATE_ACTION_RESERVE', verbose_name: 'Climate Action Reserve' } },
  { prefix: 'VCS', registry: { name_id: 'VERRA', verbose_name: 'Verra' } }
]

/** Columns of retired credits; the table gives no date for them, only the compliance period. */
const RETIRED = ['Retired Voluntarily', 'Retired 1st Compliance Period (CA)', 'Retired 2nd Compliance Period (CA)',
  'Retired 3rd Compliance Period (CA)', 'Retired 4th Compliance Period (CA)', 'Retired 5th Compliance Period (CA)',
  'Retired for Compliance in Quebec']

/**
 * The identity of a compliance issuance: project, vintage and reporting period. ACR's issuance export states the
 * same issuance with the same period, so CARB's row and ACR's are one transaction (CARB's quantity wins when its
 * table is imported after).
 */
export function complianceIssuanceIdentity (project: string, vintage: number, start: string | null,
  end: string | null): string | undefined {
  return start === null || end === null ? undefined : `${project}:${vintage}:${start}/${end}`
}

function projectId (row: Row): string | undefined {
  const id = row.get('OPR Project ID').toUpperCase()
  if (/^(ACR|CAR)\d+$/.test(id)) return id
  const verra = integerId(id)
  return verra === undefined ? undefined : `VCS${verra}`
}

function read (row: Row, context: RowContext): void {
  const project = projectId(row)
  if (project === undefined) return context.skip(`OPR Project ID "${row.get('OPR Project ID')}" is not a project id`)
  const vintage = parseYear(row.get('Vintage')) ?? null
  const start = date(context, 'transactions.date', row.get('Reporting Period Start Date'), 'month-first')
  const end = date(context, 'transactions.date', row.get('Reporting Period End Date'), 'month-first')
  const issuance = cleanText(row.get('CARB Issuance ID'))
  const draft = context.drafts.get(project)
  draft.seenAt(context)
  const issued = parseQuantity(row.get('ARB Offset Credits Issued'))
  if (issued !== null && issued !== undefined && issued > 0 && vintage !== null) {
    draft.addTransaction({
      type: 'issuance',
      identity: complianceIssuanceIdentity(project, vintage, start, end) ?? `arb:${issuance}`,
      date: date(context, 'transactions.date', row.get('Issuance Date'), 'month-first'),
      vintage,
      quantity: issued
    }, context)
  }
  for (const column of RETIRED) {
    if ((parseQuantity(row.get(column)) ?? 0) === 0) continue
    const retired = transactionQuantity(context, column, row.get(column))
    if (retired === undefined) continue
    draft.addTransaction({
      type: 'retirement',
      identity: `arb:${issuance}:${start ?? ''}/${end ?? ''}:${column}`,
      date: null,
      vintage,
      quantity: retired,
      reason: column
    }, context)
  }
}

export const arbIssuances: ExportDefinition = {
  kind: 'issuances',
  columns: ['OPR Project ID', 'ARB Offset Credits Issued', 'CARB Issuance ID', 'Vintage'],
  read
}
