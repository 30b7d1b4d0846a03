// The benchmark's service processes: start `tonne serve` in production mode, make a key, load a path with
// autocannon, read its memory, stop it; time one `tonne` command. Shared by bench.ts, ledger.ts, market.ts and
// registry.ts.
import { spawn, execFile, execFileSync, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import { freePort } from '../free-port.ts'

const ROOT = path.join(import.meta.dirname, '..', '..')
const execFileAsync = promisify(execFile)
export interface Load { rps: number, p50: number, p99: number, non2xx: number, errors: number }

export const log = (line: string) => console.error(`[bench] ${line}`)

export async function waitUntilLive (url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/health/live`)).ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

// The V8 flags `npm start` gives the server (package.json), so the benchmark measures what users run.
const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
const START_FLAGS = scripts.start.split(' ').filter((word) => word.startsWith('--'))

/** Where the service runs: in a memory cgroup (its cgroup.procs file) and with which `node` binary. */
export interface Placement { cgroupProcs?: string | undefined, node?: string | undefined, flags?: string[] }

/**
 * `tonne serve` in production mode on `port` over `dataDir`, its errors on this process's stderr. With
 * `cgroupProcs` (a memory cgroup's cgroup.procs file) a shell enters that cgroup and then becomes the service, so
 * all of the service's memory is charged there from its first byte.
 */
export function spawnService (port: number, dataDir: string, extraEnv: Record<string, string>,
  placement: Placement = {}) {
  const command = [placement.node ?? process.execPath, ...START_FLAGS, ...placement.flags ?? [],
    path.join(ROOT, 'bin', 'tonne.js'), 'serve']
  const [file, ...args] = placement.cgroupProcs === undefined
    ? command
    : ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', placement.cgroupProcs, ...command]
  return spawn(file!, args, {
    env: {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DATA_DIR: dataDir,
      ...extraEnv
    },
    stdio: ['ignore', 'ignore', 'inherit']
  })
}

export async function startService (dataDir: string, extraEnv: Record<string, string> = {},
  placement: Placement = {}) {
  const port = await freePort()
  const started = performance.now()
  const child = spawnService(port, dataDir, {
    CREATE_INITIAL_API_KEY: 'false',
    // The benchmark measures the service, not its rate limiter's refusals.
    RATE_LIMIT_CATALOGUE: '9999999',
    RATE_LIMIT_CALCULATOR: '9999999',
    ...extraEnv
  }, placement)
  const url = `http://127.0.0.1:${port}`
  await waitUntilLive(url, child)
  return { child, url, startupMs: performance.now() - started }
}

export function createKey (dataDir: string, extraEnv: Record<string, string> = {}): string {
  const args = [path.join(ROOT, 'bin', 'tonne.js'), 'keys', 'create', '--name', 'bench', '--json']
  const out = execFileSync(process.execPath, args, {
    env: { PATH: process.env['PATH'] ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extraEnv },
    encoding: 'utf8'
  })
  return (JSON.parse(out) as { key: string }).key
}

/**
 * `count` keys over one data folder, for a load of many clients: one key's expensive reads (searches) run one at a
 * time and past four waiting get 429 (src/http/expensive-reads.ts), which a load of 50 connections on one key meets.
 */
export function createKeys (dataDir: string, count: number, extraEnv: Record<string, string> = {}): string[] {
  return Array.from({ length: count }, () => createKey(dataDir, extraEnv))
}

/** Milliseconds from spawning the service to its first catalogue answer (the median of `times` restarts). */
export async function restartToFirstAnswer (
  dataDir: string, headers: Record<string, string>, times: number, extraEnv: Record<string, string> = {}
): Promise<number> {
  const measured: number[] = []
  for (let i = 0; i < times; i++) {
    measured.push(await spawnToFirstAnswer((port) => spawnService(port, dataDir, extraEnv),
      '/api/v1/commerce/products/1/', headers))
  }
  return Math.round(measured.sort((a, b) => a - b)[Math.floor(times / 2)]!)
}

/** Milliseconds from spawning a server on a free port to its first 200 on `target`; the server is stopped after. */
export async function spawnToFirstAnswer (start: (port: number) => ChildProcess, target: string,
  headers: Record<string, string> = {}): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = start(port)
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
      try {
        if ((await fetch(`http://127.0.0.1:${port}${target}`, { headers })).ok) return performance.now() - started
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  } finally {
    await stop(child)
  }
}

/** The machine's load average (1, 5 and 15 minutes), printed beside every figure of a shared machine. */
export const loadAverage = () => os.loadavg().map((x) => x.toFixed(2)).join(' / ')

/**
 * A fresh database for an import benchmark, migrated by `tonne migrate`: SQLite in `dataDir`, or PostgreSQL's own
 * database for this run (`dropBenchDatabase(adminUrl, url)` at the end). Returns the settings for `tonne` and its URL.
 */
export async function migratedBenchDatabase (database: string, dataDir: string, adminUrl: string):
Promise<{ env: Record<string, string>, url: string | undefined }> {
  const url = database === 'postgres' ? await benchDatabase(adminUrl) : undefined
  if (database === 'postgres' && url === undefined) throw new Error('no PostgreSQL')
  const env = { DATA_DIR: dataDir, ...url !== undefined && { DATABASE_URL: url } }
  await execFileAsync(process.execPath, [path.join(ROOT, 'bin', 'tonne.js'), 'migrate'],
    { env: { PATH: process.env['PATH'] ?? '', ...env, LOG_LEVEL: 'silent' } })
  return { env, url }
}

/** A fresh PostgreSQL database for this run (`dropBenchDatabase` at the end), or undefined when there is none. */
export async function benchDatabase (adminUrl: string | undefined): Promise<string | undefined> {
  if (adminUrl === undefined) return undefined
  const pg = (await import('pg')).default
  const name = `tonne_bench_${process.pid}`
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 })
  try {
    await admin.connect()
    await admin.query(`drop database if exists ${name}`)
    await admin.query(`create database ${name}`)
  } catch (error) {
    log(`no PostgreSQL at ${adminUrl} (${(error as Error).message}): SQLite only`)
    return undefined
  } finally {
    await admin.end().catch(() => undefined)
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

export async function dropBenchDatabase (adminUrl: string | undefined, url: string | undefined): Promise<void> {
  if (adminUrl === undefined || url === undefined) return
  const pg = (await import('pg')).default
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`)
  await admin.end()
}

/** `connections` concurrent clients on one path for `seconds`. */
export async function load (
  url: string, headers: Record<string, string>, seconds: number, connections: number
): Promise<Load> {
  const result = await autocannon({ url, headers, connections, duration: seconds })
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors
  }
}

/** Resident memory and V8 heap in use, in MB, from the service's own /metrics. */
export async function memory (url: string): Promise<{ residentMb: number, heapUsedMb: number }> {
  const text = await (await fetch(`${url}/metrics`)).text()
  const mb = (name: string) => Math.round(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) / 1024 / 1024)
  return { residentMb: mb('tonne_process_resident_memory_bytes'), heapUsedMb: mb('tonne_nodejs_heap_size_used_bytes') }
}

export function directorySizeMb (dir: string): number {
  let bytes = 0
  for (const name of readdirSync(dir)) if (name.startsWith('tonne.sqlite')) bytes += statSync(path.join(dir, name)).size
  return Math.round(bytes / 1024 / 1024 * 10) / 10
}

export async function stop (child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/** What GNU time says of one `tonne` command: wall seconds, CPU seconds (user + system), peak RSS. */
export interface TimedCommand { seconds: number, cpuSeconds: number, peakRssMb: number, stdout: string }

/**
 * Runs `tonne ARGS...` in a process of its own under GNU time (the import benchmarks' one measurement), with only
 * PATH, a silent log and `env` in its environment.
 */
export function timedTonne (args: readonly string[], env: Record<string, string>): Promise<TimedCommand> {
  const running = execFileAsync('/usr/bin/time', ['-f', 'TIME %e %M %U %S', process.execPath,
    path.join(ROOT, 'bin', 'tonne.js'), ...args],
  { env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...env }, maxBuffer: 256 * 1024 ** 2 })
  return running.then(({ stdout, stderr }) => {
    const match = /TIME ([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(stderr)
    if (match === null) throw new Error(`no timing from GNU time: ${stderr.slice(-2000)}`)
    return {
      seconds: Number(match[1]),
      cpuSeconds: Math.round((Number(match[3]) + Number(match[4])) * 10) / 10,
      peakRssMb: Math.round(Number(match[2]) / 1024),
      stdout
    }
  })
}
