import { parentPort, workerData } from 'node:worker_threads'
import type { Config } from '../../config.ts'
import { MediaStore } from '../../media/media-store.ts'
import { BATCH_STATEMENT_TIMEOUT_MS, openStore } from '../../store/connect.ts'
import { IMPORTERS, type SourceFile } from './importers.ts'
import type { SourceKind } from './source-kinds.ts'

// A scheduled sync's import, on a thread of its own with its own database connection (importers.ts,
// workerImporters): the serving thread's event loop never runs the import's synchronous work. Answers one message,
// { result } or { error }, and ends.

interface Job {
  config: Config
  kind: SourceKind
  files: SourceFile[]
  now: string
}

const job = workerData as Job
// Few connections: an import writes through one (its transaction); the serving pool keeps its own.
const store = await openStore({ ...job.config, sqliteReadWorkers: 1, databasePoolSize: 2 },
  { statementTimeoutMs: BATCH_STATEMENT_TIMEOUT_MS })
try {
  const result = await IMPORTERS[job.kind](store.db, job.files, {
    media: new MediaStore(job.config.media.dir),
    now: new Date(job.now),
    lock: { waitMs: job.config.importLockWaitMs }
  })
  parentPort?.postMessage({ result })
} catch (error) {
  parentPort?.postMessage({ error: (error as Error).message })
} finally {
  await store.close()
}
