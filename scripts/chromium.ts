// Which Chromium the browser tests and `npm run lighthouse` drive, in this order:
//   1. TONNE_TEST_CHROMIUM, an executable named by the person running them;
//   2. `chromium` on the PATH (e.g. Debian's package);
//   3. the Chromium shipped inside the npm package @sparticuz/chromium (a devDependency), so `npm ci` is enough.
// The npm one is compressed; it is unpacked once into node_modules/.cache/ (see unpackedChromium).
import { execFileSync } from 'node:child_process'
import {
  accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync
} from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

export interface ChromiumLaunch {
  executablePath: string
  /** Flags this Chromium needs beyond the caller's own. */
  args: string[]
  /** Environment settings for the browser process (added to the caller's environment). */
  env: Record<string, string>
  /** Where it came from, for messages. */
  source: string
}

const require = createRequire(import.meta.url)

function isExecutable (file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

export function findChromium (env: NodeJS.ProcessEnv = process.env): ChromiumLaunch {
  const given = env['TONNE_TEST_CHROMIUM']
  if (given !== undefined && given !== '') {
    if (!isExecutable(given)) throw new Error(`TONNE_TEST_CHROMIUM=${given} is not an executable file.`)
    return { executablePath: given, args: [], env: {}, source: 'TONNE_TEST_CHROMIUM' }
  }
  for (const dir of (env['PATH'] ?? '').split(path.delimiter).filter((d) => d !== '')) {
    const candidate = path.join(dir, 'chromium')
    if (isExecutable(candidate)) return { executablePath: candidate, args: [], env: {}, source: 'the PATH' }
  }
  return unpackedChromium()
}

// Runs in a child process whose TMPDIR is a private staging folder: the package unpacks into os.tmpdir(), and
// a shared /tmp/chromium could be half-written by another process or left by another version of the package.
const UNPACK = `
import Chromium, { inflate } from '@sparticuz/chromium'
import path from 'node:path'
const bin = process.argv[1]
await Chromium.executablePath(bin)
// Its own copies of NSS and expat, the libraries it needs beyond glibc (a machine without a browser may lack them).
await inflate(path.join(bin, 'al2023.tar.br'))
`

/** The npm package's Chromium, unpacked once per package version (about 6 s) and shared by every test process. */
function unpackedChromium (): ChromiumLaunch {
  let root: string
  try {
    root = path.join(path.dirname(require.resolve('@sparticuz/chromium')), '..')
  } catch {
    throw new Error('No Chromium found: neither TONNE_TEST_CHROMIUM, nor `chromium` on the PATH, nor the npm ' +
      'package @sparticuz/chromium (run `npm ci`).')
  }
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }
  // node_modules/.cache/ is where packages keep what they make; it goes with `npm ci`.
  const cache = path.join(root, '..', '..', '.cache', 'tonne-chromium')
  const dir = path.join(cache, version)
  if (!existsSync(path.join(dir, 'chromium'))) {
    mkdirSync(cache, { recursive: true })
    const staging = mkdtempSync(path.join(cache, 'unpacking-'))
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', UNPACK, path.join(root, 'bin')], {
        cwd: path.dirname(staging),
        env: { ...process.env, TMPDIR: staging },
        stdio: ['ignore', 'ignore', 'inherit']
      })
      // fonts.conf of the package names /tmp folders; this one names the unpacked fonts.
      writeFileSync(path.join(staging, 'fonts', 'fonts.conf'), '<?xml version="1.0"?>\n<fontconfig>\n' +
        `  <dir>${path.join(dir, 'fonts', 'fonts')}</dir>\n` +
        `  <cachedir>${path.join(dir, 'fonts', 'cache')}</cachedir>\n` +
        '</fontconfig>\n')
      // Parallel test processes may unpack at once: a rename is atomic, and the first one to finish wins.
      renameSync(staging, dir)
    } catch (error) {
      if (!existsSync(path.join(dir, 'chromium'))) throw error
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
  }
  return {
    executablePath: path.join(dir, 'chromium'),
    // A build for serverless machines, whose own `args` list has --no-zygote. Here it runs with its zygote: each
    // test's context then forks a renderer instead of starting one (30 contexts took 14.0 and 16.2 s of CPU with
    // it, 17.6 and 18.9 s without, alternated; docs/test-suite.md, "Stop 47").
    args: [],
    env: {
      LD_LIBRARY_PATH: [path.join(dir, 'al2023', 'lib'), process.env['LD_LIBRARY_PATH']].filter(Boolean).join(':'),
      // The machine's fonts when it has fontconfig set up, else the few the package brings.
      ...(!existsSync('/etc/fonts/fonts.conf') && { FONTCONFIG_PATH: path.join(dir, 'fonts') })
    },
    source: `@sparticuz/chromium ${version}`
  }
}
