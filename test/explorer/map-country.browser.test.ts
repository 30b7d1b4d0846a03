import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { project } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'
import { accessibilityProblems, DESKTOP, launchBrowser, openWithKey } from './browser.ts'

// Issue 25: a project without coordinates shows its country on the map.

test('a project without coordinates shows its country, outlined and framed; one without a known country says so',
  async (t) => {
    const { baseUrl, key } = await startService(t, {
      records: [project(1, { name: 'Peru Stoves', location: 'Peru' }), project(2, { name: 'Nowhere', location: '' })]
    })
    const browser = await launchBrowser(t)
    const page = await browser.newPage(DESKTOP)
    await openWithKey(page, `${baseUrl}/#/projects/1`, key)
    await page.locator('.map[data-country]').waitFor()
    // Peru is ISO 3166-1 numeric 604.
    assert.equal(await page.locator('.map').getAttribute('data-country'), '604')
    assert.equal(await page.locator('.map .country-highlight').count(), 1)
    assert.match(await page.locator('.map figcaption, .map').first().textContent() ?? '', /Peru/)
    // Peru spans about 81.3° W to 68.7° W and 18.4° S to 0.0°: centred near x = -75 + 180, y = 84 + 9.2.
    const [x, y, w, h] = (await page.locator('.map svg').first().getAttribute('viewBox') ?? '').split(' ').map(Number)
    assert.ok(Math.abs(x! + w! / 2 - 105) < 2 && Math.abs(y! + h! / 2 - 93.2) < 2, `${x} ${y} ${w} ${h}`)
    assert.ok(w! < 90, `framed on the country, not the world (360): width ${w}`)
    assert.match(await page.locator('main').textContent() ?? '', /gives no coordinates .* shows its country, Peru/)
    assert.deepEqual(await accessibilityProblems(page), [])

    await page.goto(`${baseUrl}/#/projects/2`)
    await page.getByRole('heading', { name: 'Nowhere' }).waitFor()
    assert.equal(await page.locator('.map').count(), 0)
    assert.match(await page.locator('main').textContent() ?? '', /The registry gives no coordinates for this project\./)
  })

test('the map\'s country codes are the ISO 3166-1 numeric codes of data/countries', () => {
  const lines = readFileSync('data/countries/iso3166-un-m49.csv', 'utf8').trim().split('\n').slice(1)
  const served = JSON.parse(readFileSync('src/explorer/public/vendor/iso-numeric.json', 'utf8')) as Record<string,
    string>
  // Names may hold quoted commas; alpha-2 and the numeric code follow the last quoted name field.
  const codes = lines.map((line) => /^(?:"[^"]*"|[^,]*),([A-Z]{2}),[A-Z]{3},(\d{3}),/.exec(line))
  assert.ok(codes.every((match) => match !== null))
  assert.deepEqual(served, Object.fromEntries(codes.map((match) => [match![1], match![2]])))
})
