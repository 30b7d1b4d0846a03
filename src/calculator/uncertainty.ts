/**
 * A deterministic Monte Carlo: the same request always gets the same range (fixed seed), and the range is a
 * percentile interval of the total, not the sum of every input's extreme. Used where inputs have a stated
 * spread but no cited interval of the total (docs/methodology.md, "Ranges").
 */

import { seededRandom } from '../reference/seeded-random.ts'

export const DRAWS = 2000
export const SEED = 35

/** A draw from the triangular distribution over low, mode and high (inverse CDF). */
export function triangular (random: () => number, low: number, mode: number, high: number): number {
  if (!(high > low)) return mode
  const u = random()
  const cut = (mode - low) / (high - low)
  return u < cut
    ? low + Math.sqrt(u * (high - low) * (mode - low))
    : high - Math.sqrt((1 - u) * (high - low) * (high - mode))
}

/** The 2.5th and 97.5th percentiles of `draw` over DRAWS draws with the fixed seed. */
export function percentileInterval (draw: (random: () => number) => number): { low: number, high: number } {
  const random = seededRandom(SEED)
  // A typed array sorts numerically without calling a comparator: the same order, several times faster.
  const values = new Float64Array(DRAWS)
  for (let i = 0; i < DRAWS; i++) values[i] = draw(random)
  values.sort()
  const at = (share: number): number => values[Math.min(values.length - 1, Math.floor(share * values.length))] as number
  return { low: at(0.025), high: at(0.975) }
}
