import assert from 'node:assert/strict'
import { setTimeout as realSleep } from 'node:timers/promises'
import { test } from 'node:test'
import { backoffDelay, parseRetryAfter, TonneApiError, TonneClient, TonneNetworkError } from '../../client/src/index.ts'
import { REDIS_URL, TEST_DATABASES } from '../databases.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'
import { TcpProxy, through } from '../support/tcp-proxy.ts'

// Redis comes with the PostgreSQL suites; off only when TONNE_TEST_DATABASES leaves PostgreSQL out.
const servers = { skip: TEST_DATABASES.includes('postgres') ? false : 'TONNE_TEST_DATABASES leaves PostgreSQL out' }

interface Seen { status: number, retryAfter: string | null }

/** The real fetch, noting each answer the service gave (a failed connection is status 0). */
function observedFetch (): { fetch: typeof fetch, seen: Seen[] } {
  const seen: Seen[] = []
  return {
    seen,
    fetch: async (input, init) => {
      try {
        const response = await fetch(input, init)
        seen.push({ status: response.status, retryAfter: response.headers.get('retry-after') })
        return response
      } catch (error) {
        seen.push({ status: 0, retryAfter: null })
        throw error
      }
    }
  }
}

test('Retry-After as seconds or an HTTP date; backoff is full jitter under a doubling ceiling', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  assert.equal(parseRetryAfter('17', now), 17_000)
  assert.equal(parseRetryAfter(' 0 ', now), 0)
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now), 30_000)
  assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now), 0, 'a date in the past means now')
  assert.equal(parseRetryAfter('soon', now), undefined)
  assert.equal(parseRetryAfter(null, now), undefined)

  const policy = { maxAttempts: 10, maxElapsedMs: 60_000, baseDelayMs: 100, maxDelayMs: 1000 }
  assert.equal(backoffDelay(policy, 1, undefined, () => 0), 0)
  assert.equal(backoffDelay(policy, 1, undefined, () => 0.999), 99)
  assert.equal(backoffDelay(policy, 3, undefined, () => 0.5), 200)
  assert.equal(backoffDelay(policy, 9, undefined, () => 0.5), 500, 'the ceiling stops at maxDelayMs')
  assert.equal(backoffDelay(policy, 2, 5000, () => 0.5), 5100, 'never earlier than Retry-After')
})

test('by default a 503 is tried 4 times, waiting under 250, 500 and 1,000 ms (the client README\'s defaults)',
  async () => {
    let requests = 0
    const unavailable = async () => {
      requests++
      return new Response(JSON.stringify({ status: 503, code: 'service_unavailable', title: 'Unavailable' }),
        { status: 503, headers: { 'content-type': 'application/problem+json' } })
    }
    const waits: number[] = []
    const tonne = new TonneClient({
      baseUrl: 'http://127.0.0.1:9', fetch: unavailable, sleep: async (ms) => { waits.push(ms) }, random: () => 0.999
    })
    const error = await tonne.calculator.ping().catch((e: unknown) => e)
    assert.ok(error instanceof TonneApiError)
    assert.equal(error.attempts, 4)
    assert.equal(requests, 4)
    // Full jitter under a ceiling that starts at 250 ms and doubles: the largest wait under each is 1 ms less.
    assert.deepEqual(waits, [249, 499, 999])
  })

test('a network failure says what failed: the error\'s message, then its cause\'s code', async () => {
  const refused = async (): Promise<Response> => {
    const cause = Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' })
    throw new TypeError('fetch failed', { cause })
  }
  const tonne = new TonneClient({ baseUrl: 'http://127.0.0.1:9', fetch: refused, retry: { maxAttempts: 1 } })
  const error = await tonne.calculator.ping().catch((e: unknown) => e)
  assert.ok(error instanceof TonneNetworkError)
  assert.equal(error.attempts, 1)
  assert.match(error.message, /fetch failed: ECONNREFUSED/)
  assert.doesNotMatch(error.message, /undefined/)
  // Without a cause there is nothing more to say, and nothing is made up.
  const bare = new TonneClient({
    baseUrl: 'http://127.0.0.1:9', fetch: async () => { throw new TypeError('fetch failed') }, retry: { maxAttempts: 1 }
  })
  const plain = await bare.calculator.ping().catch((e: unknown) => e)
  assert.ok(plain instanceof TonneNetworkError)
  assert.match(plain.message, /^Could not reach http:\/\/127\.0\.0\.1:9\/\S+: fetch failed($|\.| \()/)
  assert.doesNotMatch(plain.message, /undefined/)
})

test('429: retried after Retry-After plus jitter, at most maxAttempts times', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects(), env: { RATE_LIMIT_CATALOGUE: '2' } })
  const { fetch, seen } = observedFetch()
  const waits: number[] = []
  // The waits are recorded, not slept: the service's window is a minute long.
  const sleep = async (ms: number) => { waits.push(ms) }
  const retry = { maxAttempts: 3, maxElapsedMs: 600_000, baseDelayMs: 100, maxDelayMs: 400 }
  const tonne = new TonneClient({ baseUrl, apiKey: key, fetch, sleep, retry })

  await tonne.projects.get(1)
  await tonne.projects.get(2)
  const limited = await tonne.projects.get(3).catch((e: unknown) => e)
  assert.ok(limited instanceof TonneApiError)
  assert.equal(limited.status, 429)
  assert.equal(limited.code, 'rate_limited')
  assert.equal(limited.attempts, 3)
  assert.ok(limited.retryAfterMs !== undefined && limited.retryAfterMs >= 1000)

  assert.deepEqual(seen.map((s) => s.status), [200, 200, 429, 429, 429])
  assert.equal(waits.length, 2)
  waits.forEach((wait, i) => {
    const retryAfterMs = Number(seen[2 + i]!.retryAfter) * 1000
    const ceiling = Math.min(400, 100 * 2 ** i)
    assert.ok(wait >= retryAfterMs && wait < retryAfterMs + ceiling,
      `wait ${wait} ms after Retry-After ${retryAfterMs} ms`)
  })
})

test('429: no wait is started that would end past maxElapsedMs', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects(), env: { RATE_LIMIT_CATALOGUE: '1' } })
  const { fetch, seen } = observedFetch()
  const waits: number[] = []
  const tonne = new TonneClient({
    baseUrl,
    apiKey: key,
    fetch,
    sleep: async (ms) => { waits.push(ms) },
    retry: { maxAttempts: 10, maxElapsedMs: 500 }
  })
  await tonne.projects.list()
  const limited = await tonne.projects.list().catch((e: unknown) => e)
  assert.ok(limited instanceof TonneApiError && limited.code === 'rate_limited')
  assert.equal(limited.attempts, 1, 'Retry-After (about a minute) is beyond the 500 ms budget')
  assert.deepEqual(waits, [])
  assert.deepEqual(seen.map((s) => s.status), [200, 429])
})

test('503: retried with backoff until the service recovers', servers, async (t) => {
  const redisProxy = await TcpProxy.start({
    host: new URL(REDIS_URL).hostname,
    port: Number(new URL(REDIS_URL).port || 6379)
  })
  t.after(async () => { await redisProxy.close() })
  const env = { REDIS_URL: through(REDIS_URL, redisProxy), RATE_LIMIT_ON_REDIS_ERROR: 'deny' }
  const { baseUrl } = await startService(t, { env })
  const { fetch, seen } = observedFetch()
  const probe = new TonneClient({ baseUrl, retry: { maxAttempts: 1 } })
  assert.deepEqual(await probe.calculator.ping(), { message: 'pong' })

  // The rate-limit counters live in Redis; with RATE_LIMIT_ON_REDIS_ERROR=deny the calculator answers 503 without it.
  redisProxy.cut()
  for (let i = 0; i < 40; i++) {
    const error = await probe.calculator.ping().then(() => undefined, (e: unknown) => e)
    if (error instanceof TonneApiError && error.status === 503) break
    await realSleep(250)
  }
  let waits = 0
  // Redis comes back during the first wait; later waits are real, as the service reconnects.
  const sleep = async (ms: number) => { waits++; redisProxy.restore(); await realSleep(ms) }
  const tonne = new TonneClient({
    baseUrl,
    fetch,
    sleep,
    retry: { maxAttempts: 40, maxElapsedMs: 30_000, baseDelayMs: 100, maxDelayMs: 500 }
  })
  assert.deepEqual(await tonne.calculator.ping(), { message: 'pong' })
  assert.equal(seen[0]?.status, 503)
  assert.equal(seen.at(-1)?.status, 200)
  assert.ok(seen.slice(0, -1).every((s) => s.status === 503))
  assert.equal(waits, seen.length - 1)
})

test('network failures are TonneNetworkErrors, retried for these GETs, and time-limited per attempt', async (t) => {
  const { port, key } = await startService(t, { records: fixtureProjects() })
  const proxy = await TcpProxy.start({ host: '127.0.0.1', port })
  t.after(async () => { await proxy.close() })
  const baseUrl = `http://127.0.0.1:${proxy.port}`

  // The line is cut; it comes back during the first wait.
  proxy.cut()
  const { fetch, seen } = observedFetch()
  const tonne = new TonneClient({ baseUrl, apiKey: key, fetch, sleep: async () => { proxy.restore() } })
  assert.equal((await tonne.projects.get(1)).id, 1)
  assert.deepEqual(seen.map((s) => s.status), [0, 200])

  // Cut for good: bounded attempts, then a network error (not an API error).
  proxy.cut()
  const waits: number[] = []
  const down = new TonneClient({
    baseUrl,
    apiKey: key,
    sleep: async (ms) => { waits.push(ms) },
    retry: { maxAttempts: 3 }
  })
  const unreachable = await down.projects.get(1).catch((e: unknown) => e)
  assert.ok(unreachable instanceof TonneNetworkError)
  assert.equal(unreachable.attempts, 3)
  assert.equal(unreachable.timedOut, false)
  assert.equal(waits.length, 2)
  proxy.restore()

  // Bytes stop moving on the open (kept-alive) connection: the attempt gives up after timeoutMs.
  // (The proxy can only hold connections that exist, so the call must reuse the idle one: both clients use the
  // global fetch, whose pool keeps it.) The answered call has the default time, so a busy machine cannot fail it.
  const answered = new TonneClient({ baseUrl, apiKey: key, retry: { maxAttempts: 1 } })
  const held = new TonneClient({ baseUrl, apiKey: key, timeoutMs: 1000, retry: { maxAttempts: 1 } })
  let timedOut: unknown
  for (let tries = 0; tries < 5 && !(timedOut instanceof TonneNetworkError); tries++) {
    proxy.release()
    assert.equal((await answered.projects.get(1)).id, 1)
    await realSleep(200)
    proxy.hold()
    timedOut = await held.projects.get(1).catch((e: unknown) => e)
  }
  assert.ok(timedOut instanceof TonneNetworkError, String(timedOut))
  assert.equal(timedOut.timedOut, true)
  assert.match(timedOut.message, /within 1000 ms/)
  proxy.release()
})

test('an abort signal stops the call, even during a wait between retries', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects(), env: { RATE_LIMIT_CATALOGUE: '1' } })
  const controller = new AbortController()
  const reason = new Error('the user left')
  // The user leaves once the 429 has been read, when the client has begun waiting out its Retry-After.
  const tonne = new TonneClient({
    baseUrl,
    apiKey: key,
    retry: { maxAttempts: 5, maxElapsedMs: 600_000 },
    fetch: async (input, init) => {
      const response = await fetch(input, init)
      if (response.status !== 429) return response
      const body = await response.text()
      setImmediate(() => controller.abort(reason))
      return new Response(body, { status: response.status, headers: response.headers })
    }
  })
  await tonne.projects.list()
  const started = Date.now()
  const error = await tonne.projects.list({}, { signal: controller.signal }).catch((e: unknown) => e)
  assert.equal(error, reason, 'the signal\'s reason, as is')
  assert.ok(Date.now() - started < 30_000, 'did not sit out the minute-long Retry-After')
})
