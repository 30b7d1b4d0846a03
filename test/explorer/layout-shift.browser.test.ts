import assert from 'node:assert/strict'
import { test } from 'node:test'
import { fixtureProjects } from '../fixtures/projects.ts'
import { imagesSettled, layoutShift, PHONE, trackLayoutShift, serviceAndPage } from './browser.ts'

// Issue 25, item 11: the project page on a phone does not move under the reader as its map and icons arrive.

test('project page on a phone: cumulative layout shift under 0.1 while the map and SDG icons load', async (t) => {
  const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: fixtureProjects() }, PHONE)
  // The key as "remember this key on this device" leaves it: the page opens straight on the project.
  await page.addInitScript(`localStorage.setItem('tonne.apiKey', ${JSON.stringify(key)})`)
  await trackLayoutShift(page)
  await page.goto(`${baseUrl}/#/projects/1`)
  await page.locator('.map[data-loaded="true"]').waitFor()
  await imagesSettled(page, '.sdgs img')
  const shift = await layoutShift(page)
  assert.ok(shift < 0.1, `layout shift ${shift}`)
  assert.deepEqual(browser.problems, [])
})
