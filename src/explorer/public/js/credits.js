// A project's credits: its totals, bar charts of issuance and retirement per year and per vintage (inline SVG drawn
// here, each with a table of the same numbers), and its ledger, paged with the API's own next and previous links.
import { apiDownload, apiGet } from './api.js'
import { announce, formatDate, formatNumber, h, humanize, replaceChildren } from './dom.js'
import { clearError, showError } from './errors.js'

const PRODUCTS = '/api/v1/commerce/products/'
/** Credits are tonnes of CO₂ equivalent (docs/api.md). */
const UNIT = 't CO₂e'
const LEDGER_PAGE_SIZE = 20
/**
 * The per-year chart sums the whole ledger, read in pages of CHART_PAGE_SIZE (the API's largest page) up to
 * CHART_MAX transactions: at most 3 requests, so a project page stays within a key's 6 requests a minute
 * (docs/explorer.md). A larger ledger is not charted per year; the per-vintage chart still covers it.
 */
const CHART_PAGE_SIZE = 1000
const CHART_MAX = 3000
const TYPES = ['issuance', 'retirement', 'cancellation']

/**
 * "1,234 t CO₂e", or "not reported" where the data does not say (never 0 for an unknown).
 * @param {number | null | undefined} value
 */
export function creditQuantity (value) {
  return value === null || value === undefined ? 'not reported' : `${formatNumber(value)} ${UNIT}`
}

/** Statuses of a project that has not reached issuance: its lack of credits is told by them. */
const NOT_YET_ISSUING = /^(under validation|under development|listed|validation|not assigned)$/i

/**
 * The line of a list card: credits issued and retired. A project without either says so once, and why where its
 * status tells (a project under validation has issued nothing yet), instead of "not reported" twice.
 * @param {any} project a list item
 */
export function creditsLine (project) {
  const issued = project.credits_issued
  const retired = project.credits_retired
  if ((issued === null || issued === undefined) && (retired === null || retired === undefined)) {
    const status = typeof project.status === 'string' ? project.status.trim() : ''
    return h('p', { class: 'credits credits-none' }, NOT_YET_ISSUING.test(status)
      ? `No credits issued yet: the project is ${status.toLowerCase()}.`
      : 'No credit figures in the imported registry data.')
  }
  return h('p', { class: 'credits' },
    `Issued: ${creditQuantity(issued)} · Retired: ${creditQuantity(retired)}`)
}

/** @param {string | null | undefined} iso */
function dateOrNot (iso) {
  return iso === null || iso === undefined ? 'not reported' : formatDate(iso)
}

/** @typedef {{ label: string, issued: number | null, retired: number | null }} ChartRow */

/**
 * The project page's credits: a section (totals and charts) to put under the facts and one for the ledger, and
 * `start`, to call once both are in the page (the charts are drawn for their width).
 * @param {any} project the detail answer
 * @param {AbortSignal} signal
 */
export function projectCredits (project, signal) {
  const credits = project.credits ?? {}
  const totals = {
    issued: project.credits_issued ?? credits.issued ?? null,
    retired: project.credits_retired ?? credits.retired ?? null,
    cancelled: project.credits_cancelled ?? credits.cancelled ?? null
  }
  // Totals are sums of the ledger wherever one was imported: none at all means there are no transactions to ask for.
  const anyTotal = Object.values(totals).some((value) => value !== null)
  const origin = h('p', { class: 'credits-origin' }, anyTotal
    ? 'Where these totals come from: loading the project\'s ledger…'
    : 'The imported registry data reports no credits and no transactions for this project.')
  /** @type {ChartRow[]} */
  const vintageRows = (credits.vintages ?? []).map((/** @type {any} */ v) =>
    ({ label: String(v.vintage), issued: v.issued ?? null, retired: v.retired ?? null }))
  const vintageChart = vintageRows.some((row) => row.issued !== null || row.retired !== null)
    ? chart('chart-vintage', 'Credits issued and retired per vintage', 'Vintage', vintageRows)
    : null
  const yearSlot = h('div', { id: 'chart-year', class: 'chart-slot' },
    anyTotal ? h('p', { class: 'loading' }, 'Loading the ledger for the chart per year…') : null)
  if (!anyTotal) yearSlot.hidden = true
  const section = h('section', { 'aria-labelledby': 'credits-heading', class: 'credits-section' },
    h('h2', { id: 'credits-heading' }, 'Credits'),
    h('dl', { class: 'credit-totals' },
      h('div', {}, h('dt', {}, 'Issued'), h('dd', {}, creditQuantity(totals.issued))),
      h('div', {}, h('dt', {}, 'Retired'), h('dd', {}, creditQuantity(totals.retired))),
      h('div', {}, h('dt', {}, 'Cancelled'), h('dd', {}, creditQuantity(totals.cancelled))),
      // The ledger's first dates, where there is a ledger to date.
      anyTotal
        ? h('div', {}, h('dt', {}, 'First issuance'), h('dd', {}, dateOrNot(project.first_issuance_date)))
        : null,
      anyTotal
        ? h('div', {}, h('dt', {}, 'First retirement'), h('dd', {}, dateOrNot(project.first_retirement_date)))
        : null),
    origin,
    yearSlot,
    vintageChart?.element)
  const ledger = ledgerSection(project, signal)
  const start = async () => {
    vintageChart?.draw()
    if (!anyTotal) {
      ledger.element.hidden = true
      return
    }
    // Also after "Try again", when the first load was refused.
    ledger.onFirstPage = async (first) => {
      describeOrigin(origin, project, first.count)
      await chartPerYear(yearSlot, project, first, signal)
    }
    const first = await ledger.load()
    if (signal.aborted || first !== undefined) return
    origin.textContent = 'Where these totals come from is told by the ledger, which did not load.'
    replaceChildren(yearSlot, h('p', { class: 'chart-note' }, 'The chart per year needs the ledger, which did ' +
      'not load. The chart per vintage and the totals above are complete.'))
  }
  return { section, ledger: ledger.element, start }
}

/**
 * @param {HTMLElement} origin
 * @param {any} project
 * @param {number} count transactions in the project's ledger
 */
function describeOrigin (origin, project, count) {
  const files = [...new Set((project.source ?? []).map((/** @type {any} */ s) => s.file))]
  const from = files.length === 0 ? '' : ` The project's data was imported from ${files.join(', ')}.`
  origin.textContent = count === 0
    ? `As the registry's project data gives them: no ledger of transactions was imported for this project.${from}`
    : `From the registry's ledger as imported: the sums of its ${formatNumber(count)} ` +
      `${count === 1 ? 'transaction' : 'transactions'}, each listed under "Ledger" with the file and line it came ` +
      `from. A type the ledger has no transaction of is as the registry's project data gives it.${from}`
}

/**
 * The per-year chart from the whole ledger (the first page already read when it holds every transaction).
 * @param {HTMLElement} slot
 * @param {any} project
 * @param {any} first the ledger's first, unfiltered page
 * @param {AbortSignal} signal
 */
async function chartPerYear (slot, project, first, signal) {
  if (first.count === 0) {
    slot.hidden = true
    return
  }
  if (first.count > CHART_MAX) {
    replaceChildren(slot, h('p', { class: 'chart-note' }, `This project has ${formatNumber(first.count)} ` +
      `transactions: too many to chart per year here (the explorer charts up to ${formatNumber(CHART_MAX)}). The ` +
      'chart per vintage and the ledger cover them all.'))
    return
  }
  /** @type {any[]} */
  let transactions = first.results
  if (first.results.length < first.count) {
    transactions = []
    try {
      /** @type {string | null} */
      let next = null
      let page = await apiGet(`${PRODUCTS}${project.id}/transactions/`,
        { limit: CHART_PAGE_SIZE, ordering: 'date' }, { auth: true, signal })
      for (;;) {
        transactions.push(...page.results)
        next = page.next
        if (next === null || transactions.length >= CHART_MAX) break
        page = await apiGet(sameOrigin(next), {}, { auth: true, signal })
      }
    } catch (error) {
      if (signal.aborted) return
      replaceChildren(slot, h('p', { class: 'chart-note' }, 'The chart per year could not be drawn: the ledger did ' +
        'not load. The chart per vintage and the totals above are complete.'))
      return
    }
  }
  if (signal.aborted) return
  /** @type {Map<number, { issued: number, retired: number }>} */
  const years = new Map()
  const undated = { count: 0, issued: 0, retired: 0, cancelled: 0 }
  for (const t of transactions) {
    if (t.date === null) {
      undated.count += 1
      if (t.type === 'issuance') undated.issued += t.quantity
      else if (t.type === 'retirement') undated.retired += t.quantity
      else undated.cancelled += t.quantity
      continue
    }
    const year = Number(t.date.slice(0, 4))
    const sums = years.get(year) ?? { issued: 0, retired: 0 }
    if (t.type === 'issuance') sums.issued += t.quantity
    else if (t.type === 'retirement') sums.retired += t.quantity
    years.set(year, sums)
  }
  // A type with no dated transaction is unknown in every year (its export may not have been imported, or gives no
  // dates: the totals say the same); otherwise a year without a transaction of it is a real 0.
  const has = (/** @type {string} */ type) => transactions.some((t) => t.type === type && t.date !== null)
  const issuedKnown = has('issuance')
  const retiredKnown = has('retirement')
  /** @type {ChartRow[]} */
  const rows = []
  if (years.size > 0) {
    const known = [...years.keys()]
    for (let year = Math.min(...known); year <= Math.max(...known); year += 1) {
      const sums = years.get(year) ?? { issued: 0, retired: 0 }
      rows.push({
        label: String(year),
        issued: issuedKnown ? round(sums.issued) : null,
        retired: retiredKnown ? round(sums.retired) : null
      })
    }
  }
  const note = undated.count === 0 ? null : undatedNote(undated)
  if (rows.length === 0) {
    replaceChildren(slot, h('p', { class: 'chart-note' }, 'No transaction of this project has a date: there is no ' +
      'chart per year.', note === null ? '' : ` ${note}`))
    return
  }
  const figure = chart('chart-year-figure', 'Credits issued and retired per year of the transaction date', 'Year',
    rows, note)
  replaceChildren(slot, figure.element)
  figure.draw()
}

/** @param {{ count: number, issued: number, retired: number, cancelled: number }} undated */
function undatedNote (undated) {
  const amounts = [['issued', undated.issued], ['retired', undated.retired], ['cancelled', undated.cancelled]]
    .filter(([, value]) => Number(value) > 0)
    .map(([what, value]) => `${formatNumber(round(Number(value)))} ${UNIT} ${what}`)
  const what = amounts.length === 0 ? '' : ` (${amounts.join(', ')})`
  return undated.count === 1
    ? `1 transaction has no date${what} and is in no year of this chart.`
    : `${formatNumber(undated.count)} transactions have no date${what} and are in no year of this chart.`
}

/**
 * Sums of decimal quantities without binary noise (0.1 + 0.2 is 0.3); the API gives at most a few decimals.
 * @param {number} value
 */
function round (value) {
  return Math.round(value * 1e6) / 1e6
}

/**
 * The API's links are absolute URLs built from the request's host; the same path and query on this page's own
 * origin is what the page's CSP allows and what the link means.
 * @param {string} link
 */
function sameOrigin (link) {
  const url = new URL(link, location.href)
  return `${url.pathname}${url.search}`
}

/**
 * A bar chart with a table of the same numbers: the table is always there for screen readers (the drawing is
 * hidden from them) and is shown in the drawing's place with "Show as a table".
 * @param {string} id
 * @param {string} title
 * @param {string} rowHeader
 * @param {ChartRow[]} rows
 * @param {string | null} [note]
 */
function chart (id, title, rowHeader, rows, note = null) {
  const area = h('div', { class: 'chart-area' })
  const table = h('table', { class: 'chart-table' },
    h('caption', {}, title),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, rowHeader),
      h('th', { scope: 'col', class: 'number' }, `Issued (${UNIT})`),
      h('th', { scope: 'col', class: 'number' }, `Retired (${UNIT})`))),
    h('tbody', {}, rows.map((row) => h('tr', {},
      h('th', { scope: 'row' }, row.label),
      h('td', { class: 'number' }, tableNumber(row.issued)),
      h('td', { class: 'number' }, tableNumber(row.retired))))))
  // Hidden by its wrapper: a table keeps its content's width whatever its own, which would widen a phone's page.
  const tableWrap = h('div', { class: 'chart-table-wrap visually-hidden', id: `${id}-table` }, table)
  const legend = h('ul', { class: 'chart-legend', 'aria-hidden': 'true' },
    h('li', {}, h('span', { class: 'swatch swatch-issued' }), 'Issued'),
    h('li', {}, h('span', { class: 'swatch swatch-retired' }), 'Retired'))
  const toggle = /** @type {HTMLButtonElement} */ (h('button', {
    type: 'button', class: 'secondary chart-toggle', 'aria-controls': `${id}-table`
  }, 'Show as a table'))
  toggle.addEventListener('click', () => {
    const showTable = tableWrap.classList.contains('visually-hidden')
    tableWrap.classList.toggle('visually-hidden', !showTable)
    area.hidden = showTable
    legend.hidden = showTable
    toggle.textContent = showTable ? 'Show as a chart' : 'Show as a table'
    if (!showTable) draw()
  })
  const element = h('figure', { class: 'chart', id },
    h('figcaption', {}, h('span', { class: 'chart-title' }, title), toggle),
    legend, area, tableWrap,
    note === null ? null : h('p', { class: 'chart-note' }, note))
  let drawnWidth = 0
  const draw = () => {
    const width = area.clientWidth
    if (width === 0 || width === drawnWidth) return
    drawnWidth = width
    replaceChildren(area, bars(rows, width, getComputedStyle(area).font))
  }
  new ResizeObserver(() => draw()).observe(area)
  return { element, draw }
}

/** @param {number | null} value */
function tableNumber (value) {
  return value === null ? 'not reported' : formatNumber(value)
}

const ROW_HEIGHT = 34
const BAR_HEIGHT = 11

/**
 * Two bars a row (issued above retired), drawn to one scale from 0, each labelled with its number.
 * @param {ChartRow[]} rows
 * @param {number} width in CSS pixels: the drawing is not scaled, so its text stays the page's size
 * @param {string} font the chart's font, to measure its labels
 */
function bars (rows, width, font) {
  const measure = /** @type {CanvasRenderingContext2D} */ (document.createElement('canvas').getContext('2d'))
  measure.font = font
  const textWidth = (/** @type {string} */ text) => measure.measureText(text).width
  const values = rows.flatMap((row) => [row.issued, row.retired]).filter((value) => value !== null)
  const largest = Math.max(0, ...values.map(Number))
  const labelWidth = Math.ceil(Math.max(...rows.map((row) => textWidth(row.label)))) + 12
  const valueWidth = Math.ceil(Math.max(textWidth('not reported'),
    ...values.map((value) => textWidth(formatNumber(value))))) + 8
  const room = Math.max(0, width - labelWidth - valueWidth)
  const height = rows.length * ROW_HEIGHT
  const series = (/** @type {ChartRow} */ row, /** @type {'issued' | 'retired'} */ which, /** @type {number} */ y) => {
    const value = row[which]
    const length = value === null || largest === 0 ? 0 : (value / largest) * room
    const label = value === null ? 'not reported' : formatNumber(value)
    return [
      value === null
        ? null
        : h('rect', { class: `bar-${which}`, x: labelWidth, y, width: round(length), height: BAR_HEIGHT },
          h('title', {}, `${row.label}: ${label} ${UNIT} ${which}`)),
      h('text', { class: 'bar-value', x: labelWidth + length + 4, y: y + BAR_HEIGHT / 2 }, label)
    ]
  }
  return h('svg', {
    width, height, viewBox: `0 0 ${width} ${height}`, 'aria-hidden': 'true', focusable: 'false'
  },
  rows.map((row, i) => {
    const top = i * ROW_HEIGHT
    return h('g', {},
      h('text', { class: 'bar-label', x: 0, y: top + ROW_HEIGHT / 2 - 2 }, row.label),
      series(row, 'issued', top + 4),
      series(row, 'retired', top + 4 + BAR_HEIGHT + 2))
  }),
  h('line', { class: 'axis', x1: labelWidth - 0.5, x2: labelWidth - 0.5, y1: 0, y2: height }))
}

/**
 * The ledger: a search by beneficiary, a type filter, and pages that follow the API's next and previous links.
 * @param {any} project
 * @param {AbortSignal} signal
 */
function ledgerSection (project, signal) {
  const path = `${PRODUCTS}${project.id}/transactions/`
  const alerts = h('div', { class: 'ledger-alerts' })
  const results = h('div', { class: 'ledger-results' },
    h('p', { class: 'loading' }, 'Loading the ledger…'))
  const form = /** @type {HTMLFormElement} */ (h('form', {
    class: 'filters ledger-filters', role: 'search', 'aria-label': 'Search the ledger'
  },
  h('div', { class: 'form-grid' },
    h('div', {},
      h('label', { for: 'ledger-search' }, 'Beneficiary'),
      h('input', {
        id: 'ledger-search',
        name: 'search',
        type: 'search',
        maxlength: 200,
        autocomplete: 'off',
        placeholder: 'A name, or part of one'
      })),
    h('div', {},
      h('label', { for: 'ledger-type' }, 'Type'),
      h('select', { id: 'ledger-type', name: 'type' },
        h('option', { value: '' }, 'Every type'),
        TYPES.map((type) => h('option', { value: type }, humanize(type)))))),
  h('div', { class: 'form-actions' }, h('button', { type: 'submit' }, 'Search the ledger'),
    h('button', { type: 'button', class: 'secondary download', onclick: () => download() }, 'Download CSV'))))
  const element = h('section', { 'aria-labelledby': 'ledger-heading', class: 'ledger' },
    h('h2', { id: 'ledger-heading' }, 'Ledger'),
    h('p', {}, 'Every issuance, retirement and cancellation of this project\'s credits in the registry\'s exports ' +
      'as imported, newest first, with the file and line each came from.'),
    form, alerts, results)
  /** @type {AbortController | undefined} */
  let pending
  // The unfiltered first page tells the totals' origin and feeds the chart per year, once.
  let firstSeen = false
  /**
   * @param {string} url
   * @param {boolean} focus move focus to the new page's summary (after Next or Previous)
   * @param {boolean} [announced] tell screen readers the new summary (after a search)
   */
  const show = async (url, focus, announced = false) => {
    pending?.abort()
    const controller = new AbortController()
    pending = controller
    const abort = () => controller.abort()
    signal.addEventListener('abort', abort, { once: true })
    results.setAttribute('aria-busy', 'true')
    try {
      const page = await apiGet(url, {}, { auth: true, signal: controller.signal })
      clearError(alerts)
      drawPage(page, url, focus, announced)
      if (url === firstUrl && !firstSeen) {
        firstSeen = true
        // Nothing to search in an empty ledger.
        form.hidden = page.count === 0
        section.onFirstPage(page).catch((error) => { if (!signal.aborted) showError(error) })
      }
      return page
    } catch (error) {
      if (controller.signal.aborted) return undefined
      // After Previous or Next at the foot of the table, the message goes by the pager, where the person is.
      const pagerNav = focus ? results.querySelector('.pager') : null
      if (pagerNav !== null) pagerNav.after(alerts)
      else form.after(alerts)
      showError(error, { region: alerts, retry: () => { show(url, focus, announced) } })
      if (pagerNav !== null) revealMessage(alerts)
      return undefined
    } finally {
      signal.removeEventListener('abort', abort)
      if (pending === controller) results.removeAttribute('aria-busy')
    }
  }
  /**
   * @param {any} page
   * @param {string} url
   * @param {boolean} focus
   * @param {boolean} announced
   */
  const drawPage = (page, url, focus, announced) => {
    const offset = Number(new URL(url, location.href).searchParams.get('offset') ?? 0)
    const none = url === firstUrl ? 'No transaction of this project was imported.' : 'No transaction matches.'
    const summary = h('p', { class: 'ledger-summary', tabindex: '-1' }, page.results.length === 0
      ? (page.count === 0 ? none : `No transactions on this page; ${page.count} match in all.`)
      : `Transactions ${formatNumber(offset + 1)}–${formatNumber(offset + page.results.length)} of ` +
        `${formatNumber(page.count)}.`)
    const link = (/** @type {string} */ text, /** @type {string | null} */ target) => target === null
      ? h('span', { class: 'disabled' }, text)
      : h('button', { type: 'button', class: 'secondary', onclick: () => { show(sameOrigin(target), true) } }, text)
    replaceChildren(results, summary,
      page.results.length === 0
        ? null
        : h('div', { class: 'table-wrap' }, ledgerTable(page.results, 'Transactions of this project\'s ledger')),
      page.next === null && page.previous === null
        ? null
        : h('nav', { class: 'pager', 'aria-label': 'Ledger pages' },
          link('Previous', page.previous), link('Next', page.next)))
    if (focus) {
      summary.scrollIntoView({ block: 'start' })
      summary.focus({ preventScroll: true })
    } else if (announced) {
      // A search leaves focus in its form: its outcome is told to screen readers instead.
      announce(summary.textContent ?? '')
    }
  }
  const query = (/** @type {Record<string, string>} */ filters) => {
    const params = new URLSearchParams({ limit: String(LEDGER_PAGE_SIZE) })
    for (const [name, value] of Object.entries(filters)) if (value !== '') params.set(name, value)
    return `${path}?${params}`
  }
  const filters = () => {
    const data = new FormData(form)
    return { search: String(data.get('search') ?? '').trim(), type: String(data.get('type') ?? '') }
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    show(query(filters()), false, true)
  })
  // Every transaction the search and type select, named by the service after them.
  const download = () => {
    apiDownload(path, { ...filters(), format: 'csv' }, `project-${project.id}-transactions.csv`)
      .catch((error) => showError(error, { region: alerts }))
  }
  const firstUrl = query({})
  const section = {
    element,
    load: async () => await show(firstUrl, false),
    /** @type {(page: any) => Promise<void>} */
    onFirstPage: async () => {}
  }
  return section
}

/**
 * A message shown away from the top of the page (a refusal after paging): scrolled into view and focused.
 * @param {HTMLElement} region
 */
export function revealMessage (region) {
  const heading = /** @type {HTMLElement | null} */ (region.querySelector('h2'))
  if (heading === null) return
  heading.tabIndex = -1
  heading.scrollIntoView({ block: 'center' })
  heading.focus({ preventScroll: true })
}

/**
 * A source file's path, breakable after each "/" (not inside a word), so a long one wraps instead of widening the
 * table.
 * @param {{ file: string, line: number | null } | null} source
 */
function sourceText (source) {
  if (source === null) return ''
  const parts = source.file.split('/')
  // One element: on a phone the cell is a grid of its label and this.
  return h('span', {}, parts.map((part, i) => i < parts.length - 1 ? [`${part}/`, h('wbr')] : part),
    source.line === null ? '' : `, line ${source.line}`)
}

/**
 * The ledger's table; with `withProject`, a first column names each transaction's project (the whole ledger).
 * @param {any[]} transactions
 * @param {string} caption
 * @param {boolean} [withProject]
 */
export function ledgerTable (transactions, caption, withProject = false) {
  const headers = [...(withProject ? ['Project'] : []), 'Date', 'Type', 'Vintage', `Quantity (${UNIT})`,
    'Beneficiary', 'Reason', 'Source']
  const classes = [...(withProject ? ['project'] : []), 'date', 'type', 'vintage', 'number', 'beneficiary',
    'reason', 'source']
  return h('table', { class: `ledger-table${withProject ? ' with-project' : ''}` },
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, headers.map((text, i) =>
      h('th', { scope: 'col', class: classes[i] }, text)))),
    h('tbody', {}, transactions.map((t) => {
      const cells = [
        ...(withProject
          ? [h('a', { href: `#/projects/${t.project_id}` }, t.project_name || `Project ${t.project_id}`,
              t.project_external_id ? h('span', { class: 'registry-id' }, ` (${t.project_external_id})`) : null)]
          : []),
        t.date === null ? 'No date' : formatDate(t.date),
        humanize(t.type),
        t.vintage === null ? '' : String(t.vintage),
        formatNumber(t.quantity),
        t.beneficiary ?? '',
        t.reason ?? '',
        sourceText(t.source)
      ]
      return h('tr', {}, cells.map((content, i) => h('td', { 'data-label': headers[i], class: classes[i] }, content)))
    })))
}
