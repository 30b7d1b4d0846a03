import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test, type TestContext } from 'node:test'
import { importProjects } from '../../src/ingest/projects.import.ts'
import { loadConfig } from '../../src/config.ts'
import type { Timers } from '../../src/ingest/sync/download.ts'
import { IMPORTERS, type ImporterTable, type SourceImporter } from '../../src/ingest/sync/importers.ts'
import { syncSources, type SyncOptions } from '../../src/ingest/sync/sync.ts'
import { openStore, type Store } from '../../src/store/connect.ts'
import { takeLease } from '../../src/store/leases.repository.ts'
import { copyMigratedSqlite, databaseEnv, forEachDatabase, type TestDatabase } from '../databases.ts'
import { ledgerProjects } from '../fixtures/ledger.ts'
import { tempDir } from '../helpers.ts'
import { fileServer } from '../support/file-server.ts'

// One sync round (src/ingest/sync/sync.ts) over a real database and a local HTTP server, with a clock the test
// moves: retries and their backoff, timeouts, the size cap, redirects, the lease, and the importer table.

/** Timers that fire only when the test says; `fire(ms)` runs the next one set for `ms` (waiting until one is). */
class ManualTimers implements Timers {
  readonly #pending = new Map<number, { run: () => void, ms: number }>()
  readonly #set = new EventEmitter()
  #id = 0
  setTimeout = (run: () => void, ms: number): unknown => {
    const id = ++this.#id
    this.#pending.set(id, { run, ms })
    this.#set.emit('set')
    return id
  }

  clearTimeout = (handle: unknown): void => { this.#pending.delete(handle as number) }

  async fire (ms: number): Promise<void> {
    const take = () => [...this.#pending].find(([, timer]) => timer.ms === ms)
    while (take() === undefined) await new Promise((resolve) => this.#set.once('set', resolve))
    const [id, timer] = take()!
    this.#pending.delete(id)
    timer.run()
  }
}

const CONNECT_MS = 1111
const READ_MS = 2222
const BACKOFF_MS = 1000

async function database (t: TestContext, kind: TestDatabase): Promise<{ store: Store, dataDir: string }> {
  const dataDir = tempDir(t)
  if (kind === 'sqlite') await copyMigratedSqlite(dataDir)
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...await databaseEnv(t, kind) })
  const store = await openStore(config)
  t.after(async () => await store.close())
  return { store, dataDir }
}

/** A fake import that records what it was given and changes nothing. */
function recordingImporter (): SourceImporter & { calls: Array<{ bytes: Buffer, label: string }> } {
  const calls: Array<{ bytes: Buffer, label: string }> = []
  const importer = async (_db: unknown, files: ReadonlyArray<{ path: string, label: string }>) => {
    for (const file of files) calls.push({ bytes: readFileSync(file.path), label: file.label })
    return { changed: true, created: 1, updated: 0, unchanged: 0, data_as_of: null }
  }
  return Object.assign(importer, { calls })
}

forEachDatabase((kind) => {
  describe(`one sync round (${kind})`, () => {
    async function setUp (t: TestContext, importers: Partial<ImporterTable> = {}) {
      const { store, dataDir } = await database(t, kind)
      const server = await fileServer(t)
      const timers = new ManualTimers()
      const sleeps: number[] = []
      const logs: string[] = []
      const options: SyncOptions = {
        db: store.db,
        dataDir,
        importers: { ...IMPORTERS, ...importers },
        maxBytes: 1000,
        importLockWaitMs: 5000,
        connectTimeoutMs: CONNECT_MS,
        readTimeoutMs: READ_MS,
        attempts: 3,
        backoffMs: BACKOFF_MS,
        sleep: async (ms) => { sleeps.push(ms) },
        timers,
        log: (_level, message) => { logs.push(message) }
      }
      const status = async (name: string) =>
        await store.db.selectFrom('sources').selectAll().where('name', '=', name).executeTakeFirst()
      const leftovers = () => readdirSync(dataDir).filter((n) => n.startsWith('.sync-'))
      return { store, server, timers, sleeps, logs, options, status, leftovers }
    }

    test('the lease\'s holder removes the download folders a killed sync left, and nothing else', async (t) => {
      const { server, options, leftovers } = await setUp(t, { verra: recordingImporter() })
      // A round killed mid-download leaves its folder; a file of the operator's happens to share a suffix.
      mkdirSync(path.join(options.dataDir, '.sync-killed'))
      writeFileSync(path.join(options.dataDir, '.sync-killed', 'part'), 'half a file')
      writeFileSync(path.join(options.dataDir, 'notes.sync-'), 'the operator\'s')
      server.routes.set('/p.csv', (_request, response) => { response.writeHead(200).end('ID,Name\n1,A\n') })
      assert.ok((await syncSources(options, [{ kind: 'verra', url: server.url('/p.csv') }])).ran)
      assert.deepEqual(leftovers(), [])
      assert.ok(readdirSync(options.dataDir).includes('notes.sync-'))
    })

    test('a 5xx is retried with exponential backoff; a success after it imports', async (t) => {
      const verra = recordingImporter()
      const { server, sleeps, options, status, logs } = await setUp(t, { verra })
      let tries = 0
      server.routes.set('/p.csv', (_request, response) => {
        if (++tries < 3) response.writeHead(503).end()
        else response.writeHead(200).end('ID,Name\n1,A\n')
      })
      const round = await syncSources(options, [{ kind: 'verra', url: server.url('/p.csv') }])
      assert.ok(round.ran)
      assert.equal(round.sources[0]!.status, 'changed')
      assert.deepEqual(sleeps, [BACKOFF_MS, 2 * BACKOFF_MS])
      assert.equal(logs.filter((l) => /try \d failed \(127\.0\.0\.1:\d+ answered 503/.test(l)).length, 2)
      assert.deepEqual(verra.calls.map((c) => [c.bytes.toString(), c.label]), [['ID,Name\n1,A\n', 'verra/p.csv']])
      assert.equal((await status('verra'))?.last_status, 'changed')
    })

    test('a server that keeps failing: the round gives up after its tries, records it, imports nothing',
      async (t) => {
        const verra = recordingImporter()
        const { server, sleeps, options, status, leftovers } = await setUp(t, { verra })
        server.routes.set('/p.csv', (_request, response) => { response.writeHead(500).end() })
        const round = await syncSources(options, [{ kind: 'verra', url: server.url('/p.csv') }])
        assert.ok(round.ran)
        assert.equal(round.sources[0]!.status, 'failed')
        assert.match(round.sources[0]!.error!, /answered 500 Internal Server Error \(after 3 tries\)$/)
        assert.deepEqual(sleeps, [BACKOFF_MS, 2 * BACKOFF_MS])
        assert.deepEqual(verra.calls, [])
        const row = await status('verra')
        assert.deepEqual([row?.last_status, row?.sha256, row?.last_changed_at], ['failed', null, null])
        assert.deepEqual(leftovers(), [])
      })

    test('429, 408 and 5xx are tried again; any other status fails at once; a URL ending in / is "NAME download"',
      async (t) => {
        const verra = recordingImporter()
        const { server, sleeps, options } = await setUp(t, { verra })
        const tries = new Map<string, number>()
        for (const status of [429, 408, 404, 403]) {
          server.routes.set(`/${status}/`, (request, response) => {
            const n = (tries.get(request.url!) ?? 0) + 1
            tries.set(request.url!, n)
            if (n === 1) response.writeHead(status).end()
            else response.writeHead(200).end(`ID,Name\n${status},A\n`)
          })
        }
        const twice = { ...options, attempts: 2 }
        for (const status of [429, 408]) {
          const round = await syncSources(twice, [{ kind: 'verra', url: server.url(`/${status}/`) }])
          assert.ok(round.ran)
          assert.equal(round.sources[0]!.status, 'changed', String(status))
        }
        assert.deepEqual(verra.calls.map((c) => c.label), ['verra download', 'verra download'])
        assert.deepEqual(sleeps, [BACKOFF_MS, BACKOFF_MS])
        for (const status of [404, 403]) {
          const round = await syncSources(twice, [{ kind: 'verra', url: server.url(`/${status}/`) }])
          assert.ok(round.ran)
          assert.match(round.sources[0]!.error!, new RegExp(`answered ${status} [A-Za-z ]+$`), 'one try, said once')
        }
        assert.deepEqual(sleeps, [BACKOFF_MS, BACKOFF_MS], 'no wait before a status that will not change')
        assert.deepEqual([...tries.values()], [2, 2, 1, 1])

        server.routes.set('/always-500', (_request, response) => { response.writeHead(500).end() })
        const failed = await syncSources(twice, [{ kind: 'verra', url: server.url('/always-500') }])
        assert.ok(failed.ran)
        assert.match(failed.sources[0]!.error!, /answered 500 Internal Server Error \(after 2 tries\)$/)
      })

    test('a server that stops sending, and one that never answers, time out', async (t) => {
      const verra = recordingImporter()
      const { server, timers, options } = await setUp(t, { verra })
      server.routes.set('/stalls', (_request, response) => {
        response.writeHead(200, { 'content-length': '100' })
        response.write('ID,Name\n')
      })
      server.routes.set('/silent', () => undefined)
      const once = { ...options, attempts: 1 }
      const stalled = syncSources(once, [{ kind: 'verra', url: server.url('/stalls') }])
      await timers.fire(READ_MS)
      const round = await stalled
      assert.ok(round.ran)
      assert.match(round.sources[0]!.error!, new RegExp(`^no bytes from 127\\.0\\.0\\.1:\\d+ for ${READ_MS} ms$`))

      const silent = syncSources(once, [{ kind: 'verra', url: server.url('/silent') }])
      await timers.fire(CONNECT_MS)
      const quiet = await silent
      assert.ok(quiet.ran)
      const silence = `^no answer from 127\\.0\\.0\\.1:\\d+ within ${CONNECT_MS} ms$`
      assert.match(quiet.sources[0]!.error!, new RegExp(silence))
      assert.deepEqual(verra.calls, [])
    })

    test('a file over the size cap fails at once, declared or not, and is not retried', async (t) => {
      const verra = recordingImporter()
      const { server, sleeps, options, leftovers } = await setUp(t, { verra })
      const big = Buffer.alloc(1500, 'x')
      server.routes.set('/declared', (_request, response) => {
        response.writeHead(200, { 'content-length': String(big.length) }).end(big)
      })
      server.routes.set('/chunked', (_request, response) => {
        response.writeHead(200)
        response.write(big.subarray(0, 800))
        response.end(big.subarray(800))
      })
      const round = await syncSources(options, [{ kind: 'verra', url: server.url('/declared') },
        { kind: 'acr', url: server.url('/chunked') }])
      assert.ok(round.ran)
      assert.match(round.sources[0]!.error!, /larger than the 1000 bytes allowed \(SYNC_MAX_MB\): 1500 bytes declared$/)
      assert.match(round.sources[1]!.error!, /larger than the 1000 bytes allowed \(SYNC_MAX_MB\)$/)
      assert.deepEqual(sleeps, [])
      assert.deepEqual(verra.calls, [])
      assert.deepEqual(leftovers(), [])
    })

    test('redirects are followed', async (t) => {
      const verra = recordingImporter()
      const { server, options } = await setUp(t, { verra })
      server.routes.set('/old', (_request, response) => { response.writeHead(302, { location: '/new' }).end() })
      server.routes.set('/new', (_request, response) => { response.writeHead(200).end('moved') })
      const round = await syncSources(options, [{ kind: 'verra', url: server.url('/old') }])
      assert.ok(round.ran)
      assert.equal(round.sources[0]!.status, 'changed')
      assert.deepEqual(verra.calls.map((c) => c.bytes.toString()), ['moved'])
    })

    test('a new file that only updates projects is "changed"; new bytes that change no project are "unchanged"',
      async (t) => {
        const { server, options, status } = await setUp(t)
        const header = 'ID,Name,Proponent,Project Type,AFOLU Activities,Methodology,Status,Country/Area,' +
          'Estimated Annual Emission Reductions,Region,Project Registration Date,Crediting Period Start Date,' +
          'Crediting Period End Date'
        const file = (name: string, end: string) =>
          `${header}\n9001,Sync One,Dev,Transport,,,Registered,Kenya,,,,,\n9002,${name},Dev,Transport,,,Registered,` +
          `Kenya,,,,,${end}`
        let body = file('Sync Two', '\n')
        server.routes.set('/p.csv', (_request, response) => { response.writeHead(200).end(body) })
        const sources = [{ kind: 'verra' as const, url: server.url('/p.csv') }]
        const rounds: string[] = []
        for (const next of [file('Sync Two', '\n'), file('Sync Two Renamed', '\n'), file('Sync Two Renamed', '')]) {
          body = next
          const round = await syncSources(options, sources)
          assert.ok(round.ran)
          rounds.push(`${round.sources[0]!.status} ${(await status('verra'))?.last_status}`)
        }
        assert.deepEqual(rounds, ['changed changed', 'changed changed', 'unchanged unchanged'])
      })

    test('one process syncs at a time: another finds the lease held and skips the round without a download',
      async (t) => {
        const verra = recordingImporter()
        const { store, server, options, logs } = await setUp(t, { verra })
        server.routes.set('/p.csv', (_request, response) => { response.writeHead(200).end('x') })
        const sources = [{ kind: 'verra' as const, url: server.url('/p.csv') }]
        const at = new Date('2026-11-27T10:00:00.000Z')
        assert.ok(await takeLease(store.db, 'sync', 'another-instance', at, 15 * 60_000))
        const skipped = await syncSources({ ...options, now: () => at }, sources)
        assert.deepEqual(skipped, { ran: false })
        assert.ok(logs.includes('sync: another process is syncing; skipping this round'))
        assert.deepEqual(server.requests, [])
        // Its holder died: the lease lapses and the next round runs.
        const later = new Date(at.getTime() + 16 * 60_000)
        assert.equal((await syncSources({ ...options, now: () => later }, sources)).ran, true)

        // A round that starts while another is downloading skips. The first round's download is held until the
        // second has answered: started together, the first could otherwise end (and free the lease) before the
        // second asked, which a loaded machine did.
        let arrived!: () => void
        const downloading = new Promise<void>((resolve) => { arrived = resolve })
        let release!: () => void
        const held = new Promise<void>((resolve) => { release = resolve })
        let downloads = 0
        server.routes.set('/p.csv', (_request, response) => {
          // Only the first download waits: were the second round to download too, it must not hang the test.
          if (++downloads > 1) { response.writeHead(200).end('x'); return }
          arrived()
          held.then(() => { response.writeHead(200).end('x') }, () => undefined)
        })
        const first = syncSources({ ...options, holder: 'one' }, sources)
        await downloading
        const second = await syncSources({ ...options, holder: 'two' }, sources)
        release()
        assert.deepEqual([(await first).ran, second.ran], [true, false])
      })

    test('OffsetsDB\'s archive goes to the importer the table names; the row counts what it holds from it',
      async (t) => {
        // Stands in for the archive import: imports the records it is given and marks them as the archive's.
        const offsetsdb: SourceImporter = async (db, files, options) => {
          const result = await importProjects(db, readFileSync(files[0]!.path, 'utf8'),
            { replace: false, ...(options.now !== undefined && { now: options.now }) })
          await db.updateTable('credit_transactions').set({ source_name: 'offsetsdb' }).execute()
          await db.insertInto('project_sources').values(result.ids.map((id) =>
            ({ project_id: id, source_name: 'offsetsdb' }))).execute()
          return { ...result, changed: result.created > 0, data_as_of: '2026-11-26' }
        }
        const { server, options, status } = await setUp(t, { offsetsdb })
        const records = ledgerProjects()
        server.routes.set('/latest/offsets-db.csv.zip', (_request, response) => {
          response.writeHead(200, { etag: '"archive-1"' }).end(JSON.stringify(records))
        })
        const round = await syncSources({ ...options, maxBytes: 1_000_000 },
          [{ kind: 'offsetsdb', url: server.url('/latest/offsets-db.csv.zip') }])
        assert.ok(round.ran)
        const transactions = records.reduce((sum, r) => sum + (r.transactions?.length ?? 0), 0)
        assert.deepEqual([round.sources[0]!.status, round.sources[0]!.projects, round.sources[0]!.transactions],
          ['changed', records.length, transactions])
        const row = await status('offsetsdb')
        assert.deepEqual([row?.data_as_of, row?.etag, row?.projects, row?.transactions],
          ['2026-11-26', '"archive-1"', records.length, transactions])
      })

    test('an OffsetsDB archive that cannot be imported (or no archive import in the build) fails the source',
      async (t) => {
        const { server, options } = await setUp(t)
        server.routes.set('/a.zip', (_request, response) => { response.writeHead(200).end('PK') })
        const round = await syncSources(options, [{ kind: 'offsetsdb', url: server.url('/a.zip') }])
        assert.ok(round.ran)
        assert.equal(round.sources[0]!.status, 'failed')
      })
  })
})
