import { Type, type Static, type TObject, type TProperties } from 'typebox'
import { StringEnum } from '../http/schemas.ts'

/** Largest id the catalogue stores: a 32-bit signed integer, the same on SQLite and PostgreSQL. */
export const MAX_PROJECT_ID = 2_147_483_647
export const LIMIT_DEFAULT = 50
export const LIMIT_MAX = 1000
/** Offsets past this are refused rather than handed to the database (2^53 - 1). */
export const OFFSET_MAX = Number.MAX_SAFE_INTEGER

export const IN_SALE_VALUES = ['true', 'false', 'True', 'False', '1', '0'] as const

/** Fields `ordering` accepts (prefix with `-` for descending); id always breaks ties. */
export const ORDERING_FIELDS = ['id', 'name', 'symbol', 'date', 'location', 'area', 'estimated_annual_reductions',
  'inventory_price'] as const
export type OrderingField = typeof ORDERING_FIELDS[number]

const NamedValue = (description: string) => Type.Object({
  name_id: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Z0-9][A-Z0-9_+-]*$', description: 'Upper-case, underscore-separated identifier.' }),
  verbose_name: Type.String()
}, { description })

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

const ProjectFields = {
  id: Type.Integer({ minimum: 1, maximum: MAX_PROJECT_ID, description: 'Unique identifier of the project.' }),
  name: Type.String(),
  symbol: Type.String({ description: 'Id code of the project.' }),
  vintages: Type.Array(Type.Integer(), { description: 'Vintage years.' }),
  registry: NamedValue('The registry that approves and monitors the project.'),
  standard: NamedValue('The standard the project is certified against.'),
  credit_type: Nullable(NamedValue('The carbon removal or avoidance type; null when the registry gives none.')),
  short_description: Nullable(Type.String()),
  rating: Nullable(NamedValue('null when the project has no rating.')),
  certifications: Type.Array(NamedValue('A certification.')),
  description: Type.String({ description: 'Detailed description; may contain HTML; may be empty.' }),
  url: Nullable(Type.String({ description: "URL of the project's registry page." })),
  is_bundle: Type.Boolean(),
  bundles: Nullable(Type.Array(Type.Unknown(), { description: 'Empty for a non-bundle project.' })),
  inventory_price: Nullable(Type.Number()),
  location: Type.String({ description: 'Country where the project is located; may be empty.' }),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  date: Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD.' })),
  area: Nullable(Type.Number({ description: 'Hectares.' })),
  estimated_annual_reductions: Nullable(Type.Number({ description: 'Tonnes per year.' })),
  project_developer: Type.String({ description: 'May be empty.' }),
  sustainable_development_goals: Type.Array(Type.Object({
    name_id: Type.String({ description: '"<number>_<GOAL_NAME>", goals 1 to 17.' }),
    verbose_name: Type.String(),
    icon: Type.String({ description: 'URL of the goal icon.' })
  })),
  co_benefits: Type.String({ description: 'Lines separated by CRLF; may be empty.' }),
  images: Type.Array(Type.Object({ title: Type.String(), url: Type.String({ description: 'Signed link to the image, valid for a limited time (default 3600 s).' }) }))
}

const { id, ...afterId } = ProjectFields

/** A list item: every Project field except external_id (spec 2.1, rule 7). */
export const ProjectListItemSchema = Type.Object({ id, ...afterId }, { title: 'ProjectListItem' })

export const ProjectSchema = Type.Object({
  id,
  external_id: Type.String({ description: 'Identifier of the project in its registry.' }),
  ...afterId
}, { title: 'Project' })
export type Project = Static<typeof ProjectSchema>
export type ProjectListItem = Static<typeof ProjectListItemSchema>

export const ProjectPageSchema = Type.Object({
  count: Type.Integer({ description: 'Total number of projects matching the filters.' }),
  next: Nullable(Type.String({ description: 'Absolute URL of the next page; null on the last page.' })),
  previous: Nullable(Type.String({ description: 'Absolute URL of the previous page; null on the first page.' })),
  results: Type.Array(ProjectListItemSchema)
}, { title: 'ProjectPage' })

const filter = (description: string) => Type.Optional(Type.String({ maxLength: 200, description }))

export const ProjectListQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT, description: `Page size, 1 to ${LIMIT_MAX}.` }),
  offset: Type.Integer({ minimum: 0, maximum: OFFSET_MAX, default: 0, description: 'Number of matching projects to skip.' }),
  in_sale: Type.Optional(StringEnum(IN_SALE_VALUES, { description: 'Whether the project is currently in sale.' })),
  location: filter('Country name, case-insensitive (e.g. Brazil).'),
  credit_type: filter('Credit type name_id (e.g. AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE).'),
  registry: filter('Registry name_id (e.g. VERRA).'),
  rating: filter('Rating name_id: A, AA, AAA-, AA+.'),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive text match on name, symbol, external_id and project developer.' })),
  ordering: Type.Optional(Type.String({
    maxLength: 500,
    description: `Comma-separated fields, "-" for descending: ${ORDERING_FIELDS.join(', ')}. Default id; id always breaks ties.`
  }))
})
export type ProjectListQuery = Static<typeof ProjectListQuerySchema>

export const ProjectParamsSchema = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_PROJECT_ID, description: 'The project id.' })
})

/**
 * One record of `tonne import`: the detail response shape plus `in_sale`. SDG icons are ignored
 * (the service draws and links its own); an image `url` is a file path relative to the import file
 * (copied into the media store) or an absolute http(s) URL (kept as an external link).
 */
export const ImportRecordSchema = strictObject({
  ...withoutKey(ProjectSchema.properties, 'sustainable_development_goals', 'images'),
  images: Type.Array(strictObject({
    title: Type.String(),
    url: Type.String({ minLength: 1, description: 'A path relative to the import file (copied into the media store), or an absolute http(s) URL (kept as an external link).' })
  })),
  sustainable_development_goals: Type.Array(strictObject({
    name_id: Type.String({ pattern: '^([1-9]|1[0-7])_[A-Z0-9_]+$' }),
    verbose_name: Type.Optional(Type.String()),
    icon: Type.Optional(Nullable(Type.String()))
  })),
  in_sale: Type.Boolean({ description: 'Whether the project is currently in sale (a list filter, not a Project field).' })
}, {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Tonne catalogue import record',
  description: 'One project as `tonne import` reads it: a JSON array of these, or one per line (NDJSON).'
})
export type ImportRecord = Static<typeof ImportRecordSchema>

function withoutKey<P extends TProperties, K extends keyof P> (properties: P, ...keys: K[]): Omit<P, K> {
  return Object.fromEntries(Object.entries(properties).filter(([name]) => !keys.includes(name as K))) as Omit<P, K>
}

function strictObject<P extends TProperties> (properties: P, options: Record<string, unknown> = {}): TObject<P> {
  return Type.Object(properties, { ...options, additionalProperties: false })
}
