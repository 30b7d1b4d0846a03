import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { tracingChannel } from 'node:diagnostics_channel'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { test, type TestContext } from 'node:test'
import { startService } from '../support/service.ts'

interface HandlerStore { request: { raw: IncomingMessage }, async: boolean }

/**
 * Resolves once the server has finished with everything it took in: every connection closed, and every request
 * either through its route handler (Fastify's `fastify.request.handler` tracing channel, which ends after the
 * handler's answer was sent or refused) or answered before one (a hook's reply). Driven by those events alone:
 * if a request were never finished the test would end at its time-out.
 */
function quiet (t: TestContext, server: Server): { settled: () => Promise<void> } {
  const pending = new Set<IncomingMessage>()
  const inHandler = new Set<IncomingMessage>()
  let sockets = 0
  let wake: (() => void) | undefined
  const check = () => { if (sockets === 0 && pending.size === 0) wake?.() }
  const finish = (request: IncomingMessage) => { inHandler.delete(request); pending.delete(request); check() }
  server.on('connection', (socket) => {
    sockets++
    socket.once('close', () => { sockets--; check() })
  })
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    pending.add(request)
    // Answered by a hook, with no handler to come (Fastify runs none once a reply is sent).
    response.once('close', () => { if (response.headersSent && !inHandler.has(request)) finish(request) })
  })
  const channel = tracingChannel<unknown, HandlerStore>('fastify.request.handler')
  const handlers = {
    start: (store: HandlerStore) => { inHandler.add(store.request.raw) },
    end: (store: HandlerStore) => { if (!store.async) finish(store.request.raw) },
    asyncStart: () => undefined,
    asyncEnd: (store: HandlerStore) => { finish(store.request.raw) },
    error: () => undefined
  }
  channel.subscribe(handlers)
  t.after(() => { channel.unsubscribe(handlers) })
  return {
    settled: async () => { await new Promise<void>((resolve) => { wake = resolve; check() }) }
  }
}

// Clients that give up mid-answer, as load tests and impatient apps do: compressed answers (brotli, gzip,
// deflate) of the calculator's memory cache, the catalogue and the explorer's assets, aborted at staggered
// moments while the server is busy. Before the fix this run logged ERR_HTTP_HEADERS_SENT at error level
// (the cache answered, the client left, and the route answered a second time) in every run we tried.
test('clients that leave during compressed answers cause no error-level log and no second answer', async (t) => {
  const lines: string[] = []
  const logStream = new Writable({ write (chunk, _encoding, done) { lines.push(String(chunk)); done() } })
  // fetch's pool keeps the connections it opened for requests aborted before they were sent, silent, until its own
  // 4 s idle timeout; a one-second FIRST_BYTE_TIMEOUT has the server close them sooner, so the wait for quiet below
  // ends about 3 s earlier. Such a connection never carries a request: nothing this test looks at changes.
  const { app, baseUrl, key } = await startService(t, {
    bundled: true,
    logStream,
    env: { RATE_LIMIT_CATALOGUE: '100000', RATE_LIMIT_CALCULATOR: '100000', FIRST_BYTE_TIMEOUT: '1' }
  })
  const paths = ['/api/v1/co2-calculator/countries', '/api/v1/commerce/products/?limit=1000',
    '/api/v1/co2-calculator/countries', '/explorer/vendor/countries-110m.json',
    '/api/v1/co2-calculator/config?country_code=DEU', '/openapi.json']
  const encodings = ['br', 'gzip', 'deflate']
  const server = quiet(t, app.server)
  let aborted = 0
  for (let wave = 0; wave < 10; wave++) {
    await Promise.all(Array.from({ length: 40 }, async (_, i) => {
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(), (i * 7 + wave * 3) % 60)
      try {
        const response = await fetch(`${baseUrl}${paths[i % paths.length]}`, {
          signal: controller.signal,
          headers: {
            authorization: `Bearer ${key}`, 'accept-encoding': encodings[i % encodings.length]!, connection: 'close'
          }
        })
        await response.arrayBuffer()
      } catch {
        aborted++
      } finally {
        clearTimeout(timer)
      }
    }))
  }
  assert.ok(aborted > 50, `${aborted} requests were aborted`)
  // Let the server finish with what it took in: no connection left, no request still being answered.
  await server.settled()
  const problems = lines.map((l) => JSON.parse(l) as { level: number, msg: string })
    .filter((l) => l.level >= 50 || /already sent/.test(l.msg))
  assert.deepEqual(problems, [])
})
