import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startService } from '../support/service.ts'
import { axeViolations, DESKTOP, launchBrowser } from './browser.ts'

// Issue 25, item 10: the calculator's labels as people read them, and flights not counted unless answered.

test('calculator labels: one pescatarian, LPG and plug-in hybrid, countries by the names people use',
  async (t) => {
    const { baseUrl } = await startService(t)
    const browser = await launchBrowser(t)
    const page = await browser.newPage(DESKTOP)
    await page.goto(`${baseUrl}/#/calculator?country_code=DEU`)
    await page.getByLabel('Diet').waitFor()
    const diets = await page.getByLabel('Diet').locator('option').allTextContents()
    assert.equal(diets.filter((text) => /^pesc[ae]tarian$/i.test(text)).length, 1, diets.join(', '))
    const fuels = await page.getByLabel('Fuel').locator('option').allTextContents()
    for (const fuel of ['LPG', 'CNG', 'Plug-in hybrid']) assert.ok(fuels.includes(fuel), fuels.join(', '))
    assert.ok(!fuels.some((text) => /^(Lpg|Cng|Plug in hybrid)$/.test(text)))
    const heating = await page.getByLabel('Heating', { exact: true }).locator('option').allTextContents()
    assert.ok(heating.includes('LPG'), heating.join(', '))

    const countries = await page.getByLabel('Country').locator('option').allTextContents()
    for (const name of ['United Kingdom (UK)', 'United States (USA)', 'South Korea', 'Russia', 'Vietnam']) {
      assert.ok(countries.includes(name), name)
    }
    assert.ok(!countries.some((name) => /, Republic of|Great Britain and Northern Ireland|of America/.test(name)))
    const names = countries.slice(1)
    const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }))
    assert.deepEqual(names, sorted, 'in alphabetical order of the names shown')
    assert.deepEqual(await axeViolations(page), [])
    assert.deepEqual(browser.problems, [])
  })

test('calculator: flights are not counted until answered; explanations write numbers one way', async (t) => {
  const { baseUrl } = await startService(t)
  const browser = await launchBrowser(t)
  const page = await browser.newPage(DESKTOP)
  await page.goto(`${baseUrl}/#/calculator?country_code=DEU`)
  await page.getByLabel('Floor area (m²)').fill('100')
  await page.getByLabel('Heating', { exact: true }).selectOption('heat_pump')
  await page.getByRole('button', { name: 'Calculate' }).click()
  await page.locator('#breakdown').waitFor()
  const categories = await page.locator('#breakdown tbody th').allTextContents()
  assert.ok(!categories.includes('Flights'), categories.join(', '))
  assert.match(await page.locator('.result').textContent() ?? '', /Not included: flights/)
  assert.doesNotMatch(page.url(), /frequency=/)

  await page.getByText('Home energy: how it was calculated').click()
  const notes = await page.locator('details.how[open] > ul li').allTextContents()
  const text = notes.join('\n')
  assert.match(text, /\d,\d{3}/, 'thousands are separated')
  // No bare number of five or more digits, nor a four-digit one that is not a year.
  assert.doesNotMatch(text, /(?<![\d.,])\d{5,}/, text)
  for (const match of text.matchAll(/(?<![\d.,])(\d{4})(?![\d,])/g)) {
    assert.ok(Number(match[1]) >= 1900 && Number(match[1]) <= 2100, `${match[1]} in ${text}`)
  }

  // From the footprint to the catalogue.
  const link = page.getByRole('link', { name: 'See the projects that reduce the most' })
  assert.match(await link.getAttribute('href') ?? '', /^#\/projects\?ordering=-estimated_annual_reductions$/)
  assert.match(await page.locator('.to-catalogue').textContent() ?? '', /Offsetting [\d.,]+ t a year/)

  // Answered, flights count.
  await page.getByLabel('How often do you fly?').selectOption('rare')
  await page.getByRole('button', { name: 'Calculate' }).click()
  await page.locator('#breakdown tbody th', { hasText: 'Flights' }).waitFor()
  assert.deepEqual(browser.problems, [])
})
