import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestContext } from 'node:test'

// Apart from test/helpers.ts, which imports the whole app (about half a second of CPU): a test that only starts
// processes needs no more than these (test/helpers.ts and test/support/registries.ts pass them on to the others).

export const REPO_ROOT = path.join(import.meta.dirname, '..', '..')

/** OffsetsDB's copies of the registries' exports, the samples the import tests read. */
export const RAW = path.join(REPO_ROOT, 'data', 'catalogue', 'raw', 'offsets-db-data')

/**
 * Where the tests' data folders go: a memory file system (/dev/shm) when there is one with room, else the OS temp
 * folder. Every test app's SQLite database is closed with a checkpoint that waits for the disk (fsync), and its
 * folder is written and removed; on the disk that was about 150 ms of waiting per app (186 against 41 ms a build,
 * 2026-11-28, load average 18), and nothing a test asserts depends on the medium.
 */
export const TEST_TMPDIR = process.env['TONNE_TEST_TMPDIR'] ?? (() => {
  const memory = '/dev/shm'
  try {
    accessSync(memory, constants.W_OK)
    const { bavail, bsize } = statfsSync(memory)
    // Room for every concurrent test's folder (the largest hold tens of MB); a small one (a container's 64 MB) is
    // not used.
    if (bavail * bsize >= 1024 ** 3) return memory
  } catch {
    // No such folder (not Linux): the OS temp folder.
  }
  return os.tmpdir()
})()

/** A fresh data directory under the tests' temp folder (TEST_TMPDIR), removed after the test. */
export function tempDir (t: TestContext, prefix = 'tonne-test-'): string {
  const dir = mkdtempSync(path.join(TEST_TMPDIR, prefix))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
