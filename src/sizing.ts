import { readFileSync } from 'node:fs'
import path from 'node:path'

// How big Tonne makes itself: from the memory limit of its container (cgroup v1 or v2) or MEMORY_LIMIT_MB.
// Pure functions and one reader of the cgroup files; config.ts applies explicit settings over these choices,
// bin/tonne.js starts the server with the V8 flags (docs/performance.md, "Issue 34").

/** The memory limit a process runs under, and where it was read. */
export interface MemoryLimit {
  readonly bytes: number
  readonly source: 'MEMORY_LIMIT_MB' | 'cgroup v1' | 'cgroup v2' | 'process.constrainedMemory()'
}

/** What Tonne chooses for one memory limit; each can be overridden (README, "Configuration"). */
export interface Sizing {
  /** SQLite read worker threads; 0: requests read on the main thread's connection. */
  readonly readWorkers: number
  readonly answerCacheMb: number
  /** V8's old generation of the main thread (--max-old-space-size); undefined: V8's own default. */
  readonly oldSpaceMb: number | undefined
  /** V8's semi-space of the main thread (--max-semi-space-size): half the young generation. */
  readonly semiSpaceMb: number
  /** Each SQLite read worker's old generation (worker_threads resourceLimits). */
  readonly readerOldSpaceMb: number
  /** Each SQLite read worker's young generation; undefined: V8's own default. */
  readonly readerYoungMb: number | undefined
  /** glibc's malloc arenas (MALLOC_ARENA_MAX); undefined: glibc's default (eight per core). */
  readonly mallocArenas: number | undefined
}

/**
 * Without a limit (or one of 1 GB and more): the defaults measured for throughput (docs/performance.md). The
 * readers' 1 GB cap only guards against a runaway read; a reader holds about 15 MB under load.
 */
export const UNSIZED: Sizing = Object.freeze({
  readWorkers: 2,
  answerCacheMb: 32,
  oldSpaceMb: undefined,
  semiSpaceMb: 8,
  readerOldSpaceMb: 1024,
  readerYoungMb: undefined,
  mallocArenas: undefined
})

/** From this limit up, Tonne runs with its unsized defaults. */
const SIZED_BELOW_MB = 1024

/**
 * The choices for a limit in MB. Under mixed load (docs/performance.md, "Issue 34") the node binary's pages take
 * 20–55 MB of a container's memory, a read worker 15–45 MB, and the main heap grows as far as V8 lets it. Below
 * 224 MB no read worker (reads run on the main thread's connection), below 384 MB one; an answer cache of a
 * sixteenth of the limit (4 MB below 224 MB); a heap cap of 40 % of the limit (64 MB at 160: the bundle's live
 * heap of about 38 MB then leaves V8 room, where 56 MB made it collect so often that it cost about a tenth more
 * CPU per answer), a smaller young generation, and one or two malloc arenas instead of glibc's eight per core.
 */
export function sizeFor (limitMb: number | undefined): Sizing {
  if (limitMb === undefined || limitMb >= SIZED_BELOW_MB) return UNSIZED
  // Below 224 MB every MB counts: what the binary and the database need must stay resident (docs/performance.md).
  const smallest = limitMb < 224
  const semiSpaceMb = limitMb >= 512 ? 8 : limitMb >= 256 ? 4 : smallest ? 1 : 2
  return Object.freeze({
    readWorkers: limitMb >= 384 ? 2 : smallest ? 0 : 1,
    answerCacheMb: smallest ? 4 : Math.min(UNSIZED.answerCacheMb, Math.floor(limitMb / 16)),
    oldSpaceMb: Math.max(48, Math.floor(limitMb * 0.4)),
    semiSpaceMb,
    readerOldSpaceMb: Math.max(32, Math.floor(limitMb / 5)),
    readerYoungMb: 3 * semiSpaceMb,
    mallocArenas: smallest ? 1 : limitMb < 512 ? 2 : undefined
  })
}

/** The environment the server's process starts with for these choices (glibc reads MALLOC_ARENA_MAX only then). */
export function sizingEnv (sizing: Sizing): Record<string, string> {
  return sizing.mallocArenas === undefined ? {} : { MALLOC_ARENA_MAX: String(sizing.mallocArenas) }
}

/** The wanted settings that the environment does not already set, by name: the operator's win. */
export function missingEnv (
  wanted: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>
): Record<string, string> {
  return Object.fromEntries(Object.entries(wanted).filter(([name]) => env[name] === undefined))
}

/** The V8 flags the server's process starts with for these choices (package.json's start had the unsized ones). */
export function v8FlagsFor (sizing: Sizing): string[] {
  return [
    ...(sizing.oldSpaceMb === undefined ? [] : [`--max-old-space-size=${sizing.oldSpaceMb}`]),
    `--max-semi-space-size=${sizing.semiSpaceMb}`,
    // A burst could otherwise make V8 allocate every request's objects in the old generation (docs/performance.md).
    '--no-allocation-site-pretenuring'
  ]
}

/**
 * The V8 flags of `tonne import` and `tonne sync` (bin/tonne.js), whatever the memory limit. An import streams a
 * million rows through short-lived objects; V8's default young generation grew to 128 MB on the 2-core, 24 GB
 * machine, and what survived its scavenges grew the old generation to 250-340 MB for under 60 MB live: a resident
 * peak of 490-630 MB. So: 2 MB semi-spaces, no pretenuring, and an old generation that grows by half of what is
 * live, not up to four times (deriving 10,000 projects' totals a batch at a time left each batch's rows for V8 to
 * collect late). docs/benchmarks.md, "OffsetsDB's archive" and "Registry exports at scale". No cap: a JSON import
 * holds its whole file in memory, and a 128 MB old generation ran a million-credit archive out of heap.
 */
export const IMPORT_V8_FLAGS: readonly string[] = Object.freeze(['--max-semi-space-size=2',
  '--no-allocation-site-pretenuring', '--heap-growing-percent=50'])

/**
 * glibc's malloc settings of `import` and `sync`: blocks of 64 KB and more (a read stream's chunks, SQLite's sorter
 * lists while it builds the ledger's indexes) are mapped and returned to the system when freed, rather than left as
 * holes in the heap that stay resident (`npm run bench:registry`: a 1M-row Verra export peaked about 50 MB lower).
 */
export const IMPORT_ENV: Readonly<Record<string, string>> = Object.freeze({ MALLOC_MMAP_THRESHOLD_: '65536' })

/**
 * The wanted flags that the command line or NODE_OPTIONS does not already set, by name: a flag given by the
 * operator wins, whatever its value (`--no-x` and `--x` are one name).
 */
export function missingFlags (wanted: readonly string[], given: readonly string[]): string[] {
  const name = (flag: string) => flag.replace(/=.*$/, '').replace(/^--no-/, '--').replaceAll('_', '-')
  const present = new Set(given.map(name))
  return wanted.filter((flag) => !present.has(name(flag)))
}

/** Values above this are cgroup v1's "no limit" (a page count near 2^63) or libuv's (2^64 - 1). */
const NO_LIMIT = 2 ** 50

/**
 * The memory limit of this process's cgroup, read from `root` (normally /sys/fs/cgroup) and the process's
 * cgroup file (/proc/self/cgroup): v1's memory.limit_in_bytes where the memory controller is mounted, else v2's
 * memory.max. The process's own cgroup and every parent visible are read, and the smallest limit wins (a
 * container's limit may sit on a parent). Undefined when there is none or nothing can be read.
 */
export function readCgroupMemoryLimit (
  root = '/sys/fs/cgroup', selfFile = '/proc/self/cgroup'
): MemoryLimit | undefined {
  const lines = readText(selfFile)?.split('\n') ?? []
  const v1 = lines.map((line) => line.split(':')).find((parts) => parts[1]?.split(',').includes('memory'))
  if (v1 !== undefined) {
    const bytes = smallestLimit(path.join(root, 'memory'), v1.slice(2).join(':'), 'memory.limit_in_bytes')
    return bytes === undefined ? undefined : { bytes, source: 'cgroup v1' }
  }
  // v2 only where the unified hierarchy is mounted at the root (a hybrid host mounts it under unified/,
  // without the memory controller).
  if (readText(path.join(root, 'cgroup.controllers')) === undefined) return undefined
  const own = lines.find((line) => line.startsWith('0::'))?.slice(3) ?? '/'
  const bytes = smallestLimit(root, own, 'memory.max')
  return bytes === undefined ? undefined : { bytes, source: 'cgroup v2' }
}

/** The smallest limit in `file` of the cgroup `own` (a path like /docker/abc) and its parents under `base`. */
function smallestLimit (base: string, own: string, file: string): number | undefined {
  let smallest: number | undefined
  const parts = own.split('/').filter((part) => part !== '')
  for (let depth = parts.length; depth >= 0; depth--) {
    const text = readText(path.join(base, ...parts.slice(0, depth), file))?.trim()
    const bytes = text === undefined || !/^\d+$/.test(text) ? undefined : Number(text)
    if (bytes !== undefined && bytes > 0 && bytes < NO_LIMIT) smallest = Math.min(smallest ?? bytes, bytes)
  }
  return smallest
}

function readText (file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** The limit of this process: its cgroup's, else what libuv finds (the same files, or none elsewhere). */
export function detectMemoryLimit (): MemoryLimit | undefined {
  const fromFiles = readCgroupMemoryLimit()
  if (fromFiles !== undefined) return fromFiles
  const constrained = process.constrainedMemory()
  if (!(constrained > 0 && constrained < NO_LIMIT)) return undefined
  return { bytes: constrained, source: 'process.constrainedMemory()' }
}

/** What the start logs about its size: the limit, each choice, and the V8 heap limit actually in effect. */
export interface SizingReport {
  readonly limitMb: number | undefined
  readonly source: MemoryLimit['source'] | undefined
  readonly readWorkers: number
  readonly answerCacheMb: number
  /** V8's heap limit of the main thread as V8 reports it (v8.getHeapStatistics), not as asked. */
  readonly heapLimitMb: number
  /** The V8 flags this process runs with (command line and NODE_OPTIONS). */
  readonly v8Flags: readonly string[]
  readonly readerOldSpaceMb: number
  readonly readerYoungMb: number | undefined
  /** MALLOC_ARENA_MAX in this process's environment. */
  readonly mallocArenas: string | undefined
  /** The settings given explicitly, which won over the sizing. */
  readonly explicit: readonly string[]
}

export function describeSizing (report: SizingReport): string {
  const limit = report.limitMb === undefined
    ? 'no memory limit found, unsized defaults'
    : `sized for a memory limit of ${report.limitMb} MB (${report.source})`
  const young = report.readerYoungMb === undefined ? '' : ` + ${report.readerYoungMb} MB young`
  const explicit = report.explicit.length === 0 ? '' : `; set explicitly: ${report.explicit.join(', ')}`
  const readers = report.readWorkers === 0
    ? 'no SQLite read worker (reads on the main thread)'
    : `${report.readWorkers} SQLite read worker${report.readWorkers === 1 ? '' : 's'} ` +
      `(heap ${report.readerOldSpaceMb} MB${young} each)`
  const arenas = report.mallocArenas === undefined ? '' : `, MALLOC_ARENA_MAX=${report.mallocArenas}`
  return `${limit}: ${readers}, answer cache ${report.answerCacheMb} MB, ` +
    `V8 heap limit ${report.heapLimitMb} MB (${report.v8Flags.join(' ') || 'no V8 flags'})${arenas}${explicit}`
}

/** The V8 flags of this process: its command line's, then NODE_OPTIONS'. */
export function givenV8Flags (execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  return [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].filter((flag) => flag.startsWith('--'))
}
