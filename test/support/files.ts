import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestContext } from 'node:test'

// Apart from test/helpers.ts, which imports the whole app (about half a second of CPU): a test that only starts
// processes needs no more than these (test/helpers.ts and test/support/registries.ts pass them on to the others).

export const REPO_ROOT = path.join(import.meta.dirname, '..', '..')

/** OffsetsDB's copies of the registries' exports, the samples the import tests read. */
export const RAW = path.join(REPO_ROOT, 'data', 'catalogue', 'raw', 'offsets-db-data')

/** A fresh data directory under the OS temp folder, removed after the test. */
export function tempDir (t: TestContext, prefix = 'tonne-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
