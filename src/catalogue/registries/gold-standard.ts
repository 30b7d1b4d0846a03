import {
  country, issuedQuantity, quantity, sdgNumbers, type RegistryDefinition, type Row, type RowContext
} from './registry.ts'
import { cleanLongText, cleanText, firstSentence, integerId, parseYear } from './values.ts'

// Gold Standard: the project list and the issuances export. Ids are GSIDs, shown as GS<GSID>. The project
// list has no methodology, dates or certifications; issuances carry labels (ICVCM CCP) and Article 6 status.

const STANDARD = {
  name_id: 'GOLD_STANDARD_GOLD_STANDARD_FOR_THE_GLOBAL_GOALS', verbose_name: 'Gold Standard for the Global Goals'
}

/** Labels that say what kind of credit it is, not a certification the project holds. */
const CREDIT_KIND_LABELS = new Set(['emission reduction', 'emission reductions', 'removal', 'removals', 'reduction'])
const NOT_AUTHORISED = new Set(['', 'not applicable', 'n/a', 'no', 'not authorized', 'not authorised'])

function gsid (context: RowContext, row: Row): string | undefined {
  const id = integerId(row.get('GSID'))
  if (id === undefined) context.skip(`GSID "${row.get('GSID')}" is not a Gold Standard id`)
  return id
}

function common (context: RowContext, row: Row, id: string, developerColumn: string) {
  return {
    name: cleanText(row.get('Project Name')),
    symbol: `GS-${id}`,
    standard: STANDARD,
    credit_type: context.mappings.creditType(row.get('Project Type'), row.get('Methodology')),
    // Gold Standard's project pages are not addressed by GSID: this is its registry's search for the project.
    url: `https://registry.goldstandard.org/projects?q=gs${id}`,
    location: country(context, 'location', row.get('Country')),
    project_developer: cleanText(row.get(developerColumn))
  }
}

export const goldStandard: RegistryDefinition = {
  key: 'gold-standard',
  registry: { name_id: 'GOLD_STANDARD', verbose_name: 'Gold Standard' },
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
        estimated_annual_reductions: quantity(context, 'estimated_annual_reductions',
          row.get('Estimated Annual Credits'), { zeroIsUnknown: true })
      })
      draft.addSdgs(sdgNumbers(context, row.get('Sustainable Development Goals')))
    }
  }, {
    kind: 'issuances',
    columns: ['Vintage', 'Credit Status', 'Quantity', 'GSID', 'Issuance Date'],
    read (row, context) {
      const id = gsid(context, row)
      if (id === undefined) return
      if (row.get('Credit Status').toLowerCase() !== 'issued') {
        return context.skip(`Credit Status "${row.get('Credit Status')}" is not an issuance`)
      }
      const vintage = parseYear(row.get('Vintage'))
      if (vintage === undefined) return context.skip(`Vintage "${row.get('Vintage')}" is not a year`)
      const issued = issuedQuantity(context, 'Quantity', row.get('Quantity'))
      if (issued === undefined) return
      const draft = context.drafts.get(`GS${id}`)
      draft.seenAt(context)
      draft.fillFields(common(context, row, id, 'Project Developer'))
      // Retirements are a separate Gold Standard export: unknown here.
      draft.addCredits(vintage, issued, null)
      const labels = row.get('Label').split(',').map(cleanText)
        .filter((l) => l !== '' && !CREDIT_KIND_LABELS.has(l.toLowerCase()))
      if (!NOT_AUTHORISED.has(row.get('Article Six Authorization').toLowerCase())) labels.push('Article 6 Authorized')
      draft.addCertifications(labels)
    }
  }]
}
