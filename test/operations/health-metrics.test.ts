import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

forEachDatabase((database) => {
  describe(`health, metrics and request ids [${database}]`, () => {
    test('live and ready answer; ready turns 503 when the database is gone', async (t) => {
      const { app, store } = await buildTestApp(t, { database })
      assert.deepEqual((await app.inject('/health/live')).json(), { status: 'ok' })
      const ready = await app.inject('/health/ready')
      assert.equal(ready.statusCode, 200)
      assert.deepEqual(ready.json(), { status: 'ready', checks: { database: 'ok' } })
      await store.close()
      const down = await app.inject('/health/ready')
      assert.equal(down.statusCode, 503)
      assert.equal(down.json().code, 'service_unavailable')
      assert.match(down.json().detail, /database/)
      assert.equal((await app.inject('/health/live')).statusCode, 200)
    })

    test('/metrics counts requests by route, method and status, with latency and pool use', async (t) => {
      const { app, inject } = await buildTestApp(t, { database, records: fixtureProjects() })
      await inject('/api/v1/commerce/products/?limit=2')
      await inject('/api/v1/commerce/products/1/')
      await inject('/api/v1/commerce/products/999/')
      await app.inject('/api/v1/co2-calculator/ping')
      const response = await app.inject('/metrics')
      assert.equal(response.statusCode, 200)
      assert.match(response.headers['content-type'] as string, /^text\/plain/)
      const text = response.body
      assert.match(text,
        /tonne_http_requests_total\{route="\/api\/v1\/commerce\/products\/",method="GET",status="200"\} 1/)
      assert.match(text,
        /tonne_http_requests_total\{route="\/api\/v1\/commerce\/products\/:id\/",method="GET",status="200"\} 1/)
      assert.match(text,
        /tonne_http_requests_total\{route="\/api\/v1\/commerce\/products\/:id\/",method="GET",status="404"\} 1/)
      assert.match(text,
        /tonne_http_request_duration_seconds_bucket\{le="0.5",route="\/api\/v1\/co2-calculator\/ping",method="GET"\} 1/)
      assert.match(text, /tonne_db_pool_connections\{state="max"\} \d+/)
      assert.match(text, /tonne_process_cpu_user_seconds_total/)
    })

    test('every answer has an X-Request-Id, a sane incoming one is kept, and log lines carry it', async (t) => {
      const lines: string[] = []
      const logStream = new Writable({ write (chunk, _encoding, done) { lines.push(String(chunk)); done() } })
      const { app } = await buildTestApp(t, { database, logStream })
      const generated = await app.inject('/api/v1/co2-calculator/ping')
      assert.match(generated.headers['x-request-id'] as string, /^[0-9a-f-]{36}$/)
      const kept = await app.inject({ url: '/nowhere', headers: { 'x-request-id': 'edge-42.abc' } })
      assert.equal(kept.headers['x-request-id'], 'edge-42.abc')
      assert.equal(kept.json().request_id, 'edge-42.abc')
      const replaced = await app.inject({
        url: '/api/v1/co2-calculator/ping',
        headers: { 'x-request-id': 'bad id\twith spaces' }
      })
      assert.match(replaced.headers['x-request-id'] as string, /^[0-9a-f-]{36}$/)
      // 1 to 128 characters are an id; 129, or none, are replaced.
      const ids = [['a', true], ['a'.repeat(128), true], ['a'.repeat(129), false], ['', false]] as const
      for (const [given, kept] of ids) {
        const answer = await app.inject({ url: '/api/v1/co2-calculator/ping', headers: { 'x-request-id': given } })
        assert.equal(answer.headers['x-request-id'] === given, kept, `${given.length} characters`)
      }
      const requestLines = lines.map((l) => JSON.parse(l) as { reqId?: string, msg: string }).filter((l) =>
        /request/.test(l.msg))
      assert.ok(requestLines.length >= 6)
      assert.ok(requestLines.every((l) => typeof l.reqId === 'string'))
      assert.ok(requestLines.some((l) => l.reqId === 'edge-42.abc'))
    })
  })
})
