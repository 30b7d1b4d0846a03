import assert from 'node:assert/strict'
import { request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import helmet from 'helmet'
import { buildTestApp } from '../helpers.ts'

const PING = '/api/v1/co2-calculator/ping'

/** The headers helmet itself sets with its defaults (CSP off, as the pages set their own): the reference. */
function helmetDefaults (): Record<string, string> {
  const headers: Record<string, string> = {}
  const response = {
    setHeader: (name: string, value: string) => { headers[name.toLowerCase()] = value },
    removeHeader: () => {}
  }
  helmet({ contentSecurityPolicy: false })({} as IncomingMessage, response as unknown as ServerResponse, () => {})
  return headers
}

test('security headers on every answer: success, refusal, error and not found', async (t) => {
  const { app } = await buildTestApp(t)
  const expected = helmetDefaults()
  assert.equal(Object.keys(expected).length, 11)
  for (const url of [PING, '/api/v1/commerce/products/', '/api/v1/co2-calculator/energy?country_code=XX', '/nowhere']) {
    const response = await app.inject(url)
    for (const [name, value] of Object.entries(expected)) {
      assert.equal(response.headers[name], value, `${url}: ${name}`)
    }
    assert.equal(response.headers['x-powered-by'], undefined)
  }
})

test('CORS is off by default and answers only the configured origins when on', async (t) => {
  const off = await buildTestApp(t)
  const plain = await off.app.inject({ url: PING, headers: { origin: 'https://app.example.org' } })
  assert.equal(plain.headers['access-control-allow-origin'], undefined)

  const on = await buildTestApp(t, { env: { CORS_ORIGINS: 'https://app.example.org' } })
  const allowed = await on.app.inject({ url: PING, headers: { origin: 'https://app.example.org' } })
  assert.equal(allowed.headers['access-control-allow-origin'], 'https://app.example.org')
  assert.match(allowed.headers['access-control-expose-headers'] as string, /RateLimit-Remaining/)
  const other = await on.app.inject({ url: PING, headers: { origin: 'https://evil.example' } })
  assert.equal(other.headers['access-control-allow-origin'], undefined)
  const preflight = await on.app.inject({
    method: 'OPTIONS',
    url: '/api/v1/commerce/products/',
    headers: {
      origin: 'https://app.example.org',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization'
    }
  })
  assert.equal(preflight.statusCode, 204)
  assert.match(preflight.headers['access-control-allow-headers'] as string, /Authorization/)
})

test('an over-long URL is a 414 in the error shape', async (t) => {
  const { app } = await buildTestApp(t)
  const response = await app.inject(`${PING}?pad=${'x'.repeat(5000)}`)
  assert.equal(response.statusCode, 414)
  assert.equal(response.json().code, 'bad_request')
  for (const [name, value] of Object.entries(helmetDefaults())) assert.equal(response.headers[name], value, name)
})

test('over-large headers are refused by the server in the error shape (431)', async (t) => {
  const { app } = await buildTestApp(t)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as AddressInfo
  const { status, type, body, headers } = await new Promise<{
    status: number,
    type: string,
    body: string,
    headers: IncomingMessage['headers']
  }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: PING, headers: { 'x-padding': 'y'.repeat(20_000) } },
      (res) => {
        let text = ''
        res.on('data', (chunk) => { text += String(chunk) })
        res.on('end',
          () => resolve({
            status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body: text, headers: res.headers
          }))
      })
    req.on('error', reject)
    req.end()
  })
  assert.equal(status, 431)
  assert.match(type, /^application\/problem\+json/)
  assert.equal(JSON.parse(body).status, 431)
  for (const [name, value] of Object.entries(helmetDefaults())) assert.equal(headers[name], value, name)
})
