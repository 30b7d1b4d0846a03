import assert from 'node:assert/strict'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { loadCalculatorData } from '../../src/calculator/calculator.data.ts'
import { buildTestApp, REPO_ROOT, sharedTestApp, tempDir } from '../helpers.ts'

// Issue 37.2: a calculator answer depends only on the request and the loaded data (and the code that reads it),
// so it carries a strong validator and cache headers as the catalogue's answers do, and revalidates with a 304.

const CALC = '/api/v1/co2-calculator'
const CAR = `${CALC}/car?country_code=DEU&distance=1000`

describe('calculator answers: validators and cache headers', () => {
  // The calculator only reads the shipped data: these tests share one app.
  const shared = sharedTestApp()
  test('a 200 carries a strong ETag and a public Cache-Control; If-None-Match with it is a 304 with no body',
    async () => {
      const { app } = shared()
      const first = await app.inject(CAR)
      assert.equal(first.statusCode, 200)
      const etag = first.headers['etag'] as string
      // Strong: no W/ prefix, one quoted opaque tag.
      assert.match(etag, /^"[^"]+"$/)
      const cacheControl = first.headers['cache-control'] as string
      assert.match(cacheControl, /(^|, )public(,|$)/)
      assert.match(cacheControl, /max-age=[1-9]\d*/)
      const notModified = await app.inject({ url: CAR, headers: { 'if-none-match': etag } })
      assert.equal(notModified.statusCode, 304)
      assert.equal(notModified.body, '')
      assert.equal(notModified.headers['etag'], etag)
      assert.equal(notModified.headers['cache-control'], cacheControl)
      assert.equal((await app.inject({ url: CAR, headers: { 'if-none-match': `"other", ${etag}` } })).statusCode, 304)
      assert.equal((await app.inject({ url: CAR, headers: { 'if-none-match': '"other"' } })).statusCode, 200)
      // A weak comparison, as If-None-Match asks for (RFC 9110 13.1.2): the weak form of the tag matches too.
      assert.equal((await app.inject({ url: CAR, headers: { 'if-none-match': `W/${etag}` } })).statusCode, 304)
    })

  test('the ETag is the same for the same question, in any parameter order, from another process start',
    async (t) => {
      const a = await buildTestApp(t)
      // A second app with the answer cache off: the tag comes from the data and the request, not from a kept answer.
      const b = await buildTestApp(t, { env: { ANSWER_CACHE: 'false' } })
      const tag = (await a.app.inject(CAR)).headers['etag']
      assert.ok(tag !== undefined)
      assert.equal((await a.app.inject(CAR)).headers['etag'], tag)
      assert.equal((await a.app.inject(`${CALC}/car?distance=1000&country_code=DEU`)).headers['etag'], tag)
      assert.equal((await b.app.inject(CAR)).headers['etag'], tag)
      assert.equal((await b.app.inject({ url: CAR, headers: { 'if-none-match': tag } })).statusCode, 304)
    })

  test('another input, another operation or another data set is another ETag', async (t) => {
    const { app } = shared()
    const tags = new Set<string>()
    for (const url of [CAR, `${CALC}/car?country_code=DEU&distance=1001`, `${CALC}/car?country_code=FRA&distance=1000`,
      `${CALC}/flight?country_code=DEU&distance=1000`, `${CALC}/countries`, `${CALC}/config?country_code=DEU`]) {
      const response = await app.inject(url)
      assert.equal(response.statusCode, 200, url)
      tags.add(response.headers['etag'] as string)
    }
    assert.equal(tags.size, 6)

    // The same request over data whose medium diesel car emits more: another answer, so another tag, and the
    // shipped data's tag is no longer current.
    const dir = tempDir(t, 'tonne-calculator-data-')
    for (const folder of ['calculator', 'countries']) {
      cpSync(path.join(REPO_ROOT, 'data', folder), path.join(dir, folder), { recursive: true })
    }
    const file = path.join(dir, 'calculator', 'desnz_2025_factors.csv')
    const text = readFileSync(file, 'utf8')
    const changed = text.replace(/^car\.average\.diesel,[0-9.]+,/m, 'car.average.diesel,0.3,')
    assert.notEqual(changed, text, 'the factor to change is in the file')
    writeFileSync(file, changed)
    const other = await buildTestApp(t, { calculatorData: loadCalculatorData(dir) })
    const url = `${CALC}/car?country_code=DEU&distance=1000&fuel_type=diesel`
    const shipped = await app.inject(url)
    const answer = await other.app.inject(url)
    assert.equal(answer.statusCode, 200)
    assert.notEqual(answer.json().co2e, shipped.json().co2e, 'the changed factor changes the answer')
    assert.notEqual(answer.headers['etag'], shipped.headers['etag'])
    assert.equal((await other.app.inject({ url, headers: { 'if-none-match': shipped.headers['etag'] } })).statusCode,
      200)
  })

  test('each content coding has its own strong tag, and a 304 confirms only the coding the client holds',
    async () => {
      const { app } = shared()
      // Large enough to be compressed (over 1 KiB).
      const url = `${CALC}/energy?country_code=DEU&home_size=80&measurement_system=metric`
      const plain = await app.inject({ url, headers: { 'accept-encoding': 'identity' } })
      const gzip = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } })
      const br = await app.inject({ url, headers: { 'accept-encoding': 'br' } })
      assert.equal(gzip.headers['content-encoding'], 'gzip')
      assert.equal(br.headers['content-encoding'], 'br')
      // The plain answer varies with Accept-Encoding too: a cache must not hand it to a client that asked for gzip.
      for (const response of [plain, gzip, br]) assert.match(String(response.headers['vary']), /accept-encoding/)
      const tags = [plain, gzip, br].map((response) => response.headers['etag'] as string)
      assert.equal(new Set(tags).size, 3, `one tag per coding: ${tags.join(' ')}`)
      for (const tag of tags) assert.match(tag, /^"[^"]+"$/)
      const again = await app.inject({ url, headers: { 'accept-encoding': 'gzip', 'if-none-match': tags[1] } })
      assert.equal(again.statusCode, 304)
      assert.equal(again.headers['etag'], tags[1])
      assert.match(String(again.headers['vary']), /accept-encoding/)
      // A client holding the plain body that now takes gzip gets the gzip body, not a 304 for what it does not hold.
      const switched = await app.inject({ url, headers: { 'accept-encoding': 'gzip', 'if-none-match': tags[0] } })
      assert.equal(switched.statusCode, 200)
      assert.equal(switched.headers['content-encoding'], 'gzip')
    })

  test('errors carry no validators, and If-None-Match never turns a 400 into a 304', async () => {
    const { app } = shared()
    const url = `${CALC}/car?country_code=XYZ&distance=10`
    for (const headers of [{}, { 'if-none-match': '*' }]) {
      const response = await app.inject({ url, headers })
      assert.equal(response.statusCode, 400)
      assert.equal(response.headers['etag'], undefined)
      assert.equal(response.headers['cache-control'], undefined)
    }
    assert.equal((await app.inject({ url: CAR, headers: { 'if-none-match': '*' } })).statusCode, 304)
  })

  test('the health check is never conditional or kept: every ping reaches the service', async () => {
    const { app } = shared()
    const ping = await app.inject(`${CALC}/ping`)
    assert.equal(ping.statusCode, 200)
    assert.equal(ping.headers['etag'], undefined)
    assert.equal((await app.inject({ url: `${CALC}/ping`, headers: { 'if-none-match': '*' } })).statusCode, 200)
  })

  test('the OpenAPI document lists the ETag and the 304 on every calculator answer but the ping', async () => {
    const { app } = shared()
    const doc = (await app.inject('/openapi.json')).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>
    }
    const operations = Object.entries(doc.paths).filter(([url]) => url.startsWith(`${CALC}/`))
    assert.ok(operations.length >= 9)
    for (const [url, item] of operations) {
      const responses = item['get']!.responses
      const headers = Object.keys(responses['200']?.headers ?? {}).map((name) => name.toLowerCase())
      if (url === `${CALC}/ping`) {
        assert.equal(responses['304'], undefined, url)
        continue
      }
      assert.ok(headers.includes('etag') && headers.includes('cache-control'), `${url} 200 lists ETag, Cache-Control`)
      assert.ok(responses['304'] !== undefined, `${url} documents 304`)
    }
  })
})
