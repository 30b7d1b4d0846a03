/**
 * A beneficiary folded for `search`: case and accents do not count ("Société Générale" → "societe generale").
 * The import stores credit_transactions.beneficiary_key with this rule and the API folds the search text with it,
 * so the two always agree.
 */
export function foldBeneficiary (text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
}
