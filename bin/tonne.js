#!/usr/bin/env node
// The CLI is TypeScript run by Node's type stripping; npm puts the pinned Node 24 first on PATH.
import module from 'node:module'
import { freshBundle } from './bundle.js'

// Later starts reuse the stripped and compiled modules (NODE_COMPILE_CACHE, else the OS temp folder): the
// type stripper is then not loaded at all, which saves about 25 MB and part of the start (docs/performance.md).
// Tonne runs on the Node.js that `npm ci` installs (the `node` package, the version in .nvmrc); an older one cannot
// strip types or open node:sqlite, so it is refused here in words rather than with a syntax error.
const NEEDED = 24
if (Number(process.versions.node.split('.')[0]) < NEEDED) {
  console.error(`tonne needs Node.js ${NEEDED} or later, and this is ${process.version}. ` +
    '`npm ci` installs Node.js 24 into the project: run the command as `npx tonne …` (or through npm scripts).')
  process.exit(1)
}

const cache = module.enableCompileCache?.()
// Worker threads (the SQLite readers) start with this process's environment: the same cache halves their boot.
if (cache?.directory !== undefined) process.env.NODE_COMPILE_CACHE ??= cache.directory
const args = process.argv.slice(2)
const entry = freshBundle(process.env.TONNE_BUNDLE_DIR) ?? '../src/cli.ts'
const command = args.find((arg) => !arg.startsWith('-'))
if (command === 'serve') await startSized()
else if (command === 'import' || command === 'sync') await startBatch()
const { main } = await import(entry)
const code = await main(args)
// A failure ends the process at once (a pool or timer left open must not keep it alive); success ends on its
// own, and `serve` keeps running.
if (code !== 0) process.exit(code)

/**
 * `serve` runs with the V8 flags sized for its memory limit (src/sizing.ts; the unsized ones without a limit).
 * V8 reads heap sizes and glibc MALLOC_ARENA_MAX only as the process starts, so this process replaces itself once
 * (process.execve, same pid) with the flags and settings the command line, NODE_OPTIONS and the environment do
 * not already give: the operator's win. Bad settings are left to the CLI to report.
 */
async function startSized () {
  if (typeof process.execve !== 'function') return
  const [{ loadConfig }, sizing] = await fromEntry(() => import('../src/config.ts'))
  let config
  try {
    config = loadConfig(process.env, process.cwd(), sizing.detectMemoryLimit())
  } catch {
    return
  }
  const { sizing: chosen } = config.memory
  restartWith(sizing, sizing.v8FlagsFor(chosen), sizing.missingEnv(sizing.sizingEnv(chosen), process.env))
}

/**
 * `import` and `sync` stream a registry's or an archive's millions of rows: V8's default young generation let the
 * heap grow to several times the live data (src/sizing.ts, IMPORT_V8_FLAGS).
 */
async function startBatch () {
  if (typeof process.execve !== 'function') return
  const [, sizing] = await fromEntry(async () => undefined)
  restartWith(sizing, sizing.IMPORT_V8_FLAGS, sizing.missingEnv(sizing.IMPORT_ENV, process.env))
}

/** The config module (as `source` loads it) and src/sizing.ts, from the bundle when it runs, else the sources. */
async function fromEntry (source) {
  return entry === '../src/cli.ts'
    ? await Promise.all([source(), import('../src/sizing.ts')])
    : await import(entry).then((bundle) => [bundle, bundle.sizing])
}

/** Replaces this process (same pid) with the flags and environment not already given; the operator's win. */
function restartWith (sizing, flags, env) {
  const missing = sizing.missingFlags(flags, sizing.givenV8Flags(process.execArgv, process.env.NODE_OPTIONS))
  if (missing.length === 0 && Object.keys(env).length === 0) return
  process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, process.argv[1], ...args],
    { ...process.env, ...env })
}
