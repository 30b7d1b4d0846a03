import type { Named, StatedTransaction } from './project-draft.ts'
import { parsePythonLiteral } from './python-literal.ts'
import {
  coordinate, country, date, protocols, quantity, transactionQuantity, type RegistryDefinition, type Row,
  type RowContext
} from './registry.ts'
import { CREDIT_TYPES } from './credit-types.ts'
import { cleanLongText, cleanText, parseYear, webUrl } from './values.ts'
import { ISOMETRIC, ISOMETRIC_STANDARD } from './registry-names.ts'

// Isometric: its API flattened to CSV (dot-separated columns). Projects are known by their short code (TS26);
// issuances and retirements name the project by its API id (prj_…), so they need the projects export in the same
// import. The project export carries the registry's own totals of credits issued and retired.

const BY_PROTOCOL: Readonly<Record<string, Named>> = {
  biochar: CREDIT_TYPES.biochar,
  'enhanced-weathering-agriculture': CREDIT_TYPES.rockWeathering,
  'direct-air-capture': CREDIT_TYPES.directAirCapture,
  reforestation: CREDIT_TYPES.afolu,
  'bio-oil-geological-storage': CREDIT_TYPES.biomassStorage,
  'biomass-geological-storage': CREDIT_TYPES.biomassStorage,
  'subsurface-biomass': CREDIT_TYPES.biomassStorage,
  'biogenic-capture-and-storage': CREDIT_TYPES.biomassStorage,
  'ocean-alkalinity-enhancement': CREDIT_TYPES.alkalinity,
  'river-alkalinity-enhancement': CREDIT_TYPES.alkalinity,
  'wastewater-alkalinity-enhancement': CREDIT_TYPES.alkalinity
}

const BY_PATHWAY: Readonly<Record<string, Named>> = {
  biomass_carbon_removal_and_storage: CREDIT_TYPES.biomassStorage,
  enhanced_weathering: CREDIT_TYPES.rockWeathering,
  marine: CREDIT_TYPES.alkalinity,
  direct_air_capture: CREDIT_TYPES.directAirCapture,
  reforestation: CREDIT_TYPES.afolu
}

function creditType (context: RowContext, protocol: string, pathway: string): Named | null {
  return BY_PROTOCOL[protocol] ?? BY_PATHWAY[pathway] ?? context.mappings.creditType('', protocol)
}

/** "['corporate_targets', 'x']" (a Python list, as the API's flattening wrote it) → "corporate_targets, x". */
function purposes (value: string): string {
  try {
    const list = parsePythonLiteral(value)
    if (Array.isArray(list)) return list.filter((p) => typeof p === 'string').join(', ')
  } catch {}
  return cleanText(value)
}

/** The year credits were sequestered ("2026-01-22" → 2026), the vintage OffsetsDB gives Isometric's credits. */
function sequestered (row: Row): number | null {
  return parseYear(row.get('sequestered_on').slice(0, 4)) ?? null
}

export const isometric: RegistryDefinition = {
  key: 'isometric',
  registry: ISOMETRIC,
  exports: () => {
    const codes = new Map<string, string>()
    /** A credit batch's transaction (an issuance or a retirement) of a project the import's projects export named. */
    const batch = (row: Row, context: RowContext,
      stated: Omit<StatedTransaction, 'date' | 'vintage' | 'quantity'> & { dateColumn: string }) => {
      const code = codes.get(row.get('project_id'))
      if (code === undefined) {
        return context.skip(`project ${row.get('project_id')} is not in a projects export of this import`)
      }
      const column = 'credit_batch_size_total.credits'
      const amount = transactionQuantity(context, column, row.get(column))
      if (amount === undefined) return
      const { dateColumn, ...transaction } = stated
      context.drafts.get(code).addTransaction({
        ...transaction,
        date: date(context, 'transactions.date', row.get(dateColumn), 'day-first'),
        vintage: sequestered(row),
        quantity: amount
      }, context)
    }
    return [{
      kind: 'projects',
      columns: ['id', 'name', 'short_code', 'protocol_slug', 'pathway'],
      read (row, context) {
        const code = row.get('short_code').toUpperCase()
        if (!/^[A-Z0-9]{2,12}$/.test(code)) {
          return context.skip(`short_code "${row.get('short_code')}" is not an Isometric project code`)
        }
        codes.set(row.get('id'), code)
        const draft = context.drafts.get(code)
        context.state(draft, {
          name: cleanText(row.get('name')),
          symbol: `ISO-${code}`,
          standard: ISOMETRIC_STANDARD,
          credit_type: creditType(context, row.get('protocol_slug'), row.get('pathway')),
          protocol: protocols(row.get('protocol_slug')),
          status: cleanText(row.get('status')) || null,
          project_type: context.mappings.projectTypeName(row.get('pathway').replace(/_/g, ' ')),
          category: context.mappings.category(row.get('protocol_slug'), row.get('pathway').replace(/_/g, ' ')),
          is_compliance: false,
          url: webUrl(row.get('url')),
          location: country(context, 'location', row.get('location.country_name') || row.get('country_code')),
          latitude: coordinate(context, 'latitude', row.get('location.latitude')),
          longitude: coordinate(context, 'longitude', row.get('location.longitude')),
          date: date(context, 'date', row.get('crediting_period_start'), 'day-first'),
          project_developer: cleanText(row.get('supplier.organisation.name')),
          // Isometric describes the supplier (the company), not each project.
          short_description: cleanText(row.get('supplier.short_description')) || null,
          description: cleanLongText(row.raw('supplier.long_description'))
        })
        draft.stateTotals(quantity(context, 'credits.issued', row.get('issued_credits_total.credits')),
          quantity(context, 'credits.retired', row.get('retired_credits_total.credits')))
      }
    }, {
      kind: 'issuances',
      columns: ['id', 'issued_at', 'project_id', 'credit_batch_size_total.credits'],
      read (row, context) {
        // Supplier and buffer-pool credits of the batch (docs/registries.md, "Issued").
        batch(row, context, { type: 'issuance', identity: row.get('id'), dateColumn: 'issued_at' })
      }
    }, {
      kind: 'retirements',
      columns: ['retirement_id', 'retired_at', 'project_id', 'credit_batch_size_total.credits'],
      read (row, context) {
        batch(row, context, {
          type: 'retirement',
          identity: row.get('retirement_id'),
          dateColumn: 'retired_at',
          beneficiary: cleanText(row.get('beneficiary.name')),
          reason: purposes(row.get('purposes')),
          note: cleanText(row.get('notes'))
        })
      }
    }]
  }
}
