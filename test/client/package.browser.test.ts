import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { TonneClient } from '../../client/src/index.ts'
import { launchBrowser } from '../explorer/browser.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { REPO_ROOT, tempDir } from '../helpers.ts'
import { node20 } from '../support/node-versions.ts'
import { startService } from '../support/service.ts'
import { CLIENT_DIR, clientPackageVersion } from './client-package.ts'
import { recordingProxy } from './recording-proxy.ts'

// The client as a user gets it: `npm pack` (which builds it), the tarball installed into a project of its own
// (a copy, not a link to client/), then used from Node.js 20 and 24, type-checked, and bundled for a browser.
// Settings, the way test/databases.ts holds the database suites':
//   TONNE_TEST_NODE20  a Node.js 20 executable (default: the first `node` on the PATH that is version 20)

const PINNED_NODE = path.join(REPO_ROOT, 'node_modules', '.bin', 'node')
const TSC = path.join(REPO_ROOT, 'node_modules', 'typescript-native', 'bin', 'tsc')
const runFile = promisify(execFile)

async function run (file: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await runFile(file, args, { cwd, env: { ...process.env, npm_config_update_notifier: 'false' } })
    return stdout
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string, stderr?: string }
    const output = `${stdout ?? ''}${stderr ?? ''}`
    throw new Error(`${path.basename(file)} ${args.join(' ')} failed:\n${output}`, { cause: error })
  }
}

/** npm pack in client/ (its prepack script builds dist/), then the tarball installed into a fresh project. */
async function installFromTarball (t: TestContext): Promise<{ project: string, files: string[] }> {
  const work = tempDir(t, 'tonne-client-package-')
  const [packed] = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', work], CLIENT_DIR)) as
    Array<{ filename: string, files: Array<{ path: string }> }>
  const project = path.join(work, 'consumer')
  mkdirSync(project)
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  // The client has no dependencies, so nothing is fetched: CI's only network is the npm registry, and this needs none.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(work, packed!.filename)], project)
  return { project, files: packed!.files.map((file) => file.path).sort() }
}

// Run by Node.js 20 and 24 as plain JavaScript, against the real service.
const NODE_SCRIPT = `
import { TonneApiError, TonneClient, TonneError, VERSION, isKnownErrorCode } from '@tonne/client'
const [baseUrl, apiKey] = process.argv.slice(2)
const tonne = new TonneClient({ baseUrl, apiKey })
const diet = await tonne.calculator.diet({ country_code: 'DEU', diet_form: 'vegan' })
const page = await tonne.projects.list({ ordering: 'id', limit: 3 })
const missing = await tonne.projects.get(999).catch((error) => error)
const anonymous = await new TonneClient({ baseUrl }).projects.list().catch((error) => error)
console.log(JSON.stringify({
  version: VERSION,
  dietKg: diet.co2e.kg,
  ids: page.results.map((project) => project.id),
  missing: { apiError: missing instanceof TonneApiError, code: missing.code, known: isKnownErrorCode(missing.code) },
  anonymous: { tonneError: anonymous instanceof TonneError, apiError: anonymous instanceof TonneApiError }
}))
`

// Type-checked, never run: what a strict TypeScript user writes. Each @ts-expect-error must meet its error.
const TS_CONSUMER = `
import { TonneApiError, TonneClient } from '@tonne/client'
import type { DietResult, ErrorCode, KnownErrorCode, Project } from '@tonne/client'

const tonne = new TonneClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'tonne_0_0', retry: { maxAttempts: 2 } })

export async function names (): Promise<string[]> {
  const names: string[] = []
  for await (const project of tonne.projects.all({ location: 'Brazil' })) names.push(project.name)
  return names
}

export async function veganKg (): Promise<number> {
  const diet: DietResult = await tonne.calculator.diet({ country_code: 'DEU', diet_form: 'vegan', calories: 2500 })
  return diet.co2e.kg
}

export function explain (error: unknown): string {
  if (!(error instanceof TonneApiError)) return 'not from the service'
  const code: ErrorCode = error.code
  switch (code) {
    case 'rate_limited': return \`come back in \${error.retryAfterMs ?? 0} ms\`
    case 'invalid_parameter': return \`\${error.parameter ?? '?'}: one of \${(error.allowedValues ?? []).join(', ')}\`
    default: return code
  }
}

export const handled: KnownErrorCode[] = ['not_found', 'unauthorized']
export const later: ErrorCode = 'a_code_added_later'
export type Id = Project['id']

// @ts-expect-error a misspelt code is not a known one
export const misspelt: KnownErrorCode = 'rate_limitted'
// @ts-expect-error limit is a number
export const wrongLimit = tonne.projects.list({ limit: 'many' })
// @ts-expect-error diet_form is an enumeration
export const wrongDiet = tonne.calculator.diet({ country_code: 'DEU', diet_form: 'carnivore' })
`

// Bundled for a browser; runs in Chromium, on a page of the service's own origin.
const BROWSER_ENTRY = `
import { TonneClient, TonneError, VERSION } from '@tonne/client'
globalThis.checkTonneClient = async (baseUrl) => {
  const userAgents = []
  const fetchNoting = (input, init) => {
    userAgents.push(new Headers(init?.headers).get('user-agent'))
    return fetch(input, init)
  }
  const tonne = new TonneClient({ baseUrl, fetch: fetchNoting })
  const diet = await tonne.calculator.diet({ country_code: 'DEU', diet_form: 'vegan' })
  const anonymous = await tonne.projects.list().catch((error) => error)
  return { version: VERSION, dietKg: diet.co2e.kg, userAgents, anonymous: anonymous instanceof TonneError }
}
`

// npm pack and install, two Node.js versions, tsc, esbuild and a browser take minutes on a busy machine: more
// than the suite's 180 s per test.
const MINUTES = { timeout: 600_000 }

test('the client tarball installs and runs on Node.js 20 and 24, in browsers, under tsc', MINUTES, async (t) => {
  const version = clientPackageVersion()
  const { project, files } = await installFromTarball(t)

  // What a user needs and nothing else: JavaScript and its declarations, no TypeScript sources or build settings.
  assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts'), files.join(', '))
  for (const file of files) {
    const needed = ['package.json', 'README.md', 'LICENSE'].includes(file) || /^dist\/[\w-]+\.(js|d\.ts)$/.test(file)
    assert.ok(needed, `packed ${file}`)
  }
  const installed = path.join(project, 'node_modules', '@tonne', 'client')
  assert.ok(!lstatSync(installed).isSymbolicLink(), 'a copy, as from a registry')
  assert.ok(!existsSync(path.join(installed, 'src')))

  const { baseUrl, key } = await startService(t, { records: fixtureProjects() })
  const proxy = await recordingProxy(t, baseUrl)
  // What the sources (as the other tests use them) answer: the packed build must answer the same.
  const vegan = { country_code: 'DEU', diet_form: 'vegan' } as const
  const expectedKg = (await new TonneClient({ baseUrl }).calculator.diet(vegan)).co2e.kg
  writeFileSync(path.join(project, 'use.mjs'), NODE_SCRIPT)
  for (const [node, major] of [[await node20(), 'v20'], [PINNED_NODE, 'v24']] as const) {
    assert.equal((await run(node, ['--version'], project)).split('.')[0], major)
    proxy.requests.length = 0
    const outcome = JSON.parse(await run(node, ['use.mjs', proxy.baseUrl, key], project)) as unknown
    assert.deepEqual(outcome, {
      version,
      dietKg: expectedKg,
      ids: [1, 2, 3],
      missing: { apiError: true, code: 'not_found', known: true },
      anonymous: { tonneError: true, apiError: false }
    }, `on Node.js ${major}`)
    const userAgents = proxy.requests.map((headers) => headers['user-agent'])
    assert.deepEqual(userAgents, Array(3).fill(`tonne-client/${version}`), `on Node.js ${major}`)
  }

  // Strict TypeScript with nodenext resolution, as a browser-minded project (default libraries, DOM included) and
  // as a Node.js one (no DOM, @types/node): the declarations must need neither more nor other. TypeScript 7, the
  // release `npm install typescript` gives a new project (README, "Two TypeScripts").
  writeFileSync(path.join(project, 'consumer.ts'), TS_CONSUMER)
  const settings = { strict: true, module: 'nodenext', noEmit: true, skipLibCheck: false }
  const typeRoots = [path.join(REPO_ROOT, 'node_modules', '@types')]
  const nodeSettings = { ...settings, lib: ['es2022'], types: ['node'], typeRoots }
  for (const [name, compilerOptions] of [['tsconfig.json', settings], ['tsconfig.node.json', nodeSettings]] as const) {
    writeFileSync(path.join(project, name), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }))
    await run(process.execPath, [TSC, '-p', name], project)
  }

  // A browser bundle: esbuild fails on any node: import or Node.js package; the client pulls in nothing but itself.
  writeFileSync(path.join(project, 'browser.mjs'), BROWSER_ENTRY)
  const bundle = await build({
    absWorkingDir: project,
    entryPoints: ['browser.mjs'],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    metafile: true,
    logLevel: 'silent'
  })
  for (const input of Object.keys(bundle.metafile.inputs)) {
    assert.match(input, /^(browser\.mjs|node_modules\/@tonne\/client\/dist\/[\w-]+\.js)$/, `bundled ${input}`)
  }

  const browser = await launchBrowser(t)
  const page = await browser.newPage()
  // The page is served at the service's origin (the recording proxy's), so the client's calls are same-origin.
  const html = '<!doctype html><html lang="en"><title>client</title><script src="bundle.js"></script></html>'
  await page.route(`${proxy.baseUrl}/client-check/**`, async (route) => {
    const script = route.request().url().endsWith('.js')
    await route.fulfill(script
      ? { contentType: 'text/javascript', body: bundle.outputFiles[0]!.text }
      : { contentType: 'text/html', body: html })
  })
  await page.goto(`${proxy.baseUrl}/client-check/index.html`)
  proxy.requests.length = 0
  const inBrowser = await page.evaluate('checkTonneClient(location.origin)')
  const noUserAgent = { version, dietKg: expectedKg, userAgents: [null], anonymous: true }
  assert.deepEqual(inBrowser, noUserAgent, 'the client set no User-Agent')
  assert.match(String(proxy.requests[0]?.['user-agent']), /^Mozilla\//, 'the browser\'s own User-Agent')
  assert.deepEqual(browser.problems, [])
})
