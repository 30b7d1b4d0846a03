import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startService } from '../support/service.ts'
import {
  boxOf, DESKTOP, inPage, launchBrowser, layoutShift, PHONE, screenshot, trackLayoutShift, serviceAndPage
} from './browser.ts'

// Issue 15, findings 8 to 11: the calculator as a person meets it.

test('calculator: a new country or unit system converts the typed values, and a result whose inputs changed says so',
  async (t) => {
    const { baseUrl } = await startService(t)
    const browser = await launchBrowser(t)
    const page = await browser.newPage(DESKTOP)
    await page.goto(`${baseUrl}/#/calculator?country_code=USA&distance=12000&home_size=800`)
    await page.locator('#total').waitFor()
    assert.equal(await page.locator('#calculator-result[data-stale]').count(), 0)

    await page.getByLabel('Country').selectOption('DEU')
    await page.getByLabel('Distance a year (km)').waitFor()
    // 12,000 international miles of 1.609344 km; 800 ft² of 0.09290304 m² (NIST SP 811, appendix B).
    assert.equal(await page.getByLabel('Distance a year (km)').inputValue(), '19312')
    assert.equal(await page.getByLabel('Floor area (m²)').inputValue(), '74')
    const stale = page.locator('#calculator-result[data-stale="true"]')
    await stale.waitFor()
    assert.match(await page.locator('#calculator-result').textContent() ?? '', /out of date/i)

    // The unit system alone converts too, both ways.
    await page.getByLabel('Units').selectOption('imperial')
    await page.getByLabel('Distance a year (miles)').waitFor()
    assert.equal(await page.getByLabel('Distance a year (miles)').inputValue(), '12000')

    await page.getByRole('button', { name: 'Calculate' }).click()
    await page.locator('#calculator-result:not([data-stale])').waitFor()
    assert.match(page.url(), /distance=12000/)
    // Any other input marks the shown result as out of date at once.
    await page.getByLabel('Diet').selectOption('vegan')
    await stale.waitFor()
    await screenshot(page, 'calculator-out-of-date')
    assert.deepEqual(browser.problems, [])
  })

test('calculator: each error is shown beside its field with the allowed range', async (t) => {
  const { baseUrl } = await startService(t)
  const browser = await launchBrowser(t)
  const page = await browser.newPage(PHONE)
  await page.goto(`${baseUrl}/#/calculator?country_code=DEU&calories=100`)
  const calories = page.getByLabel('Food energy a day (kcal)')
  await page.locator('#calc-calories-error:not(:empty)').waitFor()
  assert.match(await page.locator('#calc-calories-error').textContent() ?? '', /1,200.*4,000/)
  assert.match(await calories.getAttribute('aria-describedby') ?? '', /calc-calories-error/)
  const input = await boxOf(page, '#calc-calories')
  const message = await boxOf(page, '#calc-calories-error')
  assert.ok(input !== null && message !== null && message.top - input.bottom < 40, 'the message sits under its field')
  await screenshot(page, 'calculator-field-error', false)

  // Checked in the page before anything is sent, with the range in the message.
  await calories.fill('2000')
  await page.getByLabel('People in the home').fill('50')
  await page.getByRole('button', { name: 'Calculate' }).click()
  await page.locator('#calc-household_size-error:not(:empty)').waitFor()
  assert.match(await page.locator('#calc-household_size-error').textContent() ?? '', /1 to 20/)
  assert.equal(await inPage(page, 'document.activeElement?.id'), 'calc-household_size')
  assert.equal(await page.locator('#calc-calories-error:not(:empty)').count(), 0, 'a corrected field is cleared')
  assert.deepEqual(browser.problems, [])
})

test('calculator: compared on one basis, explained for a person, total on screen on a phone, stable layout',
  async (t) => {
    const { baseUrl, inject } = await startService(t)
    const browser = await launchBrowser(t)
    const query = 'country_code=DEU&frequency=rare&diet_form=vegetarian&distance=8000&home_size=70'
    const desktop = await browser.newPage(DESKTOP)
    await trackLayoutShift(desktop)
    await desktop.goto(`${baseUrl}/#/calculator?${query}`)
    await desktop.locator('#total').waitFor()

    // Every figure in CO₂e (all greenhouse gases): the country's average on the same basis.
    const ghg = (await inject('/api/v1/co2-calculator/footprint?country_code=DEU&basis=ghg')).json() as {
      co2e: { t: number }
    }
    const rows = await desktop.locator('#comparison tr').allTextContents()
    assert.ok(rows[1]?.includes(`${ghg.co2e.t.toFixed(2)} t`), `the country's greenhouse-gas average: ${rows[1]}`)
    assert.match(await desktop.locator('#comparison-basis').textContent() ?? '', /CO₂e.*all greenhouse gases/)

    // Written for a person; the factor ids and the service's notes sit behind a toggle.
    await desktop.getByText('Flights: how it was calculated').click()
    const flights = desktop.locator('details.how[data-category="flight"]')
    const plain = await flights.evaluate((element) => {
      const copy = element.cloneNode(true) as unknown as {
        querySelector: (s: string) => { remove: () => void } | null,
        textContent: string
      }
      copy.querySelector('details.technical')?.remove()
      return copy.textContent
    })
    assert.doesNotMatch(plain, /frequency=|desnz-2025:|tonne:|Not yet checked|co2e_combustion|unverified/)
    assert.match(plain, /short-haul/)
    await flights.getByText('Technical details').click()
    assert.match(await flights.locator('details.technical').textContent() ?? '', /desnz-2025:/)
    assert.ok(await layoutShift(desktop) < 0.1, `layout shift ${await layoutShift(desktop)}`)

    const phone = await browser.newPage(PHONE)
    await phone.goto(`${baseUrl}/#/calculator?country_code=DEU`)
    await phone.getByLabel('Distance a year (km)').fill('8000')
    await phone.getByRole('button', { name: 'Calculate' }).click()
    await phone.locator('#total').waitFor()
    // A locator, not waitForFunction: a string predicate is evaluated, which the page's CSP refuses.
    await phone.locator('#result-heading:focus').waitFor()
    const total = await boxOf(phone, '#total')
    assert.ok(total !== null && total.top >= 0 && total.bottom <= PHONE.height, `total at ${JSON.stringify(total)}`)
    await screenshot(phone, 'calculator-result-phone', false)
    assert.deepEqual(browser.problems, [])
  })

test('calculator: a bad country in the link and a 429 each leave a way forward', async (t) => {
  const { baseUrl, browser, page } = await serviceAndPage(t, { env: { RATE_LIMIT_CALCULATOR: '14' } }, DESKTOP)
  await page.goto(`${baseUrl}/#/calculator?country_code=XXX`)
  await page.locator('#calc-country_code-error:not(:empty)').waitFor()
  assert.match(await page.locator('#calc-country_code-error').textContent() ?? '', /XXX.*choose/i)
  assert.equal(await page.getByText('Loading the countries').count(), 0)
  await page.getByLabel('Country').selectOption('DEU')
  await page.getByLabel('Distance a year (km)').waitFor()

  // A controllable clock: the countdown runs on it, not on the wall clock.
  await page.clock.install()
  await page.getByRole('button', { name: 'Calculate' }).click()
  await page.locator('#total').waitFor()
  let total = await page.locator('#total').textContent()
  const retry = page.getByRole('button', { name: /^Try again/ })
  // Answers the browser holds (Cache-Control) cost no request, so a changed calorie count may still be answered:
  // the result that must stay is the one shown before the refused click.
  // Each click's answer: a result no longer marked out of date, or the 429's "Try again". (Waiting for aria-busy
  // to go could end before the click's hash change had set it, and the next turn read the old total.)
  const answered = page.locator('#calculator-result:not([aria-busy]):not([data-stale]) #total').or(retry).first()
  for (let calories = 2001; calories < 2010 && await retry.count() === 0; calories++) {
    total = await page.locator('#total').textContent()
    await page.getByLabel('Food energy a day (kcal)').fill(String(calories))
    await page.getByRole('button', { name: 'Calculate' }).click()
    await answered.waitFor()
  }
  await retry.waitFor()
  assert.equal(await page.locator('#total').textContent(), total, 'the previous result stays')
  assert.ok(await retry.isDisabled())
  assert.match(await retry.textContent() ?? '', /in \d+ s/)
  await screenshot(page, 'calculator-rate-limited')
  await page.clock.runFor(61_000)
  await page.locator('button:disabled', { hasText: /^Try again/ }).waitFor({ state: 'detached' })
  assert.ok(await retry.isEnabled())
  assert.deepEqual(browser.problems.filter((p) => !/429/.test(p)), [])
})
