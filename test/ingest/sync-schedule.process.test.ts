import assert from 'node:assert/strict'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { databaseEnv, forEachDatabase } from '../databases.ts'
import { fileServer, servedFile } from '../support/file-server.ts'
import { RAW, tempDir } from '../support/files.ts'
import { startServerProcess } from '../support/server-process.ts'

// `serve --workers 2` with SYNC_SOURCES: every worker runs the schedule, and the lease lets one of them sync. The
// schedule in one process: sync-schedule.test.ts.

const VERRA_PROJECTS = readFileSync(path.join(RAW, 'verra', 'projects.csv'))

forEachDatabase((database) => {
  test(`serve --workers 2 (${database}): one process downloads and imports; the other skips or finds it unchanged`,
    async (t) => {
      const server = await fileServer(t)
      server.routes.set('/verra.csv', servedFile(VERRA_PROJECTS, { etag: '"1"' }))
      const dataDir = tempDir(t)
      // No bundled catalogue (a second of CPU): the round's import is what is watched.
      const running = await startServerProcess(t, {
        DATA_DIR: dataDir,
        LOAD_BUNDLED_CATALOGUE: 'false',
        SYNC_SOURCES: `verra=${server.url('/verra.csv')}`,
        ...await databaseEnv(t, database)
      }, ['--workers', '2'])
      // Each worker runs the schedule and says what its first round did.
      const said = /sync round finished|another process is syncing/
      const count = () => running.output.filter((l) => said.test(l)).length
      // Output lines are read as stdout's chunks arrive: check again after each.
      while (count() < 2) await once(running.child.stdout!, 'data')
      const rounds = running.output.filter((l) => said.test(l)).map((l) => (JSON.parse(l) as { msg: string }).msg)
      assert.equal(rounds.filter((m) => m === 'sync round finished: verra changed').length, 1, rounds.join('\n'))
      assert.deepEqual(server.requests.filter((r) => r.ifNoneMatch === undefined).length, 1,
        'one full download; a later round asks conditionally')
      assert.equal(await running.stop(), 0)
    })
})
