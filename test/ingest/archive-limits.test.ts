import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test, type TestContext } from 'node:test'
import { readArchive, type ArchiveLimits, type IgnoredEntry } from '../../src/ingest/offsetsdb/archive.ts'
import { tempDir } from '../helpers.ts'
import { zip } from '../support/offsetsdb.ts'

// The archive reader's limits on what a zip may expand to, checked on what each entry declares before it is
// expanded (docs/registries.md, OffsetsDB's archive). The shipped limits are GiBs; these tests pass small ones.
const LIMITS: ArchiveLimits = { maxEntries: 3, maxEntryBytes: 1000, maxTotalBytes: 1500, maxRatio: 200 }

/** Reads every table of the zips (each a map of entry names to their sizes in bytes); returns what was ignored. */
async function read (t: TestContext, zips: Array<Record<string, number>>): Promise<IgnoredEntry[]> {
  const dir = tempDir(t)
  const files = zips.map((entries, i) => {
    const file = path.join(dir, `archive-${i}.zip`)
    // Text that is no table: read, then set aside as ignored. Varied, so it compresses as text does.
    writeFileSync(file, zip(Object.fromEntries(Object.entries(entries).map(([name, size]) =>
      [name, Buffer.from(Array.from({ length: size }, (_, n) => String.fromCharCode(97 + (n * 7) % 26)).join(''))]))))
    return { path: file, label: `archive-${i}.zip` }
  })
  const ignored: IgnoredEntry[] = []
  for await (const table of readArchive(files, ignored, LIMITS)) {
    for await (const row of table.rows) assert.ok(row.line >= 1)
  }
  return ignored
}

describe('OffsetsDB archive: what a zip may expand to', () => {
  test('an entry of exactly the entry limit is read; one byte more is refused, naming it and the limit',
    async (t) => {
      assert.equal((await read(t, [{ 'notes.txt': 1000 }])).length, 1)
      await assert.rejects(read(t, [{ 'notes.txt': 1001 }]),
        /archive-0\.zip > notes\.txt expands to 1001 bytes; at most 1000 are read \(a zip bomb\?\)/)
    })

  test('entries adding up to exactly the archive limit are read; one byte more is refused', async (t) => {
    assert.equal((await read(t, [{ a: 800, b: 700 }])).length, 2)
    await assert.rejects(read(t, [{ a: 800, b: 701 }]),
      /archive-0\.zip > b: the archive expands to more than 1500 bytes \(a zip bomb\?\)/)
  })

  test('the archive limit counts every zip of one import together', async (t) => {
    await assert.rejects(read(t, [{ a: 800 }, { b: 701 }]),
      /archive-1\.zip > b: the archive expands to more than 1500 bytes/)
  })

  test('a zip of more entries than the limit is refused before any is read', async (t) => {
    assert.equal((await read(t, [{ a: 1, b: 1, c: 1 }])).length, 3)
    await assert.rejects(read(t, [{ a: 1, b: 1, c: 1, d: 1 }]),
      /archive-0\.zip has 4 entries; an OffsetsDB archive has a few \(at most 3 are read\)/)
  })
})
