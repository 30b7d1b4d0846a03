import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startService } from '../support/service.ts'
import { accessibilityProblems, launchBrowser } from './browser.ts'

// Issue 35, items 5 and 7: the explorer sends the unit system explicitly on every calculator request, shows the
// service's warnings (a floor area implausible in its unit), and shows the person's whole footprint beside the
// average resident's. Expected figures are the service's own answers over HTTP.

const CALCULATOR = '/api/v1/co2-calculator'

test('calculator: explicit units, the unit warning, and the whole footprint beside the average', async (t) => {
  const { baseUrl } = await startService(t)
  const browser = await launchBrowser(t)
  const page = await browser.newPage()
  const requests: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.startsWith(CALCULATOR) && !/\/(countries|config)$/.test(url.pathname)) requests.push(url.search)
  })
  // The USA reads floor areas in ft2: 80 for two people is 7.4 m2, which the service flags.
  await page.goto(`${baseUrl}/#/calculator?country_code=USA&diet_form=vegan&home_size=80&household_size=2`)
  await page.locator('#whole-footprint').waitFor()
  const categoryRequests = requests.filter((search) => !search.includes('basis=ghg'))
  assert.ok(categoryRequests.length >= 3, requests.join(' | '))
  for (const search of categoryRequests) assert.match(search, /measurement_system=imperial/, search)

  const warnings = await page.locator('#calc-warnings li').allTextContents()
  assert.ok(warnings.some((line) => line.includes('ft2') && line.includes('under 10 m2 per person')),
    warnings.join(' | '))

  // The figures shown are the service's answer to the request the explorer sent.
  const sent = requests.find((search) => search.includes('scope=person'))
  assert.ok(sent !== undefined && sent.includes('diet_form=vegan') && sent.includes('home_size=80'), sent)
  const response = await fetch(`${baseUrl}${CALCULATOR}/footprint${sent}`)
  const whole = await response.json() as { co2e: { t: number }, person: { parts: Array<{ category: string }> } }
  const parts = await page.locator('#whole-footprint tbody tr').evaluateAll((rows) =>
    rows.map((row) => row.getAttribute('data-part')))
  assert.deepEqual(parts, whole.person.parts.map((part) => part.category))
  const total = await page.locator('#whole-footprint tfoot td.number').first().textContent()
  assert.equal(Number((total ?? '').replace(/,/g, '')), Math.round(whole.co2e.t * 100) / 100)
  const diet = await page.locator('#whole-footprint tr[data-part="diet"] td').last().textContent()
  assert.equal(diet, 'your answers')
  assert.deepEqual(await accessibilityProblems(page), [])
})
