import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startService } from '../support/service.ts'
import { accessibilityProblems, inPage, launchBrowser, screenshot } from './browser.ts'

test('calculator: units follow the country, the result is broken down and compared, sources shown, ' +
  'the link reproduces it', async (t) => {
  const { baseUrl } = await startService(t)
  const browser = await launchBrowser(t)
  const page = await browser.newPage()
  await page.goto(`${baseUrl}/#/calculator`)
  await page.getByLabel('Country').selectOption('USA')
  await page.getByLabel('Distance a year (miles)').waitFor()
  assert.ok(await page.getByLabel('Floor area (ft²)').isVisible())
  await page.getByLabel('Country').selectOption('DEU')
  await page.getByLabel('Distance a year (km)').waitFor()
  assert.ok(await page.getByLabel('Floor area (m²)').isVisible())
  assert.equal(await inPage(page, 'document.activeElement?.id'), 'calc-country_code', 'focus stays on the country')
  assert.equal(await page.getByLabel('Distance a year (km)').count(), 1, 'no API key is asked for')

  await page.getByLabel('How often do you fly?').selectOption('sometimes')
  await page.getByLabel('Diet').selectOption('vegetarian')
  await page.getByLabel('Distance a year (km)').fill('8000')
  await page.getByLabel('Floor area (m²)').fill('70')
  await page.getByLabel('People in the home').fill('2')
  assert.deepEqual(await accessibilityProblems(page), [])
  await page.getByRole('button', { name: 'Calculate' }).click()
  await page.locator('#breakdown').waitFor()
  assert.match(page.url(),
    /#\/calculator\?country_code=DEU&frequency=sometimes&diet_form=vegetarian&calories=3027&mode=car&distance=8000/)

  const categories = await page.locator('#breakdown tbody th').allTextContents()
  assert.deepEqual(categories, ['Flights', 'Food', 'Car and public transport', 'Clothes', 'Home energy'])
  const comparison = await page.locator('#comparison th').allTextContents()
  assert.match(comparison[1] ?? '', /^Average person in Germany/)
  assert.match(comparison[2] ?? '', /^World average/)
  const total = await page.locator('#total').textContent()
  assert.match(total ?? '', /^\d+\.\d\d t CO₂e a year$/)
  const sources = await page.locator('#sources li').allTextContents()
  assert.ok(sources.length >= 5)
  assert.ok(sources.some((s) => /DESNZ/.test(s) && /Licence: OGL-3\.0/.test(s)))
  assert.ok(sources.some((s) => /Global Carbon Project/.test(s)), 'the averages\' source too')
  await page.getByText('Food: how it was calculated').click()
  assert.match(await page.locator('details[open] li').first().textContent() ?? '',
    /at [\d.,]+ kg CO₂e per .* = [\d,.]+ kg CO₂e/, 'the factors behind a category')
  assert.deepEqual(await accessibilityProblems(page), [])
  await screenshot(page, 'calculator')

  // The copied link recalculates the same result in a fresh tab.
  const tab = await browser.newPage()
  await tab.goto(page.url())
  await tab.locator('#total').waitFor()
  assert.equal(await tab.locator('#total').textContent(), total)
  assert.equal(await tab.getByLabel('Diet').inputValue(), 'vegetarian')

  const phone = await browser.newPage({ width: 375, height: 812 })
  await phone.goto(page.url())
  await phone.locator('#total').waitFor()
  assert.ok(Number(await inPage(phone, 'document.documentElement.scrollWidth')) <= 375,
    'no sideways scrolling at 375 px')
  await screenshot(phone, 'calculator-phone', false)
  assert.deepEqual(browser.problems, [])
})

test('calculator: an input out of range and the service\'s 429 are shown, and the field at fault is marked',
  async (t) => {
    const { baseUrl } = await startService(t, { env: { RATE_LIMIT_CALCULATOR: '12' } })
    const browser = await launchBrowser(t)
    const page = await browser.newPage()
    await page.goto(`${baseUrl}/#/calculator?country_code=DEU&calories=100`)
    await page.locator('#calc-calories-error:not(:empty)').waitFor()
    assert.match(await page.locator('#calc-calories-error').textContent() ?? '', /from 1,200 to 4,000/)
    assert.equal(await page.getByLabel('Food energy a day (kcal)').getAttribute('aria-invalid'), 'true')
    assert.equal(await inPage(page, 'document.activeElement?.id'), 'calc-calories')
    await screenshot(page, 'calculator-error')

    // Each calculation makes six requests: a few more pass the limit of 12 a minute.
    const limited = page.locator('.problem[data-status="429"]')
    for (let calories = 2000; calories < 2010 && !(await limited.isVisible()); calories++) {
      await page.getByLabel('Food energy a day (kcal)').fill(String(calories))
      await page.getByRole('button', { name: 'Calculate' }).click()
      await page.locator('#total, .problem').first().waitFor()
      await page.locator('#calculator-result[aria-busy]').waitFor({ state: 'detached' })
    }
    await limited.waitFor()
    assert.match(await limited.textContent() ?? '', /Too many requests[\s\S]*Try again in \d+ s/)
    assert.deepEqual(browser.problems, [])
  })
