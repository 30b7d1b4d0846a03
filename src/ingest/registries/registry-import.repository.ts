import type { Db } from '../../store/database.ts'

// What a registry import reads and writes besides the projects: the digests of the files it has read (so the same
// bytes under another name change nothing), and the latest transaction date of each project's stored ledger (so
// an older export does not replace newer fields), and the date of the project export that last stated each project.

const CHUNK = 500

/** What `read` gives for each chunk of `keys` (an IN list each), gathered into one Map. */
async function inChunks<K, V> (keys: readonly K[],
  read: (chunk: K[]) => Promise<ReadonlyArray<readonly [K, V]>>): Promise<Map<K, V>> {
  const found = new Map<K, V>()
  for (let i = 0; i < keys.length; i += CHUNK) {
    for (const [key, value] of await read(keys.slice(i, i + CHUNK))) found.set(key, value)
  }
  return found
}

/** The names the files of these digests were first imported under, for this registry. */
export async function importedFiles (
  db: Db, registry: string, digests: readonly string[]
): Promise<Map<string, string>> {
  return await inChunks(digests, async (chunk) => (await db.selectFrom('imported_files').select(['sha256', 'name'])
    .where('registry', '=', registry).where('sha256', 'in', chunk).execute()).map((r) => [r.sha256, r.name] as const))
}

export async function recordImportedFiles (db: Db, registry: string,
  files: ReadonlyArray<{ sha256: string, name: string }>, importedAt: string): Promise<void> {
  if (files.length === 0) return
  await db.insertInto('imported_files')
    .values(files.map((f) => ({ registry, sha256: f.sha256, name: f.name, imported_at: importedAt })))
    .onConflict((oc) => oc.columns(['registry', 'sha256']).doNothing()).execute()
}

/** The latest dated transaction of each project's stored ledger, by project id (projects without: absent). */
export async function latestTransactionDates (db: Db, projectIds: readonly number[]): Promise<Map<number, string>> {
  return await inChunks(projectIds, async (chunk) => (await db.selectFrom('credit_transactions')
    .select((eb) => ['project_id', eb.fn.max('date').as('latest')])
    .where('project_id', 'in', chunk).where('date', 'is not', null)
    .groupBy('project_id').execute())
    .flatMap((r) => r.latest === null ? [] : [[r.project_id, String(r.latest)] as const]))
}

/** How recent the project export was that last stated each of these projects (YYYY-MM-DD), by external id. */
export async function exportDates (db: Db, registry: string, externalIds: readonly string[]):
Promise<Map<string, string>> {
  return await inChunks(externalIds, async (chunk) => (await db.selectFrom('project_export_dates')
    .select(['external_id', 'as_of']).where('registry', '=', registry).where('external_id', 'in', chunk).execute())
    .map((r) => [r.external_id, r.as_of] as const))
}

export async function recordExportDates (db: Db, registry: string,
  dates: ReadonlyArray<{ externalId: string, asOf: string }>): Promise<void> {
  for (let i = 0; i < dates.length; i += CHUNK) {
    await db.insertInto('project_export_dates')
      .values(dates.slice(i, i + CHUNK).map((d) => ({ registry, external_id: d.externalId, as_of: d.asOf })))
      .onConflict((oc) => oc.columns(['registry', 'external_id'])
        .doUpdateSet((eb) => ({ as_of: eb.ref('excluded.as_of') })))
      .execute()
  }
}
