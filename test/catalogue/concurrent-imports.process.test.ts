import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test, type TestContext } from 'node:test'
import { startTonne, tonne } from '../cli.helpers.ts'
import { copyMigratedSqlite, databaseEnv, forEachDatabase, type TestDatabase } from '../databases.ts'
import { project } from '../fixtures/projects.ts'
import { tempDir } from '../helpers.ts'
import { holdImportWrites } from '../support/write-lock.ts'

const WAITING = /another import is running; waiting/i

/** A migrated database, two import files (ids 1-50 and 51-100), and a way to hold the database from outside. */
async function workspace (t: TestContext, database: TestDatabase) {
  const dir = tempDir(t)
  const env = { DATA_DIR: path.join(dir, 'data'), ...await databaseEnv(t, database) }
  // Migrated once per run and copied (test/databases.ts); only the imports need processes of their own.
  if (database === 'sqlite') await copyMigratedSqlite(env.DATA_DIR)
  const files = [1, 51].map((first, i) => {
    const file = path.join(dir, `part-${i}.json`)
    writeFileSync(file, JSON.stringify(Array.from({ length: 50 }, (_, n) => project(first + n))))
    return file
  })
  const hold = async () => await holdImportWrites(t, env, database)
  const count = async () => JSON.parse((await tonne(['export'], env)).stdout).length as number
  return { env, files, hold, count }
}

forEachDatabase((database) => {
  describe(`two imports at once [${database}]`, () => {
    test('the second waits for the first (saying so), then both complete', async (t) => {
      const ws = await workspace(t, database)
      const release = await ws.hold()
      const imports = ws.files.map((file) => startTonne(['import', file], ws.env))
      // One of them (on SQLite both, behind this test's own lock) says it is waiting for another import.
      await Promise.any(imports.map(async (run) => await run.line(WAITING)))
      await release()
      for (const run of imports) {
        const result = await run.exit
        assert.equal(result.code, 0, result.stderr)
        assert.match(result.stdout, /Imported 50 projects/)
      }
      assert.equal(await ws.count(), 100)
    })

    test('an import that waits longer than IMPORT_LOCK_WAIT gives up, says so and changes nothing', async (t) => {
      const ws = await workspace(t, database)
      const release = await ws.hold()
      const env = { ...ws.env, IMPORT_LOCK_WAIT: '1' }
      // On PostgreSQL the first to take the import lock waits inside it (the table is held); the other gives up.
      const files = database === 'sqlite' ? ws.files.slice(0, 1) : ws.files
      const imports = files.map((file) => startTonne(['import', file], env))
      const gaveUp = await Promise.any(imports.map(async (run) => {
        const result = await run.exit
        if (result.code === 0) throw new Error('imported')
        return result
      }))
      assert.equal(gaveUp.code, 1)
      assert.match(gaveUp.stderr, /tonne import: nothing was changed\. .*another import is running/)
      await release()
      const results = await Promise.all(imports.map(async (run) => await run.exit))
      assert.equal(await ws.count(), results.filter((r) => r.code === 0).length * 50)
      assert.equal(results.filter((r) => r.code === 0).length, database === 'sqlite' ? 0 : 1)
    })
  })
})
