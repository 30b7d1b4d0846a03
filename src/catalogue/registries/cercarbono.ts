import { parsePythonLiteral, type PythonValue } from './python-literal.ts'
import { coordinate, country, quantity, type RegistryDefinition, type Row, type RowContext } from './registry.ts'
import { cleanLongText, cleanText, firstSentence, parseDate, parseQuantity } from './values.ts'

// Cercarbono (on the EcoRegistry platform): one project export whose sector, locations and issued serials are
// Python-literal lists. Projects are known by their public code (CDC-1). docs/registries.md has the mapping.

const STANDARD = { name_id: 'CERCARBONO_CERCARBONO_PROTOCOL', verbose_name: 'Cercarbono Protocol' }

type Dict = { [key: string]: PythonValue }
const isDict = (value: PythonValue | undefined): value is Dict =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A Python-literal list column; a value that does not read is left out, with a warning. */
function list (context: RowContext, row: Row, column: string, field: string): Dict[] | undefined {
  const text = row.raw(column).trim()
  if (text === '') return []
  try {
    const value = parsePythonLiteral(text)
    if (Array.isArray(value)) return value.filter(isDict)
    context.warn(field, `${column} is not a list`)
  } catch (error) {
    context.warn(field, `${column} is not a readable list: ${(error as Error).message}`)
  }
  return undefined
}

const text = (value: PythonValue | undefined) => typeof value === 'string' ? cleanText(value) : ''

export const cercarbono: RegistryDefinition = {
  key: 'cercarbono',
  registry: { name_id: 'CERCARBONO', verbose_name: 'Cercarbono' },
  exports: () => [{
    kind: 'projects',
    columns: ['id', 'code', 'name', 'sector', 'locations', 'serials'],
    read (row, context) {
      const code = row.get('code').toUpperCase()
      if (!/^[A-Z]+-\d+$/.test(code)) return context.skip(`code "${row.get('code')}" is not a Cercarbono project code`)
      const sector = list(context, row, 'sector', 'credit_type')?.[0]
      const location = list(context, row, 'locations', 'location')?.[0]
      const position = isDict(location?.['data_map']) ? location['data_map'] : {}
      const size = sector?.['projectSize']
      const inHectares = /^(hect[aá]reas?|hectares?|ha)$/i.test(text(sector?.['sizeUnits']))
      const hectares = inHectares && typeof size === 'number' && size > 0
      const description = cleanLongText(row.raw('description'))
      const draft = context.drafts.get(code)
      context.state(draft, {
        name: cleanText(row.get('name')),
        symbol: code,
        standard: STANDARD,
        credit_type: context.mappings.creditType(text(sector?.['description']), row.get('quantification_method')),
        url: `https://www.ecoregistry.io/projects/${code}`,
        location: country(context, 'location', text(location?.['country'])),
        latitude: coordinate(context, 'latitude', position['latitude']),
        longitude: coordinate(context, 'longitude', position['longitude']),
        area: hectares ? size : null,
        estimated_annual_reductions: quantity(context, 'estimated_annual_reductions', row.get('annualEstimated'),
          { zeroIsUnknown: true }),
        project_developer: cleanText(row.get('developer')) || cleanText(row.get('owner')),
        description,
        short_description: firstSentence(description)
      })

      const serials = list(context, row, 'serials', 'credits')
      if (serials === undefined) return
      draft.knowCredits()
      draft.addSdgs([])
      draft.addCertifications([])
      // Buffer serials are deposits into the registry's buffer pool, not credits issued to the project.
      for (const serial of serials.filter((s) => s['is_buffer'] !== true)) {
        const goals = Array.isArray(serial['global_goals']) ? serial['global_goals'].filter(isDict) : []
        draft.addSdgs(goals.map((g) => Number(g['code'])).filter((n) => Number.isInteger(n) && n >= 1 && n <= 17))
        const uses = Array.isArray(serial['elegible']) ? serial['elegible'].filter(isDict) : []
        draft.addCertifications(uses.map((u) => text(u['description'])).filter((d) => d !== ''))
        // "2010-01-01 / 2018-09-30": the vintage is the end year, as CarbonPlan's OffsetsDB reads it.
        const end = parseDate(text(serial['vintage_of_credits']).split('/')[1] ?? '', 'day-first')
        const issued = parseQuantity(String(serial['issued_quantity'] ?? ''))
        if (end === undefined || end === null || issued === undefined || issued === null || issued < 0) {
          context.warn('credits', `serial ${text(serial['serial'])} has no readable vintage or quantity; left out`)
        } else if (issued > 0) {
          draft.addCredits(Number(end.slice(0, 4)), issued, null)
        }
      }
    }
  }]
}
