import { parsePythonLiteral, type PythonValue } from './python-literal.ts'
import type { ProjectDraft } from './project-draft.ts'
import {
  coordinate, country, date, protocols, quantity, transactionQuantity, type RegistryDefinition, type Row,
  type RowContext
} from './registry.ts'
import { cleanLongText, cleanText, firstSentence, isYes, parseDate, parseQuantity, parseYear } from './values.ts'
import { CERCARBONO, CERCARBONO_STANDARD } from './registry-names.ts'

// Cercarbono (on the EcoRegistry platform): a project export whose sector, locations and issued serials are
// Python-literal lists, an issuance export (one serial a row) and a retirement export. Projects are known by their
// public code (CDC-1); serials start with it (CDC_1_…). docs/registries.md has the mapping.

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
  registry: CERCARBONO,
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
        standard: CERCARBONO_STANDARD,
        credit_type: context.mappings.creditType(text(sector?.['description']), row.get('quantification_method')),
        protocol: protocols(row.get('quantification_method')),
        status: cleanText(row.get('stage')) || null,
        project_type: context.mappings.projectTypeName(text(sector?.['description'])),
        category: context.mappings.category(row.get('quantification_method'), text(sector?.['description'])),
        is_compliance: false,
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
      for (const serial of serials) {
        addIssuance(context, draft, {
          serial: text(serial['serial']),
          quantity: String(serial['issued_quantity'] ?? ''),
          date: text(serial['issuance_date']),
          vintage: text(serial['vintage_of_credits']),
          buffer: serial['is_buffer'] === true
        })
        const goals = Array.isArray(serial['global_goals']) ? serial['global_goals'].filter(isDict) : []
        draft.addSdgs(goals.map((g) => Number(g['code'])).filter((n) => Number.isInteger(n) && n >= 1 && n <= 17))
        const uses = Array.isArray(serial['elegible']) ? serial['elegible'].filter(isDict) : []
        draft.addCertifications(uses.map((u) => text(u['description'])).filter((d) => d !== ''))
      }
    }
  }, {
    kind: 'issuances',
    columns: ['serial', 'issued_quantity', 'issuance_date', 'vintage_of_credits', 'is_buffer'],
    read (row, context) {
      const code = codeOfSerial(row.get('serial'))
      if (code === undefined) return context.skip(`serial "${row.get('serial')}" does not name a project`)
      const draft = context.drafts.get(code)
      draft.seenAt(context)
      addIssuance(context, draft, {
        serial: row.get('serial'),
        quantity: row.get('issued_quantity'),
        date: row.get('issuance_date'),
        vintage: row.get('vintage_of_credits'),
        buffer: isYes(row.get('is_buffer'))
      })
    }
  }, {
    kind: 'retirements',
    columns: ['project_id', 'serial', 'vintage', 'end_user', 'date', 'quantity'],
    read (row, context) {
      const code = codeOfSerial(row.get('serial'))
      if (code === undefined) return context.skip(`serial "${row.get('serial')}" does not name a project`)
      const vintage = parseYear(row.get('vintage'))
      if (vintage === undefined) return context.skip(`vintage "${row.get('vintage')}" is not a year`)
      const retired = transactionQuantity(context, 'quantity', row.get('quantity'))
      if (retired === undefined) return
      const draft = context.drafts.get(code)
      draft.fillFields({ name: cleanText(row.get('project_name')) })
      // A serial is one issuance; its retirements are the numbered ranges from–to within it.
      draft.addTransaction({
        type: 'retirement',
        identity: `${row.get('serial')}:${row.get('from')}-${row.get('to')}`,
        date: date(context, 'transactions.date', row.get('date'), 'day-first'),
        vintage,
        quantity: retired,
        beneficiary: cleanText(row.get('end_user')),
        reason: cleanText(row.get('certificate_destination')),
        serials: `${row.get('serial')}:${row.get('from')}-${row.get('to')}`
      }, context)
    }
  }]
}

/** "CDC_1_1_1_321_14_1" → CDC-1; a revised serial "CDC_R_16_…" → CDC-16 (as OffsetsDB reads them). */
function codeOfSerial (serial: string): string | undefined {
  const parts = serial.trim().toUpperCase().split('_')
  const number = parts[1] === 'R' ? parts[2] : parts[1]
  return /^[A-Z]+$/.test(parts[0] ?? '') && /^\d+$/.test(number ?? '') ? `${parts[0]}-${number}` : undefined
}

/**
 * One issued serial, from the project export's list or the issuance export: the same identity either way.
 * Buffer serials count as issued (docs/registries.md, "Issued").
 */
function addIssuance (context: RowContext, draft: ProjectDraft,
  serial: { serial: string, quantity: string, date: string, vintage: string, buffer: boolean }): void {
  // "2010-01-01 / 2018-09-30": the vintage is the end year, as CarbonPlan's OffsetsDB reads it.
  const end = parseDate(serial.vintage.split('/')[1] ?? '', 'day-first')
  const issued = parseQuantity(serial.quantity)
  if (end === undefined || end === null || issued === undefined || issued === null || issued < 0) {
    context.warn('credits', `serial ${serial.serial} has no readable vintage or quantity; left out`)
    return
  }
  if (issued === 0) return
  const vintage = Number(end.slice(0, 4))
  draft.addTransaction({
    type: 'issuance',
    identity: serial.serial,
    date: parseDate(serial.date, 'day-first') ?? null,
    vintage,
    quantity: issued,
    serials: serial.serial
  }, context)
}
