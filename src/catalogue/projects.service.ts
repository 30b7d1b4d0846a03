import { AppError } from '../http/errors.ts'
import type { Db, VocabularyName } from '../store/database.ts'
import { ORDERING_FIELDS, type OrderingField, type ProjectListQuery } from './catalogue.schemas.ts'
import { detailJson } from './project-json.ts'
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

/**
 * Counts per filter combination, valid while the catalogue version is unchanged: a page after
 * the first costs no count at all, and any import (on any instance) starts a new version.
 */
const counts = new Map<string, number>()
const COUNT_CACHE_LIMIT = 10_000

async function cachedCount (db: Db, filters: repository.ProjectFilters, version: string): Promise<number> {
  const key = `${version}\u0000${JSON.stringify(filters)}`
  let count = counts.get(key)
  if (count === undefined) {
    count = await repository.countProjects(db, filters)
    if (counts.size >= COUNT_CACHE_LIMIT) counts.clear()
    counts.set(key, count)
  }
  return count
}

/** A page as unsigned JSON parts: the total and each item's stored JSON (media placeholders unsigned). */
export async function listProjectPage (db: Db, query: ProjectListQuery, version: string): Promise<{ count: number, items: string[] }> {
  const filters = await resolveFilters(db, query)
  const ordering = parseOrdering(query.ordering)
  const [count, rows] = await Promise.all([
    cachedCount(db, filters, version),
    repository.listProjectJson(db, filters, ordering, query.limit, query.offset)
  ])
  return { count, items: rows.map((row) => row.item_json ?? missingJson(row.id)) }
}

/** The detail as unsigned JSON. */
export async function getProjectJson (db: Db, id: number): Promise<string> {
  const row = await repository.findProjectJson(db, id)
  if (row === undefined) throw AppError.notFound(`No project with id ${id}.`)
  return detailJson(row.item_json ?? missingJson(id), row.external_id)
}

function missingJson (id: number): never {
  // Imports build the JSON and start-up fills any gap, so this is a bug, reported as a 500.
  throw new Error(`project ${id} has no stored JSON`)
}
