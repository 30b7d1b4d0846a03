import { AppError } from '../http/errors.ts'
import type { Db, VocabularyName } from '../store/database.ts'
import { ORDERING_FIELDS, type OrderingField, type Project, type ProjectListItem, type ProjectListQuery } from './catalogue.schemas.ts'
import { toListItem, toProject, type MediaLinker } from './project.mapper.ts'
import * as repository from './projects.repository.ts'

/** Validates the list filters against the vocabularies in the database and normalises them. */
export async function resolveFilters (db: Db, query: ProjectListQuery): Promise<repository.ProjectFilters> {
  const filters: repository.ProjectFilters = {}
  if (query.in_sale !== undefined) filters.inSale = ['true', 'True', '1'].includes(query.in_sale)
  if (query.location !== undefined) {
    const key = query.location.trim().toLowerCase()
    if (await repository.countryByKey(db, key) === undefined) {
      throw AppError.invalidParameter('location', `location "${query.location}" is not a known country name; allowed_values lists the valid names.`,
        await repository.countryNames(db))
    }
    filters.locationKey = key
  }
  const vocabularyFilters: Array<[keyof repository.ProjectFilters & ('creditType' | 'registry' | 'rating'), 'credit_type' | 'registry' | 'rating', VocabularyName]> = [
    ['creditType', 'credit_type', 'credit_types'],
    ['registry', 'registry', 'registries'],
    ['rating', 'rating', 'ratings']
  ]
  for (const [key, parameter, table] of vocabularyFilters) {
    const value = query[parameter]
    if (value === undefined) continue
    if (!await repository.vocabularyHas(db, table, value)) {
      const allowed = await repository.vocabularyValues(db, table)
      throw AppError.invalidParameter(parameter, `${parameter} "${value}" is not a known value; valid values: ${allowed.join(', ')}.`, allowed)
    }
    filters[key] = value
  }
  const search = query.search?.trim().toLowerCase()
  if (search !== undefined && search !== '') filters.search = search
  return filters
}

/** `ordering=name,-date` → terms, with id appended as the tie-breaker so pages are stable. */
export function parseOrdering (text: string | undefined): repository.OrderTerm[] {
  const terms: repository.OrderTerm[] = []
  for (const part of (text ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const descending = part.startsWith('-')
    const field = descending ? part.slice(1) : part
    if (!(ORDERING_FIELDS as readonly string[]).includes(field)) {
      throw AppError.invalidParameter('ordering', `ordering field "${field}" is not allowed; valid fields: ${ORDERING_FIELDS.join(', ')} (prefix "-" for descending).`,
        [...ORDERING_FIELDS])
    }
    if (terms.some((t) => t.field === field)) {
      throw AppError.invalidParameter('ordering', `ordering names "${field}" twice.`)
    }
    terms.push({ field: field as OrderingField, descending })
  }
  if (!terms.some((t) => t.field === 'id')) terms.push({ field: 'id', descending: false })
  return terms
}

export async function listProjectPage (db: Db, query: ProjectListQuery, links: MediaLinker): Promise<{ count: number, results: ProjectListItem[] }> {
  const filters = await resolveFilters(db, query)
  const ordering = parseOrdering(query.ordering)
  const [count, rows] = await Promise.all([
    repository.countProjects(db, filters),
    repository.listProjects(db, filters, ordering, query.limit, query.offset)
  ])
  const relations = await repository.loadRelations(db, rows.map((r) => r.id))
  return { count, results: rows.map((row) => toListItem(row, relations, links)) }
}

export async function getProjectDetail (db: Db, id: number, links: MediaLinker): Promise<Project> {
  const row = await repository.findProject(db, id)
  if (row === undefined) throw AppError.notFound(`No project with id ${id}.`)
  return toProject(row, await repository.loadRelations(db, [id]), links)
}
