import assert from 'node:assert/strict'
import { globSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'

/**
 * A test file's name says what it starts (README, "Tests"), so `npm run test:fast` can leave out what is slow
 * without a list to keep: a file that starts a browser ends `.browser.test.ts`, one that starts a process (the
 * `tonne` command, a server, a validator) ends `.process.test.ts`, and files under test/unit/ test pure functions,
 * with no database, app, process or network. These rules read the files' imports, so a new test is held to them.
 */

const ROOT = path.join(import.meta.dirname, '..')

/** Helpers that start a browser or a process, by module and export. */
const STARTERS: Record<string, Record<string, 'browser' | 'process'>> = {
  'test/explorer/browser.ts': { launchBrowser: 'browser', serviceAndPage: 'browser', openWithKeyRemembered: 'browser' },
  // Unpacks the npm package's Chromium in a process of its own on first use.
  'scripts/chromium.ts': { findChromium: 'browser' },
  'test/cli.helpers.ts': { tonneProcess: 'process', startTonne: 'process' },
  'test/support/server-process.ts': { startServerProcess: 'process', workersListening: 'process' },
  'test/support/node-versions.ts': { node20: 'process' }
}
/** Packages whose import is itself the start of one. */
const STARTING_PACKAGES: Record<string, 'browser' | 'process'> = {
  'playwright-core': 'browser', 'node:child_process': 'process', child_process: 'process'
}

interface Import { specifier: string, names: string[], typeOnly: boolean }

/** The static imports of a file (names imported by value; a type-only import starts nothing). */
function importsOf (file: string): Import[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8')
  return [...text.matchAll(/^import\s+(type\s+)?([^'"]*?)\s*from\s+'([^']+)'/gm)].map((m) => {
    const clause = m[2]!
    const named = /\{([^}]*)\}/.exec(clause)?.[1] ?? ''
    const names = named.split(',').map((n) => n.trim()).filter((n) => n !== '' && !n.startsWith('type '))
      .map((n) => n.split(/\s+as\s+/)[0]!)
    const specifier = m[3]!.startsWith('.')
      ? path.posix.normalize(path.posix.join(path.posix.dirname(file), m[3]!))
      : m[3]!
    return { specifier, names, typeOnly: m[1] !== undefined }
  })
}

/** What a file starts: a browser, a process, both or nothing. */
function starts (file: string): Set<'browser' | 'process'> {
  const found = new Set<'browser' | 'process'>()
  for (const { specifier, names, typeOnly } of importsOf(file)) {
    if (typeOnly) continue
    const starting = STARTING_PACKAGES[specifier]
    if (starting !== undefined) found.add(starting)
    for (const name of names) {
      const kind = STARTERS[specifier]?.[name]
      if (kind !== undefined) found.add(kind)
    }
  }
  return found
}

const testFiles = globSync('test/**/*.test.ts', { cwd: ROOT }).map((f) => f.split(path.sep).join('/')).sort()

describe('test levels', () => {
  test('a file that starts a browser ends .browser.test.ts', () => {
    const misnamed = testFiles.filter((f) => starts(f).has('browser') && !f.endsWith('.browser.test.ts'))
    assert.deepEqual(misnamed, [])
  })

  test('a file that starts a process ends .process.test.ts (or .browser.test.ts)', () => {
    const misnamed = testFiles.filter((f) => starts(f).has('process') && !/\.(process|browser)\.test\.ts$/.test(f))
    assert.deepEqual(misnamed, [])
  })

  test('a file named for a browser or a process starts one (else it belongs in the fast set)', () => {
    const idle = testFiles.filter((f) => /\.(process|browser)\.test\.ts$/.test(f) && starts(f).size === 0)
    assert.deepEqual(idle, [])
  })

  test('every helper that can start a browser or a process is known here, with its starting exports', () => {
    const helpers = globSync('test/**/*.{ts,js}', { cwd: ROOT }).map((f) => f.split(path.sep).join('/'))
      .filter((f) => !f.endsWith('.test.ts'))
    const unknown = helpers.filter((f) => importsOf(f).some((i) => !i.typeOnly &&
      STARTING_PACKAGES[i.specifier] !== undefined) && STARTERS[f] === undefined)
    assert.deepEqual(unknown, [])
    assert.ok(testFiles.length > 50, `only ${testFiles.length} test files found: the glob is broken`)
  })

  test('test/unit/ files use no database, app, process or network', () => {
    const forbidden = new RegExp('^(test/(helpers|databases|cli\\.helpers)\\.ts|test/support/|' +
      'src/(app|startup|server|cli)\\.ts|src/store/|pg$|ioredis$|node:(child_process|net|http|https)$)')
    const unit = globSync('test/unit/**/*.ts', { cwd: ROOT }).map((f) => f.split(path.sep).join('/'))
    const offending = unit.flatMap((f) => importsOf(f).filter((i) => forbidden.test(i.specifier))
      .map((i) => `${f} imports ${i.specifier}`))
    assert.deepEqual(offending, [])
    assert.ok(unit.length > 0)
  })
})
