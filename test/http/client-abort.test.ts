import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { startService } from '../support/service.ts'

// Clients that give up mid-answer, as load tests and impatient apps do: compressed answers (brotli, gzip,
// deflate) of the calculator's memory cache, the catalogue and the explorer's assets, aborted at staggered
// moments while the server is busy. Before the fix this run logged ERR_HTTP_HEADERS_SENT at error level
// (the cache answered, the client left, and the route answered a second time) in every run we tried.
test('clients that leave during compressed answers cause no error-level log and no second answer', async (t) => {
  const lines: string[] = []
  const logStream = new Writable({ write (chunk, _encoding, done) { lines.push(String(chunk)); done() } })
  const { app, baseUrl, key } = await startService(t, {
    bundled: true, logStream, env: { RATE_LIMIT_CATALOGUE: '100000', RATE_LIMIT_CALCULATOR: '100000' }
  })
  const paths = ['/api/v1/co2-calculator/countries', '/api/v1/commerce/products/?limit=1000',
    '/api/v1/co2-calculator/countries', '/explorer/vendor/countries-110m.json',
    '/api/v1/co2-calculator/config?country_code=DEU', '/openapi.json']
  const encodings = ['br', 'gzip', 'deflate']
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
  // Let the server finish with what it took in: no connection left, and the log quiet for a while.
  const connections = async () =>
    await new Promise<number>((resolve) => app.server.getConnections((_error, count) => resolve(count)))
  for (let deadline = Date.now() + 20_000, seen = -1; Date.now() < deadline; await sleep(100)) {
    if (await connections() === 0 && lines.length === seen) break
    seen = lines.length
  }
  const problems = lines.map((l) => JSON.parse(l) as { level: number, msg: string })
    .filter((l) => l.level >= 50 || /already sent/.test(l.msg))
  assert.deepEqual(problems, [])
})
