import assert from 'node:assert/strict'
import { test } from 'node:test'
import { axeViolations, DESKTOP, openWithKey, showing, serviceAndPage } from './browser.ts'

// Issue 33 item 8 and issue 36 item 1: a new user's first catalogue page, on the bundled catalogue as shipped,
// shows the market (credit figures on every card), and a card without figures says so in one plain sentence.

test('the first catalogue page shows credit figures on every card; a card without them says why', async (t) => {
  const { baseUrl, key, browser, page } = await serviceAndPage(t, { bundled: true }, DESKTOP)
  await openWithKey(page, `${baseUrl}/#/projects`, key)
  await showing(page, /Showing 1–20 of/)
  const credits = await page.locator('.project-card .credits').allTextContents()
  assert.equal(credits.length, 20)
  for (const line of credits) assert.match(line, /^Issued: [\d,.]+ t CO₂e/, line)
  assert.equal(await page.getByLabel('Order by').inputValue(), '-credits_issued', 'the default ordering is shown')
  // A figure the data lacks beside one it gives stays "not reported"; a whole card of them is gone.
  assert.doesNotMatch(await page.locator('main').textContent() ?? '', /Issued: not reported/)

  // Further down the catalogue, projects without figures: one sentence, not "not reported" twice.
  await page.goto(`${baseUrl}/#/projects?ordering=credits_issued&limit=10&offset=720`)
  await showing(page, /Showing 721–/)
  const plain = await page.locator('.project-card .credits').allTextContents()
  assert.ok(plain.length > 0)
  for (const line of plain) {
    assert.match(line,
      /^(No credits issued yet: the project is [a-z ]+\.|No credit figures in the imported registry data\.)$/, line)
  }
  assert.deepEqual(await axeViolations(page), [])
  assert.deepEqual(browser.problems, [])
})
