import type { Db, SourceTable } from '../store/database.ts'

// The write side of `sources` (migration 0009): what each sync or import of a source found. The counts are read
// from the rows each import marks with its source (credit_transactions.source_name, project_sources).

type SourceRow = SourceTable

export async function findSource (db: Db, name: string): Promise<SourceRow | undefined> {
  return await db.selectFrom('sources').selectAll().where('name', '=', name).executeTakeFirst()
}

/** Writes the given fields of the source's row, creating it (other fields null) when it is new. */
export async function saveSource (
  db: Db, name: string, fields: Partial<Omit<SourceRow, 'name'>> & Pick<SourceRow, 'kind'>
): Promise<void> {
  await db.insertInto('sources').values({ name, ...fields })
    .onConflict((oc) => oc.column('name').doUpdateSet(fields)).execute()
}

/** The projects and ledger rows the catalogue holds from this source. */
export async function countSourceRows (db: Db, name: string): Promise<{ projects: number, transactions: number }> {
  const projects = await db.selectFrom('project_sources').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('source_name', '=', name).executeTakeFirstOrThrow()
  const transactions = await db.selectFrom('credit_transactions')
    .select((eb) => eb.fn.countAll<number | string>().as('n')).where('source_name', '=', name).executeTakeFirstOrThrow()
  return { projects: Number(projects.n), transactions: Number(transactions.n) }
}
