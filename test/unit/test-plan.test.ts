import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { costliestFirst, costOf, deal, levelOf } from '../../scripts/test-plan.ts'

// How `npm test` shares out its files (scripts/test.ts): the shared processes should end close together, and
// the longest file in a process of its own should not start last.
/** A table of whole-run costs; its SQLite-only costs are all 0, so a plan reading those would deal by name alone. */
const table = (all: Record<string, number>) =>
  Object.fromEntries(Object.entries(all).map(([file, ms]) => [file, { all: ms, sqlite: 0 }]))

describe('test plan: files dealt by measured cost', () => {
  test('one costly file gets a process to itself; the many cheap ones share the other', () => {
    const cost = costOf(table({ 'a.test.ts': 90, 'b.test.ts': 30, 'c.test.ts': 30, 'd.test.ts': 20, 'e.test.ts': 10 }),
      'all')
    const groups = deal(['a.test.ts', 'b.test.ts', 'c.test.ts', 'd.test.ts', 'e.test.ts'], 2, cost)
    // Dealt in turn by name, the first process would get a, c and e (130 ms) and the second b and d (50 ms).
    assert.deepEqual(groups, [['a.test.ts'], ['b.test.ts', 'c.test.ts', 'd.test.ts', 'e.test.ts']])
  })

  test('a file missing from the table counts as the median file', () => {
    const cost = costOf(table({ 'a.test.ts': 5, 'b.test.ts': 40, 'c.test.ts': 100 }), 'all')
    assert.equal(cost('new.test.ts'), 40)
    assert.deepEqual(costliestFirst(['a.test.ts', 'new.test.ts', 'c.test.ts'], cost),
      ['c.test.ts', 'new.test.ts', 'a.test.ts'])
  })

  test('the fast command deals by the SQLite-only cost', () => {
    const costs = {
      'a.test.ts': { all: 100, sqlite: 10 },
      'b.test.ts': { all: 60, sqlite: 50 },
      'c.test.ts': { all: 50, sqlite: 45 }
    }
    const files = ['a.test.ts', 'b.test.ts', 'c.test.ts']
    assert.deepEqual(deal(files, 2, costOf(costs, 'all')), [['a.test.ts'], ['b.test.ts', 'c.test.ts']])
    assert.deepEqual(deal(files, 2, costOf(costs, 'sqlite')), [['b.test.ts'], ['a.test.ts', 'c.test.ts']])
  })

  test('never more processes than files, never none; equal costs go by name', () => {
    const cost = costOf({}, 'all')
    assert.deepEqual(deal(['b.test.ts'], 4, cost), [['b.test.ts']])
    assert.deepEqual(deal([], 2, cost), [[]])
    assert.deepEqual(costliestFirst(['b.test.ts', 'a.test.ts'], cost), ['a.test.ts', 'b.test.ts'])
  })

  test('a browser file shares a process with the other browser files; a process file keeps its own', () => {
    assert.deepEqual(['test/explorer/views.browser.test.ts', 'test/cli.process.test.ts', 'test/config.test.ts',
      'test/unit/test-plan.test.ts', 'test/explorer/browser.ts.test.ts'].map(levelOf),
    ['browser', 'process', 'in-process', 'in-process', 'in-process'])
  })
})
