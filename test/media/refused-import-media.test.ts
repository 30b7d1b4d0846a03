import assert from 'node:assert/strict'
import { readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { ImportError } from '../../src/catalogue/catalogue.errors.ts'
import { importProjects } from '../../src/ingest/projects.import.ts'
import { loadConfig } from '../../src/config.ts'
import { MediaStore } from '../../src/media/media-store.ts'
import { openStore } from '../../src/store/connect.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { databaseEnv, forEachDatabase } from '../databases.ts'
import { project } from '../fixtures/projects.ts'
import { tempDir } from '../helpers.ts'
import { png } from '../support/images.ts'

forEachDatabase((database) => {
  describe(`the media store follows the imports [${database}]`, () => {
    test('a refused import leaves no image behind; a later import removes images no project uses', async (t) => {
      const dir = tempDir(t)
      const config = loadConfig({ DATA_DIR: dir, DATABASE_POOL_SIZE: '2', ...await databaseEnv(t, database) })
      const store = await openStore(config)
      t.after(async () => await store.close())
      await migrateToLatest(store.db)
      const media = new MediaStore(path.join(dir, 'media'))
      const images = () => readdirSync(path.join(media.dir, 'images'), { withFileTypes: true })
        .filter((entry) => entry.isFile()).map((entry) => entry.name)
      writeFileSync(path.join(dir, 'kept.png'), png(1, 1, [0, 128, 0]))
      writeFileSync(path.join(dir, 'refused.png'), png(1, 1, [200, 0, 0]))
      const run = async (records: object[], replace = false) =>
        await importProjects(store.db, JSON.stringify(records), { replace, baseDir: dir, media })

      await run([project(1, { external_id: 'A', images: [{ title: 'kept', url: 'kept.png' }] })])
      assert.equal(images().length, 1)
      // Refused inside the transaction: the external_id is already project 1's.
      await assert.rejects(run([project(2, { external_id: 'A', images: [{ title: 'no', url: 'refused.png' }] })]),
        (error: unknown) => error instanceof ImportError && /already belongs to project 1/.test(error.message))
      assert.equal(images().length, 1, 'the refused import left its image')

      // Project 1 loses its image: the file goes with it.
      await run([project(1, { external_id: 'A', images: [] })], true)
      assert.deepEqual(images(), [])
    })
  })
})
