import { CARB_IDENTITY_PREFIX } from './carb-identity.ts'
import type { Named } from './project-draft.ts'
import {
  complianceStandard, country, date, type ExportDefinition, type RegistryDefinition, type Row, type RowContext
} from './registry.ts'
import { cleanText, integerId, parseQuantity, parseYear } from './values.ts'
import { ACR, CAR, VERRA } from './registry-names.ts'

// CARB's (California Air Resources Board) issuance table of compliance offset credits, nc-arboc_issuance_sheet3:
// one row per issuance, with what became of its credits (retired for each compliance period, voluntarily, in
// Quebec). Its projects are the ACR, CAR and Verra projects it names (OPR Project ID: ACR1051, CAR1011, or a
// Verra number). Its transactions (identities arb:…) are the authority on those projects' totals: the registry's
// own transactions of them stay in the ledger but do not count (ledger-import.repository.ts ledgerSums;
// OffsetsDB's merge_with_arb does the same). docs/registries.md, "CARB".

/** The registries whose projects CARB's table names, by the id's prefix. */
const ARB_TARGETS: ReadonlyArray<{ prefix: string, registry: Named }> = [
  { prefix: 'ACR', registry: ACR },
  { prefix: 'CAR', registry: CAR },
  { prefix: 'VCS', registry: VERRA }
]

/** Columns of retired credits; the table gives no date for them, only the compliance period. */
const RETIRED = ['Retired Voluntarily', 'Retired 1st Compliance Period (CA)', 'Retired 2nd Compliance Period (CA)',
  'Retired 3rd Compliance Period (CA)', 'Retired 4th Compliance Period (CA)', 'Retired 5th Compliance Period (CA)',
  'Retired for Compliance in Quebec']

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
  // What the table says of a project the catalogue lacks (OffsetsDB adds these too); a stored project keeps its own.
  const target = ARB_TARGETS.find((t) => project.startsWith(t.prefix))!
  const type = cleanText(row.get('Project Type'))
  draft.fillFields({
    name: cleanText(row.get('Offset Project Name')),
    symbol: `${target.prefix}-${project.slice(target.prefix.length)}`,
    standard: complianceStandard(target.registry.name_id, 'california', target.registry),
    location: country(context, 'location', 'United States'),
    project_developer: cleanText(row.get('Offset Project Operator')),
    project_type: context.mappings.projectTypeName(type) ?? (type || null),
    category: context.mappings.category('', type),
    is_compliance: true
  })
  const issued = parseQuantity(row.get('ARB Offset Credits Issued'))
  if (issued !== null && issued !== undefined && issued > 0 && vintage !== null) {
    draft.addTransaction({
      type: 'issuance',
      identity: `${CARB_IDENTITY_PREFIX}${issuance}:${start ?? ''}/${end ?? ''}`,
      date: date(context, 'transactions.date', row.get('Issuance Date'), 'month-first'),
      vintage,
      quantity: issued
    }, context)
  }
  for (const column of RETIRED) {
    const retired = parseQuantity(row.get(column))
    if (retired === null || retired === 0) continue
    // One row holds the issuance and every retired column: a column that does not read is reported as a warning,
    // not by skipping a row whose other columns were counted.
    if (retired === undefined || retired < 0) {
      const said = retired === undefined ? `"${row.get(column)}" is not a number` : `is ${retired}`
      context.warn('transactions.quantity', `${column} ${said}: not counted`)
      continue
    }
    draft.addTransaction({
      type: 'retirement',
      identity: `${CARB_IDENTITY_PREFIX}${issuance}:${start ?? ''}/${end ?? ''}:${column}`,
      date: null,
      vintage,
      quantity: retired,
      reason: column
    }, context)
  }
}

const issuances: ExportDefinition = {
  kind: 'issuances',
  columns: ['OPR Project ID', 'ARB Offset Credits Issued', 'CARB Issuance ID', 'Vintage'],
  read
}

export const arb: RegistryDefinition = {
  key: 'arb',
  registry: { name_id: 'CALIFORNIA_AIR_RESOURCES_BOARD', verbose_name: 'California Air Resources Board' },
  exports: () => [issuances],
  targets: ARB_TARGETS
}
