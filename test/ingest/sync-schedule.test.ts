import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Writable } from 'node:stream'
import { describe, test } from 'node:test'
import { createKey } from '../../src/access/api-keys.service.ts'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import type { Timers } from '../../src/ingest/sync/download.ts'
import { createSyncSchedule } from '../../src/ingest/sync/schedule.ts'
import type { SyncRound } from '../../src/ingest/sync/sync.ts'
import { prepareParts } from '../../src/startup.ts'
import { openStore } from '../../src/store/connect.ts'
import { takeLease } from '../../src/store/leases.repository.ts'
import { copyMigratedSqlite, databaseEnv, forEachDatabase } from '../databases.ts'
import { buildTestApp, tempDir } from '../helpers.ts'
import { fileServer, servedFile } from '../support/file-server.ts'
import { RAW } from '../support/registries.ts'

// `serve` with SYNC_SOURCES: the app syncs when it is ready and again every SYNC_INTERVAL, while it serves.
// Two processes sharing the schedule: sync-schedule.process.test.ts.

const VERRA_PROJECTS = readFileSync(path.join(RAW, 'verra', 'projects.csv'))

/** A log stream whose lines a test can wait for. */
function logLines () {
  const lines: string[] = []
  const said = new EventEmitter()
  const stream = new Writable({
    write (chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter((l) => l !== '')) {
        lines.push((JSON.parse(line) as { msg: string }).msg)
        said.emit('line')
      }
      done()
    }
  })
  const waitFor = async (pattern: RegExp): Promise<string> => {
    for (;;) {
      const found = lines.find((l) => pattern.test(l))
      if (found !== undefined) return found
      await new Promise((resolve) => said.once('line', resolve))
    }
  }
  return { stream, lines, waitFor }
}

/** Timers that run only when the test fires them, in the order they were set. */
class ManualTimers implements Timers {
  readonly pending = new Map<number, { run: () => void, ms: number }>()
  #id = 0
  setTimeout = (run: () => void, ms: number): unknown => {
    this.pending.set(++this.#id, { run, ms })
    return this.#id
  }

  clearTimeout = (handle: unknown): void => { this.pending.delete(handle as number) }

  /** Runs the one timer set for `ms`. */
  fire (ms: number): void {
    const found = [...this.pending].filter(([, timer]) => timer.ms === ms)
    assert.equal(found.length, 1, `one timer of ${ms} ms is set`)
    this.pending.delete(found[0]![0])
    found[0]![1].run()
  }
}

forEachDatabase((database) => {
  describe(`serve keeps SYNC_SOURCES current (${database})`, () => {
    test('the first round runs when the app is ready; the sources list and the catalogue show it', async (t) => {
      const server = await fileServer(t)
      server.routes.set('/verra.csv', servedFile(VERRA_PROJECTS, { etag: '"1"' }))
      const log = logLines()
      const { inject } = await buildTestApp(t, {
        database,
        logStream: log.stream,
        env: { SYNC_SOURCES: `verra=${server.url('/verra.csv')}`, SYNC_INTERVAL: '6h' }
      })
      assert.match(await log.waitFor(/^sync round finished/), /^sync round finished: verra changed$/)
      type Listed = { results: Array<{ name: string, last_status: string }> }
      const sources = (await inject('/api/v1/commerce/sources/')).json<Listed>()
      assert.deepEqual(sources.results.map((s) => [s.name, s.last_status]), [['verra', 'changed']])
      const listed = (await inject('/api/v1/commerce/products/?registry=VERRA&limit=1')).json<{ count: number }>()
      assert.ok(listed.count > 10)
    })

    test('an import that fails on its thread changes nothing and is recorded with why', async (t) => {
      const server = await fileServer(t)
      server.routes.set('/verra.csv', servedFile('Name,Comment\nnot,an export\n'))
      const log = logLines()
      const { inject } = await buildTestApp(t, {
        database,
        logStream: log.stream,
        env: { SYNC_SOURCES: `verra=${server.url('/verra.csv')}` }
      })
      const before = (await inject('/api/v1/commerce/products/?limit=1')).json<{ count: number }>().count
      assert.equal(await log.waitFor(/^sync round finished/), 'sync round finished: verra failed')
      const why = /^sync verra: failed, the catalogue is unchanged: .*is not a verra export/
      assert.ok(log.lines.some((l) => why.test(l)))
      type Listed = { results: Array<{ last_status: string, last_error: string }> }
      const [source] = (await inject('/api/v1/commerce/sources/')).json<Listed>().results
      assert.equal(source?.last_status, 'failed')
      assert.match(source?.last_error ?? '', /is not a verra export/)
      assert.equal((await inject('/api/v1/commerce/products/?limit=1')).json<{ count: number }>().count, before)
    })

    test('a round every SYNC_INTERVAL after the last ends; a busy lease skips one; close stops it', async (t) => {
      const server = await fileServer(t)
      server.routes.set('/verra.csv', servedFile(VERRA_PROJECTS, { etag: '"1"' }))
      const dataDir = tempDir(t)
      if (database === 'sqlite') await copyMigratedSqlite(dataDir)
      const config = loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SYNC_SOURCES: `verra=${server.url('/verra.csv')}`,
        SYNC_INTERVAL: '2h',
        ...await databaseEnv(t, database)
      })
      const store = await openStore(config)
      t.after(async () => await store.close())
      const { key } = await createKey(store.db, { name: 'test', scopes: ['catalogue:read'] })
      const timers = new ManualTimers()
      const rounds = new EventEmitter()
      const parts = await prepareParts(config, store)
      parts.sync = createSyncSchedule({
        config, db: store.db, timers, onRound: (round) => rounds.emit('round', round)
      })
      const app = await buildApp(parts)
      t.after(async () => await app.close())
      const nextRound = async () => await new Promise<SyncRound>((resolve) => rounds.once('round', resolve))
      const statuses = async () => (await app.inject({
        url: '/api/v1/commerce/sources/', headers: { authorization: `Bearer ${key}` }
      })).json<{ results: Array<{ last_status: string }> }>().results.map((s) => s.last_status)

      await app.ready()
      let round = nextRound()
      timers.fire(0)
      assert.equal((await round).ran, true)
      assert.deepEqual(await statuses(), ['changed'])

      const twoHours = 2 * 3_600_000
      round = nextRound()
      timers.fire(twoHours)
      const second = await round
      assert.ok(second.ran)
      assert.equal(second.sources[0]!.status, 'not_modified')
      assert.deepEqual(await statuses(), ['not_modified'])

      assert.ok(await takeLease(store.db, 'sync', 'another-instance', new Date(), 60_000))
      const requests = server.requests.length
      round = nextRound()
      timers.fire(twoHours)
      assert.deepEqual(await round, { ran: false })
      assert.equal(server.requests.length, requests)

      await app.close()
      assert.deepEqual([...timers.pending.values()].filter((timer) => timer.ms === twoHours), [])
    })
  })
})

test('stopped during a round: the round ends and no other is set (serve stops while a download runs)', async (t) => {
  const server = await fileServer(t)
  const held = new EventEmitter()
  // The download waits until the test has stopped the schedule, then gets the file.
  server.routes.set('/verra.csv', (request, response) => {
    held.once('release', () => { servedFile(VERRA_PROJECTS)(request, response) })
    held.emit('requested')
  })
  const dataDir = tempDir(t)
  await copyMigratedSqlite(dataDir)
  const config = loadConfig({
    DATA_DIR: dataDir, LOG_LEVEL: 'silent', SYNC_SOURCES: `verra=${server.url('/verra.csv')}`, SYNC_INTERVAL: '2h'
  })
  const store = await openStore(config)
  t.after(async () => await store.close())
  const timers = new ManualTimers()
  const rounds = new EventEmitter()
  const schedule = createSyncSchedule({
    config, db: store.db, timers, onRound: (round) => rounds.emit('round', round)
  })
  schedule.start(() => undefined)
  const requested = new Promise((resolve) => held.once('requested', resolve))
  timers.fire(0)
  await requested
  schedule.stop()
  const round = new Promise<SyncRound>((resolve) => rounds.once('round', resolve))
  held.emit('release')
  assert.equal((await round).ran, true)
  // The next round would be set as the round's promise settles, after onRound: let those callbacks run.
  await new Promise(setImmediate)
  const twoHours = 2 * 3_600_000
  assert.deepEqual([...timers.pending.values()].filter((timer) => timer.ms === twoHours), [])
})
