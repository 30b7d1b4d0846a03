import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { describe, test } from 'node:test'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp, sharedTestApp } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

// The answer path as a client sees it (issues 23, 24.3-5, 25.9, 25.13): one query policy, answers keyed by
// the operation's known parameters, validators only on successful answers, a checked Host header.

const LIST = '/api/v1/commerce/products/'
const CALC = '/api/v1/co2-calculator'

/** Log lines at error level (pino: 50) or above, from a captured stream. */
function errorLines (stream: PassThrough): string[] {
  const text = String(stream.read() ?? '')
  return text.split('\n').filter((line) => line !== '' && JSON.parse(line).level >= 50)
}

forEachDatabase((database) => {
  describe(`the answer path [${database}]`, () => {
    // The tests that only read, far below the key's limit, share one app; those that count the limit or capture
    // the log have their own.
    const shared = sharedTestApp({ database, records: fixtureProjects() })
    test('an unknown parameter is refused in both areas, naming it and never echoing its value', async () => {
      const { inject } = shared()
      for (const url of [`${LIST}?limit=2&api_key=tonne_secret_value`, `${LIST}1/?api_key=tonne_secret_value`,
        `${LIST}facets/?api_key=tonne_secret_value`, `${CALC}/countries?api_key=tonne_secret_value`]) {
        const response = await inject(url)
        assert.equal(response.statusCode, 400, url)
        assert.equal(response.json().code, 'invalid_parameter')
        assert.equal(response.json().parameter, 'api_key')
        assert.doesNotMatch(response.body, /tonne_secret_value/)
      }
      const page = await inject(`${LIST}?nc=12345&limit=2`)
      assert.equal(page.statusCode, 400)
      assert.ok(page.json().allowed_values.includes('limit'), 'the known parameters are listed')
    })

    test('the same question in another parameter order is the same answer, and links carry known ones only',
      async () => {
        const { inject } = shared()
        const a = await inject(`${LIST}?registry=REGISTRY_A&limit=1&ordering=-name`)
        const b = await inject(`${LIST}?ordering=-name&limit=1&registry=REGISTRY_A`)
        assert.equal(a.statusCode, 200)
        assert.equal(b.headers['etag'], a.headers['etag'])
        assert.equal(b.json().next, a.json().next)
        const next = new URL(a.json().next as string)
        assert.deepEqual([...next.searchParams.keys()].sort(), ['limit', 'offset', 'ordering', 'registry'])
      })

    test('errors carry no validators, and If-None-Match never turns an error into a 304', async () => {
      const { inject } = shared()
      for (const [url, status] of [[`${LIST}999999/`, 404], [`${LIST}?location=Narnia`, 400],
        [`${LIST}facets/?registry=NOPE`, 400]] as const) {
        const plain = await inject(url)
        assert.equal(plain.statusCode, status, url)
        assert.equal(plain.headers['etag'], undefined, url)
        assert.equal(plain.headers['cache-control'], undefined, url)
        for (const tag of ['*', 'W/"anything"']) {
          const conditional = await inject({ url, headers: { 'if-none-match': tag } })
          assert.equal(conditional.statusCode, status, `${url} with If-None-Match: ${tag}`)
        }
      }
      const ok = await inject(`${LIST}1/`)
      assert.equal((await inject({ url: `${LIST}1/`, headers: { 'if-none-match': '*' } })).statusCode, 304)
      assert.ok(ok.headers['etag'])
    })

    test('a malformed Host is a 400 without an error-level log; userinfo never reaches a link', async (t) => {
      const logStream = new PassThrough()
      const { inject } = await buildTestApp(t, { database, records: fixtureProjects(), logStream })
      for (const host of ['x:99999', 'exa mple.com', 'x:0x50', 'a@b', 'a@b:80', 'x:', '[::1']) {
        const response = await inject({ url: `${LIST}?limit=1`, headers: { host } })
        assert.equal(response.statusCode, 400, host)
        assert.equal(response.json().code, 'bad_request', host)
        assert.doesNotMatch(response.body, /a@/)
      }
      // The Host is checked before routing, so a path no route takes (an id over the router's length) is refused too.
      for (const url of ['/nowhere', `${LIST}${'9'.repeat(400)}/`]) {
        const response = await inject({ url, headers: { host: 'x:99999' } })
        assert.equal(response.statusCode, 400, url)
      }
      assert.deepEqual(errorLines(logStream), [])
      // The edges: port 65535 and a 253-character name are a host; port 65536 and a 254-character name are not.
      const name = (length: number) => `${'a'.repeat(length - 4)}.com`
      for (const host of ['x:65536', name(254)]) {
        assert.equal((await inject({ url: `${LIST}?limit=1`, headers: { host } })).statusCode, 400, host)
      }
      for (const host of ['example.com', 'example.com:8080', '127.0.0.1:3000', '[::1]:3000', 'x:65535', name(253)]) {
        const response = await inject({ url: `${LIST}?limit=1`, headers: { host } })
        assert.equal(response.statusCode, 200, host)
        assert.ok((response.json().next as string).startsWith(`http://${host}/`), host)
      }
    })

    test('vocabulary filters ignore case, as location does', async () => {
      const { inject } = shared()
      const exact = await inject(`${LIST}?registry=REGISTRY_A&limit=100`)
      const lower = await inject(`${LIST}?registry=registry_a&limit=100`)
      assert.equal(lower.statusCode, 200, lower.body)
      assert.equal(lower.json().count, exact.json().count)
      assert.ok(exact.json().count > 0)
      assert.equal((await inject(`${LIST}facets/?registry=Registry_A`)).json().count, exact.json().count)
    })

    test('a facets answer that has to be built costs 10 against the key; a cached one costs 1', async (t) => {
      const { inject } = await buildTestApp(t,
        { database, records: fixtureProjects(), env: { RATE_LIMIT_CATALOGUE: '25' } })
      const first = await inject(`${LIST}facets/?search=a`)
      assert.equal(first.headers['ratelimit-remaining'], '24')
      assert.equal((await inject(`${LIST}facets/?search=a`)).headers['ratelimit-remaining'], '14')
      // Each new search is built: 10 more each, so the key is soon at its limit.
      assert.equal((await inject(`${LIST}facets/?search=b`)).headers['ratelimit-remaining'], '13')
      assert.equal((await inject(`${LIST}facets/?search=c`)).statusCode, 200)
      assert.equal((await inject(`${LIST}facets/?search=a`)).statusCode, 429)
    })

    test('a list page that has to be built costs 1, or 5 with a search; a blank search is no search', async (t) => {
      const { inject } = await buildTestApp(t,
        { database, records: fixtureProjects(), env: { RATE_LIMIT_CATALOGUE: '30' } })
      const remaining = async (url: string) => Number((await inject(url)).headers['ratelimit-remaining'])
      assert.equal(await remaining(`${LIST}?limit=3`), 29)
      assert.equal(await remaining(`${LIST}?limit=3&search=%20%20`), 28)
      // A search's 4 more units are charged after its answer: the next answer shows them.
      assert.equal(await remaining(`${LIST}?limit=3&search=forest`), 27)
      assert.equal(await remaining(`${LIST}?limit=3`), 22)
    })
  })
})

describe('the calculator on the answer path', () => {
  test('a 400 carries the RateLimit headers, as every answer does', async (t) => {
    const { app } = await buildTestApp(t, { env: { RATE_LIMIT_CALCULATOR: '50' } })
    for (const url of [`${CALC}/diet?country_code=DEU&calorie=2500`, `${CALC}/car?country_code=DEU&distance=1e3`,
      `${CALC}/car?country_code=XYZ&distance=10`, `${CALC}/diet?country_code=DEU&diet_form=nope`]) {
      const response = await app.inject(url)
      assert.equal(response.statusCode, 400, url)
      assert.equal(response.headers['ratelimit-limit'], '50', url)
      assert.ok(response.headers['ratelimit-remaining'] !== undefined, url)
    }
  })

  test('the same question in another order or spelling of a number gets the same answer', async (t) => {
    const { app } = await buildTestApp(t)
    const a = await app.inject(`${CALC}/car?country_code=DEU&distance=1000`)
    const b = await app.inject(`${CALC}/car?distance=1000&country_code=DEU`)
    assert.equal(a.statusCode, 200)
    assert.equal(b.body, a.body)
    assert.match(a.headers['content-type'] as string, /^application\/json; charset=utf-8$/)
  })

  test('the answer cache holds the bytes it keeps, not the buffers they were cut from', async (t) => {
    // Node cuts zlib's output from 64 KiB chunks and small buffers from 8 KiB slabs; a kept 3 KiB answer that
    // pinned its chunk would hold twenty times what the cache counts against ANSWER_CACHE_MB.
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const { app } = await buildTestApp(t, { env: { ANSWER_CACHE_MB: '256', RATE_LIMIT_CALCULATOR: '100000' } })
    // 100 answers: with the chunks pinned (the old bug) they held 9 MB of buffers, over twice the bound below.
    const urls = Array.from({ length: 100 }, (_, i) => `${CALC}/energy?country_code=DEU&home_size=${i + 1}`)
    gc()
    const before = process.memoryUsage().arrayBuffers
    let kept = 0
    for (const url of urls) {
      for (const coding of ['br', 'gzip', 'identity']) {
        const response = await app.inject({ url, headers: { 'accept-encoding': coding } })
        assert.equal(response.statusCode, 200, url)
        assert.equal(response.headers['content-encoding'], coding === 'identity' ? undefined : coding)
        kept += response.rawPayload.length
      }
    }
    // V8 frees dead buffers' memory on a background thread after a collection: collect until the count settles.
    const bound = 1.5 * kept + 1024 * 1024
    let held = Infinity
    for (let turn = 0; turn < 20 && held >= bound; turn++) {
      gc()
      await new Promise((resolve) => setImmediate(resolve))
      held = process.memoryUsage().arrayBuffers - before
    }
    assert.ok(held < bound,
      `the cache keeps ${Math.round(kept / 1024)} KiB of answers in ${Math.round(held / 1024)} KiB of buffers`)
  })
})
