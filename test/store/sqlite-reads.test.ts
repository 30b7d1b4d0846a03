import assert from 'node:assert/strict'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { test } from 'node:test'
import { isUnavailable } from '../../src/store/availability.ts'
import { SqliteReadPool } from '../../src/store/sqlite-reads.ts'
import { tempDir } from '../helpers.ts'

// Rows far beyond a 16 MB heap: 200 of them, each with a string of a million characters.
const HUGE = 'with recursive n(i) as (select 1 union all select i + 1 from n limit 200) ' +
  'select i, hex(randomblob(500000)) as pad from n'

// The timeout only ends a pool that never answers again (the defect this guards against): it would wait forever.
test('a read worker that ends under a read is replaced: that read is a 503, the next ones are answered',
  { timeout: 60_000 }, async (t) => {
    const file = path.join(tempDir(t), 'reads.sqlite')
    new DatabaseSync(file).close()
    const pool = new SqliteReadPool({ file, size: 1, budgetMs: 30_000, busyTimeoutMs: 1000, heapLimitMb: 16 })
    t.after(async () => await pool.close())
    assert.deepEqual(await pool.all('select 1 as x', []), [{ x: 1 }])

    await assert.rejects(pool.all(HUGE, []), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'ERR_SQLITE_READ_WORKER_LOST')
      assert.ok(isUnavailable(error), 'a lost worker is a 503, as a timed-out read is')
      return true
    })
    // The pool's one place went back when its worker ended: a new worker answers, more than once.
    assert.deepEqual(await pool.all('select 2 as x', []), [{ x: 2 }])
    assert.deepEqual(await pool.all('select 3 as x', []), [{ x: 3 }])
  })

test('a read\'s budget runs from when its worker is ready, not from the worker\'s boot', async (t) => {
  // On a loaded machine a worker took over 5 s to boot, and the start's first read was given up for it.
  const file = path.join(tempDir(t), 'reads.sqlite')
  new DatabaseSync(file).close()
  const timed = async (pool: SqliteReadPool) => {
    const started = performance.now()
    await pool.all('select 1 as x', [])
    return performance.now() - started
  }
  const probe = new SqliteReadPool({ file, size: 1, budgetMs: 30_000, busyTimeoutMs: 1000, heapLimitMb: 16 })
  t.after(async () => await probe.close())
  const boot = await timed(probe)
  const reads: number[] = []
  for (let i = 0; i < 9; i++) reads.push(await timed(probe))
  const read = reads.sort((a, b) => a - b)[4]!
  // A budget well under the boot and well over a read: the first read of a new pool is answered.
  const budgetMs = Math.ceil(boot / 3)
  if (budgetMs < 10 * read) {
    t.skip(`a worker booted in ${boot.toFixed(1)} ms and a read took ${read.toFixed(1)} ms: too close to tell`)
    return
  }
  const pool = new SqliteReadPool({ file, size: 1, budgetMs, busyTimeoutMs: 1000, heapLimitMb: 16 })
  t.after(async () => await pool.close())
  assert.deepEqual(await pool.all('select 1 as x', []), [{ x: 1 }])
})
