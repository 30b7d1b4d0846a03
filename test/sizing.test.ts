import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { ConfigError, loadConfig } from '../src/config.ts'
import {
  describeSizing, missingEnv, missingFlags, readCgroupMemoryLimit, sizeFor, sizingEnv, v8FlagsFor, type MemoryLimit
} from '../src/sizing.ts'
import { tempDir } from './helpers.ts'

const MB = 1024 * 1024

/** A fake /sys/fs/cgroup and /proc/self/cgroup in a temp folder: `files` maps paths under the root to contents. */
function fakeCgroup (dir: string, self: string, files: Record<string, string>): [string, string] {
  const root = path.join(dir, 'sys-fs-cgroup')
  mkdirSync(root, { recursive: true })
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  writeFileSync(path.join(dir, 'self-cgroup'), self)
  return [root, path.join(dir, 'self-cgroup')]
}

describe('the memory limit is read from the cgroup files', () => {
  test('cgroup v1: the memory controller\'s limit of the process\'s own cgroup, the smallest on its way up', (t) => {
    const [root, self] = fakeCgroup(tempDir(t), '5:devices:/\n4:memory:/docker/abc\n0::/\n', {
      'memory/memory.limit_in_bytes': '9223372036854771712\n',
      'memory/docker/memory.limit_in_bytes': String(512 * MB),
      'memory/docker/abc/memory.limit_in_bytes': `${160 * MB}\n`,
      // A hybrid host also mounts v2 (no memory controller there): v1's memory line decides.
      'unified/cgroup.controllers': ''
    })
    assert.deepEqual(readCgroupMemoryLimit(root, self), { bytes: 160 * MB, source: 'cgroup v1' })
    const [parentRoot, parentSelf] = fakeCgroup(tempDir(t), '4:memory:/docker/abc\n', {
      'memory/docker/memory.limit_in_bytes': String(128 * MB),
      'memory/docker/abc/memory.limit_in_bytes': String(160 * MB)
    })
    assert.equal(readCgroupMemoryLimit(parentRoot, parentSelf)?.bytes, 128 * MB)
  })

  test('cgroup v1 without a limit (a page count near 2^63), or in a container that sees only its own root', (t) => {
    const [root, self] = fakeCgroup(tempDir(t), '4:memory:/\n', {
      'memory/memory.limit_in_bytes': '9223372036854771712\n'
    })
    assert.equal(readCgroupMemoryLimit(root, self), undefined)
    // Docker without a cgroup namespace: /proc/self/cgroup names a path the container's mount does not have.
    const [own, ownSelf] = fakeCgroup(tempDir(t), '4:memory:/docker/0123abcd\n', {
      'memory/memory.limit_in_bytes': String(256 * MB)
    })
    assert.deepEqual(readCgroupMemoryLimit(own, ownSelf), { bytes: 256 * MB, source: 'cgroup v1' })
  })

  test('cgroup v2: memory.max of the process\'s cgroup; "max" is no limit', (t) => {
    const [root, self] = fakeCgroup(tempDir(t), '0::/kubepods/pod1/c2\n', {
      'cgroup.controllers': 'cpuset cpu io memory pids\n',
      'kubepods/memory.max': 'max\n',
      'kubepods/pod1/memory.max': `${160 * MB}\n`,
      'kubepods/pod1/c2/memory.max': 'max\n'
    })
    assert.deepEqual(readCgroupMemoryLimit(root, self), { bytes: 160 * MB, source: 'cgroup v2' })
    const [free, freeSelf] = fakeCgroup(tempDir(t), '0::/user.slice\n', {
      'cgroup.controllers': 'memory\n', 'user.slice/memory.max': 'max\n'
    })
    assert.equal(readCgroupMemoryLimit(free, freeSelf), undefined)
    // A container with its own cgroup namespace sees itself as the root.
    const [ns, nsSelf] = fakeCgroup(tempDir(t), '0::/\n', { 'cgroup.controllers': 'memory', 'memory.max': '134217728' })
    assert.equal(readCgroupMemoryLimit(ns, nsSelf)?.bytes, 128 * MB)
  })

  test('nothing to read (another system, no cgroup files): no limit', (t) => {
    const dir = tempDir(t)
    assert.equal(readCgroupMemoryLimit(path.join(dir, 'none'), path.join(dir, 'none-either')), undefined)
  })
})

describe('the choices for a memory limit', () => {
  test('no limit keeps today\'s defaults: 2 read workers, a 32 MB answer cache, npm start\'s V8 flags', () => {
    const sizing = sizeFor(undefined)
    assert.equal(sizing.readWorkers, 2)
    assert.equal(sizing.answerCacheMb, 32)
    assert.equal(sizing.oldSpaceMb, undefined)
    assert.deepEqual(v8FlagsFor(sizing), ['--max-semi-space-size=8', '--no-allocation-site-pretenuring'])
    // A limit of a gigabyte and more changes nothing either.
    assert.deepEqual(sizeFor(1024), sizing)
    assert.deepEqual(sizeFor(64 * 1024), sizing)
  })

  test('160 MB: no read worker thread, a small cache, a capped heap and young generation, two malloc arenas', () => {
    const sizing = sizeFor(160)
    assert.equal(sizing.readWorkers, 0)
    assert.ok(sizing.answerCacheMb >= 4 && sizing.answerCacheMb < 32, `cache ${sizing.answerCacheMb} MB`)
    assert.ok(sizing.semiSpaceMb < 8, `semi-space ${sizing.semiSpaceMb} MB`)
    const flags = v8FlagsFor(sizing)
    assert.ok(flags.includes(`--max-old-space-size=${sizing.oldSpaceMb}`))
    assert.ok(sizing.oldSpaceMb! < 160)
    // Under the mixed load the 160 MB side's V8 heap holds about 38 MB (docs/performance.md, "the old space at
    // 160 MB"); a cap within 1.6 times of that made V8 collect the old generation again and again.
    assert.ok(sizing.oldSpaceMb! >= 1.6 * 38, `old space ${sizing.oldSpaceMb} MB for a live heap of ~38 MB`)
    assert.ok(flags.includes('--no-allocation-site-pretenuring'))
    assert.deepEqual(missingEnv(sizingEnv(sizing), {}), { MALLOC_ARENA_MAX: String(sizing.mallocArenas) })
    assert.deepEqual(missingEnv(sizingEnv(sizing), { MALLOC_ARENA_MAX: '8' }), {}, 'the operator\'s own setting wins')
    assert.deepEqual(missingEnv(sizingEnv(sizeFor(undefined)), {}), {}, 'no limit: glibc\'s default')
    // 256 MB: one read worker, with a capped heap and young generation of its own.
    assert.equal(sizeFor(256).readWorkers, 1)
    assert.ok(sizeFor(256).readerOldSpaceMb < 1024 && sizeFor(256).readerYoungMb !== undefined)
  })

  test('every limit from 64 MB to 2 GB: heaps fit the limit, and a larger limit never gets less', () => {
    let before = sizeFor(64)
    for (let limit = 64; limit <= 2048; limit += 16) {
      const sizing = sizeFor(limit)
      if (limit < 1024) {
        const heaps = sizing.oldSpaceMb! + 3 * sizing.semiSpaceMb +
          sizing.readWorkers * (sizing.readerOldSpaceMb + sizing.readerYoungMb!)
        // The node binary's pages (~60 MB) and native memory come on top: the V8 heaps stay under the limit.
        assert.ok(heaps < Math.max(limit, 160), `${limit} MB: heaps ${heaps} MB`)
      }
      for (const key of ['readWorkers', 'answerCacheMb', 'semiSpaceMb', 'readerOldSpaceMb'] as const) {
        assert.ok(sizing[key] >= before[key], `${limit} MB: ${key} ${sizing[key]} < ${before[key]}`)
      }
      before = sizing
    }
  })

  test('flags given on the command line or in NODE_OPTIONS win, whatever their value or spelling', () => {
    const wanted = v8FlagsFor(sizeFor(160))
    assert.deepEqual(missingFlags(wanted, []), wanted)
    assert.deepEqual(missingFlags(wanted, ['--max_old_space_size=300', '--max-semi-space-size=16']),
      ['--no-allocation-site-pretenuring'])
    assert.deepEqual(missingFlags(wanted, [...wanted]), [])
    // Asking for pretenuring is an operator's choice too.
    assert.ok(!missingFlags(wanted, ['--allocation-site-pretenuring']).includes('--no-allocation-site-pretenuring'))
  })

  test('the start\'s log line names the limit, its source, each choice and what was set explicitly', () => {
    const report = {
      limitMb: 160,
      source: 'cgroup v2',
      readWorkers: 1,
      answerCacheMb: 10,
      heapLimitMb: 70,
      v8Flags: ['--max-old-space-size=64'],
      readerOldSpaceMb: 32,
      readerYoungMb: 6,
      mallocArenas: '2',
      explicit: ['ANSWER_CACHE_MB']
    } as const
    const line = describeSizing(report)
    for (const part of ['160 MB (cgroup v2)', '1 SQLite read worker ', 'answer cache 10 MB', 'V8 heap limit 70 MB',
      '--max-old-space-size=64', 'heap 32 MB + 6 MB young', 'MALLOC_ARENA_MAX=2', 'set explicitly: ANSWER_CACHE_MB']) {
      assert.ok(line.includes(part), `"${part}" in: ${line}`)
    }
    const none = describeSizing({ ...report, readWorkers: 0 })
    assert.ok(none.includes('no SQLite read worker (reads on the main thread)'), none)
  })
})

describe('the configuration sizes itself from the limit; explicit settings win', () => {
  const cgroup160: MemoryLimit = { bytes: 160 * MB, source: 'cgroup v1' }

  test('a detected limit sets the read workers, the answer cache and the V8 choices', () => {
    const config = loadConfig({}, '/', cgroup160)
    assert.equal(config.sqliteReadWorkers, 0)
    assert.deepEqual(config.memory.sizing, sizeFor(160))
    assert.equal(config.answerCacheBytes, sizeFor(160).answerCacheMb * MB)
    assert.deepEqual(config.memory.limit, cgroup160)
    assert.deepEqual(config.memory.explicit, [])
  })

  test('SQLITE_READ_WORKERS, ANSWER_CACHE_MB and ANSWER_CACHE win over the limit', () => {
    const config = loadConfig({ SQLITE_READ_WORKERS: '3', ANSWER_CACHE_MB: '48' }, '/', cgroup160)
    assert.equal(config.sqliteReadWorkers, 3)
    assert.equal(config.answerCacheBytes, 48 * MB)
    assert.deepEqual(config.memory.explicit, ['SQLITE_READ_WORKERS', 'ANSWER_CACHE_MB'])
    assert.equal(loadConfig({ ANSWER_CACHE: 'false' }, '/', cgroup160).answerCacheBytes, 0)
  })

  test('MEMORY_LIMIT_MB overrides the detected limit; a bad one is refused in words', () => {
    const config = loadConfig({ MEMORY_LIMIT_MB: '2048' }, '/', cgroup160)
    assert.deepEqual(config.memory.limit, { bytes: 2048 * MB, source: 'MEMORY_LIMIT_MB' })
    assert.equal(config.sqliteReadWorkers, 2)
    assert.equal(loadConfig({ MEMORY_LIMIT_MB: '256' }).sqliteReadWorkers, 1)
    for (const bad of ['0', 'lots', '160MB', '-5']) {
      assert.throws(() => loadConfig({ MEMORY_LIMIT_MB: bad }),
        (error: unknown) => error instanceof ConfigError && /MEMORY_LIMIT_MB must be/.test(error.message), bad)
    }
  })

  test('no limit keeps today\'s defaults', () => {
    const config = loadConfig({})
    assert.equal(config.memory.limit, undefined)
    assert.equal(config.sqliteReadWorkers, 2)
    assert.equal(config.answerCacheBytes, 32 * MB)
  })
})
