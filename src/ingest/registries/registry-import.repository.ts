import type { Db } from '../../store/database.ts'

// What a registry import reads and writes besides the projects: the digests of the files it has read (so the same
// bytes under another name change nothing), and the latest transaction date of each project's stored ledger (so
// an older export does not replace newer fields), and the date of the project export that last stated each project.

const CHUNK = 500

/** The names the files of these digests were first imported under, for this registry. */
export async function importedFiles (
  db: Db, registry: string, digests: readonly string[]
): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  for (let i = 0; i < digests.length; i += CHUNK) {
    const rows = await db.selectFrom('imported_files').select(['sha256', 'name'])
      .where('registry', '=', registry).where('sha256', 'in', digests.slice(i, i + CHUNK)).execute()
    for (const row of rows) found.set(row.sha256, row.name)
  }
  return found
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
  const found = new Map<number, string>()
  for (let i = 0; i < projectIds.length; i += CHUNK) {
    const rows = await db.selectFrom('credit_transactions')
      .select((eb) => ['project_id', eb.fn.max('date').as('latest')])
      .where('project_id', 'in', projectIds.slice(i, i + CHUNK)).where('date', 'is not', null)
      .groupBy('project_id').execute()
    for (const row of rows) if (row.latest !== null) found.set(row.project_id, String(row.latest))
  }
  return found
}

/** How recent the project export was that last stated each of these projects (YYYY-MM-DD), by external id. */
export async function exportDates (db: Db, registry: string, externalIds: readonly string[]):
Promise<Map<string, string>> {
  const found = new Map<string, string>()
  for (let i = 0; i < externalIds.length; i += CHUNK) {
    const rows = await db.selectFrom('project_export_dates').select(['external_id', 'as_of'])
      .where('registry', '=', registry).where('external_id', 'in', externalIds.slice(i, i + CHUNK)).execute()
    for (const row of rows) found.set(row.external_id, row.as_of)
  }
  return found
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
