import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

// Random and adversarial query strings against every endpoint the OpenAPI document lists (so endpoints
// added later are fuzzed too) and the undocumented ones. Whatever is sent: no 5xx, and every error is the
// one problem body. The number of runs is bounded so that the suite stays fast; a failure prints the seed.
const RUNS = 300

interface Parameter { in: string, name: string, schema?: { enum?: unknown[] } }
interface Spec { paths: Record<string, { get?: { parameters?: Parameter[] } }> }

const EXTRA_PATHS = ['/', '/metrics', '/openapi.json', '/docs', '/explorer/js/main.js', '/nowhere',
  '/api/v1/co2-calculator', '/media/sdg/13.svg', '/api/v1/commerce/products/1']

// Text that means something to a parser somewhere: SQL, LIKE, full-text syntax, paths, numbers, encodings.
const HOSTILE = ['%00', 'a%00b', '%0A', '%1B', '%7F', '%C2%85', '%', '%zz', '%G0', '%C0%80', '%ED%A0%80', '%FF%FE',
  '%E2%80%AE', "'", "''", '"', '""', '\\', '*', '%25', '%5F', '_', 'NEAR(a b)', 'a OR b', '-x', 'name:x', '^a', '{a b}',
  "1' OR '1'='1", '1;DROP TABLE projects', '../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', '%3Cscript%3E',
  'javascript:alert(1)', '-1', '0', '1e309', '-1e309', 'NaN', 'Infinity', '0x10', '1_000', '9'.repeat(400),
  '2147483648', '9007199254740993', 'true', 'True', '1.5.5',
  '+', '%2B', '%20', ' ', '', '=', '&', '[]', '{}', 'null', 'undefined', '__proto__', 'constructor', 'FRA-JFK,JFK-FRA',
  'ZZZ-ZZZ', 'a'.repeat(5000), 'tonne_000000000000_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']

const encoded = (text: string) => encodeURIComponent(text)

// Any code point but a lone surrogate, as fast-check's `unit: 'binary'` draws them (an index over 0-0xD7FF and
// 0xE000-0x10FFFF, the same distribution), with a cheap way back from a character to its index: fast-check's own
// unit builds a map of all 1.1 million characters to find that way, about 0.9 s of CPU in each test process.
const SURROGATES = 0x800
const codePoint = fc.nat(0x10FFFF - SURROGATES).map(
  (index) => String.fromCodePoint(index < 0xD800 ? index : index + SURROGATES),
  (value) => {
    const point = typeof value === 'string' && value.length <= 2 ? value.codePointAt(0) : undefined
    if (point === undefined || String.fromCodePoint(point) !== value || (point >= 0xD800 && point < 0xE000)) {
      throw new Error('not a code point of this unit')
    }
    return point < 0xD800 ? point : point - SURROGATES
  })

// Host headers a client may write: malformed ones are a 400 on every path, and userinfo never reaches a link.
const BAD_HOSTS = ['x:99999', 'exa mple.com', 'x:0x50', 'a@b', 'user:pw@example.com', 'x:', '[::1', 'a/b', '%41']
// Parameters no operation knows: refused wherever parameters are read, never part of an answer.
const UNKNOWN_NAMES = ['nc', 'api_key', 'format', '_', 'callback']

forEachDatabase((database) => {
  describe(`fuzzing every endpoint [${database}]`, () => {
    test(`${RUNS} random and adversarial requests: no 5xx, every error in the one problem shape`, async (t) => {
      const { app, key } = await buildTestApp(t, {
        database,
        records: fixtureProjects(),
        env: { RATE_LIMIT_CATALOGUE: '1000000', RATE_LIMIT_CALCULATOR: '1000000', AUTH_FAILURE_LIMIT: '1000000' }
      })
      const spec = (await app.inject('/openapi.json')).json<Spec>()
      const operations = Object.entries(spec.paths).filter(([, item]) => item.get !== undefined)
      const parameters = operations.flatMap(([, item]) => item.get!.parameters ?? [])
      const names = [...new Set(parameters.filter((p) => p.in === 'query').map((p) => p.name))]
      const enumValues = parameters.flatMap((p) => p.schema?.enum ?? []).map(String)

      const value = fc.oneof(
        fc.constantFrom(...HOSTILE),
        fc.constantFrom('DEU', 'USA', 'GBR', 'Brazil', 'VERRA', 'REGISTRY_A', 'AA', '1', '10', ...enumValues),
        fc.string({ maxLength: 40 }).map(encoded),
        fc.string({ unit: 'grapheme', maxLength: 20 }).map(encoded),
        fc.string({ unit: codePoint, maxLength: 20 }).map(encoded),
        fc.integer({ min: -1e6, max: 1e12 }).map(String),
        fc.double().map(String)
      )
      const name = fc.oneof(fc.constantFrom(...names), fc.constantFrom(...HOSTILE), fc.constantFrom(...UNKNOWN_NAMES),
        fc.string({ maxLength: 12 }).map(encoded))
      const parameter = fc.oneof(fc.tuple(name, value).map(([n, v]) => `${n}=${v}`), name)
      const segments = ['1', '2', '0', '-1', '99999999999', 'sdg/13.svg', 'images/x.png', ...HOSTILE]
      const segment = fc.oneof(fc.constantFrom(...segments),
        fc.string({ maxLength: 20 }).map(encoded))
      const path = fc.oneof(
        fc.tuple(fc.constantFrom(...operations.map(([p]) => p)), segment)
          .map(([template, filler]) => template.replace(/\{[^}]+\}/g, filler)),
        fc.constantFrom(...EXTRA_PATHS)
      )
      const request = fc.record({
        path,
        query: fc.array(parameter, { maxLength: 6 }),
        withKey: fc.boolean(),
        host: fc.option(fc.constantFrom(...BAD_HOSTS), { freq: 4 }),
        method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD')
      })

      await fc.assert(fc.asyncProperty(request, async ({ path, query, withKey, host, method }) => {
        const url = query.length === 0 ? path : `${path}?${query.join('&')}`
        const headers = { ...(withKey && { authorization: `Bearer ${key}` }), ...(host !== null && { host }) }
        const response = await app.inject({ method, url, headers })
        const where = `${method} ${url} (Host ${String(host)}) -> ${response.statusCode}: ` +
          response.body.slice(0, 300)
        assert.ok(response.statusCode < 500, where)
        // An over-long URL is refused first (414).
        if (host !== null) assert.ok([400, 414].includes(response.statusCode), where)
        assert.doesNotMatch(response.body, /https?:\/\/[^/"]*@/, `no userinfo in a link: ${where}`)
        if (UNKNOWN_NAMES.some((unknown) => query.some((p) => p === unknown || p.startsWith(`${unknown}=`))) &&
          response.statusCode === 200 && path.startsWith('/api/v1/') && !path.endsWith('/ping')) {
          assert.fail(`an unknown parameter was accepted: ${where}`)
        }
        if (response.statusCode >= 400 && method === 'GET') {
          assert.match(response.headers['content-type'] as string, /^application\/problem\+json; charset=utf-8$/, where)
          const body = response.json()
          assert.equal(body.status, response.statusCode, where)
          for (const field of ['type', 'title', 'code', 'detail']) {
            assert.equal(typeof body[field], 'string', `${field}: ${where}`)
          }
        }
      }), { numRuns: RUNS })
    })
  })
})
