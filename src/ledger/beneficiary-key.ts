/**
 * A beneficiary folded for search: compatibility-decomposed, marks dropped, lower case, so "Société" is found
 * by "societe". Stored beside each retirement (beneficiary_key) and applied to the searched text alike.
 */
export function beneficiaryKey (text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
}
