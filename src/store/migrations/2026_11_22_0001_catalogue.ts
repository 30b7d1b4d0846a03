import type { Kysely } from 'kysely'
import { COUNTRIES_2026_11_22 } from './data/2026_11_22_0001_countries.ts'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.

const SDGS: ReadonlyArray<[number, string, string, string]> = [
  // Goal numbers and short titles: UN 2030 Agenda (A/RES/70/1); colours: UN SDG communication guidelines.
  [1, '1_NO_POVERTY', 'No Poverty', '#E5243B'],
  [2, '2_ZERO_HUNGER', 'Zero Hunger', '#DDA63A'],
  [3, '3_GOOD_HEALTH_AND_WELL_BEING', 'Good Health and Well-being', '#4C9F38'],
  [4, '4_QUALITY_EDUCATION', 'Quality Education', '#C5192D'],
  [5, '5_GENDER_EQUALITY', 'Gender Equality', '#FF3A21'],
  [6, '6_CLEAN_WATER_AND_SANITATION', 'Clean Water and Sanitation', '#26BDE2'],
  [7, '7_AFFORDABLE_AND_CLEAN_ENERGY', 'Affordable and Clean Energy', '#FCC30B'],
  [8, '8_DECENT_WORK_AND_ECONOMIC_GROWTH', 'Decent Work and Economic Growth', '#A21942'],
  [9, '9_INDUSTRY_INNOVATION_AND_INFRASTRUCTURE', 'Industry, Innovation and Infrastructure', '#FD6925'],
  [10, '10_REDUCED_INEQUALITIES', 'Reduced Inequalities', '#DD1367'],
  [11, '11_SUSTAINABLE_CITIES_AND_COMMUNITIES', 'Sustainable Cities and Communities', '#FD9D24'],
  [12, '12_RESPONSIBLE_CONSUMPTION_AND_PRODUCTION', 'Responsible Consumption and Production', '#BF8B2E'],
  [13, '13_CLIMATE_ACTION', 'Climate Action', '#3F7E44'],
  [14, '14_LIFE_BELOW_WATER', 'Life Below Water', '#0A97D9'],
  [15, '15_LIFE_ON_LAND', 'Life on Land', '#56C02B'],
  [16, '16_PEACE_JUSTICE_AND_STRONG_INSTITUTIONS', 'Peace, Justice and Strong Institutions', '#00689D'],
  [17, '17_PARTNERSHIPS_FOR_THE_GOALS', 'Partnerships for the Goals', '#19486A']
]

// The rating values the spec's filter lists; verbose_name equals name_id as in its sample.
const RATINGS = ['A', 'AA', 'AAA-', 'AA+']

// The certification values the spec shows.
const CERTIFICATIONS: ReadonlyArray<[string, string]> = [
  ['NONE', 'None'],
  ['CCB_VALIDATION_APPROVED', 'CCB Validation Approved']
]

export async function up (db: Kysely<any>): Promise<void> {
  for (const table of ['registries', 'standards', 'credit_types', 'ratings', 'certifications']) {
    await db.schema.createTable(table)
      .addColumn('name_id', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('verbose_name', 'varchar(500)', (c) => c.notNull())
      .execute()
  }

  await db.schema.createTable('sdgs')
    .addColumn('number', 'integer', (c) => c.primaryKey())
    .addColumn('name_id', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('verbose_name', 'varchar(500)', (c) => c.notNull())
    .addColumn('colour', 'varchar(7)', (c) => c.notNull())
    .execute()

  await db.schema.createTable('countries')
    .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('name_key', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('alpha2', 'varchar(2)')
    .addColumn('alpha3', 'varchar(3)')
    .execute()

  await db.schema.createTable('projects')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('external_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('symbol', 'varchar(200)', (c) => c.notNull())
    .addColumn('vintages', 'text', (c) => c.notNull())
    .addColumn('registry', 'varchar(200)', (c) => c.notNull().references('registries.name_id'))
    .addColumn('standard', 'varchar(200)', (c) => c.notNull().references('standards.name_id'))
    .addColumn('credit_type', 'varchar(200)', (c) => c.references('credit_types.name_id'))
    .addColumn('rating', 'varchar(200)', (c) => c.references('ratings.name_id'))
    .addColumn('short_description', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('is_bundle', 'boolean', (c) => c.notNull())
    .addColumn('bundles', 'text')
    .addColumn('inventory_price', 'double precision')
    .addColumn('location', 'varchar(200)', (c) => c.notNull())
    .addColumn('location_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('date', 'varchar(10)')
    .addColumn('area', 'double precision')
    .addColumn('estimated_annual_reductions', 'double precision')
    .addColumn('project_developer', 'text', (c) => c.notNull())
    .addColumn('co_benefits', 'text', (c) => c.notNull())
    .addColumn('in_sale', 'boolean', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addUniqueConstraint('projects_registry_external_id', ['registry', 'external_id'])
    .execute()

  // One index per filter and ordering field; id is the tie-breaker of every ordering.
  const indexed = ['location_key', 'registry', 'credit_type', 'rating', 'in_sale', 'name', 'symbol', 'date',
    'area', 'estimated_annual_reductions', 'inventory_price']
  for (const column of indexed) {
    await db.schema.createIndex(`projects_${column}_idx`).on('projects').columns([column, 'id']).execute()
  }

  await db.schema.createTable('project_certifications')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('certification', 'varchar(200)', (c) => c.notNull().references('certifications.name_id'))
    .addPrimaryKeyConstraint('project_certifications_pk', ['project_id', 'position'])
    .execute()

  await db.schema.createTable('project_sdgs')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('sdg', 'integer', (c) => c.notNull().references('sdgs.number'))
    .addPrimaryKeyConstraint('project_sdgs_pk', ['project_id', 'position'])
    .execute()

  await db.schema.createTable('project_images')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('media_key', 'varchar(200)')
    .addColumn('external_url', 'text')
    .addPrimaryKeyConstraint('project_images_pk', ['project_id', 'position'])
    .execute()

  await db.schema.createTable('meta')
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute()

  await db.insertInto('sdgs')
    .values(SDGS.map(([number, nameId, verboseName, colour]) => ({ number, name_id: nameId, verbose_name: verboseName, colour })))
    .execute()
  await db.insertInto('ratings').values(RATINGS.map((r) => ({ name_id: r, verbose_name: r }))).execute()
  await db.insertInto('certifications')
    .values(CERTIFICATIONS.map(([nameId, verboseName]) => ({ name_id: nameId, verbose_name: verboseName })))
    .execute()
  // A frozen copy of the country list (data/), not the live file: this migration must never change.
  await db.insertInto('countries')
    .values(COUNTRIES_2026_11_22.map(([name, alpha2, alpha3]) =>
      ({ name, name_key: name.toLowerCase(), alpha2, alpha3 })))
    .execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  for (const table of ['meta', 'project_images', 'project_sdgs', 'project_certifications', 'projects', 'countries',
    'sdgs', 'certifications', 'ratings', 'credit_types', 'standards', 'registries']) {
    await db.schema.dropTable(table).execute()
  }
}
