import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, test, type TestContext } from 'node:test'
import pg from 'pg'
import { createKey } from '../../src/access/api-keys.service.ts'
import { RepeatedErrors, REPEAT_INTERVAL_MS } from '../../src/http/repeated-errors.ts'
import { forEachDatabase, POSTGRES_ADMIN_URL, TEST_DATABASES } from '../databases.ts'
import { buildTestApp, type TestApp } from '../helpers.ts'
import { ledgerProjects } from '../fixtures/ledger.ts'

// No single key or address can deny others (issue 34, item 2). Assertions are on status codes and counts,
// never on time.

const LEDGER = '/api/v1/commerce/transactions/'
const PRODUCTS = '/api/v1/commerce/products/'

async function admin (t: TestContext): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  await client.connect()
  t.after(async () => { await client.end() })
  return client
}

/** Takes the app's database away for good: no new connections, and the open ones ended. */
async function removeDatabase (t: TestContext, app: TestApp): Promise<void> {
  const name = new URL(app.config.databaseUrl!).pathname.slice(1)
  const client = await admin(t)
  await client.query(`alter database ${name} with allow_connections false`)
  await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name])
}

function capturedLog (): { stream: Writable, lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line))
      done()
    }
  })
  return { stream, lines }
}

forEachDatabase((database) => {
  describe(`fair use of the database [${database}]`, () => {
    test('a key sending many expensive reads at once gets 429s; a cheap client beside it gets only 200s',
      async (t) => {
        // Pool of 4 on PostgreSQL (2 expensive reads at once, 1 per key); 2 read workers on SQLite (1 and 1).
        const app = await buildTestApp(t, { database, records: ledgerProjects(), env: { SQLITE_READ_WORKERS: '2' } })
        const cheap = (await createKey(app.store.db, { name: 'cheap', scopes: ['catalogue:read'] })).key
        let unlock = async (): Promise<void> => {}
        if (database === 'postgres') {
          // The ledger's rows locked: every expensive read holds its slot (and, on the old code, its connection).
          const name = new URL(app.config.databaseUrl!).pathname.slice(1)
          const locker = new pg.Client({ connectionString: `${POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, '')}/${name}` })
          await locker.connect()
          t.after(async () => { await locker.end().catch(() => undefined) })
          await locker.query('begin')
          await locker.query('lock table credit_transactions in access exclusive mode')
          unlock = async () => { await locker.query('commit') }
        }
        const attacks = Array.from({ length: 12 }, async (_, i) =>
          await app.inject(`${LEDGER}?search=acme${'x'.repeat(i % 2)}&offset=${i}`))
        const cheapAnswers = await Promise.all(Array.from({ length: 12 }, async (_, i) =>
          await app.app.inject({
            url: `${PRODUCTS}?limit=2&offset=${i}`, headers: { authorization: `Bearer ${cheap}` }
          })))
        await unlock()
        const attacked = await Promise.all(attacks)
        assert.deepEqual(cheapAnswers.map((a) => a.statusCode), Array(12).fill(200))
        const refused = attacked.filter((a) => a.statusCode === 429)
        assert.ok(refused.length > 0, `the expensive key got ${attacked.map((a) => a.statusCode).join(', ')}`)
        assert.ok(attacked.every((a) => a.statusCode === 200 || a.statusCode === 429))
        assert.equal(refused[0]!.headers['retry-after'], '1')
        assert.match(String(refused[0]!.headers['content-type']), /^application\/problem\+json/)
        assert.equal(refused[0]!.json().code, 'rate_limited')
      })

    test('an answer is priced by its work: a deep page costs a request per 10,000 rows its offset passes',
      async (t) => {
        const app = await buildTestApp(t, { database, records: ledgerProjects() })
        const remaining = async (url: string) => Number((await app.inject(url)).headers['ratelimit-remaining'])
        const before = await remaining(`${PRODUCTS}1/`)
        assert.equal(await remaining(`${LEDGER}?offset=30000`), before - 1)
        // That page's price (1 + 3) is charged once it is built, so the next answer shows it.
        assert.equal(await remaining(`${PRODUCTS}1/`), before - 5)
      })

    test('a CSV download costs 1 more request per whole 1,000 rows: under 1,000 rows, nothing more', async (t) => {
      const app = await buildTestApp(t, { database, records: ledgerProjects() })
      const remaining = async (url: string) => Number((await app.inject(url)).headers['ratelimit-remaining'])
      // Either CSV reads every match and holds an expensive read's slot, so either costs what a search does (5).
      for (const [csv, price] of [[`${PRODUCTS}?format=csv`, 5], [`${LEDGER}?format=csv`, 5]] as const) {
        const before = await remaining(`${PRODUCTS}1/`)
        const download = await app.inject(csv)
        assert.equal(download.statusCode, 200)
        const rows = download.body.trimEnd().split('\r\n').length - 1
        assert.ok(rows > 0 && rows < 1000, `${rows} rows`)
        // The download and the request that shows its charge (1).
        assert.equal(await remaining(`${PRODUCTS}1/`), before - price - 1, csv)
      }
    })
  })
})

describe('fair use when the database is away [postgres]', {
  skip: !TEST_DATABASES.includes('postgres') && 'PostgreSQL suites are off (TONNE_TEST_DATABASES)'
}, () => {
  test('failed answers count: an address whose requests all fail gets 429s, not endless 503s', async (t) => {
    const app = await buildTestApp(t, {
      database: 'postgres', records: ledgerProjects(), env: { AUTH_FAILURE_LIMIT: '3', RATE_LIMIT_CATALOGUE: '1000' }
    })
    assert.equal((await app.inject(`${PRODUCTS}1/`)).statusCode, 200)
    await removeDatabase(t, app)
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) statuses.push((await app.inject(`${PRODUCTS}?offset=${i}`)).statusCode)
    // 503 while the circuit is open; a database that refuses connections (as here) answers 500 between probes.
    assert.ok(statuses.every((s) => s >= 500 || s === 429), statuses.join(', '))
    assert.ok(statuses.includes(429), `only ${statuses.join(', ')}`)
  })

  test('identical errors are logged once in full, the repeats counted', async (t) => {
    const { stream, lines } = capturedLog()
    const app = await buildTestApp(t, {
      database: 'postgres', records: ledgerProjects(), logStream: stream, env: { AUTH_FAILURE_LIMIT: '1000' }
    })
    await removeDatabase(t, app)
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await app.inject(`${PRODUCTS}?offset=${i}`)).statusCode)
    // 503 while the circuit is open; a database that refuses connections (as here) answers 500 between probes.
    assert.ok(statuses.every((s) => s >= 500), statuses.join(', '))
    const withStack = lines.filter((line) => (line['err'] as { stack?: string } | undefined)?.stack !== undefined)
    assert.ok(withStack.length <= 2, `${withStack.length} error lines with a stack for 12 failures`)
  })
})

test('repeated errors: the first logged in full, the repeats counted and logged once when the interval ends',
  (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const logged: Array<{ fields: Record<string, unknown>, message: string }> = []
    const log = { error: (fields: Record<string, unknown>, message: string) => { logged.push({ fields, message }) } }
    const repeated = new RepeatedErrors(log as never)
    const error = new Error('The database is not answering')
    assert.equal(repeated.first('a backing service is unavailable', error), true)
    for (let i = 0; i < 5; i++) assert.equal(repeated.first('a backing service is unavailable', error), false)
    // Another error is news: logged in full at once.
    assert.equal(repeated.first('request failed', new Error('other')), true)
    assert.equal(logged.length, 0)
    t.mock.timers.tick(REPEAT_INTERVAL_MS)
    assert.equal(logged.length, 1)
    assert.equal(logged[0]!.fields['repeats'], 5)
    assert.match(logged[0]!.message, /5 more times/)
    // The interval over, the next one is logged in full again.
    assert.equal(repeated.first('a backing service is unavailable', error), true)
  })
