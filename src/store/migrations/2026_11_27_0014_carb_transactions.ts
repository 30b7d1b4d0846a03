import { sql, type Kysely } from 'kysely'

// Migrations take Kysely<any>: they are frozen in time and must not follow today's types.
//
// CARB's rule as a column (issue 37): CARB's issuance table is the authority on the California compliance projects
// it names, so a project with any of its transactions counts only those. Which transactions are CARB's was a
// LIKE '%:arb:%' over their identities, which SQLite matched ignoring case and PostgreSQL did not. The import now
// says it (`from_carb`); the stored rows are marked here by the identities CARB's reader gives them:
// `TYPE:arb:…` (a type, then CARB's own `arb:` identity), in that case exactly, on both databases.

export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('credit_transactions')
    .addColumn('from_carb', 'boolean', (c) => c.notNull().defaultTo(false)).execute()
  await db.updateTable('credit_transactions').set({ from_carb: true })
    .where(sql`substr(identity, 1, length(type) + 5)`, '=', sql`type || ':arb:'`).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('credit_transactions').dropColumn('from_carb').execute()
}
