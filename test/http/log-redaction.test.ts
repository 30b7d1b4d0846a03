import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import { buildTestApp } from '../helpers.ts'

test('keys, tokens and signatures in request URLs never reach the log; the rest of the URL does', async (t) => {
  const lines: string[] = []
  const logStream = new Writable({ write (chunk, _encoding, done) { lines.push(String(chunk)); done() } })
  const { app, key } = await buildTestApp(t, { logStream })
  const secret = key.slice('tonne_'.length + 13)
  const others = ['opaque-token-1f2e3d4c', 'access-9a8b7c6d5e', 'pw-5c4d3e2f1a0b', '0123456789abcdef'.repeat(4),
    'opaque-upper-7e6d5c4b']
  const urls = [
    `/api/v1/commerce/products/?api_key=${key}&limit=2`,
    `/api/v1/commerce/products/?API_KEY=${key}`,
    `/api/v1/commerce/products/?key=${encodeURIComponent(key)}`,
    `/api/v1/commerce/products/?search=${key}`,
    `/api/v1/commerce/products/?search=tonne%5F${key.slice(6)}`,
    `/api/v1/commerce/products/${key}/`,
    `/api/v1/co2-calculator/ping?token=${others[0]}`,
    `/api/v1/co2-calculator/ping?access_token=${others[1]}&x=1`,
    `/api/v1/co2-calculator/ping?password=${others[2]}`,
    `/media/sdg/13.svg?expires=9999999999&signature=${others[3]}`,
    // A secret's name in any case; a name alone, with no value, has nothing to hide.
    `/api/v1/co2-calculator/ping?Access_Token=${others[4]}&token`
  ]
  for (const url of urls) await app.inject({ url, headers: { 'x-request-id': `redaction-${urls.indexOf(url)}` } })

  const log = lines.join('')
  for (const value of [secret, key, ...others]) assert.ok(!log.includes(value), `the log holds ${value}`)
  const logged = lines.map((l) => JSON.parse(l) as { reqId?: string, req?: { url: string } })
    .filter((l) => l.req !== undefined)
  const urlOf = (i: number) => logged.find((l) => l.reqId === `redaction-${i}`)?.req?.url
  assert.equal(urlOf(0), '/api/v1/commerce/products/?api_key=[redacted]&limit=2', 'the rest of the URL is kept')
  assert.equal(urlOf(3), '/api/v1/commerce/products/?search=[redacted]')
  assert.equal(urlOf(5), '/api/v1/commerce/products/[redacted]/')
  assert.equal(urlOf(7), '/api/v1/co2-calculator/ping?access_token=[redacted]&x=1')
  assert.equal(urlOf(9), '/media/sdg/13.svg?expires=9999999999&signature=[redacted]')
  assert.equal(urlOf(10), '/api/v1/co2-calculator/ping?Access_Token=[redacted]&token')
})
