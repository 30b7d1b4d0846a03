import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { fixtureProjects } from '../fixtures/projects.ts'
import { axeViolations, boxOf, DESKTOP, inPage, PHONE, openWithKey, showing, serviceAndPage } from './browser.ts'

// Issue 25, items 1 to 5: the catalogue as a new user meets it (requests, failures, paging, focus, phone).

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
