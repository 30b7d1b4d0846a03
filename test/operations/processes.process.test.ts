import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import path from 'node:path'
import { test, type TestContext } from 'node:test'
import { tonne, tonneProcess } from '../cli.helpers.ts'
import { createPostgresDatabase, REDIS_URL, TEST_DATABASES } from '../databases.ts'

// These need the PostgreSQL and Redis servers; they are off only when TONNE_TEST_DATABASES leaves PostgreSQL out.
const servers = { skip: TEST_DATABASES.includes('postgres') ? false : 'TONNE_TEST_DATABASES leaves PostgreSQL out' }
import { tempDir } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { startServerProcess, workersListening } from '../support/server-process.ts'
import { TcpProxy, through } from '../support/tcp-proxy.ts'
import { writeFileSync } from 'node:fs'

const SECRET = 'shared-secret-for-both-instances-0123456789'

test('two instances over one PostgreSQL and one Redis share limits, imports and media links', servers, async (t) => {
  const databaseUrl = await createPostgresDatabase(t)
  const shared = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '4',
    REDIS_URL,
    MEDIA_SIGNING_SECRET: SECRET,
    MEDIA_DIR: path.join(tempDir(t), 'media'),
    LOAD_BUNDLED_CATALOGUE: 'false',
    CREATE_INITIAL_API_KEY: 'false'
  }
  const migrated = await tonne(['migrate'], { ...shared, DATA_DIR: tempDir(t) })
  assert.equal(migrated.code, 0, migrated.stderr)
  const a = await startServerProcess(t, { ...shared, DATA_DIR: tempDir(t) })
  const b = await startServerProcess(t, { ...shared, DATA_DIR: tempDir(t) })
  const key = JSON.parse((await tonne(['keys', 'create', '--name', 'shared', '--rate-limit', '8/min', '--json'],
    { ...shared, DATA_DIR: tempDir(t) })).stdout).key as string
  const get = async (base: string, url: string) =>
    await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${key}` } })

  // An import through the CLI is served by both, without a restart.
  assert.equal((await (await get(a.url, '/api/v1/commerce/products/')).json() as { count: number }).count, 0)
  assert.equal((await (await get(b.url, '/api/v1/commerce/products/')).json() as { count: number }).count, 0)
  const dir = tempDir(t)
  writeFileSync(path.join(dir, 'catalogue.json'), JSON.stringify(fixtureProjects()))
  // In a process of its own, as before: the servers hear of the import by PostgreSQL's NOTIFY, which a process's
  // exit gives time to arrive; in process the next request came first (0 projects), and polling would spend the
  // key's eight requests a minute that the test counts below.
  const imported = await tonneProcess(['import', path.join(dir, 'catalogue.json')], { ...shared, DATA_DIR: tempDir(t) })
  assert.equal(imported.code, 0, imported.stderr)
  assert.equal((await (await get(a.url, '/api/v1/commerce/products/')).json() as { count: number }).count, 12)
  assert.equal((await (await get(b.url, '/api/v1/commerce/products/')).json() as { count: number }).count, 12)

  // A media link signed by one is served by the other.
  const detail = await (await get(a.url,
    '/api/v1/commerce/products/1/')).json() as { sustainable_development_goals: Array<{ icon: string }> }
  const icon = new URL(detail.sustainable_development_goals[0]!.icon)
  const fromB = await fetch(`${b.url}${icon.pathname}${icon.search}`)
  assert.equal(fromB.status, 200)
  assert.equal(fromB.headers.get('content-type'), 'image/svg+xml')

  // The key's limit (8/min) holds across both: 5 requests were made above; 3 more pass, the next fails on either.
  const statuses: number[] = []
  for (let i = 0; i < 4; i++) {
    statuses.push((await get(i % 2 === 0 ? b.url : a.url,
      '/api/v1/commerce/products/1/')).status)
  }
  assert.deepEqual(statuses, [200, 200, 200, 429])
  const limited = await get(a.url, '/api/v1/commerce/products/')
  assert.equal(limited.status, 429)
  assert.equal(limited.headers.get('ratelimit-limit'), '8')
  assert.ok(Number(limited.headers.get('retry-after')) > 0)

  assert.equal(await a.stop(), 0)
  assert.equal(await b.stop(), 0)
})

test('SIGTERM: the server stops accepting, finishes an in-flight request, and exits 0', servers, async (t) => {
  const { proxy, server, key } = await serverBehindProxy(t, {}, { catalogue: true })

  // Hold the database line so the next request is in flight (the server has logged it) when SIGTERM arrives.
  proxy.hold()
  const headers = { authorization: `Bearer ${key}`, 'x-request-id': 'in-flight-1' }
  const inFlight = fetch(`${server.url}/api/v1/commerce/products/?limit=3`, { headers })
  await server.line(/"reqId":"in-flight-1".*"msg":"incoming request"/)
  const exit = server.stop()
  await server.line(/SIGTERM received/)
  // While it finishes that request it serves nothing new: a 503 (on a kept-alive connection), then
  // no connection at all once the listener is closed.
  for (let tries = 0; ; tries++) {
    const answer = await fetch(`${server.url}/health/live`).catch(() => undefined)
    if (answer === undefined) break
    assert.equal(answer.status, 503, 'no new requests while stopping')
    assert.ok(tries < 100, 'the server still accepts connections while stopping')
  }
  proxy.release()
  const response = await inFlight
  assert.equal(response.status, 200)
  assert.equal((await response.json() as { count: number }).count, 12)
  assert.equal(await exit, 0)
})

// One server for both --workers tests (a server with two workers costs about three seconds of CPU): the scrape
// counts its pings before the other test sends more. They read no catalogue, so the bundled one is not loaded.
test('serve --workers 2', async (t) => {
  const env = { DATA_DIR: tempDir(t), CREATE_INITIAL_API_KEY: 'false', LOAD_BUNDLED_CATALOGUE: 'false' }
  const server = await startServerProcess(t, env, ['--workers', '2'])
  const [first, second] = await workersListening(server)

  await t.test('/metrics reports the whole server, whichever worker takes the scrape', async () => {
    // Each request on a connection of its own, so that both workers answer some.
    const get = async (url: string) => await new Promise<{ status: number, body: string }>((resolve, reject) => {
      httpRequest(`${server.url}${url}`, { agent: false }, (response) => {
        let body = ''
        response.setEncoding('utf8').on('data', (chunk: string) => { body += chunk })
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
      }).on('error', reject).end()
    })
    for (let i = 0; i < 8; i++) assert.equal((await get('/api/v1/co2-calculator/ping')).status, 200)
    for (let i = 0; i < 4; i++) {
      const scrape = await get('/metrics')
      assert.equal(scrape.status, 200)
      const pings = scrape.body.split('\n').filter((l) => l.startsWith('tonne_http_requests_total{') &&
        l.includes('route="/api/v1/co2-calculator/ping"') && l.includes('status="200"'))
      assert.deepEqual(pings.map((l) => Number(l.split(' ').pop())), [8], scrape.body.slice(0, 400))
    }
  })

  await t.test('runs two processes on one port and stops them all on SIGTERM', async () => {
    assert.notEqual(second, first)
    for (let i = 0; i < 6; i++) assert.equal((await fetch(`${server.url}/api/v1/co2-calculator/ping`)).status, 200)
    assert.equal(await server.stop(), 0)
  })
})

test('SIGTERM with the database stalled: the request in flight gets a 503, not an empty reply', servers, async (t) => {
  const { proxy, server, key } = await serverBehindProxy(t, { DATABASE_STATEMENT_TIMEOUT: '2' })

  // The database stops answering, and stays stopped: the request below waits on it when SIGTERM arrives.
  proxy.hold()
  const headers = { authorization: `Bearer ${key}`, 'x-request-id': 'stalled-1' }
  const inFlight = fetch(`${server.url}/api/v1/commerce/products/?limit=3`, { headers })
  await server.line(/"reqId":"stalled-1".*"msg":"incoming request"/)
  const exit = server.stop()
  const response = await inFlight
  assert.equal(response.status, 503)
  assert.equal((await response.json() as { code: string }).code, 'service_unavailable')
  assert.equal(await exit, 0)
})

/**
 * A server process over a fresh PostgreSQL database reached through a TCP proxy the test can hold or cut; with
 * `catalogue`, the fixture projects are imported before it starts (the bundled catalogue costs a second of CPU).
 */
async function serverBehindProxy (t: TestContext, extraEnv: Record<string, string> = {},
  options: { catalogue?: boolean } = {}) {
  const databaseUrl = await createPostgresDatabase(t)
  const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(databaseUrl).port || 5432) })
  t.after(async () => await proxy.close())
  const env = {
    DATABASE_URL: through(databaseUrl, proxy),
    DATABASE_POOL_SIZE: '4',
    DATA_DIR: tempDir(t),
    CREATE_INITIAL_API_KEY: 'false',
    LOAD_BUNDLED_CATALOGUE: 'false',
    ...extraEnv
  }
  const key = JSON.parse((await tonne(['keys', 'create', '--name', 'k', '--json'], env)).stdout).key as string
  if (options.catalogue === true) {
    const file = path.join(tempDir(t), 'catalogue.json')
    writeFileSync(file, JSON.stringify(fixtureProjects()))
    const imported = await tonne(['import', file], env)
    assert.equal(imported.code, 0, imported.stderr)
  }
  const server = await startServerProcess(t, env)
  assert.equal((await fetch(`${server.url}/health/ready`)).status, 200)
  return { proxy, server, key }
}
