// CARB's issuance table (arb.ts) names its transactions `arb:ISSUANCE:START/END[:COLUMN]`; a stored identity puts
// the type first (project-draft.ts): `issuance:arb:…`. That is how an import tells CARB's transactions from a
// registry's own, in every format (the JSON import carries only the identity), and marks them
// (credit_transactions.from_carb, migration 0014), so that no query matches identities.

export const CARB_IDENTITY_PREFIX = 'arb:'

/** Whether a stored transaction is one of CARB's issuance table: `TYPE:arb:…`, in that case exactly. */
export function isCarbTransaction (transaction: { type: string, identity: string }): boolean {
  return transaction.identity.startsWith(`${transaction.type}:${CARB_IDENTITY_PREFIX}`)
}
