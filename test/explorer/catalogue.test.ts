import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { fixtureProjects } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'
import { accessibilityProblems, imagesSettled, inPage, launchBrowser, screenshot } from './browser.ts'

async function enterKey (page: Page, key: string): Promise<void> {
  await page.getByLabel('API key', { exact: true }).fill(key)
  await page.getByRole('button', { name: 'Use this key' }).click()
}

/** Waits until the results' summary line reads exactly `text`. */
async function showing (page: Page, text: string): Promise<void> {
  const exact = new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
  await page.locator('#summary').filter({ hasText: exact }).waitFor()
}
const names = async (page: Page) => await page.locator('.project-card h2').allTextContents()

test('catalogue: key once per tab, URL-driven filters, search, ordering and paging, a project page with SDG icons ' +
  'and a map', async (t) => {
  const { baseUrl, key, inject } = await startService(t, { records: fixtureProjects() })
  const browser = await launchBrowser(t)
  const page = await browser.newPage()

  await page.goto(`${baseUrl}/#/projects`)
  // A wrong key: the service's 401 message is shown and the key is asked for again.
  await enterKey(page, 'tonne_000000000000_not-a-real-key')
  await page.locator('.problem[data-status="401"]').waitFor()
  assert.match(await page.locator('#alerts').textContent() ?? '', /not accepted[\s\S]*key/)
  assert.equal(await inPage(page, 'sessionStorage.length'), 0, 'a refused key is not kept')

  await enterKey(page, key)
  await showing(page, 'Showing 1–12 of 12 projects.')
  assert.equal(await page.locator('#alerts').textContent(), '')
  assert.match(await page.locator('#key-status').textContent() ?? '', /API key set/)
  await page.locator('.map[data-loaded="true"]').first().waitFor()
  assert.equal(await page.locator('.map .marker').count(), 1, 'one fixture has coordinates')
  await screenshot(page, 'catalogue-list')

  // Filters and ordering go into the URL.
  await page.getByLabel('Search').fill('kariba')
  await page.getByLabel('Search').press('Enter')
  await showing(page, 'Showing 1–2 of 2 projects.')
  assert.match(page.url(), /#\/projects\?search=kariba$/)
  await page.getByRole('link', { name: 'Clear all filters' }).click()
  await showing(page, 'Showing 1–12 of 12 projects.')
  // A choice in a select with the pointer applies at once; typed text with Apply (or Enter).
  await page.getByLabel('In sale').selectOption('true')
  await showing(page, 'Showing 1–5 of 5 projects.')
  await page.getByLabel('Order by').selectOption('-name')
  await page.getByLabel('Country', { exact: true }).fill('Brazil')
  await page.getByRole('button', { name: 'Apply', exact: true }).click()
  await showing(page, 'Showing 1–1 of 1 project.')
  assert.deepEqual(await names(page), ['São Paulo Landfill Gas'])
  assert.match(page.url(), /location=Brazil&in_sale=true&ordering=-name/)

  // Paging.
  await page.goto(`${baseUrl}/#/projects?ordering=-name&limit=10`)
  await showing(page, 'Showing 1–10 of 12 projects.')
  assert.equal(await page.getByLabel('Per page').inputValue(), '10', 'the form shows the URL\'s values')
  const api = (await inject('/api/v1/commerce/products/?ordering=-name&limit=10')).json() as {
    results: Array<{ name: string }>
  }
  assert.deepEqual(await names(page), api.results.map((p) => p.name), 'the API\'s order')
  await page.getByRole('link', { name: 'Next' }).click()
  await showing(page, 'Showing 11–12 of 12 projects.')
  assert.match(page.url(), /offset=10/)
  assert.equal(await page.getByLabel('Page', { exact: true }).inputValue(), '2')
  assert.ok(await page.getByText('of 2', { exact: true }).isVisible())
  const secondPage = await names(page)

  // A copied link in another tab shows the same view, after asking for the key again (session only).
  const copied = page.url()
  const tab = await browser.newPage()
  await tab.goto(copied)
  await enterKey(tab, key)
  await showing(tab, 'Showing 11–12 of 12 projects.')
  assert.deepEqual(await names(tab), secondPage)
  await tab.close()

  // The project page.
  await page.getByRole('link', { name: secondPage[0] }).click()
  await page.getByRole('heading', { level: 1, name: secondPage[0] }).waitFor()
  assert.match(page.url(), /#\/projects\/\d+$/)
  await page.goto(`${baseUrl}/#/projects/1`)
  await page.locator('dd', { hasText: 'EXT-1' }).waitFor()
  for (const text of ['Registry A', 'Verified Carbon Standard', 'CCB Validation Approved', 'Zambia', '785,000 ha',
    'Carbon Green Investments']) {
    assert.ok(await page.locator('dd', { hasText: text }).count() > 0, text)
  }
  const icons = page.getByRole('img', { name: /^Goal \d+:/ })
  assert.deepEqual(await icons.evaluateAll((images) => images.map((i) => (i as unknown as { alt: string }).alt)),
    ['Goal 13: Climate Action', 'Goal 15: Life on Land'])
  await imagesSettled(page, '.sdgs img')
  assert.ok(await page.evaluate('[...document.querySelectorAll(".sdgs img")].every((image) => image.naturalWidth > 0)'))
  await page.locator('.map[data-loaded="true"]').waitFor()
  assert.equal(await page.locator('.map .marker').count(), 1)
  const land = await page.locator('.map .country').getAttribute('d') ?? ''
  assert.ok(land.split('M').length > 150, 'the world is drawn from the bundled countries (their rings)')
  assert.equal(await page.getByText('Protects forest & wildlife.').count(), 1, 'description HTML shown as text')
  assert.ok(await page.getByRole('link', { name: 'Open image: Canopy' }).isVisible(),
    'an external image is linked, not loaded')
  await screenshot(page, 'catalogue-project')

  // The service's errors: an unknown filter value, an unknown project.
  await page.goto(`${baseUrl}/#/projects?registry=NOPE`)
  await page.locator('.problem[data-code="invalid_parameter"]').waitFor()
  assert.match(await page.locator('#alerts').textContent() ?? '',
    /registry "NOPE" is not a known value; valid values: REGISTRY_A, REGISTRY_B/)
  await page.goto(`${baseUrl}/#/projects/999`)
  await page.getByRole('heading', { level: 1, name: 'Project not found' }).waitFor()
  assert.match(await page.locator('#alerts').textContent() ?? '', /not_found/)

  // Forget the key: asked again at once.
  await page.goto(`${baseUrl}/#/projects`)
  await page.getByRole('button', { name: 'Forget key' }).click()
  await page.getByLabel('API key', { exact: true }).waitFor()
  assert.equal(await inPage(page, 'sessionStorage.length'), 0)
  assert.deepEqual(browser.problems, [])
})

test('catalogue: a 429 shows the service\'s message and when to retry', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects(), env: { RATE_LIMIT_CATALOGUE: '3' } })
  const browser = await launchBrowser(t)
  const page = await browser.newPage()
  await page.goto(`${baseUrl}/#/projects`)
  await enterKey(page, key)
  await showing(page, 'Showing 1–12 of 12 projects.')
  // The list took two requests (the page with its facets, the GeoJSON); one project makes three.
  await page.goto(`${baseUrl}/#/projects/1`)
  await page.getByRole('heading', { level: 1, name: 'Kariba Forest Protection' }).waitFor()
  await page.goto(`${baseUrl}/#/projects/2`)
  const problem = page.locator('.problem[data-status="429"]')
  await problem.waitFor()
  assert.match(await problem.textContent() ?? '',
    /Too many requests[\s\S]*limit is 3 per minute[\s\S]*Try again in \d+ s[\s\S]*rate_limited/)
  assert.equal(await inPage(page, 'sessionStorage.length'), 1, 'a 429 keeps the key')
  await screenshot(page, 'catalogue-rate-limited')
  assert.deepEqual(browser.problems, [])
})

test('catalogue: keyboard only, labelled controls, AA contrast, and a phone-sized screen', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects() })
  const browser = await launchBrowser(t)
  const page = await browser.newPage()
  await page.goto(`${baseUrl}/#/projects`)
  assert.deepEqual(await accessibilityProblems(page), [])

  // Skip link first, then the key form, all from the keyboard.
  await page.keyboard.press('Tab')
  assert.equal(await inPage(page, 'document.activeElement?.textContent'), 'Skip to content')
  await page.keyboard.press('Enter')
  assert.equal(await inPage(page, 'document.activeElement?.id'), 'main')
  assert.match(page.url(), /#\/projects$/, 'the skip link is not a route')
  await page.keyboard.press('Tab')
  assert.equal(await inPage(page, 'document.activeElement?.textContent'), 'footprint calculator', 'the intro\'s link')
  await page.keyboard.press('Tab')
  assert.equal(await inPage(page, 'document.activeElement?.id'), 'api-key')
  await page.keyboard.type(key)
  await page.keyboard.press('Enter')
  await showing(page, 'Showing 1–12 of 12 projects.')
  assert.deepEqual(await accessibilityProblems(page), [])

  await page.getByLabel('Search').focus()
  await page.keyboard.type('mangroves')
  await page.keyboard.press('Enter')
  await showing(page, 'Showing 1–1 of 1 project.')
  assert.equal(await inPage(page, 'document.activeElement?.id'), 'filter-search', 'focus stays in the form')
  await page.getByRole('link', { name: 'Chocó-Darién Mangroves' }).focus()
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 1, name: 'Chocó-Darién Mangroves' }).waitFor()
  assert.equal(await inPage(page, 'document.activeElement?.tagName'), 'H1', 'a new view moves focus to its heading')
  assert.deepEqual(await accessibilityProblems(page), [])

  const phone = await browser.newPage({ width: 375, height: 812 })
  await phone.goto(`${baseUrl}/#/projects?limit=10`)
  await enterKey(phone, key)
  await showing(phone, 'Showing 1–10 of 12 projects.')
  await phone.locator('.map[data-loaded="true"]').waitFor()
  assert.ok(Number(await inPage(phone, 'document.documentElement.scrollWidth')) <= 375,
    'no sideways scrolling at 375 px')
  await screenshot(phone, 'catalogue-phone', false)
  await phone.goto(`${baseUrl}/#/projects/1`)
  await phone.locator('.sdgs img').first().waitFor()
  assert.ok(Number(await inPage(phone, 'document.documentElement.scrollWidth')) <= 375)
  await screenshot(phone, 'catalogue-project-phone', false)
  assert.deepEqual(browser.problems, [])
})
