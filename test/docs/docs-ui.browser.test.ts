import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { test, type TestContext } from 'node:test'
import type { Page } from 'playwright-core'
import { buildTestApp } from '../helpers.ts'
import { launchBrowser, screenshot, screenshotOf } from '../explorer/browser.ts'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const LIST = '#op-get-api-v1-commerce-products'

/** The service as `HOST=0.0.0.0 tonne serve` runs it: on every address of the machine, over plain HTTP. */
async function serveOnAllAddresses (t: TestContext) {
  const built = await buildTestApp(t, { bundled: true })
  await built.app.listen({ host: '0.0.0.0', port: 0 })
  return { ...built, port: (built.app.server.address() as AddressInfo).port }
}

/** An IPv4 address of this machine other than loopback (how a colleague on the LAN reaches the service). */
function lanAddress (): string | undefined {
  return Object.values(os.networkInterfaces()).flat().find((i) => i?.family === 'IPv4' && !i.internal)?.address
}

/** Records every CSP violation the page reports (the event, so a violation without console output counts too). */
async function watchPolicy (page: Page): Promise<string[]> {
  const seen: string[] = []
  await page.exposeFunction('reportViolation', (text: string) => { seen.push(text) })
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(
    e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber))`)
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.push(message.text())
  })
  page.on('requestfailed', (request) => seen.push(`failed: ${request.url()} (${request.failure()?.errorText})`))
  return seen
}

async function axeViolations (page: Page): Promise<string[]> {
  // Once per page: a second check of the same page reuses it.
  if (await page.evaluate('typeof window.axe') === 'undefined') await page.evaluate(AXE)
  const violations = await page.evaluate('axe.run(document).then((r) => r.violations)') as
    Array<{ id: string, impact: string, nodes: Array<{ target: string[] }> }>
  return violations.map((v) =>
    `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)
}

test('/docs is Tonne\'s, draws every operation, breaks no policy, on 127.0.0.1 and a LAN address', async (t) => {
  const { port } = await serveOnAllAddresses(t)
  const browser = await launchBrowser(t)
  const lan = lanAddress()
  if (lan === undefined) t.diagnostic('this machine has no non-loopback IPv4 address: only 127.0.0.1 is checked')
  for (const host of ['127.0.0.1', ...(lan === undefined ? [] : [lan])]) {
    const page = await browser.newPage({ width: 1440, height: 900 })
    const violations = await watchPolicy(page)
    const response = await page.goto(`http://${host}:${port}/docs`)
    assert.equal(response?.status(), 200)
    assert.doesNotMatch(response?.headers()['content-security-policy'] ?? '', /upgrade-insecure-requests/)
    await page.locator(LIST).waitFor()
    assert.equal(await page.title(), 'Tonne API documentation')
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Tonne API')
    // Every operation of the service's own OpenAPI document (its GETs; HEAD is the same operation).
    const document = await (await fetch(`http://${host}:${port}/openapi.json`)).json() as {
      paths: Record<string, Record<string, unknown>>
    }
    // A path also listed without its trailing slash is the same operation.
    const operations = new Set(Object.entries(document.paths).filter(([, methods]) => 'get' in methods)
      .map(([route]) => route.replace(/\/$/, ''))).size
    assert.ok(operations >= 18, `${operations} operations in the document`)
    assert.equal(await page.locator('article.operation').count(), operations, `${host}: every operation is drawn`)
    assert.doesNotMatch(await page.content(), /fastify|swagger/i, 'no other product\'s name or logo')
    assert.deepEqual(violations, [], `${host}: no policy violation or failed request`)
    await page.close()
  }
  assert.deepEqual(browser.problems, [])
})

test('/docs: with a key set, "Try it" on a catalogue operation gets a 200; without one, the 401', async (t) => {
  const { port, key } = await serveOnAllAddresses(t)
  const browser = await launchBrowser(t)
  const page = await browser.newPage({ width: 1440, height: 900 })
  await page.goto(`http://127.0.0.1:${port}/docs`)
  const list = page.locator(LIST)
  await list.getByText('Try it').click()
  await list.getByRole('button', { name: 'Send request' }).click()
  await list.locator('.answer').filter({ hasText: '401' }).waitFor()
  assert.match(await list.locator('.answer-headers').textContent() ?? '', /www-authenticate: Bearer/)

  await page.getByLabel('API key', { exact: true }).fill(key)
  await page.getByRole('button', { name: 'Use this key' }).click()
  await list.getByLabel('registry').fill('VERRA')
  await list.getByLabel('limit').fill('2')
  await list.getByRole('button', { name: 'Send request' }).click()
  await list.locator('.answer').filter({ hasText: '200' }).waitFor()
  const body = JSON.parse(await list.locator('.body').textContent() ?? '{}') as
    { count: number, results: Array<{ registry: { name_id: string } }> }
  assert.ok(body.count > 2)
  assert.deepEqual(body.results.map((p) => p.registry.name_id), ['VERRA', 'VERRA'])
  const curl = await list.locator('.curl').textContent() ?? ''
  assert.ok(curl.startsWith(`curl -H "Authorization: Bearer $KEY" 'http://127.0.0.1:${port}/api/v1/commerce/products/?`), curl)
  assert.deepEqual(new URL(curl.split("'")[1]!).searchParams.toString(), 'limit=2&registry=VERRA')
  assert.match(await list.locator('.answer-headers').textContent() ?? '', /ratelimit-remaining: \d+/)

  // A path parameter, on the detail operation.
  const detail = page.locator('#op-get-api-v1-commerce-products-id')
  await detail.getByText('Try it').click()
  await detail.getByRole('button', { name: 'Send request' }).click()
  await detail.locator('.answer').filter({ hasText: '200' }).waitFor()
  assert.equal(JSON.parse(await detail.locator('.body').textContent() ?? '{}').id, 1)
  // The two operations tried, not the whole page: /docs is over 30,000 px tall, and capturing it whole took
  // 3.5 s idle and over 15 s under CI's load.
  await screenshotOf(list, 'docs-try-it-list')
  await screenshotOf(detail, 'docs-try-it-detail')
  assert.deepEqual(browser.problems, [])
})

test('/docs has no accessibility violation (axe-core) on a desktop and on a phone', async (t) => {
  const { port } = await serveOnAllAddresses(t)
  const browser = await launchBrowser(t)
  const sizes = [['desktop', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]] as const
  for (const [name, viewport] of sizes) {
    const page = await browser.newPage(viewport)
    await page.goto(`http://127.0.0.1:${port}/docs`)
    await page.locator(LIST).waitFor()
    assert.deepEqual(await axeViolations(page), [], `${name}, as loaded`)
    // Opened: the body fields and a form with its answer.
    const list = page.locator(LIST)
    await list.getByText('Body fields').first().click()
    await list.getByText('Try it').click()
    await list.getByRole('button', { name: 'Send request' }).click()
    await list.locator('.answer').waitFor()
    assert.deepEqual(await axeViolations(page), [], `${name}, with a form and an answer open`)
    await screenshot(page, `docs-${name}`, false)
    await page.close()
  }
})

test('/docs: response examples, code samples in curl, JavaScript and Python, and a search box (issue 25)',
  async (t) => {
    const { port } = await serveOnAllAddresses(t)
    const browser = await launchBrowser(t)
    const page = await browser.newPage({ width: 1440, height: 900 })
    await page.goto(`http://127.0.0.1:${port}/docs`)
    const list = page.locator(LIST)
    await list.waitFor()
    assert.equal(await page.locator('article.operation').count(), 20,
      'one article per operation (ledger: 3, sources: 1)')
    assert.match(await list.textContent() ?? '', /Also answers at \/api\/v1\/commerce\/products \(no trailing/)

    // A disclosure is drawn when it opens (the toggle event): wait for what it draws.
    await list.getByText('Example (application/json)').first().click()
    await list.locator('pre.body').first().waitFor()
    assert.match(await list.locator('pre.body').first().textContent() ?? '', /"count"/)
    await list.getByText('Example (application/problem+json)').first().click()
    await list.locator('pre.body', { hasText: '"code": "invalid_parameter"' }).waitFor()

    const diet = page.locator('#op-get-api-v1-co2-calculator-diet')
    await diet.getByText('Code samples: curl, JavaScript, Python').click()
    await diet.locator('.sample').nth(2).waitFor()
    const samples = await diet.locator('.sample pre').allTextContents()
    assert.equal(samples.length, 3)
    assert.match(samples[0] ?? '', /^curl '.*\/api\/v1\/co2-calculator\/diet\?country_code=/)
    assert.match(samples[1] ?? '', /tonne\.calculator\.diet\(\{ country_code: /)
    assert.match(samples[2] ?? '', /requests\.get\(/)
    await list.getByText('Code samples: curl, JavaScript, Python').click()
    await list.locator('.sample').first().waitFor()
    assert.match(await list.locator('.sample').first().textContent() ?? '', /Authorization: Bearer \$TONNE_KEY/)
    // The samples are the document's own requests (x-sample-request, sent by test/docs/openapi-operations.test.ts);
    // a media link is taken from a project's answer (issue 36, item 3).
    const car = page.locator('#op-get-api-v1-co2-calculator-car')
    await car.getByText('Code samples: curl, JavaScript, Python').click()
    await car.locator('.sample').first().waitFor()
    assert.match(await car.locator('.sample pre').first().textContent() ?? '',
      /car\?country_code=DEU&distance=12000&measurement_system=metric'$/)
    const media = page.locator('#op-get-media-folder-file')
    await media.getByText('Code sample: curl').click()
    await media.locator('.sample').first().waitFor()
    assert.match(await media.locator('.sample pre').first().textContent() ?? '', /products\/71\/'[\s\S]*"icon"/)

    await page.getByLabel('Search the operations').fill('geojson')
    await page.locator('#search-status').filter({ hasText: /operations? match/ }).waitFor()
    const visible = await page.locator('article.operation:visible').count()
    assert.ok(visible >= 1 && visible < 18, `${visible} shown`)
    assert.ok(await page.locator('#op-get-api-v1-commerce-products-geojson').isVisible())
    assert.ok(await page.locator('#op-get-api-v1-co2-calculator-diet').isHidden())
    assert.deepEqual(await axeViolations(page), [])
    assert.deepEqual(browser.problems, [])
  })
