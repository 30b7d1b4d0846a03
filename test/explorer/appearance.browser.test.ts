import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fixtureProjects } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'
import { axeViolations, DESKTOP, launchBrowser, PHONE, serviceAndPage } from './browser.ts'

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
