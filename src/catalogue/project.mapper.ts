import type { CreditsShown, ImportRecord, Project, ProjectListItem, Source } from './catalogue.schemas.ts'
import type { MediaLinker } from '../media/signing.ts'
import type { ProjectRecordRow, ProjectRelations } from './project-rows.repository.ts'

/** The media-store key of an SDG icon (drawn into the store at start-up). */
export const sdgIconKey = (number: number): string => `sdg/${number}.svg`

/** Where `tonne export` writes a stored image, relative to the export file. */
export const exportedMediaPath = (key: string): string => `media/${key}`

const named = (nameId: string, verboseName: string) => ({ name_id: nameId, verbose_name: verboseName })

/** The detail-only fields, after the list item's: credits per vintage and the data's source. */
interface DetailExtras { credits: CreditsShown, source: Source, sources: string[] }

/** Database row and relations → the API's Project (detail) object. Field order follows spec 2.1, additions last. */
function toProject (row: ProjectRecordRow, relations: ProjectRelations, links: MediaLinker): Project {
  const { id, ...rest } = toListItem(row, relations, links)
  return { id, external_id: row.external_id, ...rest, ...toDetailExtras(row, relations) }
}

export function toListItem (row: ProjectRecordRow, relations: ProjectRelations, links: MediaLinker): ProjectListItem {
  return {
    id: row.id,
    name: row.name,
    symbol: row.symbol,
    vintages: JSON.parse(row.vintages) as number[],
    registry: named(row.registry, row.registry_name),
    standard: named(row.standard, row.standard_name),
    credit_type: row.credit_type === null ? null : named(row.credit_type, row.credit_type_name ?? row.credit_type),
    short_description: row.short_description,
    rating: row.rating === null ? null : named(row.rating, row.rating_name ?? row.rating),
    certifications: (relations.certifications.get(row.id) ?? []).map((c) => named(c.name_id, c.verbose_name)),
    description: row.description,
    url: row.url,
    is_bundle: Boolean(row.is_bundle),
    bundles: row.bundles === null ? null : JSON.parse(row.bundles) as unknown[],
    inventory_price: row.inventory_price,
    location: row.location,
    latitude: row.latitude,
    longitude: row.longitude,
    date: row.date,
    area: row.area,
    estimated_annual_reductions: row.estimated_annual_reductions,
    project_developer: row.project_developer,
    sustainable_development_goals: (relations.sdgs.get(row.id) ?? [])
      .map((s) => ({ name_id: s.name_id, verbose_name: s.verbose_name, icon: links.media(sdgIconKey(s.number)) })),
    co_benefits: row.co_benefits,
    images: (relations.images.get(row.id) ?? [])
      .map((i) => ({ title: i.title, url: i.media_key === null ? i.external_url ?? '' : links.media(i.media_key) })),
    credits_issued: row.credits_issued,
    credits_retired: row.credits_retired,
    credits_cancelled: row.credits_cancelled,
    location_alpha2: row.location_alpha2,
    location_alpha3: row.location_alpha3,
    protocol: (relations.protocols.get(row.id) ?? []).map((p) => p.protocol),
    category: row.category,
    project_type: row.project_type,
    status: row.status,
    protocol_version: row.protocol_version,
    is_compliance: row.is_compliance === null ? null : Boolean(row.is_compliance),
    listed_date: row.listed_date,
    first_issuance_date: row.first_issuance_date,
    first_retirement_date: row.first_retirement_date,
    // Set by every import; empty only for a row written outside one, until its JSON is rebuilt.
    created_at: row.created_at ?? '',
    updated_at: row.updated_at ?? ''
  }
}

export function toDetailExtras (row: ProjectRecordRow, relations: ProjectRelations): DetailExtras {
  return {
    credits: {
      issued: row.credits_issued,
      retired: row.credits_retired,
      cancelled: row.credits_cancelled,
      vintages: (relations.vintages.get(row.id) ?? [])
        .map((v) => ({
          vintage: v.vintage,
          issued: v.issued,
          retired: v.retired,
          cancelled: v.cancelled,
          corsia_eligible: v.corsia_eligible === null ? null : Boolean(v.corsia_eligible)
        }))
    },
    source: row.source === null ? null : JSON.parse(row.source) as Source,
    sources: (relations.sources.get(row.id) ?? []).map((s) => s.source_name)
  }
}

/**
 * Row → the import format (`tonne export`): the detail shape plus in_sale, without icon links, totals, first dates,
 * ISO codes and timestamps (derived or this database's own); stored images become paths relative to the export file
 * (or what `relative` makes of their media keys). The ledger is added by the export itself.
 */
export function toImportRecord (
  row: ProjectRecordRow, relations: ProjectRelations, relative: MediaLinker = { media: exportedMediaPath }
): ImportRecord {
  const {
    sustainable_development_goals: sdgs, credits_issued: _issued, credits_retired: _retired,
    credits_cancelled: _cancelled, first_issuance_date: _firstIssuance, first_retirement_date: _firstRetirement,
    created_at: _created, updated_at: _updated, location_alpha2: _alpha2, location_alpha3: _alpha3,
    sources: _sources, ...project
  } = toProject(row, relations, relative)
  return {
    ...project,
    sustainable_development_goals: sdgs.map((s) => ({ name_id: s.name_id, verbose_name: s.verbose_name })),
    in_sale: Boolean(row.in_sale)
  }
}
