import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, test } from 'node:test'
import { startTonne, tonneProcess } from '../cli.helpers.ts'
import { forEachDatabase } from '../databases.ts'
import { exported, RAW } from '../support/registries.ts'
import { holdImportWrites } from '../support/write-lock.ts'
import { workspace } from '../support/workspace.ts'

// The import rules of `tonne import --from` (issue 21) that need processes of their own: two imports at once,
// and the real command's answer to a missing file. The rest: registry-ledger.test.ts.

const file = (...parts: string[]) => path.join(RAW, ...parts)

forEachDatabase((database) => {
  describe(`tonne import --from: import rules, in processes [${database}]`, () => {
    test('two imports at once keep both imports\' changes (read, merge and write inside the lock)', async (t) => {
      const ws = await workspace(t, database)
      const release = await holdImportWrites(t, ws.env, database)
      const runs = [['climate-action-reserve/projects.csv'], ['climate-action-reserve/issuances.csv']]
        .map((files) => startTonne(['import', '--from', 'car', ...files.map((f) => file(f))], ws.env))
      // Both have started before the first writes: on SQLite both wait for the write lock (this test's); on
      // PostgreSQL one holds the import lock (blocked by this test on the table) while the other waits for it.
      const waiting = runs.map(async (run) => await run.line(/another import is running; waiting/i))
      if (database === 'sqlite') await Promise.all(waiting)
      else await Promise.any(waiting)
      await release()
      for (const run of runs) assert.equal((await run.exit).code, 0)
      const car2251 = (await exported(ws)).get('CAR2251')!
      // projects.csv line 10 (registered 02/02/2026: only the project export has the date) and issuances.csv
      // line 4 (78,861 of vintage 2025).
      assert.equal(car2251.date, '2026-02-02')
      assert.equal(car2251.credits?.issued, 78861)
    })

    test('a missing file or a folder is a clear error, not a stack trace', async (t) => {
      const ws = await workspace(t, database)
      // The real command: an unhandled stream error shows only in a process of its own.
      const missing = await tonneProcess(['import', '--from', 'car', path.join(ws.dir, 'nowhere.csv')], ws.env)
      assert.equal(missing.code, 1)
      assert.match(missing.stderr, /nowhere\.csv: .*no such file or directory/)
      const folder = await tonneProcess(['import', '--from', 'car', ws.dir], ws.env)
      assert.equal(folder.code, 1)
      assert.match(folder.stderr, /^tonne import: nothing was changed\. .*: it is not a file/)
      for (const result of [missing, folder]) assert.doesNotMatch(result.stderr, /\n\s+at /)
    })
  })
})
