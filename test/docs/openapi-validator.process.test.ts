import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { test } from 'node:test'
import type { Scope } from '../../src/access/api-keys.ts'
import { createKey } from '../../src/access/api-keys.service.ts'
import { MediaSigner } from '../../src/media/signing.ts'
import { REPO_ROOT, tempDir } from '../helpers.ts'
import { startService } from '../support/service.ts'
import { freePort } from '../../scripts/free-port.ts'

// Stoplight Prism, the validator the reviewers ran: an independent reading of the OpenAPI document that checks
// every request and answer passing through it and reports what does not match in an `sl-violations` header.
const PRISM = path.join(REPO_ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js')
const CATALOGUE = '/api/v1/commerce/products/'
const CALCULATOR = '/api/v1/co2-calculator/'
const LISTS = [CATALOGUE, `${CATALOGUE}facets/`, `${CATALOGUE}geojson/`]
const FILTERS = 'registry=VERRA&location=Brazil&sdg=13&vintage=2021'
const MEDIA = 'get /media/{folder}/{file}'
const DETAIL_1 = `${CATALOGUE}1/`
const SECRET = 'validator-test-media-signing-secret-0123456789'
const LEDGER = '/api/v1/commerce/transactions/'
const PROJECT_LEDGER = `${CATALOGUE}{id}/transactions/`

interface Violation { location: string[], severity: string, code?: string | number, message: string }

interface Probe {
  /** The documented operation this request exercises (method and path template). */
  operation: string
  url: string
  /** The status expected (either of two while a limit may be reached). */
  status: number | readonly [number, number]
  headers?: Record<string, string>
  /** The request is wrong on purpose: every violation must be about the request and match this. */
  invalid?: RegExp
}

test('Prism, run as a validating proxy, finds no violation in any operation, success or error', async (t) => {
  const service = await startService(t, {
    bundled: true,
    env: { AUTH_FAILURE_LIMIT: '30', MEDIA_SIGNING_SECRET: SECRET, PUBLIC_URL: 'http://127.0.0.1:1' }
  })
  const documentFile = path.join(tempDir(t), 'openapi.json')
  writeFileSync(documentFile, (await service.app.inject('/openapi.json')).body)
  const port = await freePort()
  const prism = spawn(process.execPath, [PRISM, 'proxy', documentFile, service.baseUrl, '--host', '127.0.0.1',
    '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] })
  t.after(() => { prism.kill() })
  const log: string[] = []
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: prism.stdout }).on('line', (line) => {
      log.push(line)
      if (line.includes('Prism is listening')) resolve()
    })
    prism.on('exit', (code) => reject(new Error(`prism exited with ${code}: ${log.join('\n')}`)))
  })

  const db = service.store.db
  const calculatorKey = (await createKey(db, { name: 'calc', scopes: ['calculator:read'] })).key
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
  /** A success, then a 429: a key of its own allowed one request a minute. */
  const limited = async (operation: string, url: string, scope: Scope): Promise<Probe[]> => {
    const { key } = await createKey(db, { name: 'one a minute', scopes: [scope], rateLimitPerMinute: 1 })
    return [200, 429].map((status) => ({ operation, url, status, headers: bearer(key) }))
  }
  const key = bearer(service.key)
  const proxy = `http://127.0.0.1:${port}`
  const send = async (url: string, headers: Record<string, string> = {}) => await fetch(`${proxy}${url}`, { headers })

  // Real links to media: an SDG icon from a project, and a well-signed link to a file that does not exist.
  const page = await (await fetch(`${service.baseUrl}${CATALOGUE}?sdg=13&limit=1`, { headers: key })).json() as
    { results: Array<{ sustainable_development_goals: Array<{ icon: string }> }> }
  const icon = new URL(page.results[0]!.sustainable_development_goals[0]!.icon)
  const missing = new MediaSigner(SECRET, 3600).sign('sdg/99.svg')
  const etag = async (url: string) => (await fetch(`${service.baseUrl}${url}`, { headers: key })).headers.get('etag')!

  const calculatorTag = async (url: string) => (await fetch(`${service.baseUrl}${url}`)).headers.get('etag')!

  const DETAIL = `get ${CATALOGUE}{id}/`
  const calculator = async (name: string, query: string, bad: Omit<Probe, 'operation' | 'status'> | undefined) => [
    ...await limited(`get ${CALCULATOR}${name}`, `${CALCULATOR}${name}${query}`, 'calculator:read'),
    { operation: `get ${CALCULATOR}${name}`, url: `${CALCULATOR}${name}${query}`, status: 200 },
    // Every answer but the ping's carries an ETag and answers If-None-Match with 304.
    ...name === 'ping'
      ? []
      : [{
          operation: `get ${CALCULATOR}${name}`,
          url: `${CALCULATOR}${name}${query}`,
          status: 304,
          headers: { 'if-none-match': await calculatorTag(`${CALCULATOR}${name}${query}`) }
        }],
    ...bad === undefined ? [] : [{ operation: `get ${CALCULATOR}${name}`, status: 400, ...bad }],
    {
      operation: `get ${CALCULATOR}${name}`,
      url: `${CALCULATOR}${name}${query}`,
      status: 401,
      headers: bearer('tonne_000000000000_not-a-key')
    }
  ]
  // An enumerated parameter with a value it does not allow: the service and Prism both refuse it.
  const badUnits = async (name: string, query: string) => await calculator(name, query,
    { url: `${CALCULATOR}${name}${query}&measurement_system=furlongs`, invalid: /measurement_system/ })
  const probes: Probe[] = [
    { operation: 'get /health/live', url: '/health/live', status: 200 },
    { operation: 'get /health/ready', url: '/health/ready', status: 200 },
    ...(await Promise.all(LISTS.map(async (list): Promise<Probe[]> => [
      { operation: `get ${list}`, url: list, status: 200, headers: key },
      { operation: `get ${list}`, url: list, status: 304, headers: { ...key, 'if-none-match': await etag(list) } },
      { operation: `get ${list}`, url: `${list}?${FILTERS}`, status: 200, headers: key },
      { operation: `get ${list}`, url: `${list}?in_sale=maybe`, status: 400, headers: key, invalid: /in_sale/ },
      { operation: `get ${list}`, url: list, status: 401, invalid: /security/i },
      { operation: `get ${list}`, url: list, status: 401, headers: bearer('tonne_000000000000_not-a-key') },
      { operation: `get ${list}`, url: list, status: 403, headers: bearer(calculatorKey) },
      ...await limited(`get ${list}`, list, 'catalogue:read')
    ]))).flat(),
    { operation: `get ${CATALOGUE}`, url: `${CATALOGUE}?limit=0`, status: 400, headers: key, invalid: /limit/ },
    { operation: `get ${CATALOGUE}`, url: `${CATALOGUE}?limit=2&offset=4&ordering=-name`, status: 200, headers: key },
    { operation: DETAIL, url: `${CATALOGUE}1/`, status: 200, headers: key },
    { operation: DETAIL, url: DETAIL_1, status: 304, headers: { ...key, 'if-none-match': await etag(DETAIL_1) } },
    { operation: DETAIL, url: `${CATALOGUE}999999/`, status: 404, headers: key },
    // Unknown parameters are refused everywhere; OpenAPI allows them, so Prism sees nothing wrong.
    { operation: DETAIL, url: `${CATALOGUE}1/?fields=name`, status: 400, headers: key },
    { operation: DETAIL, url: `${CATALOGUE}1/`, status: 401, invalid: /security/i },
    { operation: DETAIL, url: `${CATALOGUE}1/`, status: 403, headers: bearer(calculatorKey) },
    ...await limited(DETAIL, `${CATALOGUE}1/`, 'catalogue:read'),
    ...(await Promise.all([LEDGER, PROJECT_LEDGER].map(async (template): Promise<Probe[]> => {
      const operation = `get ${template}`
      const url = template.replace('{id}', '1')
      return [
        { operation, url, status: 200, headers: key },
        {
          operation,
          url: `${url}?type=retirement&date_after=2020-01-01&ordering=-quantity`,
          status: 200,
          headers: key
        },
        { operation, url, status: 304, headers: { ...key, 'if-none-match': await etag(url) } },
        { operation, url: `${url}?type=transfer`, status: 400, headers: key, invalid: /type/ },
        { operation, url: `${url}?date_after=2021-02-30`, status: 400, headers: key },
        { operation, url, status: 401, invalid: /security/i },
        { operation, url, status: 403, headers: bearer(calculatorKey) },
        ...template.includes('{id}')
          ? [{ operation, url: template.replace('{id}', '999999'), status: 404, headers: key }]
          : [],
        ...await limited(operation, url, 'catalogue:read')
      ]
    }))).flat(),
    ...await (async (): Promise<Probe[]> => {
      const operation = `get ${LEDGER}totals/`
      const url = `${LEDGER}totals/`
      return [
        { operation, url: `${url}?type=retirement&registry=VERRA&search=bank`, status: 200, headers: key },
        { operation, url, status: 304, headers: { ...key, 'if-none-match': await etag(url) } },
        { operation, url: `${url}?type=transfer`, status: 400, headers: key, invalid: /type/ },
        { operation, url, status: 401, invalid: /security/i },
        { operation, url, status: 403, headers: bearer(calculatorKey) },
        ...await limited(operation, url, 'catalogue:read')
      ]
    })(),
    ...await (async (): Promise<Probe[]> => {
      const operation = 'get /api/v1/commerce/sources/'
      const url = '/api/v1/commerce/sources/'
      return [
        { operation, url, status: 200, headers: key },
        { operation, url, status: 304, headers: { ...key, 'if-none-match': await etag(url) } },
        { operation, url: `${url}?page=2`, status: 400, headers: key },
        { operation, url, status: 401, invalid: /security/i },
        { operation, url, status: 403, headers: bearer(calculatorKey) },
        ...await limited(operation, url, 'catalogue:read')
      ]
    })(),
    ...await calculator('ping', '', undefined),
    // Unknown parameters are refused by the calculator; OpenAPI allows them, so Prism sees nothing wrong.
    ...await calculator('countries', '', { url: `${CALCULATOR}countries?units=metric` }),
    ...await badUnits('config', '?country_code=DEU'),
    ...await badUnits('footprint', '?country_code=DEU'),
    ...await badUnits('flight', '?country_code=DEU&frequency=rare'),
    ...await badUnits('diet', '?country_code=DEU&diet_form=vegetarian'),
    ...await badUnits('car', '?country_code=DEU&distance=12000'),
    ...await badUnits('clothes', '?country_code=DEU&amount=average'),
    ...await badUnits('energy', '?country_code=DEU'),
    { operation: `get ${CALCULATOR}footprint`, url: `${CALCULATOR}footprint?country_code=ZZZ`, status: 400 },
    { operation: `get ${CALCULATOR}footprint`, url: `${CALCULATOR}footprint`, status: 400, invalid: /country_code/ },
    { operation: MEDIA, url: `${icon.pathname}${icon.search}`, status: 200 },
    { operation: MEDIA, url: `${icon.pathname}?expires=1&signature=${'0'.repeat(64)}`, status: 403 },
    { operation: MEDIA, url: missing, status: 404 },
    { operation: MEDIA, url: icon.pathname, status: 400, invalid: /expires|signature/ }
  ]
  const failures: string[] = []
  const check = async (probe: Probe): Promise<number> => {
    const response = await send(probe.url, probe.headers)
    await response.arrayBuffer()
    const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]') as Violation[]
    const keyed = probe.headers?.['authorization'] !== undefined ? ', with a key' : ''
    const where = `${probe.url} (${String(probe.status)}${keyed})`
    if (![probe.status].flat().includes(response.status)) failures.push(`${where}: answered ${response.status}`)
    for (const violation of violations) {
      const text = `${violation.location.join('.')}: ${violation.message}`
      const expected = probe.invalid !== undefined && violation.location[0] === 'request' &&
        !/route/i.test(violation.message) && probe.invalid.test(text)
      if (!expected) failures.push(`${where}: ${text}`)
    }
    if (probe.invalid !== undefined && violations.length === 0) failures.push(`${where}: its fault was not seen`)
    return response.status
  }
  for (const probe of probes) await check(probe)
  // Last, as it blocks this address: failed key checks past AUTH_FAILURE_LIMIT are a 429 before any lookup.
  let status = 401
  for (let i = 0; status === 401 && i < 40; i++) {
    const headers = bearer(`tonne_000000000000_x${i}`)
    status = await check({ operation: DETAIL, url: `${CATALOGUE}2/`, status: [401, 429], headers })
  }
  assert.equal(status, 429, 'failed key checks reach their limit')
  assert.deepEqual(failures, [])

  // Every documented operation was exercised, with every status it documents (but 503: a dependency down).
  type Item = Record<string, { responses: Record<string, unknown> }>
  const document = JSON.parse((await service.app.inject('/openapi.json')).body) as { paths: Record<string, Item> }
  const documented = Object.entries(document.paths).flatMap(([url, item]) => Object.entries(item)
    .map(([method, operation]) => ({ operation: `${method} ${url}`, statuses: Object.keys(operation.responses) })))
  for (const { operation, statuses } of documented) {
    for (const status of statuses.filter((s) => s !== '503')) {
      assert.ok(probes.some((p) => p.operation === operation && [p.status].flat().includes(Number(status))),
        `${operation}: ${status}`)
    }
  }
  assert.deepEqual([...new Set(probes.map((p) => p.operation))].sort(), documented.map((d) => d.operation).sort())

  // The harness sees what Prism cannot match: an undocumented path and an undocumented status.
  const unknown = await send('/api/v1/not-documented')
  assert.match(unknown.headers.get('sl-violations') ?? '', /route/i)
})
