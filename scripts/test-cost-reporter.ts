// A test reporter for `node scripts/test.ts --costs`: each file's cost, the sum of its top-level tests' durations
// in milliseconds, written as one JSON object keyed by the file's path from the repository's root. `all` counts
// every test; `sqlite` leaves out the suites named "[postgres]" (test/databases.ts), which `--fast` does not run.
import path from 'node:path'
import type { TestEvent } from 'node:test/reporters'

const ROOT = path.join(import.meta.dirname, '..')

export default async function * costReporter (source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const costs: Record<string, { all: number, sqlite: number }> = {}
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 &&
      event.data.file !== undefined) {
      const file = path.relative(ROOT, event.data.file).split(path.sep).join('/')
      const cost = (costs[file] ??= { all: 0, sqlite: 0 })
      cost.all += event.data.details.duration_ms
      if (!event.data.name.endsWith('[postgres]')) cost.sqlite += event.data.details.duration_ms
    }
  }
  for (const cost of Object.values(costs)) {
    cost.all = Math.round(cost.all)
    cost.sqlite = Math.round(cost.sqlite)
  }
  yield `${JSON.stringify(costs)}\n`
}
