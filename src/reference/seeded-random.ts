/**
 * A small deterministic generator (mulberry32): the same seed gives the same sequence, so benchmarks build the
 * same data and the calculator's Monte Carlo ranges are the same for the same request.
 */
export function seededRandom (seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
