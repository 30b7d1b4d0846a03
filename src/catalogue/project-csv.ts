import type { CsvColumn } from '../http/csv.ts'
import type { ProjectListItem } from './catalogue.schemas.ts'

// The project list as CSV: one line per project, the list item's fields flattened; lists (vintages,
// certifications, goals) are space-separated name_ids within one cell.

const ids = (values: ReadonlyArray<{ name_id: string }>) => values.map((value) => value.name_id).join(' ')

export const PROJECT_CSV_COLUMNS: ReadonlyArray<CsvColumn<ProjectListItem>> = [
  { header: 'id', value: (p) => p.id },
  { header: 'name', value: (p) => p.name },
  { header: 'symbol', value: (p) => p.symbol },
  { header: 'registry', value: (p) => p.registry.name_id },
  { header: 'standard', value: (p) => p.standard.name_id },
  { header: 'credit_type', value: (p) => p.credit_type?.name_id },
  { header: 'rating', value: (p) => p.rating?.name_id },
  { header: 'location', value: (p) => p.location },
  { header: 'location_alpha3', value: (p) => p.location_alpha3 },
  { header: 'latitude', value: (p) => p.latitude },
  { header: 'longitude', value: (p) => p.longitude },
  { header: 'date', value: (p) => p.date },
  { header: 'area', value: (p) => p.area },
  { header: 'estimated_annual_reductions', value: (p) => p.estimated_annual_reductions },
  { header: 'inventory_price', value: (p) => p.inventory_price },
  { header: 'credits_issued', value: (p) => p.credits_issued },
  { header: 'credits_retired', value: (p) => p.credits_retired },
  { header: 'vintages', value: (p) => p.vintages.join(' ') },
  { header: 'certifications', value: (p) => ids(p.certifications) },
  { header: 'sustainable_development_goals', value: (p) => ids(p.sustainable_development_goals) },
  { header: 'project_developer', value: (p) => p.project_developer },
  { header: 'is_bundle', value: (p) => p.is_bundle },
  { header: 'url', value: (p) => p.url },
  { header: 'updated_at', value: (p) => p.updated_at }
]

/** The OpenAPI example: the header line (the rows follow it, one per project, as the list's JSON gives them). */
export const PROJECT_CSV_EXAMPLE = `${PROJECT_CSV_COLUMNS.map((column) => column.header).join(',')}\r\n`
