// npm run bench:container [-- --seconds 300] [--limit-mb 160] [--connections 50] [--keys 16] [--starts 5] [--out FILE]
//
// Tonne in a small container (issue 34): the mixed load of mixed-load.ts for `--seconds`, first without a memory
// limit, then with the service in a memory cgroup of `--limit-mb` (cgroup v1 or v2; needs root). Each side starts
// over a fresh data folder (so the limited side's first start also loads the bundled catalogue under the limit).
// The load's requests use `--keys` API keys at random, so that neither side refuses its searches for one key's
// cap on expensive reads (a 429 is a cheap answer: it would make a side look faster); `--keys 1` is one client.
// Then start to first answer: `tonne serve` against a bare Fastify app (fastify-floor-server.ts), both spawned
// as `node FILE` with the same compile cache, alternated `--starts` times, plus Tonne under the limit. Writes the
// figures with the load average to `--out` (docs/container-benchmarks.md; `-` only prints them).
// Never part of `npm test`.
import type { ChildProcess } from 'node:child_process'
import { spawn, execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { byStatus, mixedLoad, type MixedResult } from './mixed-load.ts'
import { sizeFor, v8FlagsFor } from '../../src/sizing.ts'
import { freshBundle } from '../../bin/bundle.js'
import {
  createKey, createKeys, log, memory, spawnService, spawnToFirstAnswer, startService, stop, type Placement
} from './service.ts'

const ROOT = path.join(import.meta.dirname, '..', '..')
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    'limit-mb': { type: 'string', default: '160' },
    connections: { type: 'string', default: '50' },
    keys: { type: 'string', default: '16' },
    starts: { type: 'string', default: '5' },
    out: { type: 'string', default: path.join('docs', 'container-benchmarks.md') },
    // Settings for the limited side only (KEY=VALUE, repeatable), to try other choices under the same limit.
    env: { type: 'string', multiple: true, default: [] },
    // Only the limited side, without starts: for trying settings.
    'limited-only': { type: 'boolean', default: false },
    // Run this machine's `node` itself rather than a private copy (ownNode): its pages are then not charged.
    'shared-node': { type: 'boolean', default: false }
  }
})
const LIMITED_ENV = Object.fromEntries(values.env.map((pair) => [pair.slice(0, pair.indexOf('=')),
  pair.slice(pair.indexOf('=') + 1)]))
const SECONDS = Number(values.seconds)
const LIMIT_MB = Number(values['limit-mb'])
const CONNECTIONS = Number(values.connections)
const KEYS = Number(values.keys)
const STARTS = Number(values.starts)
// What `tonne serve` runs here: the bundle (dist/, made by npm ci) while it is fresh, else the sources.
const RUNS = freshBundle(process.env['TONNE_BUNDLE_DIR']) === undefined
  ? 'the TypeScript sources'
  : 'the bundle (dist/)'
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

/** A memory cgroup of its own for the service, with what it recorded; removed at the end. */
interface MemoryCgroup {
  readonly version: 1 | 2
  readonly dir: string
  readonly procs: string
  /** The most memory charged to the cgroup since it was made (v1 max_usage_in_bytes, v2 memory.peak). */
  peakMb: () => number
  /** Processes the kernel's OOM killer ended in it. */
  oomKills: () => number
  /** What is charged now, MB: anonymous memory, file pages, and file pages mapped (the node binary's among them). */
  charged: () => { anon: number, file: number, mapped: number }
  remove: () => void
}

/** What each cgroup version calls the files makeCgroup reads and writes, and the memory.stat keys of `charged`. */
const CGROUP_FILES = {
  1: {
    limit: 'memory.limit_in_bytes',
    peak: 'memory.max_usage_in_bytes',
    events: 'memory.oom_control',
    stat: { anon: 'total_rss', file: 'total_cache', mapped: 'total_mapped_file' }
  },
  2: {
    limit: 'memory.max',
    peak: 'memory.peak',
    events: 'memory.events',
    stat: { anon: 'anon', file: 'file', mapped: 'file_mapped' }
  }
} as const

function makeCgroup (limitMb: number): MemoryCgroup {
  const name = `tonne-bench-${process.pid}`
  const bytes = String(limitMb * 1024 * 1024)
  const read = (file: string) => readFileSync(file, 'utf8')
  const counter = (text: string, key: string) => Number(new RegExp(`^${key} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
  const mb = (text: string) => Math.round(Number(text.trim()) / 1024 / 1024)
  const v1 = '/sys/fs/cgroup/memory'
  const v2 = '/sys/fs/cgroup'
  const version = existsSync(path.join(v1, 'cgroup.procs')) ? 1 : 2
  if (version === 2 && !read(path.join(v2, 'cgroup.subtree_control')).split(/\s+/).includes('memory')) {
    throw new Error('no memory cgroup controller: neither cgroup v1 at /sys/fs/cgroup/memory nor memory in ' +
      'cgroup v2\'s /sys/fs/cgroup/cgroup.subtree_control')
  }
  const files = CGROUP_FILES[version]
  const dir = path.join(version === 1 ? v1 : v2, name)
  mkdirSync(dir)
  writeFileSync(path.join(dir, files.limit), bytes)
  // With swap the service would page out instead of meeting the limit (none on this project's machines).
  const swap = version === 1
    ? { file: 'memory.memsw.limit_in_bytes', limit: bytes }
    : { file: 'memory.swap.max', limit: '0' }
  if (existsSync(path.join(dir, swap.file))) writeFileSync(path.join(dir, swap.file), swap.limit)
  return {
    version,
    dir,
    procs: path.join(dir, 'cgroup.procs'),
    peakMb: () => mb(read(path.join(dir, files.peak))),
    oomKills: () => counter(read(path.join(dir, files.events)), 'oom_kill'),
    charged: () => {
      const stat = read(path.join(dir, 'memory.stat'))
      const of = (key: string) => Math.round(counter(stat, key) / 1024 / 1024)
      return { anon: of(files.stat.anon), file: of(files.stat.file), mapped: of(files.stat.mapped) }
    },
    remove: () => { rmdirSync(dir) }
  }
}

/**
 * CPU seconds the process (all its threads) has used in user and kernel mode, and its major page faults (pages
 * read back from disk, such as the binary's code when the cgroup evicted it): less sensitive to a shared machine
 * than req/s.
 */
function cpuOf (pid: number | undefined): { user: number, system: number, majorFaults: number } | undefined {
  try {
    // Fields 12 (majflt), 14 (utime) and 15 (stime) of stat, counted after the command's closing parenthesis;
    // times in clock ticks of 1/100 s.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ').map(Number)
    return { user: fields[11]! / 100, system: fields[12]! / 100, majorFaults: fields[9]! }
  } catch {
    return undefined
  }
}

/** Seconds the service's V8 spent collecting garbage so far (prom-client's GC histogram in /metrics, all kinds). */
async function gcSeconds (url: string): Promise<number | undefined> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text()
    const sums = [...text.matchAll(/^tonne_nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)$/gm)].map((m) => Number(m[1]))
    return sums.length === 0 ? undefined : sums.reduce((a, b) => a + b, 0)
  } catch {
    return undefined
  }
}

/** The process's own high-water mark of resident memory (VmHWM), in MB. */
function residentPeakMb (pid: number | undefined): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024)
  } catch {
    return undefined
  }
}

interface Side {
  label: string
  result: MixedResult | undefined
  /** How the service ended when it was not stopped by the bench (an OOM kill is SIGKILL). */
  died: string | undefined
  residentPeakMb: number | undefined
  /** CPU time of the service per answer, in µs: user + kernel. */
  cpuUsPerAnswer: string | undefined
  /** Of it, the main thread's garbage collection per answer, µs. */
  gcUsPerAnswer: number | undefined
  /** Major page faults during the load. */
  majorFaults: number | undefined
  residentEndMb: number | undefined
  cgroupPeakMb: number | undefined
  /** Charged to the cgroup at the end of the load: anonymous / file pages / mapped file pages, MB. */
  chargedEnd: string | undefined
  oomKills: number | undefined
  loadStart: string
  loadEnd: string
  dataDir: string
}

async function runSide (label: string, cgroup: MemoryCgroup | undefined,
  env: Record<string, string> = {}, node = process.execPath): Promise<Side> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tonne-bench-container-'))
  const loadStart = loadavg()
  log(`${label}: ${SECONDS} s of mixed load at ${CONNECTIONS} connections (load average ${loadStart})`)
  let child: ChildProcess | undefined
  let died: string | undefined
  let result: MixedResult | undefined
  let residentEndMb: number | undefined
  let peak: number | undefined
  let cpu: string | undefined
  let gc: number | undefined
  let majorFaults: number | undefined
  let chargedEnd: string | undefined
  let stopping = false
  try {
    const started = await startService(dataDir, env, { cgroupProcs: cgroup?.procs, node })
    child = started.child
    child.once('exit', (code, signal) => { if (!stopping) died = signal ?? `exit code ${code}` })
    const keys = createKeys(dataDir, KEYS)
    const gcBefore = await gcSeconds(started.url)
    const cpuBefore = cpuOf(child.pid)
    result = await mixedLoad(started.url, keys, SECONDS, CONNECTIONS, (second, rps) => {
      memory(started.url).then((sample) => {
        log(`${label}, ${second} s: ${rps} answers/s, resident ${sample.residentMb} MB, ` +
          `heap in use ${sample.heapUsedMb} MB`)
      }, () => { log(`${label}, ${second} s: the service does not answer`) })
    })
    peak = residentPeakMb(child.pid)
    const cpuAfter = cpuOf(child.pid)
    const answers = [...result.statuses.values()].reduce((sum, count) => sum + count, 0)
    if (cpuBefore !== undefined && cpuAfter !== undefined && answers > 0) {
      const us = (seconds: number) => Math.round(seconds / answers * 1e6)
      cpu = `${us(cpuAfter.user - cpuBefore.user)} + ${us(cpuAfter.system - cpuBefore.system)}`
      majorFaults = cpuAfter.majorFaults - cpuBefore.majorFaults
    }
    const gcAfter = await gcSeconds(started.url)
    if (gcBefore !== undefined && gcAfter !== undefined && answers > 0) {
      gc = Math.round((gcAfter - gcBefore) / answers * 1e6)
    }
    residentEndMb = died === undefined ? (await memory(started.url)).residentMb : undefined
    const charged = cgroup?.charged()
    chargedEnd = charged === undefined ? undefined : `${charged.anon} / ${charged.file} / ${charged.mapped}`
  } catch (error) {
    died ??= `failed: ${(error as Error).message}`
  } finally {
    stopping = true
    if (child !== undefined) await stop(child)
  }
  return {
    label,
    result,
    died,
    residentPeakMb: peak,
    cpuUsPerAnswer: cpu,
    gcUsPerAnswer: gc,
    majorFaults,
    residentEndMb,
    cgroupPeakMb: cgroup?.peakMb(),
    chargedEnd,
    oomKills: cgroup?.oomKills(),
    loadStart,
    loadEnd: loadavg(),
    dataDir
  }
}

const median = (list: number[]) => Math.round([...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!)

/**
 * Start to first answer, medians of `STARTS` alternated starts: Tonne (a detail page, over a prepared data folder)
 * and the bare Fastify app (one captured answer), each spawned as `node FILE`; then Tonne in the cgroup.
 */
async function starts (dataDir: string, cgroup: MemoryCgroup | undefined, limitedNode: string) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'tonne-bench-start-'))
  try {
    const captured = path.join(scratch, 'answers.json')
    writeFileSync(captured, JSON.stringify({
      '/': { status: 200, contentType: 'application/json', body: Buffer.from('{"ok":true}').toString('base64') }
    }))
    // Both servers run TypeScript through Node's type stripping; both get the same compile cache, warmed below.
    const cache = { NODE_COMPILE_CACHE: path.join(scratch, 'compile-cache') }
    const env = { ...cache, CREATE_INITIAL_API_KEY: 'false' }
    const headers = { authorization: `Bearer ${createKey(dataDir)}` }
    const tonne = async (placement: Placement = {}, extraEnv: Record<string, string> = {}) =>
      await spawnToFirstAnswer((port) => spawnService(port, dataDir, { ...env, ...extraEnv }, placement),
        '/api/v1/commerce/products/1/', headers)
    const floor = async () => await spawnToFirstAnswer((port) => spawn(process.execPath,
      [path.join(ROOT, 'scripts', 'bench', 'fastify-floor-server.ts'), captured],
      { env: { PATH: process.env['PATH'] ?? '', PORT: String(port), ...cache }, stdio: 'ignore' }), '/')
    await tonne()
    await floor()
    const tonneMs: number[] = []
    const floorMs: number[] = []
    // The unsized flags given up front: bin/tonne.js then does not restart itself (what that restart costs).
    const flaggedMs: number[] = []
    const unsized = { flags: v8FlagsFor(sizeFor(undefined)) }
    // With the bundle: also the TypeScript sources, to say what the bundle saves.
    const sourceMs: number[] = []
    for (let i = 0; i < STARTS; i++) {
      tonneMs.push(await tonne())
      floorMs.push(await floor())
      flaggedMs.push(await tonne(unsized))
      if (RUNS !== 'the TypeScript sources') sourceMs.push(await tonne({}, { TONNE_BUNDLE_DIR: 'off' }))
    }
    const limitedMs: number[] = []
    const procs = cgroup?.procs
    if (procs !== undefined) {
      for (let i = 0; i < STARTS; i++) limitedMs.push(await tonne({ cgroupProcs: procs, node: limitedNode }))
    }
    return {
      tonne: median(tonneMs),
      floor: median(floorMs),
      flagged: median(flaggedMs),
      limited: limitedMs.length === 0 ? undefined : median(limitedMs),
      source: sourceMs.length === 0 ? undefined : median(sourceMs),
      all: {
        source: sourceMs.map(Math.round),
        tonne: tonneMs.map(Math.round),
        floor: floorMs.map(Math.round),
        flagged: flaggedMs.map(Math.round),
        limited: limitedMs.map(Math.round)
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

const fiveHundreds = (result: MixedResult | undefined) =>
  result === undefined ? '–' : String([...result.statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0))
const row = (side: Side) => {
  const r = side.result
  return `| ${side.label} | ${r?.rps ?? '–'} | ${r?.p50 ?? '–'} | ${r?.p99 ?? '–'} | ${fiveHundreds(r)} | ` +
    `${r?.errors ?? '–'} | ${side.cpuUsPerAnswer ?? '–'} | ${side.gcUsPerAnswer ?? '–'} | ` +
    `${side.majorFaults ?? '–'} | ` +
    `${side.residentPeakMb ?? '–'} | ` +
    `${side.residentEndMb ?? '–'} | ${side.cgroupPeakMb ?? '–'} | ${side.chargedEnd ?? '–'} | ` +
    `${side.oomKills ?? '–'} | ${side.died ?? 'no'} | ${side.loadStart} → ${side.loadEnd} |`
}

/** The page of figures for both sides and the starts. */
function report (free: Side, limited: Side, cgroup: MemoryCgroup, start: Awaited<ReturnType<typeof starts>>): string {
  const ratio = free.result !== undefined && limited.result !== undefined
    ? `${Math.round(limited.result.rps / free.result.rps * 100)} %`
    : '–'
  // Without the 429s (cheap refusals), which one side may have answered more of than the other.
  const served = (result: MixedResult) => {
    const all = [...result.statuses.values()].reduce((sum, count) => sum + count, 0)
    return all === 0 ? 0 : result.rps * (all - (result.statuses.get(429) ?? 0)) / all
  }
  const servedRatio = free.result !== undefined && limited.result !== undefined
    ? `${Math.round(served(limited.result) / served(free.result) * 100)} %`
    : '–'
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim()
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ')
  const statuses = (side: Side) => side.result === undefined ? '–' : byStatus(side.result.statuses)
  return [
    '# Tonne in a small container',
    '',
    `Written by \`npm run bench:container -- --seconds ${SECONDS} --limit-mb ${LIMIT_MB} --keys ${KEYS}\` ` +
      `(scripts/bench/container.ts) on ${when} UTC, commit ${commit}, Node ${process.version}, ` +
      `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}. The load generator runs on the same cores, ` +
      'outside the cgroup; the machine may be shared with other work: the load average (1, 5, 15 min) is given ' +
      `for each side. Tonne ran ${RUNS}. The explanation is in [performance.md](performance.md).`,
    '',
    `## Mixed load, ${SECONDS} s at ${CONNECTIONS} connections, without and with a ${LIMIT_MB} MB memory limit`,
    '',
    '| Side | req/s | p50 ms | p99 ms | 5xx | socket errors | CPU µs per answer, user + kernel | of it GC, µs | ' +
      'major page faults | ' +
      'resident peak, MB | ' +
      'resident at the end, MB | cgroup peak, MB | charged at the end: anon / file / mapped, MB | OOM kills | died | ' +
      'load average |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    row(free),
    row(limited),
    '',
    `Requests per second under the limit: **${ratio}** of the unlimited run's; answers other than 429 per second: ` +
      `${servedRatio}. The load used ${KEYS} API key${KEYS === 1 ? '' : 's'}. Answers by status: no limit ` +
      `${statuses(free)}; limited ${statuses(limited)}. The resident peak is the service process's VmHWM; the ` +
      `cgroup peak (${CGROUP_FILES[cgroup.version].peak}) also counts the page ` +
      'cache charged to it.',
    '',
    '## Start to first answer',
    '',
    // `--starts 0` (trying settings): no medians to give, rather than NaN.
    STARTS === 0
      ? 'Not measured in this run (`--starts 0`).'
      : `Spawn to the first 200, median of ${STARTS} alternated starts: \`tonne serve\` (a project's detail, over ` +
      `the first side's data folder) **${start.tonne} ms**, a bare Fastify app ` +
      `(scripts/bench/fastify-floor-server.ts) **${start.floor} ms**: a ratio of ` +
      `**${(start.tonne / start.floor).toFixed(1)}**. Tonne in the ${LIMIT_MB} MB ` +
      `cgroup: ${start.limited ?? '–'} ms. Tonne given the unsized V8 flags on its command line, so that it does ` +
      `not restart itself with them: ${start.flagged} ms. All starts, ms: Tonne ${start.all.tonne.join(', ')}; ` +
      `Fastify ${start.all.floor.join(', ')}; Tonne with flags ${start.all.flagged.join(', ')}; Tonne limited ` +
      `${start.all.limited.join(', ')}.` + (start.source === undefined
      ? ''
      : ` The same Tonne from its TypeScript sources (TONNE_BUNDLE_DIR=off): **${start.source} ms**, a ratio of ` +
          `${(start.source / start.floor).toFixed(1)}; starts ${start.all.source.join(', ')}.`),
    ''
  ].join('\n')
}

/**
 * A copy of `node` that no other process has read, for the limited side only: in a container the binary's pages
 * (~60 MB resident) are charged to the container, but this machine's shared `node` sits in the page cache charged
 * to whoever read it first. Written with O_DIRECT, so its pages are charged to the first process that runs it.
 */
function ownNode (dir: string): string {
  const copy = path.join(dir, 'node')
  execFileSync('dd', [`if=${process.execPath}`, `of=${copy}`, 'bs=1M', 'oflag=direct', 'status=none'])
  chmodSync(copy, 0o755)
  return copy
}

const cgroup = makeCgroup(LIMIT_MB)
const sides: Side[] = []
const nodeDir = mkdtempSync(path.join(os.tmpdir(), 'tonne-bench-node-'))
const LIMITED_NODE = values['shared-node'] ? process.execPath : ownNode(nodeDir)
try {
  const tried = values.env.length === 0 ? '' : `, ${values.env.join(' ')}`
  const limitedLabel = `${LIMIT_MB} MB (cgroup v${cgroup.version})${tried}`
  if (values['limited-only']) {
    sides.push(await runSide(limitedLabel, cgroup, LIMITED_ENV, LIMITED_NODE))
    console.log(row(sides[0]!))
    if (sides[0]!.result !== undefined) console.log(`Answers by status: ${byStatus(sides[0]!.result.statuses)}`)
  } else {
    sides.push(await runSide('no limit', undefined))
    sides.push(await runSide(limitedLabel, cgroup, LIMITED_ENV, LIMITED_NODE))
    const text = report(sides[0]!, sides[1]!, cgroup, await starts(sides[0]!.dataDir, cgroup, LIMITED_NODE))
    console.log(text)
    if (values.out !== '-') writeFileSync(path.resolve(ROOT, values.out), text)
  }
} finally {
  for (const side of sides) rmSync(side.dataDir, { recursive: true, force: true })
  rmSync(nodeDir, { recursive: true, force: true })
  cgroup.remove()
}
