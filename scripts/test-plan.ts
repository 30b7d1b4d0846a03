// How scripts/test.ts shares out the test files (README, "Tests"), apart from the runner so it can be tested.
import path from 'node:path'

/**
 * Node's flags for a process that shares test files. A shared process builds hundreds of apps: V8's default 16 MB
 * semi-space had it scavenging most of the time (test:fast: 99 s of CPU at 16 MB, 81 s at 64 MB; 128 MB was no
 * better). The test runner's async hook is turned off (scripts/test-without-async-hook.ts says why).
 */
export const SHARED_PROCESS_FLAGS: readonly string[] = Object.freeze(['--max-semi-space-size=64',
  '--expose-internals', '--import', path.join(import.meta.dirname, 'test-without-async-hook.ts'),
  '--test-isolation=none'])

/**
 * A file's measured cost in milliseconds (scripts/test-costs.json, written by `npm run test:costs`): `all` in a
 * whole run, `sqlite` without the PostgreSQL suites (what `--fast` runs).
 */
export interface FileCost { all: number, sqlite: number }

/** Each file's cost of one kind; a file missing from the table counts as the median file. */
export function costOf (costs: Readonly<Record<string, FileCost>>, kind: keyof FileCost):
(file: string) => number {
  const known = Object.values(costs).map((cost) => cost[kind]).sort((a, b) => a - b)
  const median = known.length === 0 ? 1 : known[Math.floor(known.length / 2)]!
  return (file) => costs[file]?.[kind] ?? median
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

/**
 * What a test file's name says it starts (README, "Test levels"): a browser (`*.browser.test.ts`, whose files
 * share a process and its Chromium), a process of its own (`*.process.test.ts`, a process each), or neither.
 */
export function levelOf (file: string): 'browser' | 'process' | 'in-process' {
  if (file.endsWith('.browser.test.ts')) return 'browser'
  if (file.endsWith('.process.test.ts')) return 'process'
  return 'in-process'
}
