// node scripts/build-bundle.ts [--outdir DIR]   (run by `npm ci` and `npm install` through `prepare`)
//
// The server and CLI as one esbuild bundle in dist/ (not committed), which bin/tonne.js runs instead of the
// TypeScript sources while it is newer than every file it was built from. Minified, it leaves V8 smaller source
// strings and less to parse: less live heap in a small container and a shorter start (docs/performance.md,
// "the bundle, added"). Files read at run time (data/, the docs UI, the explorer, the worker threads' sources) stay
// where they are: each `import.meta.dirname`/`import.meta.url` of a source, and each `__dirname`/`__filename` of a
// CommonJS package, becomes its own path, found from the bundle's place at run time.
import { rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import type { Plugin } from 'esbuild'

// `npm ci --omit=dev` has no esbuild (a devDependency): then there is no bundle, and the sources run.
const esbuild = await import('esbuild').catch(() => undefined)
if (esbuild === undefined) {
  console.error('build-bundle: esbuild is not installed (npm ci --omit=dev?): no bundle, Tonne runs its sources')
  process.exit(0)
}

const ROOT = path.join(import.meta.dirname, '..')
const { values } = parseArgs({ options: { outdir: { type: 'string', default: path.join(ROOT, 'dist') } } })
const outdir = path.resolve(values.outdir)
const toRoot = path.relative(outdir, ROOT)
// Paths relative to the project: the bundle must run wherever the project is copied (a Docker image).
const fromRoot = (file: string) => path.relative(ROOT, file).split(path.sep).join('/')

/** Each module's own place, as a path from the project's root joined at run time (__tonneRoot, the banner's). */
const ownPaths: Plugin = {
  name: 'own-paths',
  setup (builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      const dir = JSON.stringify(path.dirname(fromRoot(args.path)))
      const file = JSON.stringify(fromRoot(args.path))
      return {
        loader: 'ts',
        contents: source
          .replaceAll('import.meta.dirname', `__tonnePath.join(__tonneRoot, ${dir})`)
          .replaceAll('import.meta.url', `__tonneUrl(__tonnePath.join(__tonneRoot, ${file})).href`)
      }
    })
    builder.onLoad({ filter: /node_modules.*\.c?js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      if (!/\b__(dirname|filename)\b/.test(source)) return undefined
      const dir = JSON.stringify(path.dirname(fromRoot(args.path)))
      const file = JSON.stringify(fromRoot(args.path))
      return {
        loader: 'js',
        contents: source
          .replace(/\b__dirname\b/g, `__tonnePath.join(__tonneRoot, ${dir})`)
          .replace(/\b__filename\b/g, `__tonnePath.join(__tonneRoot, ${file})`)
      }
    })
  }
}

const banner = [
  "import { createRequire as __tonneRequire } from 'node:module';",
  "import __tonnePath from 'node:path';",
  "import { pathToFileURL as __tonneUrl } from 'node:url';",
  // CommonJS packages bundled into ESM still call require() for Node's own modules.
  'const require = __tonneRequire(import.meta.url);',
  `const __tonneRoot = __tonnePath.join(import.meta.dirname, ${JSON.stringify(toRoot)});`
].join('\n')

// Chunks of an earlier build must not stay beside this one's.
rmSync(outdir, { recursive: true, force: true })
const result = await esbuild.build({
  // What bin/tonne.js needs: the CLI, and the configuration and sizing it reads before `serve` restarts itself.
  stdin: {
    contents: "export { main } from './src/cli.ts'\nexport { loadConfig } from './src/config.ts'\n" +
      "export * as sizing from './src/sizing.ts'\n",
    resolveDir: ROOT,
    sourcefile: 'bundle-entry.ts',
    loader: 'ts'
  },
  bundle: true,
  // Commands load what they need when they run (import()); chunks keep it so: `serve` loads no importer.
  splitting: true,
  // Every chunk beside the entry: the banner finds the project's root from its own folder.
  chunkNames: '[name]-[hash]',
  entryNames: 'tonne',
  outdir,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  minify: true,
  // The licences go to .LEGAL.txt files beside the chunks: one non-ASCII letter in a comment made V8 hold the
  // whole 1.6 MB server chunk's source as two bytes a character (3.2 MB of heap, in a heap snapshot).
  legalComments: 'external',
  // Error classes and answers may use a constructor's name.
  keepNames: true,
  banner: { js: banner },
  // Optional native or absent packages some dependencies try to load; and the two clients loaded only when
  // configured (PostgreSQL, Redis), from node_modules as the sources load them: bundled, ioredis's CommonJS
  // exports lost their named class (`Redis is not a constructor` at start).
  external: ['pg-native', 'cloudflare:sockets', 'pg', 'ioredis'],
  plugins: [ownPaths],
  metafile: true,
  logLevel: 'warning'
})

// What bin/tonne.js compares the bundle's age with: every project file it was built from (paths from the root).
const inputs = Object.keys(result.metafile.inputs)
  .filter((input) => !input.includes('node_modules') && input !== 'bundle-entry.ts')
  .map((input) => fromRoot(path.resolve(ROOT, input)))
writeFileSync(path.join(outdir, 'inputs.json'), JSON.stringify(inputs.sort()) + '\n')
