import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startService } from '../support/service.ts'
import { accessibilityProblems, launchBrowser, type Browser } from './browser.ts'

// Issue 22: every field the explorer's calculator shows changes the result, and the result lists the largest
// reductions available, each asked of the service. Expected figures are the service's own answers to the same
// question, read over HTTP: the explorer must show what the API computes, not a figure of its own.

const CALCULATOR = '/api/v1/co2-calculator'

/** The figures of one calculation as the explorer shows them: t CO2e per category, and the what-if list. */
async function shown (browser: Browser, baseUrl: string, query: string) {
  const page = await browser.newPage()
  await page.goto(`${baseUrl}/#/calculator?${query}`)
  await page.locator('#breakdown').waitFor()
  const rows = new Map<string, number>()
  for (const row of await page.locator('#breakdown tbody tr').all()) {
    const category = await row.getAttribute('data-category')
    const t = await row.locator('td.number').first().textContent()
    rows.set(category ?? '', Number((t ?? '').replace(/,/g, '')))
  }
  const whatIf = await page.locator('#what-if li').allTextContents()
  return { page, rows, whatIf }
}

async function apiTonnes (baseUrl: string, path: string): Promise<number> {
  const response = await fetch(`${baseUrl}${CALCULATOR}${path}`)
  assert.equal(response.status, 200, path)
  const body = await response.json() as { co2e: { kg: number } }
  return Math.round(body.co2e.kg / 10) / 100
}

test('calculator fields: floor area, green tariff, own kWh, flight legs and clothes spending change the result',
  async (t) => {
    const { baseUrl } = await startService(t)
    const browser = await launchBrowser(t)
    const home = 'country_code=DEU&household_size=1&heating_type=natural_gas'

    const small = await shown(browser, baseUrl, `${home}&home_size=40&energy_type=conventional`)
    const large = await shown(browser, baseUrl, `${home}&home_size=160&energy_type=conventional`)
    assert.ok(large.rows.get('energy')! > small.rows.get('energy')!, 'a larger home uses more energy')

    // A green tariff is counted market-based (its own supply), so it changes the figure.
    const green = await shown(browser, baseUrl, `${home}&home_size=40&energy_type=green`)
    assert.ok(green.rows.get('energy')! < small.rows.get('energy')!)
    assert.equal(green.rows.get('energy'), await apiTonnes(baseUrl,
      `/energy?${home}&home_size=40&energy_type=green&electricity_method=market_based`))

    // The person's own kWh, without a floor area.
    const bills = await shown(browser, baseUrl, 'country_code=DEU&electricity_kwh=2000&heating_kwh=5000')
    assert.equal(bills.rows.get('energy'), await apiTonnes(baseUrl,
      '/energy?country_code=DEU&electricity_kwh=2000&heating_kwh=5000'))
    assert.deepEqual(await accessibilityProblems(bills.page), [])

    // Flights by airport code, typed with spaces and in lower case as people do.
    const legs = await shown(browser, baseUrl, `country_code=DEU&legs=${encodeURIComponent('fra-jfk, jfk-fra')}`)
    assert.equal(legs.rows.get('flight'), await apiTonnes(baseUrl, '/flight?country_code=DEU&legs=FRA-JFK,JFK-FRA'))
    assert.equal(await legs.page.getByLabel('Or your flights, by airport code').inputValue(), 'fra-jfk, jfk-fra')

    const spend = await shown(browser, baseUrl, 'country_code=DEU&spend_usd=500')
    assert.equal(spend.rows.get('clothes'), await apiTonnes(baseUrl, '/clothes?country_code=DEU&spend_usd=500'))
    assert.notEqual(spend.rows.get('clothes'), await apiTonnes(baseUrl, '/clothes?country_code=DEU&amount=average'))
  })

test('calculator what-if: the three largest reductions, each the service\'s answer with one input changed',
  async (t) => {
    const { baseUrl } = await startService(t)
    const browser = await launchBrowser(t)
    const person = 'country_code=USA&measurement_system=metric&frequency=often&diet_form=everything&calories=2000&' +
      'mode=car&distance=15000&fuel_type=petrol&car_size=large&amount=much&home_size=120&household_size=2&' +
      'heating_type=natural_gas&energy_type=conventional'
    const { rows, whatIf } = await shown(browser, baseUrl, person)
    assert.equal(whatIf.length, 3, whatIf.join(' | '))
    const saved = whatIf.map((line) => Number(/: ([\d.,]+) t CO₂e a year less/.exec(line)![1]!.replace(/,/g, '')))
    assert.deepEqual(saved, [...saved].sort((a, b) => b - a), 'largest first')

    const common = 'country_code=USA&measurement_system=metric'
    const expected = new Map<string, number>([['Not flying', rows.get('flight')!]])
    expected.set('A vegetarian diet', rows.get('diet')! -
      await apiTonnes(baseUrl, `/diet?${common}&diet_form=vegetarian&calories=2000`))
    expected.set('The same distance by train', rows.get('car')! -
      await apiTonnes(baseUrl, `/car?${common}&mode=rail&rail_type=national&distance=15000`))
    expected.set('A green electricity tariff', rows.get('energy')! - await apiTonnes(baseUrl,
      `/energy?${common}&home_size=120&household_size=2&heating_type=natural_gas&energy_type=green&` +
      'electricity_method=market_based'))
    expected.set('Buying little new clothing', rows.get('clothes')! -
      await apiTonnes(baseUrl, `/clothes?${common}&amount=little`))
    const top = [...expected].sort((a, b) => b[1] - a[1]).slice(0, 3)
    whatIf.forEach((line, i) => {
      const [label, tonnes] = top[i]!
      assert.ok(line.startsWith(`${label}:`), `${line} should be ${label}`)
      // Both sides are rounded to 10 kg; the difference of two rounded figures may differ by one step.
      assert.ok(Math.abs(saved[i]! - tonnes) <= 0.011, `${line}: ${tonnes}`)
    })
  })
