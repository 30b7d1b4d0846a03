import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fixtureProjects } from '../fixtures/projects.ts'
import { DESKTOP, inPage, PHONE, screenshot, serviceAndPage } from './browser.ts'

// The first screen (#/): what Tonne is, the calculator without a key, how to get a key; and the key form a person
// meets next on the catalogue (a refused key, remembered or not). Only a browser can check what is here: the page
// as rendered on a phone, a click through to the calculator, and the key kept in the browser's storage. (Where a
// newcomer learns the explorer's address is checked in test/server.process.test.ts, the start-up log, and
// test/docs/readme.test.ts, the README.)

// Issue 15, finding 14: what a newcomer sees first.

test('first screen: what this is, the calculator without a key, how to get a key, and a choice to remember it',
  async (t) => {
    const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, PHONE)
    await page.goto(`${baseUrl}/`)
    const main = page.locator('main')
    await main.getByRole('heading', { level: 1 }).waitFor()
    assert.match(await main.textContent() ?? '', /carbon-offset projects/i)
    assert.match(await main.textContent() ?? '', /footprint/i)
    const calculator = main.getByRole('link', { name: /calculat/i }).first()
    assert.ok(await calculator.isVisible(), 'the calculator is offered on the first screen')
    assert.match(await main.getByRole('heading', { name: /get an API key/i }).textContent() ?? '', /key/)
    assert.match(await main.textContent() ?? '', /tonne keys create/)
    await screenshot(page, 'first-screen-phone')

    await calculator.click()
    await page.getByLabel('Country').waitFor()
    assert.equal(await page.getByLabel('API key', { exact: true }).count(), 0, 'no key is asked for')

    // A refused key: a message for a person, not for a curl user.
    await page.goto(`${baseUrl}/#/projects`)
    await page.getByLabel('API key', { exact: true }).fill('tonne_000000000000_not-a-real-key')
    await page.getByRole('button', { name: 'Use this key' }).click()
    await page.locator('.problem[data-status="401"]').waitFor()
    const refusal = await page.locator('#alerts').textContent() ?? ''
    assert.doesNotMatch(refusal, /Bearer|Authorization|WWW-Authenticate|curl|header/)
    assert.match(refusal, /key/)
    assert.match(refusal, /check|ask/i)
    await screenshot(page, 'key-refused', false)

    // Not remembered: this tab only.
    await page.getByLabel('API key', { exact: true }).fill(key)
    await page.getByRole('button', { name: 'Use this key' }).click()
    await page.locator('#summary').waitFor()
    assert.equal(await inPage(page, 'localStorage.length'), 0)
    await page.getByRole('button', { name: 'Forget key' }).click()

    // Remembered on this device: a copied link opens in a new tab without asking.
    const remember = page.getByLabel('Remember this key on this device')
    assert.equal(await remember.isChecked(), false, 'an explicit choice, off by default')
    await remember.check()
    await page.getByLabel('API key', { exact: true }).fill(key)
    await page.getByRole('button', { name: 'Use this key' }).click()
    await page.locator('#summary').waitFor()
    const tab = await browser.newPage(DESKTOP)
    await tab.goto(`${baseUrl}/#/projects?search=kariba`)
    await tab.locator('#summary').filter({ hasText: /of 2 projects/ }).waitFor()
    await tab.getByRole('button', { name: 'Forget key' }).click()
    assert.equal(await inPage(tab, 'localStorage.length'), 0, 'Forget key forgets it on the device too')
    assert.deepEqual(browser.problems, [])
  })
