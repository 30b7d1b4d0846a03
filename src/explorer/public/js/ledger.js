// The whole ledger, "who retired what" across the catalogue's projects: filters and a beneficiary search driven by
// the URL's hash (#/ledger?type=retirement&registry=VERRA…), the totals of the filtered set, pages of transactions
// naming each one's project, and the filtered set as CSV.
import { ApiError, apiDownload, apiGet } from './api.js'
import { formatNumber, h, humanize, replaceChildren } from './dom.js'
import { ledgerTable, revealMessage } from './credits.js'
import { clearError, showError } from './errors.js'
import { handleCatalogueError, haveKey } from './catalogue.js'

const TRANSACTIONS = '/api/v1/commerce/transactions/'
const FACETS = '/api/v1/commerce/products/facets/'
const PAGE_SIZE = 20
const TYPES = ['issuance', 'retirement', 'cancellation']
/** The filters the view reads from the URL, as the API names them. */
const FILTERS = ['type', 'registry', 'vintage', 'date_after', 'date_before', 'search']
const UNIT = 't CO₂e'

/** Registries with their names, asked once per page load (the facets of the whole catalogue). */
/** @type {Promise<Array<{ value: string, label: string }>> | undefined} */
let registries

/**
 * @param {URLSearchParams} params
 * @returns {Record<string, string>}
 */
function queryOf (params) {
  /** @type {Record<string, string>} */
  const query = {}
  for (const name of [...FILTERS, 'offset']) {
    const value = params.get(name)?.trim()
    if (value !== undefined && value !== '' && !(name === 'offset' && value === '0')) query[name] = value
  }
  return query
}

/** @param {Record<string, string | undefined>} query */
function hashOf (query) {
  const search = new URLSearchParams()
  for (const name of [...FILTERS, 'offset']) {
    const value = query[name]
    if (value !== undefined && value !== '' && !(name === 'offset' && value === '0')) search.set(name, value)
  }
  return search.size === 0 ? '#/ledger' : `#/ledger?${search}`
}

/**
 * @param {string} name
 * @param {string} label
 * @param {HTMLElement} control
 */
function field (name, label, control) {
  return h('div', { 'data-field': name }, h('label', { for: `ledger-${name}` }, label), control)
}

/** @param {Record<string, string>} query */
function filterForm (query) {
  const input = (/** @type {string} */ name, /** @type {Record<string, any>} */ attributes) =>
    h('input', { id: `ledger-${name}`, name, value: query[name] ?? '', autocomplete: 'off', ...attributes })
  const form = /** @type {HTMLFormElement} */ (h('form', {
    class: 'filters', id: 'ledger-filters', role: 'search', 'aria-label': 'Filter the ledger'
  },
  h('div', { class: 'form-grid' },
    field('search', 'Beneficiary', input('search', {
      type: 'search', maxlength: 200, placeholder: 'A name, or part of one'
    })),
    field('type', 'Type', h('select', { id: 'ledger-type', name: 'type' },
      h('option', { value: '' }, 'Every type'), TYPES.map((type) => h('option', { value: type }, humanize(type))))),
    field('registry', 'Registry', h('select', { id: 'ledger-registry', name: 'registry' },
      h('option', { value: '' }, 'Every registry'),
      query['registry'] ? h('option', { value: query['registry'] }, query['registry']) : null)),
    field('vintage', 'Vintage', input('vintage', { type: 'number', min: 1000, max: 9999, inputmode: 'numeric' })),
    field('date_after', 'From (date)', input('date_after', { type: 'date' })),
    field('date_before', 'To (date)', input('date_before', { type: 'date' }))),
  h('div', { class: 'form-actions' },
    h('button', { type: 'submit' }, 'Apply'),
    h('a', { class: 'button secondary', href: '#/ledger' }, 'Clear all filters'))))
  for (const name of ['type', 'registry']) {
    const select = /** @type {HTMLSelectElement} */ (form.querySelector(`#ledger-${name}`))
    select.value = query[name] ?? ''
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    /** @type {Record<string, string>} */
    const next = {}
    for (const [name, value] of new FormData(form)) next[name] = String(value).trim()
    location.hash = hashOf(next)
  })
  return form
}

/**
 * The registry select's options, with their names, once known.
 * @param {HTMLFormElement} form
 * @param {string | undefined} active
 * @param {AbortSignal} signal
 */
async function fillRegistries (form, active, signal) {
  registries ??= apiGet(FACETS, {}, { auth: true }).then((answer) => answer.facets?.registry ?? [])
  registries.catch(() => { registries = undefined })
  const values = await registries.catch(() => [])
  if (signal.aborted || values.length === 0) return
  const select = /** @type {HTMLSelectElement} */ (form.querySelector('#ledger-registry'))
  select.replaceChildren(h('option', { value: '' }, 'Every registry'),
    ...values.map((/** @type {any} */ v) => h('option', { value: v.value }, v.label)))
  select.value = active === undefined
    ? ''
    : values.find((/** @type {any} */ v) => v.value.toLowerCase() === active.toLowerCase())?.value ?? active
}

/** @param {any} totals */
function totalsList (totals) {
  const line = (/** @type {string} */ label, /** @type {{ count: number, quantity: number }} */ total) =>
    h('div', {}, h('dt', {}, label), h('dd', {}, `${formatNumber(total.quantity)} ${UNIT}`,
      h('span', { class: 'registry-id' }, ` in ${formatNumber(total.count)} ` +
        `${total.count === 1 ? 'transaction' : 'transactions'}`)))
  return h('dl', { class: 'ledger-totals', id: 'ledger-totals', 'aria-label': 'Totals of the matching transactions' },
    line('Issued', totals.by_type.issuance),
    line('Retired', totals.by_type.retirement),
    line('Cancelled', totals.by_type.cancellation))
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 * @param {{ signal: AbortSignal, rerender: () => void }} context
 */
export async function renderLedger (main, params, { signal, rerender }) {
  const heading = 'Credit ledger'
  document.title = `${heading} · Tonne explorer`
  if (!haveKey(main, heading, rerender)) return
  const query = queryOf(params)
  const { offset = '0', ...filters } = query
  const mounted = main.dataset['view'] === 'ledger'
  if (!mounted) {
    replaceChildren(main,
      h('h1', { tabindex: '-1' }, heading),
      h('p', { class: 'lede' }, 'Who retired what: every issuance, retirement and cancellation of the catalogue\'s ' +
        'projects, as the registries\' exports list them. Filter them, search by beneficiary, and download the ' +
        'selection as CSV.'),
      h('div', { id: 'ledger-form' }),
      h('div', { id: 'ledger-results', class: 'ledger-view' }, h('p', { class: 'loading' }, 'Loading the ledger…')))
    main.dataset['view'] = 'ledger'
  }
  const form = filterForm(query)
  replaceChildren(/** @type {HTMLElement} */ (main.querySelector('#ledger-form')), form)
  fillRegistries(form, query['registry'], signal)
  const results = /** @type {HTMLElement} */ (main.querySelector('#ledger-results'))
  results.setAttribute('aria-busy', 'true')
  let page
  let totals
  try {
    [page, totals] = await Promise.all([
      apiGet(TRANSACTIONS, { ...filters, offset, limit: PAGE_SIZE }, { auth: true, signal }),
      apiGet(`${TRANSACTIONS}totals/`, filters, { auth: true, signal })
    ])
  } catch (error) {
    if (signal.aborted) return
    results.removeAttribute('aria-busy')
    const rejected = error instanceof ApiError && error.status === 400
    if (rejected) {
      replaceChildren(results, h('p', { class: 'summary', id: 'summary', tabindex: '-1' },
        'No results: the service did not accept these filters.'))
      showError(error)
      return
    }
    // Paging from the foot of the table: the message is put where the person is (issue 36, item 4).
    const pagerNav = results.querySelector('.pager')
    const region = h('div', { class: 'ledger-alerts', id: 'ledger-alerts' })
    if (pagerNav !== null) {
      results.querySelector('#ledger-alerts')?.remove()
      pagerNav.after(region)
      showError(error, { region, retry: rerender })
      revealMessage(region)
      return
    }
    handleCatalogueError(main, error, heading, rerender)
    return
  }
  if (signal.aborted) return
  clearError()
  results.removeAttribute('aria-busy')
  const start = Number(offset)
  const summary = page.results.length === 0
    ? (page.count === 0
        ? 'No transaction matches these filters.'
        : `No transactions on this page; ${formatNumber(page.count)} match in all.`)
    : `Transactions ${formatNumber(start + 1)}–${formatNumber(start + page.results.length)} of ` +
      `${formatNumber(page.count)}.`
  const download = h('button', { type: 'button', class: 'secondary download' }, 'Download CSV')
  download.addEventListener('click', () => {
    apiDownload(TRANSACTIONS, { ...filters, format: 'csv' }, 'transactions.csv').catch((error) => showError(error))
  })
  const link = (/** @type {string} */ text, /** @type {string | null} */ target, /** @type {number} */ to) =>
    target === null
      ? h('span', { class: 'disabled' }, text)
      : h('a', { class: 'button secondary', href: hashOf({ ...query, offset: String(to) }) }, text)
  replaceChildren(results,
    h('h2', { class: 'visually-hidden' }, 'Totals'),
    totalsList(totals),
    h('div', { class: 'summary-line' },
      h('p', { class: 'summary', id: 'summary', tabindex: '-1' }, summary), download),
    page.results.length === 0
      ? null
      : h('div', { class: 'table-wrap' }, ledgerTable(page.results, 'Transactions matching the filters', true)),
    page.next === null && page.previous === null
      ? null
      : h('nav', { class: 'pager', 'aria-label': 'Ledger pages' },
        link('Previous', page.previous, Math.max(0, start - PAGE_SIZE)),
        link('Next', page.next, start + PAGE_SIZE)))
  // After paging, the new page's summary (at the top of the table) has focus, as in the catalogue.
  if (mounted) {
    const summaryLine = /** @type {HTMLElement} */ (results.querySelector('#summary'))
    summaryLine.scrollIntoView({ block: 'start' })
    summaryLine.focus({ preventScroll: true })
  }
  return summary
}
