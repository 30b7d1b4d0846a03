import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { saveSource } from '../../src/ingest/sources.repository.ts'
import { attributionOf } from '../../src/ingest/sync/source-kinds.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'
import {
  accessibilityProblems, axeViolations, boxOf, cutOffTexts, DESKTOP, imagesSettled, inPage, launchBrowser,
  openWithKey, openWithKeyRemembered as open, PHONE, screenshot, scrolledTo, serviceAndPage, showing
} from './browser.ts'

// The catalogue (#/projects): the list of projects with its key form, search, filters and chips, ordering, paging,
// cards, map beside the list and CSV download. Only a browser can check what is here: what the page renders from
// the API's answers, where focus goes after a key or a click, what fits a phone's screen, and which requests the
// page itself sends (one per view, none per arrow key). Topics by the issue that asked for them.

async function enterKey (page: Page, key: string): Promise<void> {
  await page.getByLabel('API key', { exact: true }).fill(key)
  await page.getByRole('button', { name: 'Use this key' }).click()
}

/** Waits until the results' summary line reads exactly `text` (browser.ts's `showing` takes a pattern). */
async function showingExactly (page: Page, text: string): Promise<void> {
  const exact = new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
  await page.locator('#summary').filter({ hasText: exact }).waitFor()
}
const names = async (page: Page) => await page.locator('.project-card h2').allTextContents()

/** The API requests the page makes from now on (the service's own pages and files are not counted). */
function countApiRequests (page: Page): { urls: string[] } {
  const seen = { urls: [] as string[] }
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.startsWith('/api/')) seen.urls.push(`${url.pathname}${url.search}`)
  })
  return seen
}

const activeElement = async (page: Page) => await inPage(page,
  '(() => { const e = document.activeElement; return e ? e.tagName + "#" + e.id + " " + e.textContent : "" })()')

// Issue 15, findings 12 and 15: the catalogue's filters and the list as a person meets them.

test('catalogue: filters offer the values that match, with counts, as removable chips; country by name or code',
  async (t) => {
    const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, DESKTOP)
    await openWithKey(page, `${baseUrl}/#/projects`, key)
    await showing(page, /of 12 projects/)

    const registry = page.getByLabel('Registry')
    assert.equal(await registry.evaluate((element) => element.tagName), 'SELECT')
    const options = await registry.locator('option').allTextContents()
    assert.deepEqual(options, ['Any registry', 'Registry A (10)', 'Registry B (2)'])
    await registry.selectOption('REGISTRY_B')
    await showing(page, /of 2 projects/)
    assert.match(page.url(), /registry=REGISTRY_B/)
    // The other facets now count within Registry B only.
    assert.deepEqual(await page.getByLabel('Credit type').locator('option').allTextContents(),
      ['Any credit type', 'Agriculture Forestry and Other Land Use (1)', 'Energy industries (1)'])
    const chip = page.getByRole('button', { name: 'Remove filter Registry: Registry B' })
    await chip.click()
    await showing(page, /of 12 projects/)
    assert.doesNotMatch(page.url(), /registry=/)

    // A country by its ISO code or its name, shown as the country's name.
    await page.getByLabel('Country', { exact: true }).fill('BRA')
    await page.getByLabel('Country', { exact: true }).press('Enter')
    await page.getByRole('button', { name: 'Remove filter Country: Brazil' }).waitFor()
    await showing(page, /of 2 projects/)
    await page.getByLabel('Country', { exact: true }).fill('zambia')
    await page.getByLabel('Country', { exact: true }).press('Enter')
    await page.getByRole('button', { name: 'Remove filter Country: Zambia' }).waitFor()
    await showing(page, /of 2 projects/)
    const suggestions = await page.locator('#location-options option').evaluateAll((list) =>
      list.map((option) => (option as unknown as { value: string }).value))
    assert.ok(suggestions.includes('Brazil') && suggestions.includes('Zambia'),
      'the countries offered come from the facets')

    // A country the service does not know: the message sits by the field, not a list of 250 names.
    await page.getByLabel('Country', { exact: true }).fill('Narnia')
    await page.getByLabel('Country', { exact: true }).press('Enter')
    await page.locator('#filter-location-error:not(:empty)').waitFor()
    assert.ok((await page.locator('#filter-location-error').textContent() ?? '').length < 200)
    assert.equal(await page.getByRole('combobox', { name: 'Rating' }).count(), 1, 'the fixtures have ratings')
    await screenshot(page, 'catalogue-filters')
    assert.deepEqual(browser.problems, [])
  })

test('catalogue: filters and orderings the data cannot satisfy are not offered', async (t) => {
  const records = fixtureProjects()
    .map((record) => ({ ...record, rating: null, inventory_price: null, in_sale: false }))
  const { baseUrl, key, browser, page } = await serviceAndPage(t, { records }, DESKTOP)
  await openWithKey(page, `${baseUrl}/#/projects`, key)
  await showing(page, /of 12 projects/)
  await page.getByLabel('Registry').waitFor()
  // Not offered: no such control is shown (getByRole leaves hidden elements out).
  assert.equal(await page.getByRole('combobox', { name: 'Rating' }).count(), 0)
  assert.equal(await page.getByRole('combobox', { name: 'In sale' }).count(), 0)
  const orderings = await page.getByLabel('Order by').locator('option').allTextContents()
  assert.ok(!orderings.some((text) => /price/i.test(text)), orderings.join(', '))
  assert.ok(orderings.some((text) => /name/i.test(text)))
  assert.deepEqual(browser.problems, [])
})

test('catalogue: Back keeps the scroll position, nothing is cut off, single vintages, loading and empty states',
  async (t) => {
    const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, PHONE)
    await openWithKey(page, `${baseUrl}/#/projects?ordering=name`, key)
    await showing(page, /of 12 projects/)
    assert.deepEqual(await cutOffTexts(page), [])

    const andes = page.locator('.project-card', { hasText: 'Andes Cloud Forest' })
    assert.match(await andes.textContent() ?? '', /Vintage 2018(?!–)/)
    assert.doesNotMatch(await andes.textContent() ?? '', /2018–2018/)

    const last = page.getByRole('link', { name: 'Yunnan Wind Portfolio' })
    await last.scrollIntoViewIfNeeded()
    const scrolled = Number(await inPage(page, 'Math.round(scrollY)'))
    assert.ok(scrolled > 500, `scrolled to ${scrolled}`)
    await last.click()
    await page.getByRole('heading', { level: 1, name: 'Yunnan Wind Portfolio' }).waitFor()
    await page.goBack()
    await showing(page, /of 12 projects/)
    await scrolledTo(page, scrolled)

    // While the filters apply, the page says so.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => { release = resolve })
    await page.route(/\/api\/v1\/commerce\/products\/\?/, async (route) => { await held; await route.continue() })
    // On a phone the filters are folded away under one line (issue 25, item 5).
    await page.getByText('Search and filters').click()
    await page.getByLabel('Search').fill('forest')
    await page.getByLabel('Search').press('Enter')
    const loading = page.locator('#results-loading')
    await loading.waitFor({ state: 'visible' })
    assert.match(await loading.textContent() ?? '', /Loading/)
    release()
    await showing(page, /of 3 projects/)
    assert.ok(await loading.isHidden())
    await page.unroute(/\/api\/v1\/commerce\/products\/\?/)

    // Nothing matches: say what to do, with the way out one tap away, and no empty map.
    await page.goto(`${baseUrl}/#/projects?search=zzzz&registry=REGISTRY_A`)
    await page.locator('#empty-state').waitFor()
    const empty = await page.locator('#empty-state').textContent() ?? ''
    assert.match(empty, /No project matches/)
    assert.ok(await page.getByRole('button', { name: 'Remove filter Search: zzzz' }).isVisible())
    assert.ok(await page.locator('#empty-state').getByRole('link', { name: 'Clear all filters' }).isVisible())
    assert.equal(await page.locator('#results .map').count(), 0)
    await screenshot(page, 'catalogue-empty', false)

    await page.setViewportSize(DESKTOP)
    await page.goto(`${baseUrl}/#/projects`)
    await showing(page, /of 12 projects/)
    assert.deepEqual(await cutOffTexts(page), [])
    await page.goto(`${baseUrl}/#/calculator?country_code=USA`)
    await page.getByLabel('Distance a year (miles)').waitFor()
    assert.deepEqual(await cutOffTexts(page), [])
    await page.setViewportSize(PHONE)
    assert.deepEqual(await cutOffTexts(page), [])
    assert.deepEqual(browser.problems, [])
  })

// The catalogue as the explorer first shipped it: key, URL-driven filters, errors, a 429, the keyboard, a phone.

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
  await showingExactly(page, 'Showing 1–12 of 12 projects.')
  assert.equal(await page.locator('#alerts').textContent(), '')
  assert.match(await page.locator('#key-status').textContent() ?? '', /API key set/)
  await page.locator('.map[data-loaded="true"]').first().waitFor()
  assert.equal(await page.locator('.map .marker').count(), 1, 'one fixture has coordinates')
  await screenshot(page, 'catalogue-list')

  // Filters and ordering go into the URL.
  await page.getByLabel('Search').fill('kariba')
  await page.getByLabel('Search').press('Enter')
  await showingExactly(page, 'Showing 1–2 of 2 projects.')
  assert.match(page.url(), /#\/projects\?search=kariba$/)
  await page.getByRole('link', { name: 'Clear all filters' }).click()
  await showingExactly(page, 'Showing 1–12 of 12 projects.')
  // A choice in a select with the pointer applies at once; typed text with Apply (or Enter).
  await page.getByLabel('In sale').selectOption('true')
  await showingExactly(page, 'Showing 1–5 of 5 projects.')
  await page.getByLabel('Order by').selectOption('-name')
  await page.getByLabel('Country', { exact: true }).fill('Brazil')
  await page.getByRole('button', { name: 'Apply', exact: true }).click()
  await showingExactly(page, 'Showing 1–1 of 1 project.')
  assert.deepEqual(await names(page), ['São Paulo Landfill Gas'])
  assert.match(page.url(), /location=Brazil&in_sale=true&ordering=-name/)

  // Paging.
  await page.goto(`${baseUrl}/#/projects?ordering=-name&limit=10`)
  await showingExactly(page, 'Showing 1–10 of 12 projects.')
  assert.equal(await page.getByLabel('Per page').inputValue(), '10', 'the form shows the URL\'s values')
  const api = (await inject('/api/v1/commerce/products/?ordering=-name&limit=10')).json() as {
    results: Array<{ name: string }>
  }
  assert.deepEqual(await names(page), api.results.map((p) => p.name), 'the API\'s order')
  await page.getByRole('link', { name: 'Next' }).click()
  await showingExactly(page, 'Showing 11–12 of 12 projects.')
  assert.match(page.url(), /offset=10/)
  assert.equal(await page.getByLabel('Page', { exact: true }).inputValue(), '2')
  assert.ok(await page.getByText('of 2', { exact: true }).isVisible())
  const secondPage = await names(page)

  // A copied link in another tab shows the same view, after asking for the key again (session only).
  const copied = page.url()
  const tab = await browser.newPage()
  await tab.goto(copied)
  await enterKey(tab, key)
  await showingExactly(tab, 'Showing 11–12 of 12 projects.')
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
  await showingExactly(page, 'Showing 1–12 of 12 projects.')
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
  await showingExactly(page, 'Showing 1–12 of 12 projects.')
  assert.deepEqual(await accessibilityProblems(page), [])

  await page.getByLabel('Search').focus()
  await page.keyboard.type('mangroves')
  await page.keyboard.press('Enter')
  await showingExactly(page, 'Showing 1–1 of 1 project.')
  assert.equal(await inPage(page, 'document.activeElement?.id'), 'filter-search', 'focus stays in the form')
  await page.getByRole('link', { name: 'Chocó-Darién Mangroves' }).focus()
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 1, name: 'Chocó-Darién Mangroves' }).waitFor()
  assert.equal(await inPage(page, 'document.activeElement?.tagName'), 'H1', 'a new view moves focus to its heading')
  assert.deepEqual(await accessibilityProblems(page), [])

  const phone = await browser.newPage({ width: 375, height: 812 })
  await phone.goto(`${baseUrl}/#/projects?limit=10`)
  await enterKey(phone, key)
  await showingExactly(phone, 'Showing 1–10 of 12 projects.')
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

// Issue 25, items 1 to 5: the catalogue as a new user meets it (requests, failures, paging, focus, phone).

test('catalogue: at most 2 requests for a first view and a filter change, none per arrow key (issue 25, item 2)',
  async (t) => {
    const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, DESKTOP)
    const seen = countApiRequests(page)
    await openWithKey(page, `${baseUrl}/#/projects`, key)
    await showing(page, /of 12 projects/)
    await page.locator('.map[data-loaded="true"]').waitFor()
    assert.ok(seen.urls.length <= 2, `first view: ${seen.urls.join(', ')}`)
    assert.ok(!seen.urls.some((url) => /[?&]limit=1(&|$)/.test(url)), `no hidden probes: ${seen.urls.join(', ')}`)
    // The orderings offered still follow the data: the fixtures have dates and reductions.
    const orderings = await page.getByLabel('Order by').locator('option').allTextContents()
    assert.ok(orderings.includes('Newest first'), orderings.join(', '))

    // A filter chosen with the pointer: one list (with its facets) and one map.
    seen.urls.length = 0
    await page.getByLabel('Registry').selectOption('REGISTRY_B')
    await showing(page, /of 2 projects/)
    await page.locator('.map[data-loaded="true"]').waitFor()
    assert.ok(seen.urls.length <= 2, `filter change: ${seen.urls.join(', ')}`)

    // Arrowing through a select by keyboard changes nothing until Enter.
    await page.goto(`${baseUrl}/#/projects`)
    await showing(page, /of 12 projects/)
    seen.urls.length = 0
    const vintage = page.getByLabel('Vintage')
    await vintage.focus()
    for (let i = 0; i < 4; i++) await vintage.press('ArrowDown')
    const chosen = await vintage.inputValue()
    assert.notEqual(chosen, '')
    assert.doesNotMatch(page.url(), /vintage=/, 'not applied while arrowing')
    await vintage.press('Enter')
    await page.waitForURL(new RegExp(`vintage=${chosen}`))
    await page.locator('#results[aria-busy]').waitFor({ state: 'detached' })
    assert.ok(seen.urls.length <= 2, `keyboard choice: ${seen.urls.join(', ')}`)
    assert.equal(await inPage(page, 'document.activeElement?.id'), 'filter-vintage', 'focus stays on the select')

    // Another page of the same filters: the list alone.
    await page.goto(`${baseUrl}/#/projects?limit=5`)
    await showing(page, /1–5 of 12/)
    await page.locator('.map[data-loaded="true"]').waitFor()
    seen.urls.length = 0
    await page.getByRole('link', { name: 'Next' }).click()
    await showing(page, /6–10 of 12/)
    assert.equal(seen.urls.length, 1, seen.urls.join(', '))
    assert.deepEqual(browser.problems, [])
  })

test('catalogue: a 429 or an unreachable service keeps the results and says what happened (issue 25, item 1)',
  async (t) => {
    const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, DESKTOP)
    await openWithKey(page, `${baseUrl}/#/projects`, key)
    await showing(page, /of 12 projects/)
    await page.locator('.map[data-loaded="true"]').waitFor()

    await page.route(/\/api\/v1\/commerce\/products\/\?/, async (route) => {
      await route.fulfill({
        status: 429,
        contentType: 'application/problem+json',
        headers: { 'retry-after': '30' },
        body: JSON.stringify({ status: 429, code: 'rate_limited', title: 'Too Many Requests', detail: 'Slow down.' })
      })
    })
    await page.getByLabel('Registry').selectOption('REGISTRY_B')
    await page.locator('.problem[data-status="429"]').waitFor()
    assert.equal(await page.locator('.project-card').count(), 12, 'the results stay')
    assert.equal(await page.locator('#results .map').count(), 1, 'the map stays')
    const summary = await page.locator('#results').textContent() ?? ''
    assert.doesNotMatch(summary, /did not accept/)
    assert.match(await page.locator('#earlier-results').textContent() ?? '', /earlier results[\s\S]*too many requests/)
    assert.match(await page.locator('.problem').textContent() ?? '', /Too many requests[\s\S]*Try again in \d+ s/)

    await page.unroute(/\/api\/v1\/commerce\/products\/\?/)
    await page.route(/\/api\/v1\/commerce\/products\/\?/, async (route) => { await route.abort('connectionrefused') })
    await page.getByLabel('Registry', { exact: true }).selectOption('REGISTRY_A')
    await page.locator('.problem[data-status="0"]').waitFor()
    const problem = await page.locator('.problem').textContent() ?? ''
    assert.match(problem, /could not be reached/)
    assert.doesNotMatch(problem, /not accepted|HTTP —/)
    assert.equal(await page.locator('.project-card').count(), 12)

    // With nothing shown yet, the summary says why, without blaming the filters.
    const fresh = await browser.newPage(DESKTOP)
    await fresh.route(/\/api\/v1\/commerce\/products\/\?/, async (route) => { await route.abort('connectionrefused') })
    await openWithKey(fresh, `${baseUrl}/#/projects`, key)
    await fresh.locator('#summary').filter({ hasText: /could not be loaded: the service could not be reached/ })
      .waitFor()
    assert.deepEqual(browser.problems, [])
  })

test('catalogue: paging moves to the new results, with first, last and a page number (issue 25, item 3)',
  async (t) => {
    const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, PHONE)
    await openWithKey(page, `${baseUrl}/#/projects?limit=2&ordering=name`, key)
    await showing(page, /1–2 of 12/)
    const next = page.getByRole('link', { name: 'Next' })
    await next.scrollIntoViewIfNeeded()
    assert.ok(Number(await inPage(page, 'scrollY')) > 200)
    await next.click()
    await showing(page, /3–4 of 12/)
    assert.match(String(await activeElement(page)), /^P#summary /, 'focus on the new results')
    const box = await boxOf(page, '#summary')
    assert.ok(box !== null && box.top >= 0 && box.top < 100, `the results' top is in view: ${JSON.stringify(box)}`)

    await page.getByRole('link', { name: 'Last' }).click()
    await showing(page, /11–12 of 12/)
    await page.getByRole('link', { name: 'First' }).click()
    await showing(page, /1–2 of 12/)
    await page.getByLabel('Page', { exact: true }).fill('4')
    await page.getByLabel('Page', { exact: true }).press('Enter')
    await showing(page, /7–8 of 12/)
    assert.match(page.url(), /offset=6/)
    assert.match(String(await activeElement(page)), /^P#summary /)
    assert.deepEqual(await axeViolations(page), [])
    assert.deepEqual(browser.problems, [])
  })

test('catalogue: focus after removing a chip and after Back (issue 25, item 4)', async (t) => {
  const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, DESKTOP)
  await openWithKey(page, `${baseUrl}/#/projects?search=a&registry=REGISTRY_A`, key)
  await page.getByRole('button', { name: 'Remove filter Search: a' }).focus()
  await page.keyboard.press('Enter')
  await page.waitForURL(/#\/projects\?registry=REGISTRY_A$/)
  // The count may be the same with and without the search: wait for the removed chip to be gone.
  await page.getByRole('button', { name: 'Remove filter Search: a' }).waitFor({ state: 'detached' })
  await showing(page, /of 10 projects/)
  assert.match(String(await activeElement(page)), /^BUTTON# Registry: Registry A/, 'the next chip')
  await page.keyboard.press('Enter')
  await showing(page, /of 12 projects/)
  assert.match(String(await activeElement(page)), /^P#summary /, 'no chip left: the results')

  // Back from a project opened far down the list: focus on that project's link, in view.
  const phone = await browser.newPage(PHONE)
  await openWithKey(phone, `${baseUrl}/#/projects?ordering=name`, key)
  await showing(phone, /of 12 projects/)
  const last = phone.getByRole('link', { name: 'Yunnan Wind Portfolio' })
  await last.scrollIntoViewIfNeeded()
  await last.click()
  await phone.getByRole('heading', { level: 1, name: 'Yunnan Wind Portfolio' }).waitFor()
  await phone.goBack()
  await showing(phone, /of 12 projects/)
  await phone.locator(':focus', { hasText: /^Yunnan Wind Portfolio$/ }).waitFor()
  const focused = await phone.evaluate(`(() => {
    const box = document.activeElement.getBoundingClientRect()
    return box.top >= 0 && box.bottom <= innerHeight
  })()`)
  assert.equal(focused, true, 'the focused link is on screen')
  assert.deepEqual(browser.problems, [])
})

test('catalogue: on a phone the results come first, the filters fold away (issue 25, item 5)', async (t) => {
  const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, PHONE)
  await openWithKey(page, `${baseUrl}/#/projects?registry=REGISTRY_A`, key)
  await showing(page, /of 10 projects/)
  const card = await boxOf(page, '.project-card')
  assert.ok(card !== null && card.top < PHONE.height, `first result at ${card?.top} px`)
  const toggle = page.getByText('Search and filters (1 active)')
  assert.ok(await toggle.isVisible())
  assert.ok(await page.getByLabel('Search').isHidden())
  await toggle.click()
  await page.getByLabel('Search').fill('kariba')
  await page.getByLabel('Search').press('Enter')
  await showing(page, /of 2 projects/)
  assert.deepEqual(await axeViolations(page), [])

  // A wide screen shows them open.
  const desktop = await browser.newPage(DESKTOP)
  await openWithKey(desktop, `${baseUrl}/#/projects`, key)
  await showing(desktop, /of 12 projects/)
  assert.ok(await desktop.getByLabel('Search').isVisible())
  assert.deepEqual(browser.problems, [])
})

test('catalogue: "Download CSV" saves every project matching the filters, in the list\'s order', async (t) => {
  const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, DESKTOP)
  await openWithKey(page, `${baseUrl}/#/projects?registry=REGISTRY_A&ordering=name&limit=2`, key)
  await showing(page, /1–2 of 10/)
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click()
  ])
  assert.equal(download.suggestedFilename(), 'projects-registry_a.csv', 'named after the filters')
  const { readFile } = await import('node:fs/promises')
  const lines = (await readFile(await download.path(), 'utf8')).trim().split('\r\n')
  assert.match(lines[0] ?? '', /^id,external_id,name,/)
  assert.equal(lines.length, 11, 'the header and the 10 matching projects, not the page\'s 2')
  const names = await page.locator('.project-card h2').allTextContents()
  assert.ok((lines[1] ?? '').includes(names[0] ?? '?'), 'in the list\'s order')
  assert.deepEqual(browser.problems, [])
})

// Issue 33 item 8 and issue 36 item 1: a new user's first catalogue page, on the bundled catalogue as shipped,
// shows the market (credit figures on every card), and a card without figures says so in one plain sentence.

test('the first catalogue page shows credit figures on every card; a card without them says why', async (t) => {
  const { baseUrl, key, browser, page } = await serviceAndPage(t, { bundled: true }, DESKTOP)
  await openWithKey(page, `${baseUrl}/#/projects`, key)
  await showing(page, /Showing 1–20 of/)
  const credits = await page.locator('.project-card .credits').allTextContents()
  assert.equal(credits.length, 20)
  for (const line of credits) assert.match(line, /^Issued: [\d,.]+ t CO₂e/, line)
  assert.equal(await page.getByLabel('Order by').inputValue(), '-credits_issued', 'the default ordering is shown')
  // A figure the data lacks beside one it gives stays "not reported"; a whole card of them is gone.
  assert.doesNotMatch(await page.locator('main').textContent() ?? '', /Issued: not reported/)

  // Further down the catalogue, projects without figures: one sentence, not "not reported" twice.
  await page.goto(`${baseUrl}/#/projects?ordering=credits_issued&limit=10&offset=720`)
  await showing(page, /Showing 721–/)
  const plain = await page.locator('.project-card .credits').allTextContents()
  assert.ok(plain.length > 0)
  for (const line of plain) {
    assert.match(line,
      /^(No credits issued yet: the project is [a-z ]+\.|No credit figures in the imported registry data\.)$/, line)
  }
  assert.deepEqual(await axeViolations(page), [])
  assert.deepEqual(browser.problems, [])
})

// Issue 33, item 4: the catalogue view says where its data comes from and as of when, with the attribution.

test('the catalogue says "Data as of … from …" with each source\'s attribution when asked; a failed-only source is ' +
  'not dated',
async (t) => {
  const { baseUrl, key, store } = await startService(t, { records: fixtureProjects() })
  await saveSource(store.db, 'offsetsdb', {
    kind: 'offsetsdb',
    url: 'https://example.org/latest/offsets-db.csv.zip',
    data_as_of: '2026-11-26',
    last_changed_at: '2026-11-26T06:00:00.000Z',
    last_status: 'changed',
    attribution: attributionOf('offsetsdb')
  })
  await saveSource(store.db, 'verra', { kind: 'verra', last_status: 'failed', last_error: 'answered 500' })
  const browser = await launchBrowser(t)
  const page = await browser.newPage(DESKTOP)
  await openWithKey(page, `${baseUrl}/#/projects`, key)
  await showing(page, /of 12 projects/)
  // Read when asked: the list's first view makes no request for it.
  const requests: string[] = []
  page.on('request', (request) => { if (request.url().includes('/sources/')) requests.push(request.url()) })
  await page.getByText('Data sources and licences').click()
  const note = page.locator('#data-provenance p').filter({ hasText: /^Data as of/ })
  await note.first().waitFor()
  assert.equal(requests.length, 1)
  assert.equal(await note.count(), 1)
  assert.match(await note.textContent() ?? '', /^Data as of .*2026 from OffsetsDB: CarbonPlan \(2024\) "OffsetsDB"/)
  assert.equal(await note.locator('time').getAttribute('datetime'), '2026-11-26')
  assert.deepEqual(await axeViolations(page), [])
  assert.deepEqual(browser.problems, [])
})

// Issue 21: credits on the list cards, in the filters and in "Order by". Every expected figure is summed by hand
// from test/explorer/ledger-fixture.ts (the sums are written there).

test('list cards show credits issued and retired in the reader\'s language; none at all in one plain sentence',
  async (t) => {
    const { browser, page } = await open(t, DESKTOP, '#/projects?ordering=name')
    await page.locator('.project-card').first().waitFor()
    const card = (name: string) => page.locator('.project-card', { hasText: name }).locator('.credits')
    assert.equal(await card('Mangrove Coast Restoration').textContent(), 'Issued: 5,300 t CO₂e · Retired: 1,800 t CO₂e')
    assert.equal(await card('Coastal Wind Farm').textContent(), 'Issued: 4,000 t CO₂e · Retired: 3,900 t CO₂e')
    assert.equal(await card('Savanna Fire Management').textContent(),
      'No credit figures in the imported registry data.')

    const german = await browser.newPage(DESKTOP)
    await german.addInitScript(`localStorage.setItem('tonne.apiKey', ${JSON.stringify(await inPage(page,
      'localStorage.getItem("tonne.apiKey")'))})
      Object.defineProperty(navigator, 'languages', { get: () => ['de-DE', 'de'] })`)
    await german.goto(page.url())
    const mangrove = german.locator('.project-card', { hasText: 'Mangrove Coast Restoration' }).locator('.credits')
    await mangrove.waitFor()
    assert.equal(await mangrove.textContent(), 'Issued: 5.300 t CO₂e · Retired: 1.800 t CO₂e')
    assert.deepEqual(browser.problems, [])
  })

test('the catalogue filters by market, methodology, status and category, with counts', async (t) => {
  const { browser, page } = await open(t, DESKTOP, '#/projects')
  await page.locator('.project-card').first().waitFor()
  // Market: Coastal Wind Farm is compliance; Mangrove Coast Restoration and Hill Country Cookstoves voluntary (the
  // service lists the most frequent first).
  assert.deepEqual(await page.getByLabel('Market').locator('option').allTextContents(),
    ['Compliance or voluntary', 'Voluntary (2)', 'Compliance (1)'])
  await page.getByLabel('Market').selectOption('false')
  await page.locator('#summary').filter({ hasText: 'Showing 1–2 of 2 projects.' }).waitFor()
  assert.deepEqual((await names(page)).sort(), ['Hill Country Cookstoves', 'Mangrove Coast Restoration'])
  await page.getByRole('button', { name: 'Remove filter Market: Voluntary' }).click()
  await page.locator('#summary').filter({ hasText: 'Showing 1–4 of 4 projects.' }).waitFor()
  await page.getByLabel('Methodology').selectOption('ACM0002')
  await page.locator('#summary').filter({ hasText: 'Showing 1–1 of 1 project.' }).waitFor()
  assert.deepEqual(await names(page), ['Coastal Wind Farm'])
  for (const label of ['Status', 'Category']) {
    assert.equal(await page.getByRole('combobox', { name: label }).count(), 1, `${label} is offered`)
  }
  assert.deepEqual(browser.problems, [])
})

test('"Order by" offers the credit totals both ways and the first issuance date, and orders the list by them',
  async (t) => {
    // From another order: "Most credits issued" is the default (issue 36, item 1), and its URL does not spell it.
    const { browser, page } = await open(t, DESKTOP, '#/projects?ordering=name')
    const orderBy = page.getByLabel('Order by')
    await page.locator('.project-card').first().waitFor()
    const offered = await orderBy.locator('option').allTextContents()
    for (const text of ['Most credits issued', 'Fewest credits issued', 'Most credits retired',
      'Fewest credits retired', 'Most credits cancelled', 'Fewest credits cancelled', 'Earliest first issuance',
      'Latest first issuance']) {
      assert.ok(offered.includes(text), `${text} in ${offered.join(', ')}`)
    }
    const orderedBy = async (label: string, value: string, expected: string[]) => {
      // The results are marked busy before the list is asked for, and unmarked once the answer is drawn.
      const answer = page.waitForResponse((response) =>
        new URL(response.url()).searchParams.get('ordering') === value && response.url().includes('/products/?'))
      await orderBy.selectOption({ label })
      await answer
      await page.locator('#results:not([aria-busy])').waitFor()
      if (value === '-credits_issued') assert.doesNotMatch(page.url(), /ordering=/)
      else assert.match(page.url(), new RegExp(`ordering=${value.replace('-', '\\-')}$`))
      assert.deepEqual((await names(page)).slice(0, expected.length), expected, label)
    }
    await orderedBy('Most credits issued', '-credits_issued',
      ['Mangrove Coast Restoration', 'Coastal Wind Farm', 'Hill Country Cookstoves'])
    await orderedBy('Fewest credits issued', 'credits_issued',
      ['Hill Country Cookstoves', 'Coastal Wind Farm', 'Mangrove Coast Restoration'])
    await orderedBy('Most credits retired', '-credits_retired',
      ['Coastal Wind Farm', 'Mangrove Coast Restoration', 'Hill Country Cookstoves'])
    await orderedBy('Fewest credits retired', 'credits_retired',
      ['Hill Country Cookstoves', 'Mangrove Coast Restoration', 'Coastal Wind Farm'])
    await orderedBy('Most credits cancelled', '-credits_cancelled',
      ['Hill Country Cookstoves', 'Mangrove Coast Restoration'])
    await orderedBy('Earliest first issuance', 'first_issuance_date',
      ['Hill Country Cookstoves', 'Mangrove Coast Restoration', 'Coastal Wind Farm'])
    await orderedBy('Latest first issuance', '-first_issuance_date',
      ['Coastal Wind Farm', 'Mangrove Coast Restoration', 'Hill Country Cookstoves'])
    assert.deepEqual(await cutOffTexts(page), [])
    const phone = await browser.newPage(PHONE)
    await phone.goto(page.url())
    await phone.locator('.project-card').first().waitFor()
    await phone.locator('#filter-panel > summary').click()
    assert.deepEqual(await cutOffTexts(phone), [], 'every ordering fits its select on a phone')
    assert.deepEqual(browser.problems, [])
  })
