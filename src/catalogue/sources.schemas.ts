import { Type, type Static } from 'typebox'
import { StringEnum } from '../http/schemas.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])
const Instant = (description: string) => Nullable(Type.String({ format: 'date-time', description }))

const SOURCE_STATUSES = ['changed', 'unchanged', 'not_modified', 'failed'] as const

export const SourceSchema = Type.Object({
  name: Type.String({ description: 'The source\'s name: its kind (ledger rows name it in their source).' }),
  kind: Type.String({ description: '`offsetsdb` (OffsetsDB\'s archive) or a registry\'s key (e.g. `verra`).' }),
  url: Nullable(Type.String({
    description: 'Where the sync downloads it from; null when it was last imported from files (`tonne import --from`).'
  })),
  last_checked_at: Instant('When the source was last downloaded, checked or imported.'),
  last_changed_at: Instant('When an import of the source last changed the catalogue.'),
  data_as_of: Instant('The date the source\'s data describes: the archive\'s snapshot, else the file\'s ' +
    'Last-Modified, else when it was downloaded; null when imported from files.'),
  sha256: Nullable(Type.String({ description: 'SHA-256 (hex) of the file last imported by a sync.' })),
  etag: Nullable(Type.String({ description: 'The ETag the source\'s server gave that file.' })),
  last_status: Nullable(StringEnum(SOURCE_STATUSES, {
    description: 'What the last attempt did: `changed` (imported, projects changed), `unchanged` (the same data), ' +
      '`not_modified` (the server answered 304) or `failed` (nothing was changed; see `last_error`).'
  })),
  last_error: Nullable(Type.String({ description: 'Why the last attempt failed; null when it did not.' })),
  projects: Nullable(Type.Integer({ minimum: 0, description: 'Projects the catalogue holds from this source.' })),
  transactions: Nullable(Type.Integer({
    minimum: 0, description: 'Ledger transactions the catalogue holds from this source.'
  })),
  attribution: Nullable(Type.String({ description: 'The attribution, licence or terms to show with its data.' }))
}, { title: 'Source' })
export type Source = Static<typeof SourceSchema>

export const SourceListSchema = Type.Object({
  count: Type.Integer({ minimum: 0, description: 'Sources listed (all of them: there are few).' }),
  results: Type.Array(SourceSchema)
}, { title: 'SourceList' })
