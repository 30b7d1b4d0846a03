import { Worker } from 'node:worker_threads'
import type { RegistryKey } from '../registries/registry-keys.ts'
import type { Config } from '../../config.ts'
import type { MediaStore } from '../../media/media-store.ts'
import type { Db } from '../../store/database.ts'
import type { ImportLockOptions } from '../../store/import-lock.ts'
import { SOURCE_KINDS, type SourceKind } from './source-kinds.ts'

// Which import a sync runs for each kind of source. The table is handed to the sync (a test gives its own); each
// importer is loaded when first used, as the CLI loads them, so a server that never syncs never loads one.

/** A downloaded file: where it is, and how reports and each project's `source` name it. */
export interface SourceFile {
  path: string
  label: string
}

interface SourceImportOptions {
  media?: MediaStore
  now?: Date
  lock?: ImportLockOptions
}

/** What a sync reads of an import's report. */
export interface SourceImportResult {
  /** Whether any project was created or changed. */
  changed: boolean
  created: number
  updated: number
  unchanged: number
  /** The date the data describes when the file says (the archive's snapshot); null when it does not. */
  data_as_of: string | null
}

export type SourceImporter = (db: Db, files: readonly SourceFile[], options: SourceImportOptions) =>
Promise<SourceImportResult>

export type ImporterTable = Readonly<Record<SourceKind, SourceImporter>>

const result = (report: { created: number, updated: number, unchanged: number, data_as_of?: string | null }) => ({
  changed: report.created + report.updated > 0,
  created: report.created,
  updated: report.updated,
  unchanged: report.unchanged,
  data_as_of: report.data_as_of ?? null
})

/** A registry's own exports, through `tonne import --from KIND`'s import. */
function registryImporter (key: RegistryKey): SourceImporter {
  return async (db, files, options) => {
    const { importRegistryExports } = await import('../registries/registry-import.ts')
    return result(await importRegistryExports(db, key, files, options))
  }
}

// The one line that names the archive import's module.
const ARCHIVE_IMPORT = async () => await import('../offsetsdb/offsetsdb.import.ts')

/** OffsetsDB's archive, through the archive import (`importOffsetsDbArchive`). */
const offsetsDbImporter: SourceImporter = async (db, files, options) =>
  result(await (await ARCHIVE_IMPORT()).importOffsetsDbArchive(db, files, options))

export const IMPORTERS: ImporterTable = {
  offsetsdb: offsetsDbImporter,
  verra: registryImporter('verra'),
  'gold-standard': registryImporter('gold-standard'),
  acr: registryImporter('acr'),
  car: registryImporter('car'),
  art: registryImporter('art'),
  cercarbono: registryImporter('cercarbono'),
  isometric: registryImporter('isometric'),
  arb: registryImporter('arb')
}

/**
 * The same imports, each run on a worker thread with a connection of its own (import-worker.ts), for `serve`: the
 * import's synchronous work (parsing, validating, building each project's JSON; node:sqlite's statements) then never
 * holds the requests of the serving thread. The handle a sync passes is not used.
 */
export function workerImporters (config: Config): ImporterTable {
  const inWorker = (kind: SourceKind): SourceImporter => async (_db, files, options) =>
    await new Promise<SourceImportResult>((resolve, reject) => {
      const worker = new Worker(new URL('./import-worker.ts', import.meta.url), {
        workerData: { config, kind, files, now: (options.now ?? new Date()).toISOString() }
      })
      let answered = false
      worker.once('message', (message: { result?: SourceImportResult, error?: string }) => {
        answered = true
        if (message.result !== undefined) resolve(message.result)
        else reject(new Error(message.error ?? 'the import failed'))
      })
      worker.once('error', (error) => { answered = true; reject(error) })
      worker.once('exit', (code) => {
        if (!answered) reject(new Error(`the import thread stopped (exit code ${code}) before it answered`))
      })
    })
  return Object.fromEntries(SOURCE_KINDS.map((kind) => [kind, inWorker(kind)])) as unknown as ImporterTable
}
