import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Locator } from 'playwright-core'
import { fixtureProjects, project } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'
import {
  accessibilityProblems, axeViolations, DESKTOP, imagesSettled, inPage, launchBrowser, layoutShift, openWithKey,
  openWithKeyRemembered as open, PHONE, screenshot, serviceAndPage, trackLayoutShift
} from './browser.ts'
import {
  issuedOnlyProject, largeLedgerProject, ledgerProjects, totalsOnlyProject, undatedRetirementsProject
} from './ledger-fixture.ts'

// A project's page (#/projects/42): its fields, SDG icons, map, credit totals, charts per year and per vintage, and
// its ledger. Only a browser can check what is here: the charts and tables as drawn, the page's own requests (the
// ledger's pages and searches), focus after Next, layout shift while the map and icons load, and a phone's screen.
// (The catalogue's tests also open a project page on their way: catalogue.browser.test.ts.)

// Issue 21, "the explorer shows credits": totals, charts per year and per vintage with tables of the same numbers,
// the ledger paged and searched. Every expected figure is summed by hand from test/explorer/ledger-fixture.ts (the
// sums are written there).

/** A description list as label → value. */
async function pairs (list: Locator): Promise<Record<string, string>> {
  await list.locator('dd').first().waitFor()
  const terms = await list.locator('dt').allTextContents()
  const values = await list.locator('dd').allTextContents()
  return Object.fromEntries(terms.map((term, i) => [term.trim(), (values[i] ?? '').trim()]))
}

/** A table's body as rows of cell texts (header cells included). */
async function rowsOf (table: Locator): Promise<string[][]> {
  return await table.locator('tbody tr').evaluateAll((rows) => rows.map((row) =>
    Array.from((row as unknown as { cells: ArrayLike<{ textContent: string }> }).cells,
      (cell) => cell.textContent.trim())))
}

test('project page: issued, retired and cancelled totals, with their unit and where they come from', async (t) => {
  const { baseUrl, browser, page } = await open(t, DESKTOP, '#/projects/1', false,
    [...ledgerProjects(), totalsOnlyProject()])
  const credits = page.getByRole('region', { name: 'Credits' })
  await credits.waitFor()
  assert.deepEqual(await pairs(credits.locator('dl.credit-totals')), {
    Issued: '5,300 t CO₂e',
    Retired: '1,800 t CO₂e',
    Cancelled: '50 t CO₂e',
    'First issuance': 'Mar 15, 2019',
    'First retirement': 'Sep 30, 2020'
  })
  // The project's other registry fields beside its credits.
  const facts = await pairs(page.locator('dl.fields'))
  assert.deepEqual([facts['Category'], facts['Project type'], facts['Methodology'], facts['Status'], facts['Market'],
    facts['Listed']],
  ['Forest', 'Mangrove restoration', 'VM0033, CDM AR-AM0014', 'Registered', 'Voluntary', 'Nov 2, 2017'])
  const origin = credits.locator('.credits-origin')
  await origin.filter({ hasText: /28 transactions/ }).waitFor()
  assert.match(await origin.textContent() ?? '', /registry's ledger as imported/)

  // No ledger and no totals: said so, not shown as 0.
  await page.goto(`${baseUrl}/#/projects/2`)
  await page.getByRole('heading', { level: 1, name: 'Savanna Fire Management' }).waitFor()
  assert.deepEqual(await pairs(page.locator('dl.credit-totals')),
    { Issued: 'not reported', Retired: 'not reported', Cancelled: 'not reported' })
  assert.match(await page.getByRole('region', { name: 'Credits' }).textContent() ?? '', /no transactions/i)
  assert.equal(await page.getByRole('table').count(), 0, 'no empty charts or tables')

  // Totals from the registry's project data, without a ledger: said so, and no empty search.
  await page.goto(`${baseUrl}/#/projects/8`)
  await page.getByRole('heading', { level: 1, name: 'Totals Only Grassland' }).waitFor()
  const ledger = page.getByRole('region', { name: 'Ledger' })
  await ledger.locator('.ledger-summary').filter({ hasText: 'No transaction of this project was imported.' }).waitFor()
  assert.equal(await ledger.getByLabel('Beneficiary').isVisible(), false)
  assert.match(await page.locator('.credits-origin').textContent() ?? '',
    /registry's project data gives them: no ledger of transactions was imported/)
  assert.equal((await pairs(page.locator('dl.credit-totals')))['Issued'], '700 t CO₂e')
  assert.deepEqual(browser.problems, [])
})

test('project page: issuance and retirement per year and per vintage, drawn to scale, with tables of the same numbers',
  async (t) => {
    const { browser, page } = await open(t)
    const perYear = page.getByRole('table', { name: /per year/i })
    const perVintage = page.getByRole('table', { name: /per vintage/i })
    await perYear.waitFor({ state: 'attached' })
    await perVintage.waitFor({ state: 'attached' })
    assert.deepEqual(await perYear.locator('thead th').allTextContents(),
      ['Year', 'Issued (t CO₂e)', 'Retired (t CO₂e)'])
    assert.equal(await perYear.locator('thead th[scope="col"]').count(), 3)
    assert.equal(await perYear.locator('tbody th[scope="row"]').count(), 4)
    assert.deepEqual(await rowsOf(perYear), [
      ['2019', '1,000', '0'],
      ['2020', '2,500', '400'],
      ['2021', '1,500', '1,300'],
      ['2022', '0', '100']
    ])
    assert.deepEqual(await perVintage.locator('thead th').allTextContents(),
      ['Vintage', 'Issued (t CO₂e)', 'Retired (t CO₂e)'])
    assert.deepEqual(await rowsOf(perVintage), [
      ['2018', '1,000', '500'],
      ['2019', '2,500', '1,200'],
      ['2020', '1,500', '100'],
      ['2021', '300', '0']
    ])
    // The undated issuance of 300 is in no year: the chart says so instead of dropping it silently.
    assert.match(await page.locator('#chart-year').textContent() ?? '', /1 transaction has no date[^.]*300 t CO₂e/)

    // The bars: one per year and series, their lengths in proportion to the numbers (2,500 / 1,000 = 2.5,
    // 1,300 / 100 = 13), the chart hidden from screen readers (the table says the same).
    const widths = async (selector: string) => await page.locator(selector).evaluateAll((bars) =>
      bars.map((bar) => Number(bar.getAttribute('width'))))
    const issued = await widths('#chart-year svg .bar-issued')
    const retired = await widths('#chart-year svg .bar-retired')
    assert.equal(issued.length, 4)
    assert.equal(retired.length, 4)
    assert.ok(Math.abs((issued[1] ?? 0) / (issued[0] ?? 1) - 2.5) < 0.01, issued.join(' '))
    assert.ok(Math.abs((retired[2] ?? 0) / (retired[3] ?? 1) - 13) < 0.05, retired.join(' '))
    assert.equal(issued[3], 0)
    assert.equal(await page.locator('#chart-year svg').getAttribute('aria-hidden'), 'true')
    const vintageIssued = await widths('#chart-vintage svg .bar-issued')
    assert.ok(Math.abs((vintageIssued[1] ?? 0) / (vintageIssued[3] ?? 1) - 2500 / 300) < 0.05,
      vintageIssued.join(' '))

    // The table is read by screen readers but shown only on request, in the chart's place.
    const yearTable = page.locator('#chart-year .chart-table-wrap')
    assert.ok(((await yearTable.boundingBox())?.width ?? 0) <= 1, 'visually hidden until asked for')
    await page.locator('#chart-year').getByRole('button', { name: 'Show as a table' }).click()
    assert.ok(((await yearTable.boundingBox())?.width ?? 0) > 100, 'shown')
    assert.equal(await page.locator('#chart-year svg').isVisible(), false, 'the chart makes way')
    await page.locator('#chart-year').getByRole('button', { name: 'Show as a chart' }).click()
    assert.ok(await page.locator('#chart-year svg').isVisible())
    await screenshot(page, 'credits-charts')
    assert.deepEqual(browser.problems, [])
  })

test('project page: the ledger, paged with the API\'s next and previous links, searched by beneficiary and type',
  async (t) => {
    const { browser, page } = await open(t)
    const answers: Array<{ url: string, next: string | null, previous: string | null }> = []
    page.on('response', (response) => {
      if (!/\/products\/1\/transactions\/\?/.test(response.url()) || !response.ok()) return
      response.json().then((body: { next: string | null, previous: string | null }) =>
        answers.push({ url: response.url(), next: body.next, previous: body.previous }), () => {})
    })
    const ledger = page.getByRole('region', { name: 'Ledger' })
    const summary = ledger.locator('.ledger-summary')
    await summary.filter({ hasText: 'Transactions 1–20 of 28.' }).waitFor()
    const table = ledger.getByRole('table')
    assert.deepEqual(await table.locator('thead th').allTextContents(),
      ['Date', 'Type', 'Vintage', 'Quantity (t CO₂e)', 'Beneficiary', 'Reason', 'Source'])
    const first = await rowsOf(table)
    assert.equal(first.length, 20)
    // Newest first: the last of the twenty café retirements (2022-04-20, line 29).
    assert.deepEqual(first[0], ['Apr 20, 2022', 'Retirement', '2020', '5', 'Green Cafe Ltd', 'Coffee roasting',
      'registry-a/retirements.csv, line 29'])

    const pageOne = answers.find((answer) => answer.previous === null && answer.next !== null)
    await ledger.getByRole('button', { name: 'Next' }).click()
    await summary.filter({ hasText: 'Transactions 21–28 of 28.' }).waitFor()
    assert.equal(await inPage(page, 'document.activeElement?.className'), 'ledger-summary', 'focus on the new page')
    const second = await rowsOf(table)
    // The second page's rows by their date, type and quantity cells.
    assert.deepEqual(second.map((row) => `${row[0]} | ${row[1]} | ${row[3]}`), [
      'Jan 12, 2022 | Cancellation | 50',
      'Nov 20, 2021 | Retirement | 100',
      'May 5, 2021 | Retirement | 1,200',
      'Feb 10, 2021 | Issuance | 1,500',
      'Sep 30, 2020 | Retirement | 400',
      'Jun 1, 2020 | Issuance | 2,500',
      'Mar 15, 2019 | Issuance | 1,000',
      'No date | Issuance | 300'
    ])
    assert.ok(pageOne?.next !== undefined, 'the first page came from the API')
    const asked = answers.at(-1)?.url ?? ''
    const link = new URL(pageOne.next ?? '')
    assert.equal(new URL(asked).pathname + new URL(asked).search, link.pathname + link.search,
      'Next followed the API\'s next link')
    assert.equal(await ledger.getByRole('button', { name: 'Next' }).count(), 0, 'no next page after the last')
    await ledger.getByRole('button', { name: 'Previous' }).click()
    await summary.filter({ hasText: 'Transactions 1–20 of 28.' }).waitFor()

    // A search's answer drawn: the results are marked busy before the request and unmarked once it is drawn.
    const searched = async (act: () => Promise<void>, wanted: Record<string, string>) => {
      const answer = page.waitForResponse((response) => {
        const query = new URL(response.url()).searchParams
        return response.url().includes('/products/1/transactions/') &&
          [...query.keys()].every((name) => name === 'limit' || query.get(name) === wanted[name]) &&
          Object.keys(wanted).every((name) => query.has(name))
      })
      await act()
      await answer
      await ledger.locator('.ledger-results:not([aria-busy])').waitFor()
    }

    // The beneficiary search: within this project only, case and accents ignored.
    await ledger.getByLabel('Beneficiary').fill('acme')
    await ledger.getByRole('button', { name: 'Search the ledger' }).click()
    await summary.filter({ hasText: 'Transactions 1–2 of 2.' }).waitFor()
    // Focus stays in the form; screen readers are told the outcome.
    await page.locator('#status').filter({ hasText: 'Transactions 1–2 of 2.' }).waitFor({ state: 'attached' })
    assert.deepEqual((await rowsOf(table)).map((row) => [row[0], row[3], row[4]]), [
      ['Nov 20, 2021', '100', 'Acme Airlines'],
      ['Sep 30, 2020', '400', 'Acme Airlines']
    ])
    await ledger.getByLabel('Beneficiary').fill('societe')
    await searched(async () => { await ledger.getByLabel('Beneficiary').press('Enter') }, { search: 'societe' })
    await summary.filter({ hasText: 'Transactions 1–1 of 1.' }).waitFor()
    assert.equal((await rowsOf(table))[0]?.[4], 'Société Générale')

    // The type filter, alone and with a search that matches nothing.
    await ledger.getByLabel('Beneficiary').fill('')
    await ledger.getByLabel('Type').selectOption('cancellation')
    await searched(async () => { await ledger.getByRole('button', { name: 'Search the ledger' }).click() },
      { type: 'cancellation' })
    await summary.filter({ hasText: 'Transactions 1–1 of 1.' }).waitFor()
    assert.deepEqual((await rowsOf(table))[0]?.slice(1, 6),
      ['Cancellation', '2020', '50', '', 'Double issuance corrected'])
    await ledger.getByLabel('Beneficiary').fill('nobody at all')
    await ledger.getByRole('button', { name: 'Search the ledger' }).click()
    await summary.filter({ hasText: 'No transaction matches.' }).waitFor()
    assert.equal(await ledger.getByRole('table').count(), 0)
    await screenshot(page, 'credits-ledger')
    assert.deepEqual(browser.problems, [])
  })

test('the chart per year: a ledger of 20 or fewer needs no request of its own, a type it lacks or never dates is not ' +
  'reported, and one over 3,000 transactions is not charted per year',
async (t) => {
  const records = [...ledgerProjects(), largeLedgerProject(), issuedOnlyProject(), undatedRetirementsProject()]
  const { baseUrl, key, browser, page } = await serviceAndPage(t, { records }, DESKTOP)
  await page.addInitScript(`localStorage.setItem('tonne.apiKey', ${JSON.stringify(key)})`)
  const ledgerRequests: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/transactions/')) ledgerRequests.push(request.url())
  })

  // Hill Country Cookstoves: 3 transactions, all in the ledger's first page. 2017: 800 issued; 2018: 200 retired
  // (the 60 cancelled are not charted).
  await page.goto(`${baseUrl}/#/projects/3`)
  const perYear = page.getByRole('table', { name: /per year/i })
  await perYear.waitFor({ state: 'attached' })
  assert.deepEqual(await rowsOf(perYear), [['2017', '800', '0'], ['2018', '0', '200']])
  assert.equal(ledgerRequests.length, 1, ledgerRequests.join(' '))

  // Solar Rooftops: issuances only, so what was retired is not reported, in the totals and in every year.
  ledgerRequests.length = 0
  await page.goto(`${baseUrl}/#/projects/6`)
  await page.getByRole('heading', { level: 1, name: 'Solar Rooftops' }).waitFor()
  await perYear.waitFor({ state: 'attached' })
  assert.deepEqual(await rowsOf(perYear), [['2021', '500', 'not reported']])
  assert.equal(await page.locator('dl.credit-totals dd').nth(1).textContent(), 'not reported')
  assert.equal(ledgerRequests.length, 1, ledgerRequests.join(' '))

  // Undated Retirements Forest: no retirement has a date, so none is in a year (not 0 in each); the note counts it.
  await page.goto(`${baseUrl}/#/projects/7`)
  await page.getByRole('heading', { level: 1, name: 'Undated Retirements Forest' }).waitFor()
  await perYear.waitFor({ state: 'attached' })
  assert.deepEqual(await rowsOf(perYear), [['2019', '1,000', 'not reported']])
  assert.match(await page.locator('#chart-year').textContent() ?? '',
    /1 transaction has no date \(400 t CO₂e retired\)/)

  ledgerRequests.length = 0
  await page.goto(`${baseUrl}/#/projects/5`)
  await page.locator('.ledger-summary').filter({ hasText: 'Transactions 1–20 of 3,001.' }).waitFor()
  await page.locator('#chart-year').filter({ hasText: /3,001 transactions: too many to chart per year/ }).waitFor()
  assert.equal(await page.getByRole('table', { name: /per year/i }).count(), 0)
  // No retirement in its ledger: retired is unknown (the registry's retirements may not have been imported), not 0.
  assert.deepEqual(await rowsOf(page.getByRole('table', { name: /per vintage/i })),
    [['2020', '3,001', 'not reported']])
  assert.equal(ledgerRequests.length, 1, 'only the ledger\'s first page was asked for')
  assert.deepEqual(browser.problems, [])
})

test('project page: when the ledger is refused (429), the totals stay and the ledger says why, with "Try again"',
  async (t) => {
    const { baseUrl, key } = await startService(t, {
      records: ledgerProjects(), env: { RATE_LIMIT_CATALOGUE: '1' }
    })
    const browser = await launchBrowser(t)
    const page = await browser.newPage(DESKTOP)
    await page.addInitScript(`localStorage.setItem('tonne.apiKey', ${JSON.stringify(key)})`)
    // The project takes the one request a minute; its ledger is refused.
    await page.goto(`${baseUrl}/#/projects/1`)
    const ledger = page.getByRole('region', { name: 'Ledger' })
    await ledger.locator('.problem[data-status="429"]').waitFor()
    assert.match(await ledger.textContent() ?? '', /Too many requests[\s\S]*Try again/)
    assert.deepEqual(await pairs(page.locator('dl.credit-totals')), {
      Issued: '5,300 t CO₂e',
      Retired: '1,800 t CO₂e',
      Cancelled: '50 t CO₂e',
      'First issuance': 'Mar 15, 2019',
      'First retirement': 'Sep 30, 2020'
    })
    assert.match(await page.locator('#chart-year').textContent() ?? '', /needs the ledger, which did not load/)
    assert.equal(await page.locator('#alerts').textContent(), '', 'the page\'s own alert stays for the page')
    assert.deepEqual(browser.problems, [])
  })

test('credits on a phone and in dark mode: no sideways scrolling, no layout shift, axe finds nothing', async (t) => {
  const { browser, page } = await open(t, PHONE, '#/projects/1', true)
  const url = page.url()
  await page.locator('.ledger-summary').filter({ hasText: /of 28/ }).waitFor()
  await page.locator('#chart-year svg .bar-issued').first().waitFor()
  assert.ok(await layoutShift(page) < 0.1, `layout shift ${await layoutShift(page)}`)
  assert.ok(Number(await inPage(page, 'document.documentElement.scrollWidth')) <= PHONE.width,
    'no sideways scrolling on a phone')
  assert.deepEqual(await axeViolations(page), [], 'phone, light')
  assert.deepEqual(await accessibilityProblems(page), [], 'phone, light')
  await screenshot(page, 'credits-phone')
  await page.locator('#chart-year').getByRole('button', { name: 'Show as a table' }).click()
  assert.ok(Number(await inPage(page, 'document.documentElement.scrollWidth')) <= PHONE.width, 'table on a phone')
  assert.deepEqual(await axeViolations(page), [], 'phone, the table shown')
  assert.deepEqual(await accessibilityProblems(page), [], 'phone, the table shown')

  for (const viewport of [DESKTOP, PHONE]) {
    const dark = await browser.newPage(viewport)
    await dark.emulateMedia({ colorScheme: 'dark' })
    await dark.goto(url)
    await dark.locator('.ledger-summary').filter({ hasText: /of 28/ }).waitFor()
    await dark.locator('#chart-year svg .bar-issued').first().waitFor()
    assert.deepEqual(await axeViolations(dark), [], `dark, ${viewport.width} px`)
    assert.deepEqual(await accessibilityProblems(dark), [], `dark, ${viewport.width} px`)
    await screenshot(dark, `credits-dark-${viewport.width}`)
  }
  assert.deepEqual(browser.problems, [])
})

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
