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
