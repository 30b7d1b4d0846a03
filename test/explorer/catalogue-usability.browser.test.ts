import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fixtureProjects } from '../fixtures/projects.ts'
import {
  cutOffTexts, DESKTOP, inPage, PHONE, screenshot, openWithKey, scrolledTo, showing, serviceAndPage
} from './browser.ts'

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
