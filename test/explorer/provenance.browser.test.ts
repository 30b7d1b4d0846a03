import assert from 'node:assert/strict'
import { test } from 'node:test'
import { saveSource } from '../../src/ingest/sources.repository.ts'
import { attributionOf } from '../../src/ingest/sync/source-kinds.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'
import { axeViolations, DESKTOP, launchBrowser, openWithKey, showing } from './browser.ts'

// Issue 33, item 4: the catalogue view says where its data comes from and as of when, with the attribution.

test('the catalogue says "Data as of … from …" with each source\'s attribution when asked; a failed-only source is ' +
  'not dated',
async (t) => {
  const { baseUrl, key, store } = await startService(t, { records: fixtureProjects() })
  await saveSource(store.db, 'offsetsdb', {
    kind: 'offsetsdb',
    url: 'https://example.org/latest/offsets-db.csv.zip',
    data_as_of: '2026-11-26',
    last_changed_at: '2026-11-26T06:00:00.000Z',
    last_status: 'changed',
    attribution: attributionOf('offsetsdb')
  })
  await saveSource(store.db, 'verra', { kind: 'verra', last_status: 'failed', last_error: 'answered 500' })
  const browser = await launchBrowser(t)
  const page = await browser.newPage(DESKTOP)
  await openWithKey(page, `${baseUrl}/#/projects`, key)
  await showing(page, /of 12 projects/)
  // Read when asked: the list's first view makes no request for it.
  const requests: string[] = []
  page.on('request', (request) => { if (request.url().includes('/sources/')) requests.push(request.url()) })
  await page.getByText('Data sources and licences').click()
  const note = page.locator('#data-provenance p').filter({ hasText: /^Data as of/ })
  await note.first().waitFor()
  assert.equal(requests.length, 1)
  assert.equal(await note.count(), 1)
  assert.match(await note.textContent() ?? '', /^Data as of .*2026 from OffsetsDB: CarbonPlan \(2024\) "OffsetsDB"/)
  assert.equal(await note.locator('time').getAttribute('datetime'), '2026-11-26')
  assert.deepEqual(await axeViolations(page), [])
  assert.deepEqual(browser.problems, [])
})
