import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { promisify } from 'node:util'
import { tonne, tonneProcess } from './cli.helpers.ts'
import { REPO_ROOT, tempDir } from './helpers.ts'
import { node20 } from './support/node-versions.ts'

// What a person typing `tonne …` meets: usage errors, help, files that are not there (issue 25, item 6), and
// the Node.js it runs on (item 7). Command behaviour runs in process; the bin file itself in a real process.

const settings = (t: import('node:test').TestContext) => ({ DATA_DIR: path.join(tempDir(t), 'data') })

test('a file that is not there: import and export say what they could not do, not "could not start"', async (t) => {
  const env = settings(t)
  const imported = await tonne(['import', '/nope/x.json'], env)
  assert.equal(imported.code, 1)
  assert.match(imported.stderr, /^tonne import: nothing was changed\. Could not read \/nope\/x\.json: no such file/)
  assert.doesNotMatch(imported.stderr, /could not start/i)

  const exported = await tonne(['export', '/nope/dir/x.json'], env)
  assert.equal(exported.code, 1)
  assert.match(exported.stderr, /^tonne export: could not write \/nope\/dir\/x\.json: no such file/)
  assert.doesNotMatch(exported.stderr, /could not start/i)
})

test('an option without its value is a usage error (exit code 2) with the command\'s usage', async (t) => {
  const env = settings(t)
  for (const args of [['import', '--from'], ['keys', 'create', '--name'], ['import', '--nonsense', 'x.json']]) {
    const result = await tonne(args, env)
    assert.equal(result.code, 2, args.join(' '))
    assert.match(result.stderr, /^tonne: /, args.join(' '))
    assert.match(result.stderr, new RegExp(`tonne ${args[0]}`), args.join(' '))
  }
})

test('COMMAND --help prints that command\'s usage, not the whole help', async (t) => {
  const env = settings(t)
  const importHelp = await tonne(['import', '--help'], env)
  assert.equal(importHelp.code, 0)
  assert.match(importHelp.stdout, /tonne import FILE \[--replace\]/)
  assert.match(importHelp.stdout, /tonne import --from REGISTRY FILE/)
  assert.doesNotMatch(importHelp.stdout, /tonne serve|tonne keys/)

  const keysHelp = await tonne(['keys', 'create', '--help'], env)
  assert.equal(keysHelp.code, 0)
  assert.match(keysHelp.stdout, /tonne keys create --name NAME/)
  assert.doesNotMatch(keysHelp.stdout, /tonne import|tonne keys list|tonne keys revoke/)

  const all = await tonne(['--help'], env)
  for (const command of ['serve', 'migrate', 'import FILE', 'export', 'keys create', 'keys list', 'keys revoke']) {
    assert.match(all.stdout, new RegExp(`tonne ${command}`))
  }
})

test('the bin file: exit codes 0, 1 and 2 from a real process', async (t) => {
  const env = settings(t)
  const version = await tonneProcess(['--version'], env)
  assert.equal(version.code, 0)
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/)
  const usage = await tonneProcess(['import', '--from'], env)
  assert.equal(usage.code, 2)
  assert.match(usage.stderr, /tonne import --from REGISTRY/)
  const missing = await tonneProcess(['import', '/nope/x.json'], env)
  assert.equal(missing.code, 1)
  assert.match(missing.stderr, /Could not read \/nope\/x\.json/)
})

test('engines says what `npm ci` needs; tonne on an older Node.js says which one it needs', async () => {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as
    { engines: { node: string }, dependencies: { node: string } }
  const nvmrc = readFileSync(path.join(REPO_ROOT, '.nvmrc'), 'utf8').trim()
  // The pinned runtime (the `node` package) and .nvmrc name the same major version.
  assert.equal(/^\^?(\d+)\./.exec(pkg.dependencies.node)?.[1], nvmrc)
  // npm ci runs on the machine's Node.js (20 here), so engines must accept it: no EBADENGINE for Tonne itself.
  const older = await node20()
  const { stdout: olderVersion } = await promisify(execFile)(older, ['--version'])
  const semverSatisfied = (version: string, range: string) => {
    const match = /^>=(\d+)(?:\.(\d+))?$/.exec(range)
    assert.ok(match !== null, `engines.node is a plain lower bound (${range})`)
    const [major, minor] = version.replace(/^v/, '').split('.').map(Number)
    return major! > Number(match[1]) || (major === Number(match[1]) && minor! >= Number(match[2] ?? 0))
  }
  assert.ok(semverSatisfied(olderVersion.trim(), pkg.engines.node), `${olderVersion.trim()} vs ${pkg.engines.node}`)

  // Run by an older Node.js, the bin file refuses in words and names the way that works.
  const result = await promisify(execFile)(older, [path.join(REPO_ROOT, 'bin', 'tonne.js'), '--version'])
    .then(() => ({ code: 0, stderr: '' }), (error: { code: number, stderr: string }) => error)
  assert.equal(result.code, 1)
  assert.match(result.stderr, new RegExp(`^tonne needs Node\\.js ${nvmrc}`))
  assert.match(result.stderr, /npx tonne/)
})

test('npm start and the container start the server the same way, V8 flags chosen by serve', () => {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  const start = pkg.scripts.start.split(' ')
  const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8'))?.[1]
  assert.ok(cmd !== undefined, 'the Dockerfile has an exec-form CMD')
  assert.deepEqual(JSON.parse(cmd) as string[], start)
  // Neither names V8 flags: `serve` chooses them from its memory limit and restarts itself with them
  // (src/sizing.ts; test/operations/memory-sizing.process.test.ts checks they take effect).
  assert.ok(!start.some((word) => word.startsWith('--max-')), pkg.scripts.start)
})

test('a registry\'s CSV imported without --from: a usage error naming --from and the registries (issue 36)',
  async (t) => {
    const env = settings(t)
    const file = path.join(tempDir(t), 'some-registry.csv')
    writeFileSync(file, 'Project ID,Name,Status\r\nVCS1,Example,Registered\r\n')
    const result = await tonne(['import', file], env)
    assert.equal(result.code, 2)
    assert.match(result.stderr, /is not JSON or NDJSON/)
    assert.match(result.stderr, /--from REGISTRY/)
    assert.match(result.stderr, /verra, gold-standard/)
    assert.doesNotMatch(result.stderr, /Unexpected token/)
  })
