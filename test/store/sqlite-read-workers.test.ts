import assert from 'node:assert/strict'
import { statSync } from 'node:fs'
import { test } from 'node:test'
import { sql } from 'kysely'
import { loadConfig } from '../../src/config.ts'
import { openStore } from '../../src/store/connect.ts'
import { tempDir } from '../helpers.ts'

// A read that keeps its worker busy for about a second (two million steps), and one that takes none.
const SLOW = sql<{ n: number }>`with recursive n(i) as (select 1 union all select i + 1 from n limit 2000000)
  select count(*) as n from n`
const FAST = sql<{ n: number }>`select 1 as n`

test('SQLITE_READ_WORKERS=1: one thread reads, so a read waits for the one before it', async (t) => {
  // The longest read budget a request may have, so a slow machine does not cut the slow read off.
  const config = loadConfig({ DATA_DIR: tempDir(t), SQLITE_READ_WORKERS: '1', DATABASE_STATEMENT_TIMEOUT: '8' })
  const store = await openStore(config)
  t.after(async () => await store.close())
  await store.warm()

  const finished: string[] = []
  const slow = SLOW.execute(store.readDb).then(() => finished.push('slow'))
  const fast = FAST.execute(store.readDb).then(() => finished.push('fast'))
  await Promise.all([slow, fast])
  // With a second worker (the default) the fast read would not queue behind the slow one.
  assert.deepEqual(finished, ['slow', 'fast'])
})

test('SQLITE_READ_WORKERS must be a whole number from 0 to 64; 2 by default', () => {
  for (const bad of ['-1', '65', 'two', '1.5']) {
    assert.throws(() => loadConfig({ SQLITE_READ_WORKERS: bad }),
      /SQLITE_READ_WORKERS must be a whole number from 0 to 64/, bad)
  }
  assert.equal(loadConfig({}).sqliteReadWorkers, 2)
  assert.equal(loadConfig({ SQLITE_READ_WORKERS: '4' }).sqliteReadWorkers, 4)
})

test('SQLITE_READ_WORKERS=0 (the smallest containers): reads are answered on the process\'s own connection',
  async (t) => {
    const store = await openStore(loadConfig({ DATA_DIR: tempDir(t), SQLITE_READ_WORKERS: '0' }))
    t.after(async () => await store.close())
    await store.warm()
    const [slow, fast] = await Promise.all([SLOW.execute(store.readDb), FAST.execute(store.readDb)])
    assert.deepEqual([{ ...slow.rows[0] }, { ...fast.rows[0] }], [{ n: 2000000 }, { n: 1 }])
  })

test('under a 256 MB memory limit each read worker\'s heap is capped: a read whose rows outgrow it is a 503, ' +
  'and the next read is answered', { timeout: 60_000 }, async (t) => {
  const config = loadConfig({ DATA_DIR: tempDir(t), MEMORY_LIMIT_MB: '256', DATABASE_STATEMENT_TIMEOUT: '8' })
  const store = await openStore(config)
  t.after(async () => await store.close())
  // 100 rows of a million characters each: more than the capped heap holds, a tenth of the 1 GB cap without a limit.
  const big = sql`with recursive n(i) as (select 1 union all select i + 1 from n limit 100)
    select i, hex(randomblob(500000)) as pad from n`
  await assert.rejects(big.execute(store.readDb), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'ERR_SQLITE_READ_WORKER_LOST')
    return true
  })
  assert.deepEqual((await FAST.execute(store.readDb)).rows, [{ n: 1 }])
})

test('every SQLite connection, the process\'s own and each read worker\'s, maps the whole database file',
  async (t) => {
    // Reads through a memory map cost no system call and hold each page once (docs/performance.md).
    const dataDir = tempDir(t)
    const store = await openStore(loadConfig({ DATA_DIR: dataDir, SQLITE_READ_WORKERS: '1' }))
    t.after(async () => await store.close())
    await store.warm()
    const MMAP = sql<{ mmap_size: number }>`pragma mmap_size`
    const fileBytes = statSync(store.location).size
    assert.ok(fileBytes > 0)
    for (const [name, db] of [['own', store.db], ['read worker', store.readDb]] as const) {
      const [row] = (await MMAP.execute(db)).rows
      assert.ok(row !== undefined && Number(row.mmap_size) >= fileBytes,
        `${name}: mmap_size ${row?.mmap_size} covers the ${fileBytes}-byte file`)
    }
    assert.notEqual(store.readDb, store.db, 'the reads went to a worker')
  })
