import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { fixtureProjects } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'
import { axeViolations, DESKTOP, launchBrowser, PHONE, screenshot, serviceAndPage } from './browser.ts'

// What holds on every view of the explorer (the first screen, the catalogue, a project, the calculator, the whole
// ledger, a view that does not exist): axe-core finds no violation on a laptop and on a phone, in light and dark
// mode; and numbers and dates follow the reader's language (here on a project's facts; the list cards' in
// catalogue.browser.test.ts). Only a browser can check these: contrast, names and roles as rendered, the system's
// colour scheme and the browser's languages. (The whole ledger's table is checked again, with its transactions, in
// ledger.browser.test.ts.)

// The bars of issue 15: axe finds nothing on any view, on a laptop and on a phone; each view is photographed.

interface View { name: string, hash: string, ready: string }
const VIEWS: View[] = [
  { name: 'home', hash: '#/', ready: 'main h1' },
  { name: 'catalogue', hash: '#/projects', ready: '.map[data-loaded="true"]' },
  { name: 'catalogue-filtered', hash: '#/projects?registry=REGISTRY_A&location=Brazil&ordering=name', ready: '.chips' },
  { name: 'catalogue-empty', hash: '#/projects?search=zzzz', ready: '#empty-state' },
  { name: 'catalogue-bad-country', hash: '#/projects?location=Narnia', ready: '#filter-location-error:not(:empty)' },
  { name: 'project', hash: '#/projects/1', ready: '.map[data-loaded="true"]' },
  { name: 'project-missing', hash: '#/projects/999', ready: '.problem' },
  { name: 'calculator', hash: '#/calculator', ready: '#calculator-form' },
  { name: 'calculator-result', hash: '#/calculator?country_code=DEU&distance=8000&home_size=70', ready: '#total' },
  {
    name: 'calculator-field-error',
    hash: '#/calculator?country_code=DEU&calories=100',
    ready: '.field-error:not(:empty)'
  },
  { name: 'calculator-bad-country', hash: '#/calculator?country_code=XXX', ready: '.field-error:not(:empty)' },
  { name: 'ledger', hash: '#/ledger', ready: '#summary' },
  { name: 'ledger-filtered', hash: '#/ledger?type=retirement', ready: '#summary' },
  { name: 'not-found', hash: '#/nowhere', ready: 'main h1' }
]

async function check (page: Page, name: string): Promise<string[]> {
  await screenshot(page, name)
  return (await axeViolations(page)).map((violation) => `${name}: ${violation}`)
}

for (const [screen, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  test(`every explorer view on a ${screen}: axe finds no violation`, async (t) => {
    const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, viewport)
    const violations: string[] = []

    await page.goto(`${baseUrl}/#/projects`)
    await page.getByLabel('API key', { exact: true }).waitFor()
    violations.push(...await check(page, `${screen}-key-form`))
    await page.getByLabel('API key', { exact: true }).fill('tonne_000000000000_not-a-real-key')
    await page.getByRole('button', { name: 'Use this key' }).click()
    await page.locator('.problem[data-status="401"]').waitFor()
    violations.push(...await check(page, `${screen}-key-refused`))
    await page.getByLabel('API key', { exact: true }).fill(key)
    await page.getByRole('button', { name: 'Use this key' }).click()
    await page.locator('#summary').waitFor()

    for (const view of VIEWS) {
      await page.goto(`${baseUrl}/${view.hash}`)
      await page.locator(view.ready).first().waitFor()
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' })
      violations.push(...await check(page, `${screen}-${view.name}`))
    }
    await page.goto(`${baseUrl}/#/calculator?country_code=DEU&distance=8000`)
    await page.locator('#total').waitFor()
    for (const toggle of await page.locator('details.how > summary').all()) await toggle.click()
    for (const toggle of await page.locator('details.technical > summary').all()) await toggle.click()
    violations.push(...await check(page, `${screen}-calculator-details`))
    assert.deepEqual(violations, [])
    assert.deepEqual(browser.problems, [])
  })
}

// Issue 25, "also wanted": dark mode (prefers-color-scheme) with the same contrast, and numbers and dates in the
// reader's language.

test('dark mode: the system setting is followed, and axe finds no violation on any view', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects() })
  const browser = await launchBrowser(t)
  for (const viewport of [DESKTOP, PHONE]) {
    const page = await browser.newPage(viewport)
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.addInitScript(`localStorage.setItem('tonne.apiKey', ${JSON.stringify(key)})`)
    await page.goto(`${baseUrl}/`)
    await page.locator('main h1').waitFor()
    const background = await page.evaluate('getComputedStyle(document.documentElement).backgroundColor')
    assert.equal(background, 'rgb(18, 22, 25)', 'a dark page')
    assert.deepEqual(await axeViolations(page), [], 'first view')
    await page.goto(`${baseUrl}/#/projects`)
    await page.locator('.project-card').first().waitFor()
    assert.deepEqual(await axeViolations(page), [], 'catalogue')
    await page.goto(`${baseUrl}/#/projects/1`)
    await page.locator('.map[data-loaded="true"]').waitFor()
    assert.deepEqual(await axeViolations(page), [], 'project')
    await page.goto(`${baseUrl}/#/calculator?country_code=DEU&frequency=rare&distance=8000&home_size=70`)
    await page.locator('#breakdown').waitFor()
    assert.deepEqual(await axeViolations(page), [], 'calculator')
    await page.goto(`${baseUrl}/#/ledger`)
    await page.locator('#summary').waitFor()
    assert.deepEqual(await axeViolations(page), [], 'ledger')
  }
  assert.deepEqual(browser.problems, [])
})

test('numbers and dates follow the reader\'s language', async (t) => {
  const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, DESKTOP)
  await page.addInitScript(`localStorage.setItem('tonne.apiKey', ${JSON.stringify(key)})
    Object.defineProperty(navigator, 'languages', { get: () => ['de-DE', 'de'] })`)
  await page.goto(`${baseUrl}/#/projects/1`)
  await page.locator('dd', { hasText: 'ha' }).first().waitFor()
  const facts = await page.locator('dl.fields').textContent() ?? ''
  assert.match(facts, /785\.000 ha/)
  assert.doesNotMatch(facts, /785,000/)
  assert.doesNotMatch(facts, /\d{4}-\d{2}-\d{2}/, 'the start date is written the German way')
  assert.deepEqual(browser.problems, [])
})
