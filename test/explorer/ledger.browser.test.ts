import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test, type TestContext } from 'node:test'
import type { Page } from 'playwright-core'
import { startService } from '../support/service.ts'
import { axeViolations, inPage, launchBrowser, PHONE } from './browser.ts'
import { ledgerProjects } from './ledger-fixture.ts'

// The whole ledger (#/ledger): every transaction of the catalogue with its project, its filters and beneficiary
// search in the address, the totals of the filtered set and "Download CSV"; with the ledger table as a project page
// shows it too (its width at 1366 px, its CSV, a refusal after Next). Only a browser can check what is here: the
// table as laid out (no word broken inside a cell), the file the page downloads, where a refusal is shown and focus
// goes, and what fits a phone's screen.

// Issue 36, items 2, 4 and 7: the whole ledger in the explorer (filters, beneficiary search, totals, CSV), a ledger
// CSV button on a project page, a refusal after "Next" shown where the person is, and the ledger table at 1366 px.

const LAPTOP = { width: 1366, height: 768 }

async function open (t: TestContext, viewport: { width: number, height: number }, hash: string) {
  const service = await startService(t, { records: ledgerProjects() })
  const browser = await launchBrowser(t)
  const page = await browser.newPage(viewport)
  await page.addInitScript(`localStorage.setItem('tonne.apiKey', ${JSON.stringify(service.key)})`)
  await page.goto(`${service.baseUrl}/${hash}`)
  return { ...service, browser, page }
}

const text = async (page: Page, selector: string) => (await page.locator(selector).textContent()) ?? ''

// Runs in the page: cells whose text takes more than one line (a word broken inside), and a column's share of width.
const BROKEN_CELLS = `[...document.querySelectorAll('.ledger-table td.type, .ledger-table td.date')]
  .filter((cell) => {
    const r = document.createRange()
    r.selectNodeContents(cell)
    return r.getClientRects().length > 1
  })
  .map((cell) => cell.textContent)`
const SOURCE_SHARE = `document.querySelector('.ledger-table th.source').getBoundingClientRect().width /
  document.querySelector('.ledger-table').getBoundingClientRect().width`

test('the whole ledger: filters, beneficiary search, totals of the filtered set, CSV; a project\'s CSV; 1366 px',
  async (t) => {
    const { page, browser, inject, baseUrl } = await open(t, LAPTOP, '#/ledger')
    await page.locator('#summary').filter({ hasText: /Transactions 1–20 of 33/ }).waitFor()
    assert.equal(await page.getByRole('link', { name: 'Ledger' }).getAttribute('aria-current'), 'page')
    const totals = (await inject('/api/v1/commerce/transactions/totals/')).json()
    const retired = `${totals.by_type.retirement.quantity.toLocaleString('en-US')} t CO₂e`
    assert.match(await text(page, '#ledger-totals'), new RegExp(`Retired${retired}`))
    assert.ok((await page.locator('.ledger-table td.project a').allTextContents())
      .some((name) => name.startsWith('Mangrove Coast Restoration')), 'each row names its project')

    // Filters and a beneficiary search go into the URL; the totals are those of the filtered set.
    await page.getByLabel('Beneficiary').fill('acme')
    await page.getByLabel('Type').selectOption('retirement')
    await page.getByLabel('Registry').selectOption({ label: 'Registry A' })
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.waitForURL(/#\/ledger\?type=retirement&registry=REGISTRY_A&search=acme$/)
    const filtered = (await inject('/api/v1/commerce/transactions/totals/?type=retirement&registry=REGISTRY_A' +
      '&search=acme')).json()
    assert.ok(filtered.count > 0 && filtered.count < totals.count)
    await page.locator('#summary').filter({ hasText: new RegExp(`of ${filtered.count}\\.`) }).waitFor()
    assert.match(await text(page, '#ledger-totals'),
      new RegExp(`Retired${filtered.by_type.retirement.quantity.toLocaleString('en-US')} t CO₂e in ` +
        `${filtered.count} transaction`))
    assert.match(await text(page, '#ledger-totals'), /Issued0 t CO₂e in 0 transactions/)
    const [download] = await Promise.all([page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click()])
    assert.equal(download.suggestedFilename(), 'transactions-registry_a-retirement-acme.csv')
    const lines = (await readFile(await download.path(), 'utf8')).trim().split('\r\n')
    assert.match(lines[0] ?? '', /^id,transaction_id,project_id,project_external_id,project_name,registry,/)
    assert.equal(lines.length - 1, filtered.count)
    assert.deepEqual(await axeViolations(page), [], 'whole ledger, 1366 px')

    // A project's ledger at 1366 px: no word broken inside, the source paths in a narrow column; and its CSV.
    await page.goto(`${baseUrl}/#/projects/1`)
    const ledger = page.getByRole('region', { name: 'Ledger' })
    await ledger.locator('.ledger-table').waitFor()
    assert.deepEqual(await inPage(page, BROKEN_CELLS), [], 'no date or type broken over two lines')
    const share = Number(await inPage(page, SOURCE_SHARE))
    assert.ok(share <= 0.16, `the source column takes ${Math.round(share * 100)} % of the table`)
    const [projectCsv] = await Promise.all([page.waitForEvent('download'),
      ledger.getByRole('button', { name: 'Download CSV' }).click()])
    assert.equal(projectCsv.suggestedFilename(), 'project-1-transactions.csv')

    const phone = await browser.newPage(PHONE)
    await phone.goto(`${baseUrl}/#/ledger?type=retirement`)
    await phone.locator('#summary').waitFor()
    assert.ok(Number(await inPage(phone, 'document.documentElement.scrollWidth')) <= PHONE.width, 'no sideways scroll')
    assert.deepEqual(await axeViolations(phone), [], 'whole ledger, phone')
    assert.deepEqual(browser.problems, [])
  })

test('a 429 after "Next" at the foot of a ledger is shown by the pager, in view, with focus', async (t) => {
  const { page, browser, baseUrl } = await open(t, LAPTOP, '#/projects/1')
  const refuse = async () => {
    await page.route(/\/transactions\/\?.*offset=20/, async (route) => await route.fulfill({
      status: 429,
      headers: { 'content-type': 'application/problem+json', 'retry-after': '30' },
      body: JSON.stringify({
        type: 'about:blank',
        status: 429,
        code: 'rate_limited',
        title: 'Too Many Requests',
        detail: 'Too many requests: the limit is 60 per minute. Retry in 30 seconds.'
      })
    }))
  }
  const inView = async () => {
    const problem = page.locator('.problem[data-status="429"]')
    await problem.waitFor()
    const box = await problem.boundingBox()
    assert.ok(box !== null && box.y >= 0 && box.y + Math.min(box.height, 100) <= LAPTOP.height,
      `the message is in view: ${JSON.stringify(box)}`)
    assert.equal(await inPage(page, 'document.activeElement.closest(".problem") !== null'), true, 'focus on it')
  }
  const ledger = page.getByRole('region', { name: 'Ledger' })
  await ledger.locator('.ledger-summary').filter({ hasText: /of 28/ }).waitFor()
  await refuse()
  await ledger.getByRole('button', { name: 'Next' }).click()
  await inView()

  await page.goto(`${baseUrl}/#/ledger`)
  await page.locator('#summary').filter({ hasText: /of 33/ }).waitFor()
  await page.getByRole('link', { name: 'Next' }).click()
  await inView()
  // The console reports the refused requests: those are the test's own.
  assert.deepEqual(browser.problems.filter((problem) => !/429/.test(problem)), [])
})
