// A test reporter for `node scripts/test.ts --costs`: each file's cost, the sum of its top-level tests' durations
// in milliseconds, written as one JSON object keyed by the file's path from the repository's root.
import path from 'node:path'
import type { TestEvent } from 'node:test/reporters'

const ROOT = path.join(import.meta.dirname, '..')

export default async function * costReporter (source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const costs: Record<string, number> = {}
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 &&
      event.data.file !== undefined) {
      const file = path.relative(ROOT, event.data.file).split(path.sep).join('/')
      costs[file] = (costs[file] ?? 0) + event.data.details.duration_ms
    }
  }
  for (const file of Object.keys(costs)) costs[file] = Math.round(costs[file]!)
  yield `${JSON.stringify(costs)}\n`
}
