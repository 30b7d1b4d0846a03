import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'

/**
 * The folders depend on each other one way (docs/architecture.md): routes -> services ->
 * repositories and pure functions -> store. These rules read every import in src/, type-only
 * imports included, so a back-edge fails here before a newcomer trips over it.
 */

const SRC = path.join(import.meta.dirname, '..', 'src')

/** Every TypeScript module under src/, as a path relative to src/ with forward slashes. */
function modules (dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'public' ? [] : modules(full)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')
      ? [path.relative(SRC, full).split(path.sep).join('/')]
      : []
  })
}

/** The src/ modules a module imports (static, type-only, re-exports and dynamic imports alike). */
function importsOf (file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)'([^']+)'/g)].map((m) => m[1]!)
  return specifiers.filter((s) => s.startsWith('.'))
    .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)))
}

/** The other modules of src/ a module uses, by name: external packages and Node's modules. */
function packagesOf (file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8')
  return [...text.matchAll(/^import (?!type )[^\n]*?from '([^'.][^']*)'/gm)].map((m) => m[1]!)
}

/** The src/ modules a module loads when it is loaded: static value imports (not `import type`, not `import()`). */
function staticImportsOf (file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8')
  return [...text.matchAll(/^(?:import|export) (?!type )[^']*?from '(\.[^']+)'/gm)]
    .map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!)))
}

const area = (file: string): string => file.includes('/') ? file.slice(0, file.indexOf('/')) : file
const HTTP_FACING = new Set(['calculator/calculator.routes.ts', 'calculator/calculator.schemas.ts',
  'catalogue/catalogue.routes.ts', 'catalogue/catalogue.schemas.ts', 'catalogue/sources.routes.ts',
  'catalogue/sources.schemas.ts',
  'media/media.routes.ts', 'ledger/transactions.routes.ts', 'ledger/transactions.schemas.ts'])
const DOMAIN_AREAS = new Set(['calculator', 'catalogue', 'ledger', 'media', 'access', 'store', 'reference', 'ingest'])
const COMPOSITION = new Set(['app.ts', 'startup.ts', 'server.ts', 'cli.ts'])
/** The write side's names (registry keys, sync source kinds): read by the configuration, loading no reader. */
const INGEST_NAMES = new Set(['ingest/sync/source-kinds.ts', 'ingest/registries/registry-keys.ts'])
const files = modules()
const edges = files.flatMap((from) => importsOf(from).map((to) => ({ from, to })))

describe('layers', () => {
  test('every import resolves to a module under src/ (the rules below see every edge)', () => {
    const known = new Set(files)
    const unknown = edges.filter(({ to }) => !known.has(to) && !to.startsWith('explorer/public/'))
    assert.deepEqual(unknown, [])
    assert.ok(edges.length > 100, `only ${edges.length} imports found: the parser is broken`)
  })

  test('no domain module imports from src/http (only routes and route schemas do)', () => {
    const offending = edges.filter(({ from, to }) =>
      DOMAIN_AREAS.has(area(from)) && !HTTP_FACING.has(from) && area(to) === 'http')
    assert.deepEqual(offending, [])
  })

  test('src/http knows neither area: domain errors reach it through src/domain/errors.ts', () => {
    const offending = edges.filter(({ from, to }) =>
      area(from) === 'http' && ['calculator', 'catalogue', 'ledger'].includes(area(to)))
    assert.deepEqual(offending, [])
  })

  test('the ledger uses the catalogue only through catalogue/catalogue-shared.ts, and the catalogue never the ledger',
    () => {
      // One direction, one door: the ledger's transactions belong to the catalogue's projects (docs/architecture.md).
      const shared = 'catalogue/catalogue-shared.ts'
      const intoCatalogue = edges.filter(({ from, to }) =>
        area(from) === 'ledger' && area(to) === 'catalogue' && to !== shared)
      assert.deepEqual(intoCatalogue, [])
      const upward = edges.filter(({ from, to }) => area(from) === 'catalogue' && area(to) === 'ledger')
      assert.deepEqual(upward, [])
      assert.ok(edges.some(({ from, to }) => area(from) === 'ledger' && to === shared), 'the walk is broken')
    })

  test('media knows nothing of the areas that use it; store and reference import no area', () => {
    const foundations = ['store', 'reference']
    const offending = edges.filter(({ from, to }) =>
      (area(from) === 'media' && ['catalogue', 'calculator', 'access'].includes(area(to))) ||
      (foundations.includes(area(from)) && area(to) !== area(from) &&
        (DOMAIN_AREAS.has(area(to)) || area(to) === 'http')))
    assert.deepEqual(offending, [])
  })

  test('the write side (src/ingest) is loaded only by the composition root, through import(), and uses no HTTP code',
    () => {
      // Only the root reaches it (the CLI's commands, serve's sync schedule and the bundled catalogue), and never
      // by a static value import; the configuration and the CLI's usage read the registries' keys and the sync's
      // source kinds, which are names, not readers.
      const into = edges.filter(({ from, to }) => area(to) === 'ingest' && area(from) !== 'ingest' &&
        !COMPOSITION.has(from) && !(from === 'config.ts' && INGEST_NAMES.has(to)))
      assert.deepEqual(into, [])
      for (const root of COMPOSITION) {
        assert.deepEqual(staticImportsOf(root).filter((file) => area(file) === 'ingest' && !INGEST_NAMES.has(file)),
          [], root)
      }
      const uses = new Set(['ingest', 'catalogue', 'ledger', 'store', 'media', 'domain', 'reference', 'config.ts'])
      assert.deepEqual(edges.filter(({ from, to }) => area(from) === 'ingest' && !uses.has(area(to))), [])
    })

  test('nothing imports the composition root (app, startup, server, cli) but the root itself', () => {
    const offending = edges.filter(({ from, to }) => COMPOSITION.has(to) && !COMPOSITION.has(from))
    assert.deepEqual(offending, [])
  })

  test('buildApp (app.ts) reads no file and opens no connection: no fs, no Redis or database client', () => {
    assert.deepEqual(packagesOf('app.ts').filter((name) => /^(node:)?(fs|net|dgram)(\/|$)|^ioredis$|^pg$/.test(name)),
      [])
    const prepared = ['calculator/calculator.data.ts', 'catalogue/sdg-icons.ts', 'store/connect.ts', 'store/migrate.ts']
    const text = readFileSync(path.join(SRC, 'app.ts'), 'utf8')
    for (const name of ['loadCalculatorData', 'writeSdgIcons', 'resolveSigningSecret', 'new MediaStore', 'new Redis']) {
      assert.doesNotMatch(text, new RegExp(name.replace(' ', '\\s+')), `app.ts calls ${name}: that is start-up work`)
    }
    const valueImports = [...text.matchAll(/^import (?!type )[^\n]*?from '\.\/([^']+)'/gm)].map((m) => m[1]!)
    assert.deepEqual(valueImports.filter((file) => prepared.includes(file)), [])
  })

  test('serving loads no importer and no optional client: what server.ts imports up front', () => {
    // Start time is mostly module loading (docs/performance.md): the importers (and the schema compiler and
    // SVG parser they bring), Redis' client and PostgreSQL's are loaded only by the commands or settings
    // that use them, through import().
    const closure = new Set<string>()
    const visit = (file: string): void => {
      if (closure.has(file)) return
      closure.add(file)
      for (const to of staticImportsOf(file)) visit(to)
    }
    visit('server.ts')
    assert.ok(closure.has('app.ts') && closure.has('catalogue/catalogue.routes.ts'), 'the walk is broken')
    // The registries' keys and the sync's source kinds are names, not readers: the configuration checks SYNC_SOURCES.
    const importers = [...closure].filter((file) => area(file) === 'ingest' && !INGEST_NAMES.has(file))
    assert.deepEqual(importers, [])
    const optional = /^(ioredis|pg|csv-parse|@xmldom\/xmldom|hyparquet|yauzl)$|^typebox\/(compile|value)$/
    const clients = [...closure].flatMap((file) =>
      packagesOf(file).filter((name) => optional.test(name)).map((name) => `${file}: ${name}`))
    assert.deepEqual(clients, [])
    // An ES import of node:http or node:https builds its namespace, and its lazy getters load Node's fetch (undici).
    const http = [...closure].flatMap((file) =>
      packagesOf(file).filter((name) => /^(node:)?https?$/.test(name)).map((name) => `${file}: ${name}`))
    assert.deepEqual(http, [])
  })

  test('no import cycles between modules', () => {
    const next = new Map<string, string[]>()
    for (const { from, to } of edges) next.set(from, [...next.get(from) ?? [], to])
    const state = new Map<string, 'open' | 'done'>()
    const cycles: string[][] = []
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file])
        return
      }
      state.set(file, 'open')
      for (const to of next.get(file) ?? []) visit(to, [...trail, file])
      state.set(file, 'done')
    }
    for (const file of files) visit(file, [])
    assert.deepEqual(cycles, [])
  })
})
