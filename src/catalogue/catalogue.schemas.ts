import { Type, type Static, type TObject, type TProperties } from 'typebox'
import { Nullable, NullableDate, PageSchema, StringEnum } from '../http/schemas.ts'
import type { CsvColumn } from '../http/csv.ts'

/** Largest id the catalogue stores: a 32-bit signed integer, the same on SQLite and PostgreSQL. */
export const MAX_PROJECT_ID = 2_147_483_647
/**
 * The longest methodology a project may name: registry exports write whole UNFCCC titles (a Gold Standard export
 * has one of 213 characters; migration 0011 widened the column). 600 characters are at most 2,400 bytes of UTF-8,
 * under the 2,704 bytes PostgreSQL's index on protocols takes per row.
 */
export const PROTOCOL_MAX_LENGTH = 600
const LIMIT_DEFAULT = 50
const LIMIT_MAX = 1000
/** Offsets past this are refused rather than handed to the database (2^53 - 1). */
const OFFSET_MAX = Number.MAX_SAFE_INTEGER

const IN_SALE_VALUES = ['true', 'false', 'True', 'False', '1', '0'] as const

/** Fields `ordering` accepts (prefix with `-` for descending); id always breaks ties. */
export const ORDERING_FIELDS = ['id', 'name', 'symbol', 'date', 'location', 'area', 'estimated_annual_reductions',
  'inventory_price', 'credits_issued', 'credits_retired', 'credits_cancelled', 'first_issuance_date',
  'first_retirement_date', 'updated_at'] as const
export type OrderingField = typeof ORDERING_FIELDS[number]
/** The ordering fields a project may leave empty: the facets count the projects that have each. */
export const OPTIONAL_ORDERING_FIELDS = ['date', 'area', 'estimated_annual_reductions', 'inventory_price',
  'credits_issued', 'credits_retired', 'credits_cancelled', 'first_issuance_date', 'first_retirement_date'] as const
export type OptionalOrderingField = typeof OPTIONAL_ORDERING_FIELDS[number]

// Examples are values of the bundled catalogue (data/catalogue/projects.ndjson), so that they work when tried.
const NamedValue = (description: string, example?: { name_id: string, verbose_name: string }) => Type.Object({
  name_id: Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '^[A-Z0-9][A-Z0-9_+-]*$',
    description: 'Upper-case, underscore-separated identifier.',
    ...(example !== undefined && { examples: [example.name_id] })
  }),
  verbose_name: Type.String(example === undefined ? {} : { examples: [example.verbose_name] })
}, { description })

const ProjectFields = {
  id: Type.Integer({ minimum: 1, maximum: MAX_PROJECT_ID, description: 'Unique identifier of the project.' }),
  name: Type.String(),
  symbol: Type.String({ description: 'Id code of the project.' }),
  vintages: Type.Array(Type.Integer(), { description: 'Vintage years.' }),
  registry: NamedValue('The registry that approves and monitors the project.',
    { name_id: 'VERRA', verbose_name: 'Verra' }),
  standard: NamedValue('The standard the project is certified against.',
    { name_id: 'VERRA_VERIFIED_CARBON_STANDARD', verbose_name: 'Verified Carbon Standard' }),
  credit_type: Nullable(NamedValue('The carbon removal or avoidance type; null when the registry gives none.',
    { name_id: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE', verbose_name: 'Agriculture Forestry and Other Land Use' })),
  short_description: Nullable(Type.String()),
  rating: Nullable(NamedValue('null when the project has no rating.')),
  certifications: Type.Array(NamedValue('A certification.', { name_id: 'ICVCM_CCP', verbose_name: 'ICVCM CCP' })),
  description: Type.String({ description: 'Detailed description; may contain HTML; may be empty.' }),
  url: Nullable(Type.String({ description: "URL of the project's registry page." })),
  is_bundle: Type.Boolean(),
  bundles: Nullable(Type.Array(Type.Unknown(), { description: 'Empty for a non-bundle project.' })),
  inventory_price: Nullable(Type.Number()),
  location: Type.String({ description: 'Country where the project is located; may be empty.' }),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  date: NullableDate('YYYY-MM-DD.'),
  area: Nullable(Type.Number({ description: 'Hectares.' })),
  estimated_annual_reductions: Nullable(Type.Number({ description: 'Tonnes per year.' })),
  project_developer: Type.String({ description: 'May be empty.' }),
  sustainable_development_goals: Type.Array(Type.Object({
    name_id: Type.String({ description: '"<number>_<GOAL_NAME>", goals 1 to 17.', examples: ['13_CLIMATE_ACTION'] }),
    verbose_name: Type.String(),
    icon: Type.String({ description: 'URL of the goal icon.' })
  })),
  co_benefits: Type.String({ description: 'Lines separated by CRLF; may be empty.' }),
  images: Type.Array(Type.Object({
    title: Type.String(),
    url: Type.String({ description: 'Signed link to the image, valid for a limited time (default 3600 s).' })
  })),
  // Additions beyond the original contract (docs/api.md).
  credits_issued: Nullable(Type.Number({
    description: 'Credits issued over all vintages (tonnes CO2e): the sum of the project\'s issuance transactions ' +
      'when its ledger has any, else as the imported registry data says; null when it does not say.'
  })),
  credits_retired: Nullable(Type.Number({
    description: 'Credits retired over all vintages (tonnes CO2e): the sum of its retirement transactions when the ' +
      'ledger has any, else as the imported data says; 0 when an export of retirements has none, null when no ' +
      'imported data says.'
  })),
  credits_cancelled: Nullable(Type.Number({
    description: 'Credits cancelled over all vintages (tonnes CO2e), as credits_retired for cancellations (addition).'
  })),
  location_alpha2: Nullable(Type.String({
    pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 code of `location`; null when it has none (or no location).'
  })),
  location_alpha3: Nullable(Type.String({
    pattern: '^[A-Z]{3}$', description: 'ISO 3166-1 alpha-3 code of `location`.'
  })),
  protocol: Type.Array(Type.String(), {
    description: 'Methodology (protocol) ids the project follows, as the registry writes them, e.g. VM0007 ' +
      '(addition).'
  }),
  category: Nullable(Type.String({
    description: 'Project category (CarbonPlan OffsetsDB\'s, e.g. forest, renewable-energy); null when unknown ' +
      '(addition).'
  })),
  project_type: Nullable(Type.String({ description: 'Project type, e.g. Improved Forest Management (addition).' })),
  status: Nullable(Type.String({
    description: 'Registry status as the registry writes it, e.g. Registered (addition).'
  })),
  protocol_version: Nullable(Type.String({
    description: 'The methodology\'s version as the registry writes it, e.g. Version 1.0; null when its exports do ' +
      'not say (addition).'
  })),
  is_compliance: Nullable(Type.Boolean({
    description: 'Whether the project issues credits for a compliance market (e.g. California\'s); null when ' +
      'unknown (addition).'
  })),
  listed_date: NullableDate('When the registry listed the project (addition).'),
  first_issuance_date: NullableDate(
    'Date of the earliest issuance in the project\'s ledger; null without one (addition).'),
  first_retirement_date: NullableDate(
    'Date of the earliest retirement in the project\'s ledger; null without one (addition).'),
  created_at: Type.String({
    format: 'date-time', description: 'When this catalogue first had the project (ISO 8601, UTC).'
  }),
  updated_at: Type.String({
    format: 'date-time',
    description: 'When an import last changed what this API shows of the project (ISO 8601, UTC); a re-import of the ' +
      'same data leaves it.'
  })
}

const Quantity = (description: string) => Nullable(Type.Number({ minimum: 0, description }))

/** Credits per vintage and in total; quantities are null where the imported data does not say. */
const CreditsSchema = Type.Object({
  issued: Quantity('Credits issued over all vintages (tonnes CO2e).'),
  retired: Quantity('Credits retired over all vintages (tonnes CO2e).'),
  cancelled: Quantity('Credits cancelled over all vintages (tonnes CO2e).'),
  vintages: Type.Array(Type.Object({
    vintage: Type.Integer({ minimum: 1000, maximum: 9999, description: 'The vintage year.' }),
    issued: Quantity('Credits issued in this vintage.'),
    retired: Quantity('Credits of this vintage retired.'),
    cancelled: Quantity('Credits of this vintage cancelled.'),
    corsia_eligible: Nullable(Type.Boolean({
      description: 'Whether the registry states this vintage eligible for CORSIA (its issuance rows); null: not stated.'
    }))
  }), { description: 'One entry per vintage year, in year order; the same years as `vintages`.' })
}, {
  description: 'Credits issued, retired and cancelled, per vintage and in total (an addition beyond the original ' +
    'contract). For each type the project\'s ledger has transactions of, the sums of those transactions (0 for a ' +
    'vintage without one); otherwise as the imported data says (null: unknown).'
})
/** Credits as the API shows them. */
export type CreditsShown = Static<typeof CreditsSchema>

/** Where a project's data came from: the files (and their lines) an import read. */
const SourceSchema = Nullable(Type.Array(Type.Object({
  file: Type.String({
    minLength: 1,
    maxLength: 500,
    description: 'The file, as the import named it (e.g. offsets-db-data/verra/projects.csv).'
  }),
  lines: Nullable(Type.Array(Type.Integer({ minimum: 1 }), {
    maxItems: 100_000,
    description: 'The lines of the file that describe the project, in order (a registry import keeps the first ' +
      '100); null when lines do not apply.'
  })),
  rows: Type.Optional(Type.Integer({
    minimum: 1,
    description: 'How many lines of the file describe the project, when `lines` lists only the first of them.'
  }))
}), {
  description: 'Where the project\'s data came from (an addition beyond the original contract); null when the import ' +
    'did not say.'
}))
export type Source = Static<typeof SourceSchema>

const { id, ...afterId } = ProjectFields

/** A list item: every Project field except external_id (spec 2.1, rule 7). */
const ProjectListItemSchema = Type.Object({ id, ...afterId }, { title: 'ProjectListItem' })

export const ProjectSchema = Type.Object({
  id,
  external_id: Type.String({ description: 'Identifier of the project in its registry.' }),
  ...afterId,
  credits: CreditsSchema,
  source: SourceSchema,
  sources: Type.Array(Type.String(), {
    description: 'The sources that state the project (an addition): `offsetsdb` for OffsetsDB\'s archive, a ' +
      'registry\'s key (verra, gold-standard, acr, car, art, cercarbono, isometric, arb) for its own exports; empty ' +
      'for a project only a JSON import gave. Which one holds the ledger: docs/registries.md, "Two sources".'
  })
}, { title: 'Project' })
export type Project = Static<typeof ProjectSchema>
export type ProjectListItem = Static<typeof ProjectListItemSchema>

export const FACETS = ['registry', 'location', 'credit_type', 'rating', 'in_sale', 'vintage', 'certification',
  'sdg', 'status', 'category', 'protocol', 'is_compliance'] as const
export type Facet = typeof FACETS[number]

const FacetValues = (description: string) => Type.Array(Type.Object({
  value: Type.String({ description: 'The exact value to pass as this facet\'s filter parameter.' }),
  label: Type.String({ description: 'A human-readable name of the value.' }),
  count: Type.Integer({ minimum: 1, description: 'Matching projects with this value.' })
}, { title: 'FacetValue' }), { description })

export const FacetsSchema = Type.Object({
  count: Type.Integer({ description: 'Projects matching every given filter.' }),
  facets: Type.Object({
    registry: FacetValues('Projects per registry.'),
    location: FacetValues('Projects per country (canonical name).'),
    credit_type: FacetValues('Projects per credit type.'),
    rating: FacetValues('Projects per rating.'),
    in_sale: FacetValues('Projects in sale ("true") and not ("false").'),
    vintage: FacetValues('Projects with credits of each vintage year (in year order).'),
    certification: FacetValues('Projects per certification.'),
    sdg: FacetValues('Projects per Sustainable Development Goal (value: its name_id).'),
    status: FacetValues('Projects per registry status (addition).'),
    category: FacetValues('Projects per category (addition).'),
    protocol: FacetValues('Projects per methodology id (addition).'),
    is_compliance: FacetValues('Compliance projects ("true") and voluntary ones ("false"); projects whose data does ' +
      'not say are not counted (addition).')
  }, {
    title: 'FacetCounts',
    description: 'Each facet counts the projects that match every filter except its own, so a filter panel can ' +
    'show the other choices; values with no project are left out; order: most projects first (vintages: by year).'
  }),
  with_value: Type.Object(Object.fromEntries(OPTIONAL_ORDERING_FIELDS.map((field) => [field, Type.Integer({
    minimum: 0, description: `Matching projects with a value for ${field} (ordering by it sorts the others last).`
  })])) as Record<OptionalOrderingField, ReturnType<typeof Type.Integer>>, {
    description: 'Per optional field the list can be ordered by, how many matching projects have a value: ' +
      'an ordering no matching project can tell apart need not be offered (addition).'
  })
}, { title: 'ProjectFacets' })

export const ProjectPageSchema = PageSchema('ProjectPage',
  Type.Integer({ description: 'Total number of projects matching the filters.' }), ProjectListItemSchema, {
    facets: Type.Optional(Type.Omit(FacetsSchema, ['count'], {
      description: 'With `include=facets`: the facets of the same filters, as GET /facets/ gives them, so that a ' +
        'filter panel needs one request, not two (addition).'
    }))
  })

const filter = (description: string, example?: string) =>
  Type.Optional(Type.String({ maxLength: 200, description, ...(example !== undefined && { examples: [example] }) }))

/** The filters that the list, the facets and the GeoJSON share. */
const FilterFields = {
  in_sale: Type.Optional(StringEnum(IN_SALE_VALUES, { description: 'Whether the project is currently in sale.' })),
  location: filter('Country: its name, ISO 3166 alpha-2 or alpha-3 code, or a common alias (US, USA, United States ' +
    'of America), case- and accent-insensitive. Projects carry the canonical name (United States).', 'Brazil'),
  credit_type: filter('Credit type name_id (e.g. AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE).',
    'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE'),
  registry: filter('Registry name_id (e.g. VERRA).', 'VERRA'),
  // No example: the bundled catalogue has no rated project.
  rating: filter('Rating name_id: A, AA, AAA-, AA+.'),
  vintage: Type.Optional(Type.Integer({
    minimum: 1000,
    maximum: 9999,
    description: 'A vintage year: projects with credits of that vintage (addition).',
    examples: [2021]
  })),
  certification: filter('Certification name_id (e.g. ICVCM_CCP): projects that hold it (addition).', 'ICVCM_CCP'),
  sdg: filter('Sustainable Development Goal, by number (13) or name_id (13_CLIMATE_ACTION): projects that contribute ' +
    'to it (addition).', '13_CLIMATE_ACTION'),
  status: filter('Registry status as the registry writes it (e.g. Registered), case-insensitive: projects with that ' +
    'status (addition).'),
  category: filter('Category (e.g. forest), case-insensitive: projects of that category (addition).'),
  protocol: filter('Methodology id (e.g. VM0007), case-insensitive: projects that follow it (addition).'),
  is_compliance: Type.Optional(StringEnum(IN_SALE_VALUES, {
    description: 'Compliance projects (true) or voluntary ones (false); projects whose data does not say match ' +
      'neither (addition).'
  })),
  updated_since: Type.Optional(Type.String({
    maxLength: 40,
    description: 'ISO 8601 date or date-time with a time zone (2026-11-23T10:00:00Z; encode "+" as %2B): projects ' +
      'whose updated_at is at or after it, for syncing a copy (addition).'
  })),
  bbox: Type.Optional(Type.String({
    maxLength: 200,
    description: 'minLon,minLat,maxLon,maxLat in degrees (WGS 84): projects located inside the box, edges included. ' +
      'A box whose minLon is greater than its maxLon crosses the antimeridian (addition).'
  })),
  search: Type.Optional(Type.String({
    maxLength: 200,
    description: 'Case-insensitive text match on name, symbol, external_id and project developer.',
    examples: ['cookstove']
  }))
}

const ordering = Type.Optional(Type.String({
  maxLength: 500,
  description: `Comma-separated fields, "-" for descending: ${ORDERING_FIELDS.join(
    ', ')}. Default id; id always breaks ties.`
}))

export const ProjectListQuerySchema = Type.Object({
  limit: Type.Integer({
    minimum: 1,
    maximum: LIMIT_MAX,
    default: LIMIT_DEFAULT,
    description: `Page size, 1 to ${LIMIT_MAX}.`
  }),
  offset: Type.Integer({
    minimum: 0,
    maximum: OFFSET_MAX,
    default: 0,
    description: 'Number of matching projects to skip.'
  }),
  ...FilterFields,
  ordering,
  format: Type.Optional(StringEnum(['json', 'csv'], {
    description: '`csv`: every matching project as CSV (text/csv), streamed; as `Accept: text/csv` (addition).'
  })),
  include: Type.Optional(StringEnum(['facets'], {
    description: '`facets` adds the facets of the same filters to the page (see `facets` in the answer; addition).'
  }))
})
export type ProjectListQuery = Static<typeof ProjectListQuerySchema>

/** The filter parameters alone (facets). */
export const ProjectFilterQuerySchema = Type.Object(FilterFields)
export type ProjectFilterQuery = Static<typeof ProjectFilterQuerySchema>

const GEOJSON_LIMIT_DEFAULT = 1000
const GEOJSON_LIMIT_MAX = 10_000

export const GeoJsonQuerySchema = Type.Object({
  limit: Type.Integer({
    minimum: 1,
    maximum: GEOJSON_LIMIT_MAX,
    default: GEOJSON_LIMIT_DEFAULT,
    description: `Features per page, 1 to ${GEOJSON_LIMIT_MAX}.`
  }),
  offset: Type.Integer({
    minimum: 0, maximum: OFFSET_MAX, default: 0, description: 'Number of matching located projects to skip.'
  }),
  ...FilterFields,
  ordering
})
export type GeoJsonQuery = Static<typeof GeoJsonQuerySchema>

export const GeoJsonSchema = Type.Object({
  type: Type.Literal('FeatureCollection'),
  count: Type.Integer({ description: 'Located projects (with latitude and longitude) matching every filter.' }),
  next: Nullable(Type.String({ description: 'Absolute URL of the next page of features; null on the last page.' })),
  previous: Nullable(Type.String({ description: 'Absolute URL of the previous page; null on the first page.' })),
  features: Type.Array(Type.Object({
    type: Type.Literal('Feature'),
    id: Type.Integer(),
    geometry: Type.Object({
      type: Type.Literal('Point'),
      coordinates: Type.Array(Type.Number(), {
        minItems: 2, maxItems: 2, description: '[longitude, latitude] (RFC 7946).'
      })
    }),
    properties: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      registry: Type.String({ description: 'Registry name_id.' }),
      credit_type: Nullable(Type.String({ description: 'Credit type name_id.' })),
      credits_issued: Nullable(Type.Number()),
      credits_retired: Nullable(Type.Number())
    })
  })),
  unlocated_by_country: Type.Array(Type.Object({
    location: Type.String({ description: 'The country, as `location` names it.', examples: ['Brazil'] }),
    alpha2: Nullable(Type.String({ description: 'Its ISO 3166-1 alpha-2 code; null if not a known country.' })),
    count: Type.Integer({ minimum: 1, description: 'Matching projects there without latitude and longitude.' })
  }), {
    description: 'Matching projects with a country but no position, per country (a foreign member, RFC 7946 ' +
      'section 6.1): a map shows them by their country. The same on every page.'
  })
}, { title: 'ProjectFeatureCollection', description: 'A GeoJSON FeatureCollection (RFC 7946) with paging members.' })

/** The detail takes no query parameters: any is refused, as everywhere (src/http/query-policy.ts). */
export const NoQuerySchema = Type.Object({})

export const ProjectParamsSchema = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_PROJECT_ID, description: 'The project id.', examples: [1] })
})

export const TRANSACTION_TYPES = ['issuance', 'retirement', 'cancellation'] as const
export type TransactionType = typeof TRANSACTION_TYPES[number]

/** One transaction of a project's ledger, as `tonne import` reads it and `tonne export` writes it. */
const TransactionRecordSchema = strictObject({
  identity: Type.String({
    minLength: 1,
    maxLength: 500,
    description: 'The registry\'s own identity of the transaction (serial range, transaction id), or a digest of the ' +
      'row when the export gives none; unique within the registry.'
  }),
  type: StringEnum(TRANSACTION_TYPES),
  date: NullableDate('YYYY-MM-DD.'),
  vintage: Nullable(Type.Integer({ minimum: 1000, maximum: 9999 })),
  quantity: Type.Number({ minimum: 0, description: 'Credits (tonnes CO2e).' }),
  beneficiary: Nullable(Type.String({ maxLength: 2000, description: 'For retirements: on whose behalf.' })),
  reason: Nullable(Type.String({ maxLength: 2000, description: 'For retirements: why, as the registry gives it.' })),
  // What a buyer needs (docs/registries.md, "The ledger"); optional, so files written before them still import.
  note: Type.Optional(Nullable(Type.String({
    maxLength: 10_000, description: 'The free text beside the reason (the registry\'s details or purpose).'
  }))),
  account: Type.Optional(Nullable(Type.String({
    maxLength: 2000, description: 'The account holder that retired or cancelled the credits.'
  }))),
  serials: Type.Optional(Nullable(Type.String({
    maxLength: 2000, description: 'Serial numbers or block range, as the registry writes them.'
  }))),
  vintage_start: Type.Optional(NullableDate('The vintage\'s first day.')),
  vintage_end: Type.Optional(NullableDate('The vintage\'s last day.')),
  source: Nullable(strictObject({
    file: Type.String({ minLength: 1, maxLength: 500 }),
    line: Nullable(Type.Integer({ minimum: 1, description: 'Its line (1 is the header); null when not known.' }))
  }))
})
export type TransactionRecord = Static<typeof TransactionRecordSchema>

/**
 * One record of `tonne import`: the detail response shape plus `in_sale`. SDG icons are ignored
 * (the service draws and links its own); an image `url` is a file path relative to the import file
 * (copied into the media store) or an absolute http(s) URL (kept as an external link).
 */
export const ImportRecordSchema = strictObject({
  ...withoutKey(ProjectSchema.properties, 'sustainable_development_goals', 'images', 'credits_issued',
    'credits_retired', 'location_alpha2', 'location_alpha3', 'created_at', 'updated_at', 'credits', 'source',
    'credits_cancelled', 'first_issuance_date', 'first_retirement_date', 'protocol', 'category', 'project_type',
    'status', 'is_compliance', 'listed_date', 'protocol_version', 'sources'),
  images: Type.Array(strictObject({
    title: Type.String(),
    url: Type.String({
      minLength: 1,
      description: 'A path relative to the import file (copied into the media store), or an absolute http(s) URL ' +
        '(kept as an external link).'
    })
  })),
  sustainable_development_goals: Type.Array(strictObject({
    name_id: Type.String({ pattern: '^([1-9]|1[0-7])_[A-Z0-9_]+$' }),
    verbose_name: Type.Optional(Type.String()),
    icon: Type.Optional(Nullable(Type.String()))
  })),
  in_sale: Type.Boolean(
    { description: 'Whether the project is currently in sale (a list filter, not a Project field).' }),
  credits: Type.Optional(strictObject({
    issued: Quantity('Credits issued over all vintages; null or absent: the sum of the vintages\' (null if none ' +
      'says).'),
    retired: Quantity('Credits retired over all vintages; null or absent: the sum of the vintages\' (null if none ' +
      'says).'),
    cancelled: Type.Optional(Quantity('Credits cancelled over all vintages; null or absent: the sum of the ' +
      'vintages\' (null if none says).')),
    vintages: Type.Array(strictObject({
      vintage: Type.Integer({ minimum: 1000, maximum: 9999 }),
      issued: Quantity('Credits issued in this vintage.'),
      retired: Quantity('Credits of this vintage retired.'),
      cancelled: Type.Optional(Quantity('Credits of this vintage cancelled.')),
      corsia_eligible: Type.Optional(Nullable(Type.Boolean({
        description: 'Whether the registry states this vintage CORSIA eligible; null or absent: not stated.'
      })))
    }), { description: 'The same years as `vintages`, each once.' })
  }, {
    description: 'Optional: credits per vintage. Absent: every year of `vintages` with unknown quantities. For each ' +
      'type the project has transactions of (in this file or stored), the ledger\'s sums replace these; 0 says ' +
      '"none", null "unknown".'
  })),
  source: Type.Optional(SourceSchema),
  // The ledger and the OffsetsDB project fields (docs/registries.md). Optional: files without them still import.
  protocol: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: PROTOCOL_MAX_LENGTH }), {
    maxItems: 50, description: 'Methodology ids or titles as the registry writes them (e.g. VM0007, ACM0002).'
  })),
  protocol_version: Type.Optional(Nullable(Type.String({
    maxLength: 200, description: 'The methodology\'s version as the registry writes it (e.g. Version 1.0).'
  }))),
  status: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'As the registry writes it.' }))),
  project_type: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  category: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  is_compliance: Type.Optional(Nullable(Type.Boolean())),
  listed_date: Type.Optional(NullableDate()),
  transactions: Type.Optional(Type.Array(TransactionRecordSchema, {
    description: 'The project\'s ledger. Upserted by `identity` within the registry: a re-import never duplicates or ' +
      'removes a transaction (only --replace removes those the file lacks). When given, the project\'s credit totals ' +
      'and vintages are derived from its ledger.'
  }))
}, {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Tonne catalogue import record',
  description: 'One project as `tonne import` reads it: a JSON array of these, or one per line (NDJSON).'
})
export type ImportRecord = Static<typeof ImportRecordSchema>
/** Credits as an import record gives them (cancelled optional): what the registry readers build. */
export type Credits = NonNullable<ImportRecord['credits']>

function withoutKey<P extends TProperties, K extends keyof P> (properties: P, ...keys: K[]): Omit<P, K> {
  return Object.fromEntries(Object.entries(properties).filter(([name]) => !keys.includes(name as K))) as Omit<P, K>
}

function strictObject<P extends TProperties> (properties: P, options: Record<string, unknown> = {}): TObject<P> {
  return Type.Object(properties, { ...options, additionalProperties: false })
}

// The project list as CSV: one line per project, the list item's fields flattened, and the registry's id for the
// project (not in the list's JSON, spec 2.1, but what names a project outside Tonne). A coded value comes as its
// label (what a person reads) with its code in a `_code` column beside it (what filters take); lists are joined by
// "; " (methodology ids contain spaces). The header is the same whatever the rows hold (docs/api.md, "CSV").

/** A project as a row of the CSV: the list item with its registry id. */
export type ProjectCsvRow = ProjectListItem & { external_id: string }

type Named = { name_id: string, verbose_name: string }
const LIST_SEPARATOR = '; '
const labels = (values: readonly Named[]) => values.map((value) => value.verbose_name).join(LIST_SEPARATOR)
const codes = (values: readonly Named[]) => values.map((value) => value.name_id).join(LIST_SEPARATOR)

export const PROJECT_CSV_COLUMNS: ReadonlyArray<CsvColumn<ProjectCsvRow>> = [
  { header: 'id', value: (p) => p.id },
  { header: 'external_id', value: (p) => p.external_id },
  { header: 'name', value: (p) => p.name },
  { header: 'symbol', value: (p) => p.symbol },
  { header: 'registry', value: (p) => p.registry.verbose_name },
  { header: 'registry_code', value: (p) => p.registry.name_id },
  { header: 'standard', value: (p) => p.standard.verbose_name },
  { header: 'standard_code', value: (p) => p.standard.name_id },
  { header: 'credit_type', value: (p) => p.credit_type?.verbose_name },
  { header: 'credit_type_code', value: (p) => p.credit_type?.name_id },
  { header: 'rating', value: (p) => p.rating?.verbose_name },
  { header: 'rating_code', value: (p) => p.rating?.name_id },
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
  { header: 'credits_cancelled', value: (p) => p.credits_cancelled },
  { header: 'first_issuance_date', value: (p) => p.first_issuance_date },
  { header: 'first_retirement_date', value: (p) => p.first_retirement_date },
  { header: 'vintages', value: (p) => p.vintages.join(LIST_SEPARATOR) },
  { header: 'certifications', value: (p) => labels(p.certifications) },
  { header: 'certifications_codes', value: (p) => codes(p.certifications) },
  { header: 'sustainable_development_goals', value: (p) => labels(p.sustainable_development_goals) },
  { header: 'sustainable_development_goals_codes', value: (p) => codes(p.sustainable_development_goals) },
  { header: 'project_developer', value: (p) => p.project_developer },
  { header: 'protocol', value: (p) => p.protocol.join(LIST_SEPARATOR) },
  { header: 'category', value: (p) => p.category },
  { header: 'project_type', value: (p) => p.project_type },
  { header: 'status', value: (p) => p.status },
  { header: 'is_compliance', value: (p) => p.is_compliance },
  { header: 'listed_date', value: (p) => p.listed_date },
  { header: 'is_bundle', value: (p) => p.is_bundle },
  { header: 'url', value: (p) => p.url },
  { header: 'updated_at', value: (p) => p.updated_at }
]

/** The download's file name: the filters in this order (csvFilename). */
export const PROJECT_CSV_NAMING = {
  names: ['registry', 'credit_type', 'certification', 'sdg', 'vintage', 'rating', 'in_sale', 'category', 'protocol',
    'status', 'is_compliance', 'location', 'updated_since', 'bbox', 'search'],
  bare: ['registry', 'search']
} as const

/** The OpenAPI example: the header line (the rows follow it, one per project, as the list's JSON gives them). */
export const PROJECT_CSV_EXAMPLE = `${PROJECT_CSV_COLUMNS.map((column) => column.header).join(',')}\r\n`
