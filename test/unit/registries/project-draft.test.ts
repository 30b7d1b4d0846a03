import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Lines, ProjectDraft } from '../../../src/ingest/registries/project-draft.ts'

// A project's credits from one import's ledger: each transaction once, by type. A cancellation removes credits
// from circulation without anyone claiming them, so it is neither issued nor retired (docs/registries.md).

const at = (line: number) => ({ file: 'ledger.csv', line })

describe('ProjectDraft credits from the ledger', () => {
  test('a cancellation adds nothing to retired (M04)', () => {
    const draft = new ProjectDraft('ACR586')
    draft.addTransaction({ type: 'issuance', identity: 'I', date: null, vintage: 2020, quantity: 1000 }, at(2))
    draft.addTransaction({ type: 'retirement', identity: 'R', date: null, vintage: 2020, quantity: 300 }, at(3))
    draft.addTransaction({ type: 'cancellation', identity: 'C', date: null, vintage: 2020, quantity: 200 }, at(4))
    assert.deepEqual(draft.credits()?.vintages.map((v) => [v.vintage, v.issued, v.retired]), [[2020, 1000, 300]])
  })

  test('a ledger of cancellations only retires nothing', () => {
    const draft = new ProjectDraft('GS1')
    draft.addTransaction({ type: 'cancellation', identity: 'C', date: null, vintage: 2021, quantity: 50 }, at(2))
    const retired = (draft.credits()?.vintages ?? []).reduce((sum, v) => sum + (v.retired ?? 0), 0)
    assert.equal(retired, 0)
  })

  test('one identity twice counts once: the later row is used and the earlier reported', () => {
    const draft = new ProjectDraft('CAR1')
    draft.addTransaction({ type: 'retirement', identity: 'S-1 to 10', date: null, vintage: 2020, quantity: 10 }, at(2))
    draft.addTransaction({ type: 'retirement', identity: 'S-1 to 10', date: null, vintage: 2020, quantity: 12 }, at(9))
    assert.deepEqual(draft.credits()?.vintages.map((v) => [v.vintage, v.retired]), [[2020, 12]])
    assert.equal(draft.replacedRows.length, 1)
    assert.equal(draft.replacedRows[0]!.line, 2)
  })

  test('types the files list in full count as 0, not unknown, for a vintage without them', () => {
    const draft = new ProjectDraft('VCS1')
    draft.listsTypes(['issuance', 'retirement'])
    draft.addTransaction({ type: 'issuance', identity: 'I', date: null, vintage: 2019, quantity: 5 }, at(2))
    assert.deepEqual(draft.credits()?.vintages.map((v) => [v.issued, v.retired]), [[5, 0]])
  })
})

// A million-row export's line numbers are kept 4 bytes each (Lines), not as entries of Sets: the source they give
// is unchanged, whatever order the lines come in.
describe('ProjectDraft source lines', () => {
  test('each file\'s lines once, ascending, without a replaced project row; the first row points at the least',
    () => {
      const draft = new ProjectDraft('VCS7')
      for (const line of [5, 5, 9, 700, 3, 9, 4, 1200]) draft.seenAt(at(line))
      draft.seenAt({ file: 'projects.csv', line: 2 })
      draft.stateFields({ name: 'First' }, { file: 'projects.csv', line: 8 })
      draft.stateFields({ name: 'Second' }, { file: 'projects.csv', line: 11 })
      assert.deepEqual(draft.source(), [
        { file: 'ledger.csv', lines: [3, 4, 5, 9, 700, 1200] },
        { file: 'projects.csv', lines: [2, 11] }
      ])
      assert.deepEqual(draft.source({ file: 'ledger.csv', line: 700 })[0]!.lines, [3, 4, 5, 9, 1200])
      assert.deepEqual(draft.firstRow(), { file: 'ledger.csv', line: 3 })
    })

  test('Lines: 100,000 lines added in order, one deleted', () => {
    const lines = new Lines()
    for (let line = 2; line < 100_002; line++) lines.add(line)
    assert.equal(lines.size, 100_000)
    assert.deepEqual(lines.sorted().slice(0, 3), [2, 3, 4])
    lines.delete(3)
    assert.deepEqual([lines.size, lines.first(), lines.sorted().slice(0, 3)], [99_999, 2, [2, 4, 5]])
  })
})

describe('ProjectDraft SDGs', () => {
  test('a project\'s SDGs are listed once each, in ascending order, whatever order the rows gave', () => {
    const draft = new ProjectDraft('VCS1')
    draft.addSdgs([13, 7])
    draft.addSdgs([15, 7, 1])
    assert.deepEqual(draft.sdgs(), [1, 7, 13, 15])
  })
})
