// Country names as the catalogue matches them: one canonical name per country, reached from its ISO codes
// and aliases through a folded key. The names and aliases live in the database (migration 0005 and imports).

/**
 * Folds a country name or code for matching: case, accents, apostrophes and punctuation do not count
 * ("CÔTE D’IVOIRE" and "cote d'ivoire" are one key). Migration 0005 stored its keys with the same rule.
 */
export function countryKey (text: string): string {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/&/g, ' and ')
    .replace(/['’‘`´]/g, '').replace(/[^a-z0-9]+/g, ' ').trim()
  return folded === '' ? text.trim().toLowerCase() : folded
}

/** The canonical name whose alias is nearest to `text` (edit distance on folded keys; ties: the shorter key). */
export function closestCountry (
  text: string, aliases: ReadonlyArray<{ alias_key: string, name: string }>
): string | undefined {
  const key = countryKey(text)
  let best: { distance: number, length: number, name: string } | undefined
  for (const alias of aliases) {
    const distance = editDistance(key, alias.alias_key)
    const shorter = best !== undefined && distance === best.distance && alias.alias_key.length < best.length
    if (best === undefined || distance < best.distance || shorter) {
      best = { distance, length: alias.alias_key.length, name: alias.name }
    }
  }
  return best?.name
}

/** Levenshtein distance, two rows at a time. */
function editDistance (a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}
