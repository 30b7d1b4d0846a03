import { sql } from 'kysely'
import type { Db } from '../store/database.ts'
import type { Facet } from './catalogue.schemas.ts'
import { filteredProjects, type ProjectFilters } from './project-list.repository.ts'

// The facets' SQL: matching projects counted per value of one field.

interface FacetRow { value: string | number | boolean, label: string | number | boolean, count: number | string }

const COUNT = sql<number>`count(*)`.as('count')
/** A project with a value twice (two positions of one certification) counts once. */
const COUNT_PROJECTS = sql<number>`count(distinct p.id)`.as('count')

/** Matching projects per value of one facet (values no project has never appear). */
export async function facetCounts (db: Db, filters: ProjectFilters, facet: Facet): Promise<FacetRow[]> {
  const base = filteredProjects(db, filters)
  switch (facet) {
    case 'registry':
    case 'credit_type':
    case 'rating': {
      const table = ({ registry: 'registries', credit_type: 'credit_types', rating: 'ratings' } as const)[facet]
      return await base.innerJoin(`${table} as v`, 'v.name_id', `p.${facet}`)
        .select(['v.name_id as value', 'v.verbose_name as label', COUNT])
        .groupBy(['v.name_id', 'v.verbose_name']).execute()
    }
    case 'location':
      return await base.where('p.location', '<>', '')
        .select(['p.location as value', 'p.location as label', COUNT])
        .groupBy('p.location').execute()
    case 'in_sale':
      return await base.select(['p.in_sale as value', 'p.in_sale as label', COUNT])
        .groupBy('p.in_sale').execute()
    case 'vintage':
      return await base.innerJoin('project_vintages as pv', 'pv.project_id', 'p.id')
        .select(['pv.vintage as value', 'pv.vintage as label', COUNT])
        .groupBy('pv.vintage').execute()
    case 'certification':
      return await base.innerJoin('project_certifications as pc', 'pc.project_id', 'p.id')
        .innerJoin('certifications as c', 'c.name_id', 'pc.certification')
        .select(['c.name_id as value', 'c.verbose_name as label', COUNT_PROJECTS])
        .groupBy(['c.name_id', 'c.verbose_name']).execute()
    case 'sdg':
      return await base.innerJoin('project_sdgs as ps', 'ps.project_id', 'p.id')
        .innerJoin('sdgs as s', 's.number', 'ps.sdg')
        .select(['s.name_id as value', 's.verbose_name as label', COUNT_PROJECTS])
        .groupBy(['s.name_id', 's.verbose_name']).execute()
    // Spellings that differ only in case are one value, as for the filter: counted once, shown in one spelling.
    case 'status':
    case 'category': {
      const column = sql.ref(`p.${facet}`)
      return await base.where(`p.${facet}`, 'is not', null)
        .select([sql<string>`min(${column})`.as('value'), sql<string>`min(${column})`.as('label'), COUNT])
        .groupBy(sql`lower(${column})`).execute()
    }
    case 'is_compliance':
      return await base.where('p.is_compliance', 'is not', null)
        .select(['p.is_compliance as value', 'p.is_compliance as label', COUNT]).groupBy('p.is_compliance')
        .execute() as FacetRow[]
    case 'protocol':
      return await base.innerJoin('project_protocols as pp', 'pp.project_id', 'p.id')
        .select([sql<string>`min(pp.protocol)`.as('value'), sql<string>`min(pp.protocol)`.as('label'),
          COUNT_PROJECTS])
        .groupBy(sql`lower(pp.protocol)`).execute()
  }
}
