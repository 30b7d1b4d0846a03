// How scripts/test.ts shares out the test files (README, "Tests"), apart from the runner so it can be tested.

/** Each file's cost in milliseconds (scripts/test-costs.json); a file missing from it counts as the median file. */
export function costOf (costs: Readonly<Record<string, number>>): (file: string) => number {
  const known = Object.values(costs).sort((a, b) => a - b)
  const median = known.length === 0 ? 1 : known[Math.floor(known.length / 2)]!
  return (file) => costs[file] ?? median
}

/** The files, costliest first (ties by name, so a run's order does not change with the table's order). */
export function costliestFirst (files: readonly string[], cost: (file: string) => number): string[] {
  return [...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))
}

/**
 * The files dealt to at most `processes` groups (one per file at most): costliest first, each to the group with
 * the least cost so far (longest processing time first), so that the groups end close together.
 */
export function deal (files: readonly string[], processes: number, cost: (file: string) => number): string[][] {
  const count = Math.max(1, Math.min(processes, files.length))
  const groups = Array.from({ length: count }, () => ({ cost: 0, files: [] as string[] }))
  for (const file of costliestFirst(files, cost)) {
    const least = groups.reduce((a, b) => (b.cost < a.cost ? b : a))
    least.files.push(file)
    least.cost += cost(file)
  }
  return groups.map((group) => group.files.sort())
}
