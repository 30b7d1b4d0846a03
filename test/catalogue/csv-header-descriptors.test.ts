import assert from 'node:assert/strict'
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { ExportFileError } from '../../src/catalogue/catalogue.errors.ts'
import { readCsvHeader } from '../../src/ingest/registries/csv-export.ts'
import { tempDir } from '../helpers.ts'

/** Descriptors this process holds open on `file` (Linux: /proc/self/fd links to the files). */
function openDescriptorsOn (file: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file
    } catch {
      return false
    }
  }).length
}

test('reading a registry header 50 times leaves no file descriptor open', { skip: process.platform !== 'linux' },
  async (t) => {
    const file = path.join(tempDir(t), 'export.csv')
    writeFileSync(file, `Project ID,Project Name\n${'1,Forest\n'.repeat(20_000)}`)
    for (let i = 0; i < 50; i++) {
      assert.deepEqual(await readCsvHeader(file, 'export.csv'), ['Project ID', 'Project Name'])
    }
    assert.equal(openDescriptorsOn(file), 0)
    await assert.rejects(readCsvHeader(path.join(path.dirname(file), 'missing.csv'), 'missing.csv'),
      (error: unknown) => error instanceof ExportFileError && /missing\.csv: ENOENT/.test(error.message))
  })
