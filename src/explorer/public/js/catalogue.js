// The catalogue: a list driven entirely by the URL's hash (#/projects?search=…&offset=…), with filters fed by
// the facets endpoint, a map of every matching project (the GeoJSON endpoint), and a project page.
import { ApiError, apiDownload, apiGet } from './api.js'
import { dataProvenance } from './provenance.js'
import { formatDate, formatNumber, h, humanize, plainText, replaceChildren } from './dom.js'
import { creditsLine, projectCredits } from './credits.js'
import { clearError, shortReason, showError } from './errors.js'
import { currentKey, forgetKey, howToGetAKey, keyForm } from './key.js'
import { interactiveMap, loadWorld } from './map.js'

const PRODUCTS = '/api/v1/commerce/products/'
const PAGE_SIZES = [10, 20, 50, 100]
const DEFAULT_LIMIT = 20
/**
 * What a new user's first page shows: the market, projects with the most credits issued first (issue 33, item 8;
 * the API sorts projects without a figure last). `id` is the catalogue's own order.
 */
const DEFAULT_ORDERING = '-credits_issued'
/** Orderings; those with `field` are offered only when some project has that field. */
const ORDERINGS = [
  { value: '-credits_issued', text: 'Most credits issued' },
  { value: 'id', text: 'Catalogue order' },
  { value: 'name', text: 'Name, A to Z' },
  { value: '-name', text: 'Name, Z to A' },
  { value: '-date', text: 'Newest first', field: 'date' },
  { value: 'date', text: 'Oldest first', field: 'date' },
  { value: 'location', text: 'Country, A to Z' },
  { value: '-estimated_annual_reductions', text: 'Most reductions', field: 'estimated_annual_reductions' },
  { value: '-area', text: 'Largest area', field: 'area' },
  { value: 'inventory_price', text: 'Lowest price', field: 'inventory_price' },
  { value: '-inventory_price', text: 'Highest price', field: 'inventory_price' },
  { value: 'credits_issued', text: 'Fewest credits issued', field: 'credits_issued' },
  { value: '-credits_retired', text: 'Most credits retired', field: 'credits_retired' },
  { value: 'credits_retired', text: 'Fewest credits retired', field: 'credits_retired' },
  { value: '-credits_cancelled', text: 'Most credits cancelled', field: 'credits_cancelled' },
  { value: 'credits_cancelled', text: 'Fewest credits cancelled', field: 'credits_cancelled' },
  { value: 'first_issuance_date', text: 'Earliest first issuance', field: 'first_issuance_date' },
  { value: '-first_issuance_date', text: 'Latest first issuance', field: 'first_issuance_date' }
]
/** Filters whose values come from the facets endpoint, offered as selects with counts. */
const SELECTS = [
  { name: 'registry', label: 'Registry', any: 'Any registry' },
  { name: 'credit_type', label: 'Credit type', any: 'Any credit type' },
  { name: 'certification', label: 'Certification', any: 'Any certification' },
  { name: 'sdg', label: 'Development goal', any: 'Any goal' },
  { name: 'vintage', label: 'Vintage', any: 'Any vintage' },
  { name: 'rating', label: 'Rating', any: 'Any rating' },
  { name: 'in_sale', label: 'In sale', any: 'In sale or not' },
  { name: 'category', label: 'Category', any: 'Any category' },
  { name: 'protocol', label: 'Methodology', any: 'Any methodology' },
  { name: 'status', label: 'Status', any: 'Any status' },
  { name: 'is_compliance', label: 'Market', any: 'Compliance or voluntary' }
]
const FILTER_LABELS = /** @type {Record<string, string>} */ ({
  search: 'Search',
  location: 'Country',
  ...Object.fromEntries(SELECTS.map((s) => [s.name, s.label]))
})
/** Every parameter the list view reads from the URL; anything else in the hash is ignored. */
const FILTERS = ['search', 'location', ...SELECTS.map((s) => s.name)]
const LIST_PARAMS = [...FILTERS, 'ordering', 'limit', 'offset']

/** @typedef {{ value: string, label: string, count: number }} FacetValue */
/** @typedef {{ facets: Record<string, FacetValue[]>, with_value: Record<string, number> }} Facets */

// Requests per view (issue 25): the list brings its facets along (`include=facets`) when these filters' facets are
// not known yet, and the map asks once per set of filters; paging and ordering ask for the list alone.
/** @type {string | undefined} */
let cacheKey
/** @type {Map<string, Facets>} */
const facetCache = new Map()
/** @type {Map<string, Promise<any>>} */
const geoCache = new Map()
/** @type {Promise<Record<string, string>> | undefined} */
let countryCodeLoad

/** ISO 3166-1 alpha-2 → numeric (the map's country ids), loaded once; empty when it cannot load. */
function countryCodes () {
  countryCodeLoad ??= fetch('/explorer/vendor/iso-numeric.json')
    .then((response) => response.ok ? response.json() : {})
    .catch(() => ({}))
  return countryCodeLoad
}
/** Filters offered once stay offered for this key, so fields do not come and go as filters change. */
const offered = new Set()
let lastListHash = '#/projects'
/** The project last opened from the list: Back puts focus on its card. */
/** @type {string | undefined} */
let lastOpened
/**
 * Where focus goes once the list is drawn after a user's action that removed the focused element:
 * the results (after paging) or a chip's place (after removing one).
 * @type {{ to: 'results' } | { to: 'chip', index: number } | undefined}
 */
let pendingFocus

/** The facets last shown, to name the chips while an answer is missing. */
/** @type {Facets | undefined} */
let lastFacets

/** Answers cached under another key (or none) are dropped. */
function resetCachesForKey () {
  const key = currentKey()
  if (cacheKey === key) return
  cacheKey = key
  facetCache.clear()
  geoCache.clear()
  offered.clear()
}

/**
 * @param {Record<string, string>} filters
 * @param {AbortSignal} signal
 */
function geojsonFor (filters, signal) {
  const filterKey = JSON.stringify(filters)
  let geo = geoCache.get(filterKey)
  if (geo === undefined) {
    geo = apiGet(`${PRODUCTS}geojson/`, { ...filters, limit: 10000 }, { auth: true, signal })
    geoCache.set(filterKey, geo)
    geo.catch(() => geoCache.delete(filterKey))
  }
  return geo
}

/**
 * Asks for the key in `main` when there is none; true when the view may call the catalogue.
 * @param {HTMLElement} main
 * @param {string} heading
 * @param {() => void} onSaved
 */
export function haveKey (main, heading, onSaved) {
  if (currentKey() !== undefined) return true
  delete main.dataset['view']
  replaceChildren(main, h('h1', { tabindex: '-1' }, heading),
    h('p', {}, 'Carbon-offset projects from public registries, searchable by country, registry, credit type and ' +
      'more. The catalogue needs an API key; the ', h('a', { href: '#/calculator' }, 'footprint calculator'),
    ' does not.'),
    keyForm(onSaved), howToGetAKey())
  return false
}

/**
 * A refused key (401) is forgotten, and the form asks again under a message for a person.
 * @param {HTMLElement} main
 * @param {unknown} error
 * @param {string} heading
 * @param {() => void} retry
 */
export function handleCatalogueError (main, error, heading, retry) {
  showError(error, { retry: error instanceof ApiError && error.status === 401 ? undefined : retry })
  if (error instanceof ApiError && error.status === 401) {
    forgetKey()
    delete main.dataset['view']
    replaceChildren(main, h('h1', { tabindex: '-1' }, heading), keyForm(retry), howToGetAKey())
  }
}

/** @param {URLSearchParams} params */
function listQuery (params) {
  /** @type {Record<string, string>} */
  const query = {}
  for (const name of LIST_PARAMS) {
    const value = params.get(name)?.trim()
    if (value !== undefined && value !== '') query[name] = value
  }
  query['limit'] ??= String(DEFAULT_LIMIT)
  query['ordering'] ??= DEFAULT_ORDERING
  return query
}

/** @param {Record<string, string>} query */
function filtersOf (query) {
  return Object.fromEntries(FILTERS.filter((name) => query[name] !== undefined).map((name) => [name, query[name]]))
}

/** @param {Record<string, string | undefined>} query */
function listHash (query) {
  const search = new URLSearchParams()
  for (const name of LIST_PARAMS) {
    const value = query[name]
    if (value === undefined || value === '') continue
    if ((name === 'offset' && value === '0') || (name === 'limit' && value === String(DEFAULT_LIMIT)) ||
      (name === 'ordering' && value === DEFAULT_ORDERING)) continue
    search.set(name, value)
  }
  return search.size === 0 ? '#/projects' : `#/projects?${search}`
}

/**
 * @param {string} name
 * @param {string} label
 * @param {HTMLElement} control
 * @param {string} [extraClass]
 */
function field (name, label, control, extraClass) {
  return h('div', { 'data-field': name, class: extraClass },
    h('label', { for: `filter-${name}` }, label), control,
    h('p', { class: 'field-error', id: `filter-${name}-error`, 'aria-live': 'polite' }))
}

/** @param {Record<string, string>} query */
function filterForm (query) {
  const selects = SELECTS.map((s) => field(s.name, s.label,
    // Fed by the data: its longest labels may not fit a closed select (the chip shows the choice whole).
    h('select', { id: `filter-${s.name}`, name: s.name, 'data-open-vocabulary': true },
      h('option', { value: '' }, s.any))))
  const attributes = { class: 'filters', id: 'filters', role: 'search', 'aria-label': 'Filter projects' }
  const form = /** @type {HTMLFormElement} */ (h('form', attributes,
    h('div', { class: 'form-grid' },
      field('search', 'Search', h('input', {
        id: 'filter-search',
        name: 'search',
        type: 'search',
        placeholder: 'Name, registry id or developer',
        autocomplete: 'off',
        'aria-describedby': 'filter-search-error'
      }), 'wide'),
      field('location', 'Country', h('input', {
        id: 'filter-location',
        name: 'location',
        type: 'text',
        list: 'location-options',
        autocomplete: 'off',
        placeholder: 'Name or ISO code',
        'aria-describedby': 'filter-location-hint filter-location-error'
      }), undefined),
      selects,
      field('ordering', 'Order by', h('select', { id: 'filter-ordering', name: 'ordering' })),
      field('limit', 'Per page', h('select', { id: 'filter-limit', name: 'limit' },
        PAGE_SIZES.map((n) => h('option', { value: String(n) }, String(n)))))),
    h('datalist', { id: 'location-options' }),
    h('div', { class: 'form-actions' },
      h('button', { type: 'submit' }, 'Apply'),
      h('a', { class: 'button secondary', href: '#/projects' }, 'Clear all filters'))))
  const countryLabel = form.querySelector('[data-field="location"] label')
  countryLabel?.after(h('span', { class: 'visually-hidden', id: 'filter-location-hint' },
    'A country name or an ISO code'))
  const apply = () => {
    /** @type {Record<string, string>} */
    const next = {}
    for (const [name, value] of new FormData(form)) next[name] = String(value).trim()
    // New filters start from the first page.
    location.hash = listHash(next)
  }
  form.addEventListener('submit', (event) => { event.preventDefault(); apply() })
  // A choice made with the pointer applies at once; typed text applies with Enter. Arrowing through a closed
  // select changes it at every key, so a choice made by keyboard applies with Enter, Apply, or on leaving the list.
  let keyed = false
  let pending = false
  form.addEventListener('keydown', (event) => {
    if (/** @type {HTMLElement} */ (event.target).tagName !== 'SELECT') return
    if (event.key === 'Enter') {
      event.preventDefault()
      pending = false
      apply()
    } else if (!event.altKey && !['Tab', 'Escape', ' ', 'F4'].includes(event.key)) {
      keyed = true
    }
  })
  form.addEventListener('change', (event) => {
    if (/** @type {HTMLElement} */ (event.target).tagName !== 'SELECT') return
    if (keyed) pending = true
    else apply()
    keyed = false
  })
  form.addEventListener('focusout', (event) => {
    if (/** @type {HTMLElement} */ (event.target).tagName !== 'SELECT' || !pending) return
    pending = false
    apply()
  })
  syncForm(form, query)
  return form
}

/**
 * Puts the URL's values into the mounted form (back and forward buttons) without rebuilding it.
 * @param {HTMLFormElement} form
 * @param {Record<string, string>} query
 */
function syncForm (form, query) {
  for (const element of /** @type {any} */ (form.elements)) {
    if (!element.name) continue
    element.value = query[element.name] ?? ''
    element.removeAttribute('aria-invalid')
  }
  for (const error of form.querySelectorAll('.field-error')) error.textContent = ''
}

/**
 * The selects' options from the facets (values that match something, with counts), the orderings the
 * matching projects can tell apart, and the countries offered; filters that cannot narrow anything are hidden.
 * @param {HTMLFormElement} form
 * @param {Record<string, string>} query
 * @param {Facets} facets
 */
function fillForm (form, query, facets) {
  for (const s of SELECTS) {
    const select = /** @type {HTMLSelectElement} */ (form.querySelector(`#filter-${s.name}`))
    const values = facets.facets[s.name] ?? []
    const active = query[s.name]
    const options = [h('option', { value: '' }, s.any),
      ...values.map((v) => h('option', { value: v.value }, `${v.label} (${formatNumber(v.count)})`))]
    if (active !== undefined && !values.some((v) => v.value === active)) {
      options.push(h('option', { value: active }, `${labelOf(facets, s.name, active)} (0)`))
    }
    select.replaceChildren(...options)
    select.value = active ?? ''
    // A filter that cannot tell any two matching projects apart is not offered (once offered, it stays).
    const field = /** @type {HTMLElement} */ (select.closest('[data-field]'))
    if (active !== undefined || values.length >= 2) offered.add(s.name)
    field.hidden = !offered.has(s.name)
  }
  const ordering = /** @type {HTMLSelectElement} */ (form.querySelector('#filter-ordering'))
  ordering.replaceChildren(...ORDERINGS
    .filter((o) => o.field === undefined || (facets.with_value[o.field] ?? 0) > 0 || o.value === query['ordering'])
    .map((o) => h('option', { value: o.value }, o.text)))
  ordering.value = query['ordering'] ?? DEFAULT_ORDERING
  const countries = /** @type {HTMLElement} */ (form.querySelector('#location-options'))
  replaceChildren(countries, (facets.facets['location'] ?? []).map((v) =>
    h('option', { value: v.value, label: `${v.label} (${formatNumber(v.count)})` })))
}

/**
 * @param {Facets | undefined} facets
 * @param {string} name
 * @param {string} value
 */
function labelOf (facets, name, value) {
  const found = (facets?.facets[name] ?? []).find((v) => v.value.toLowerCase() === value.toLowerCase())
  return found?.label ?? value
}

/**
 * The active filters as chips, each removable.
 * @param {Record<string, string>} query
 * @param {Facets | undefined} facets
 * @param {any} page the list answer, to name a country given by its code
 */
function chips (query, facets, page) {
  const active = FILTERS.filter((name) => query[name] !== undefined)
  if (active.length === 0) return null
  return h('ul', { class: 'chips', 'aria-label': 'Active filters' }, active.map((name, index) => {
    const value = query[name] ?? ''
    let text = name === 'search' ? value : labelOf(facets, name, value)
    if (name === 'location') {
      const first = page?.results?.[0]
      const code = value.toUpperCase()
      if (first && (first.location_alpha2 === code || first.location_alpha3 === code)) text = first.location
    }
    const label = `${FILTER_LABELS[name]}: ${text}`
    return h('li', {}, h('button', {
      type: 'button',
      class: 'chip',
      'aria-label': `Remove filter ${label}`,
      onclick: () => {
        // The button goes away with its filter: focus moves to the chip that takes its place.
        pendingFocus = { to: 'chip', index }
        location.hash = listHash({ ...query, [name]: undefined, offset: undefined })
      }
    }, label, h('span', { 'aria-hidden': 'true', class: 'chip-x' }, '×')))
  }))
}

/**
 * The chips, and their number on the folded filter panel's line.
 * @param {HTMLElement} main
 * @param {Record<string, string>} query
 * @param {Facets | undefined} facets
 * @param {any} page
 */
function showChips (main, query, facets, page) {
  replaceChildren(/** @type {HTMLElement} */ (main.querySelector('#chips')), chips(query, facets, page))
  const active = FILTERS.filter((name) => query[name] !== undefined).length
  const line = main.querySelector('#filter-panel > summary')
  if (line !== null) line.textContent = `Search and filters${active === 0 ? '' : ` (${active} active)`}`
}

/** @param {any} project */
function projectCard (project) {
  const facts = [project.location || 'No country given', project.registry.verbose_name,
    project.credit_type?.verbose_name].filter(Boolean)
  const first = Math.min(...project.vintages)
  const last = Math.max(...project.vintages)
  const vintages = project.vintages.length === 0
    ? null
    : first === last ? `Vintage ${first}` : `Vintages ${first}–${last}`
  return h('li', { class: 'project-card', 'data-id': project.id },
    h('h2', {}, h('a', { href: `#/projects/${project.id}` }, project.name)),
    h('p', {}, facts.join(' · ')),
    creditsLine(project),
    h('ul', { class: 'tags', 'aria-label': 'Details' },
      h('li', {}, project.symbol),
      project.rating ? h('li', {}, `Rating ${project.rating.verbose_name}`) : null,
      project.date ? h('li', {}, `Since ${formatDate(project.date)}`) : null,
      vintages ? h('li', {}, vintages) : null,
      project.estimated_annual_reductions !== null
        ? h('li', {}, `${formatNumber(project.estimated_annual_reductions, 0)} t/year`)
        : null))
}

/**
 * First, previous, next and last pages, and a page number to jump to. Following any of them moves focus to
 * the new results' summary (at the top of the list), not to the page's end.
 * @param {Record<string, string>} query
 * @param {any} page
 */
function pager (query, page) {
  const limit = Number(query['limit'])
  const offset = Number(query['offset'] ?? 0)
  const pages = Math.max(1, Math.ceil(page.count / limit))
  const current = Math.min(pages, Math.floor(offset / limit) + 1)
  const hashOf = (/** @type {number} */ number) => listHash({ ...query, offset: String((number - 1) * limit) })
  const link = (/** @type {string} */ text, /** @type {number} */ number, /** @type {string | undefined} */ rel) =>
    number === current
      ? h('span', { class: 'disabled' }, text)
      : h('a', {
        class: 'button secondary',
        href: hashOf(number),
        rel,
        onclick: () => { pendingFocus = { to: 'results' } }
      }, text)
  const jump = /** @type {HTMLFormElement} */ (h('form', { class: 'page-jump', 'aria-label': 'Go to a page' },
    h('label', { for: 'page-number' }, 'Page'),
    h('input', {
      id: 'page-number', name: 'page', type: 'number', min: 1, max: pages, value: current, inputmode: 'numeric'
    }),
    h('span', {}, ` of ${formatNumber(pages)}`),
    h('button', { type: 'submit', class: 'secondary' }, 'Go')))
  jump.addEventListener('submit', (event) => {
    event.preventDefault()
    const wanted = Math.round(Number(new FormData(jump).get('page')))
    const number = Number.isFinite(wanted) ? Math.min(pages, Math.max(1, wanted)) : current
    pendingFocus = { to: 'results' }
    if (number === current) focusResults()
    else location.hash = hashOf(number)
  })
  return h('nav', { class: 'pager', 'aria-label': 'Pages' },
    link('First', 1, undefined),
    link('Previous', Math.max(1, current - 1), 'prev'),
    pages > 1 ? jump : h('span', {}, 'Page 1 of 1'),
    link('Next', Math.min(pages, current + 1), 'next'),
    link('Last', pages, undefined))
}

/**
 * After paging, the results' summary takes focus; after a chip's removal, the chip now in its place (or the summary).
 * @param {HTMLElement} main
 */
function applyPendingFocus (main) {
  const pending = pendingFocus
  pendingFocus = undefined
  if (pending === undefined) return
  if (pending.to === 'results') {
    focusResults()
    return
  }
  const remaining = main.querySelectorAll('#chips .chip')
  const target = /** @type {HTMLElement | null} */ (remaining[pending.index] ?? remaining[pending.index - 1] ??
    document.getElementById('summary'))
  target?.focus()
}

/** The new results' summary takes focus, scrolled to the top of the screen. */
function focusResults () {
  pendingFocus = undefined
  const summary = document.getElementById('summary')
  if (summary === null) return
  summary.scrollIntoView({ block: 'start' })
  summary.focus({ preventScroll: true })
}

/**
 * A 400 on the country is shown under the field, briefly (the service's list of every country is not).
 * @param {HTMLElement} main
 * @param {ApiError} error
 * @param {Record<string, string>} query
 */
function showFieldError (main, error, query) {
  const name = error.parameter ?? ''
  const input = main.querySelector(`#filter-${name}`)
  const slot = main.querySelector(`#filter-${name}-error`)
  if (name !== 'location' || input === null || slot === null) return false
  const guess = /did you mean "([^"]+)"/.exec(error.detail)?.[1]
  slot.textContent = `No country called "${query['location']}".${guess ? ` Did you mean ${guess}?` : ''} ` +
    'Type a country name or an ISO code (BR or BRA), or pick one from the list.'
  input.setAttribute('aria-invalid', 'true')
  // On a phone the filters may be folded away: the person must see the field at fault.
  const panel = input.closest('details')
  if (panel !== null) panel.open = true
  return true
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 * @param {{ signal: AbortSignal, rerender: () => void }} context
 */
export async function renderProjectList (main, params, { signal, rerender }) {
  const heading = 'Carbon-offset projects'
  document.title = 'Projects · Tonne explorer'
  if (!haveKey(main, heading, rerender)) return
  // The map's borders load while the catalogue answers.
  loadWorld().catch(() => {})
  const query = listQuery(params)
  const filters = filtersOf(query)
  lastListHash = location.hash || '#/projects'
  // The view stays mounted while only its query changes, so focus stays where the user left it.
  const mounted = main.dataset['view'] === 'list'
  if (!mounted) {
    // The form and the results appear together once the first answers are in, so nothing jumps as they come;
    // until then a placeholder holds the space (and keeps the footer out of view).
    replaceChildren(main,
      h('h1', { tabindex: '-1' }, heading),
      h('p', { class: 'lede' }, 'Projects from public carbon registries. Filter them, or open one for its details.'),
      h('p', { id: 'results-loading', class: 'loading', hidden: true }, 'Loading the projects…'),
      h('div', { id: 'catalogue-body', hidden: true },
        // On a phone the results come first: the filters fold away under one line (open on wider screens).
        h('details', { class: 'filter-panel', id: 'filter-panel', open: matchMedia('(min-width: 48rem)').matches },
          h('summary', {}, 'Search and filters'),
          filterForm(query)),
        h('div', { id: 'chips' }),
        h('div', { id: 'results' }),
        dataProvenance()),
      h('div', { id: 'catalogue-placeholder', class: 'form-placeholder' }))
    main.dataset['view'] = 'list'
  }
  const reveal = () => {
    main.querySelector('#catalogue-placeholder')?.remove()
    main.querySelector('#catalogue-body')?.removeAttribute('hidden')
  }
  const form = /** @type {HTMLFormElement} */ (main.querySelector('#filters'))
  const results = /** @type {HTMLElement} */ (main.querySelector('#results'))
  const loading = /** @type {HTMLElement} */ (main.querySelector('#results-loading'))
  if (mounted) syncForm(form, query)
  loading.hidden = false
  results.setAttribute('aria-busy', 'true')
  resetCachesForKey()
  const filterKey = JSON.stringify(filters)
  const known = facetCache.get(filterKey)
  // The map asks beside the list; both come from caches when only the page or the order changed.
  const geo = geojsonFor(filters, signal)
  let page
  try {
    page = await apiGet(PRODUCTS, known === undefined ? { ...query, include: 'facets' } : query, { auth: true, signal })
  } catch (error) {
    if (signal.aborted) return
    loading.hidden = true
    results.removeAttribute('aria-busy')
    reveal()
    const rejected = error instanceof ApiError && error.status === 400
    const shown = results.querySelector('.project-list, #empty-state') !== null
    if (known !== undefined) fillForm(form, query, known)
    syncForm(form, query)
    showChips(main, query, known ?? lastFacets, undefined)
    if (rejected || !shown) {
      replaceChildren(results, h('p', { class: 'summary', tabindex: '-1', id: 'summary' }, rejected
        ? 'No results: the service did not accept these filters.'
        : `The projects could not be loaded: ${shortReason(error)}.`))
    } else {
      // Too many requests, or the service out of reach: the earlier results stay, marked as such.
      results.querySelector('#earlier-results')?.remove()
      results.prepend(h('p', { class: 'earlier-results', id: 'earlier-results' }, 'Still showing the earlier ' +
        `results: the new ones could not be loaded (${shortReason(error)}). Use "Try again" above when possible.`))
    }
    applyPendingFocus(main)
    if (rejected && showFieldError(main, error, query)) {
      clearError()
      return
    }
    handleCatalogueError(main, error, heading, rerender)
    return
  }
  if (signal.aborted) return
  const facets = known ?? page.facets
  facetCache.set(filterKey, facets)
  lastFacets = facets
  clearError()
  results.querySelector('#earlier-results')?.remove()
  fillForm(form, query, facets)
  showChips(main, query, facets, page)
  const offset = Number(query['offset'] ?? 0)
  const summary = page.results.length === 0
    ? (page.count === 0 ? 'No project matches these filters.' : `No projects on this page; ${page.count} match in all.`)
    : `Showing ${offset + 1}–${offset + page.results.length} of ${formatNumber(page.count)} ` +
      `${page.count === 1 ? 'project' : 'projects'}.`
  loading.hidden = true
  results.removeAttribute('aria-busy')
  reveal()
  if (page.count === 0) {
    replaceChildren(results, h('p', { class: 'summary', id: 'summary', tabindex: '-1' }, summary),
      h('section', { id: 'empty-state', class: 'empty-state', 'aria-labelledby': 'empty-heading' },
        h('h2', { id: 'empty-heading' }, 'No project matches these filters'),
        h('p', {}, 'Remove a filter with its × button above, try a shorter search or another spelling, or start over.'),
        h('p', {}, h('a', { class: 'button', href: '#/projects' }, 'Clear all filters'))))
    applyPendingFocus(main)
    return summary
  }
  const cards = h('ol', { class: 'project-list', start: offset + 1 }, page.results.map(projectCard))
  const map = interactiveMap({
    caption: 'World map of the matching projects (loading).',
    href: (point) => `#/projects/${point.id}`,
    onHover: (ids) => {
      for (const card of cards.querySelectorAll('.project-card')) {
        card.classList.toggle('highlight', ids.includes(Number(/** @type {HTMLElement} */ (card).dataset['id'])))
      }
    }
  })
  const linkCard = (/** @type {Event} */ event) => {
    const card = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('.project-card'))
    map.highlight(card === null ? [] : [Number(card.dataset['id'])])
  }
  cards.addEventListener('mouseover', linkCard)
  cards.addEventListener('focusin', linkCard)
  cards.addEventListener('mouseleave', () => map.highlight([]))
  const download = h('button', { type: 'button', class: 'secondary download' }, 'Download CSV')
  download.addEventListener('click', () => {
    // Every matching project, in this order: the same filters as the list, without its paging.
    const { limit: _limit, offset: _offset, ...wanted } = query
    apiDownload(PRODUCTS, { ...wanted, format: 'csv' }, 'projects.csv').catch((error) => showError(error))
  })
  replaceChildren(results,
    h('div', { class: 'summary-line' }, h('p', { class: 'summary', id: 'summary', tabindex: '-1' }, summary), download),
    h('div', { class: 'catalogue-layout' }, h('div', {}, cards, pager(query, page)), map.element))
  applyPendingFocus(main)
  geo.then((collection) => {
    if (signal.aborted) return
    const points = collection.features.map((/** @type {any} */ f) => ({
      id: f.properties.id,
      name: f.properties.name,
      longitude: f.geometry.coordinates[0],
      latitude: f.geometry.coordinates[1]
    }))
    // Projects with a country but no coordinates are shown by their country (issue 36, item 6).
    const countries = collection.unlocated_by_country ?? []
    const unlocated = countries.reduce((/** @type {number} */ sum, /** @type {any} */ c) => sum + c.count, 0)
    const elsewhere = page.count - collection.count - unlocated
    const byCountry = unlocated === 0
      ? ''
      : `, ${formatNumber(unlocated)} by their country (shaded: no coordinates given)`
    const noCountry = elsewhere > 0 ? `; ${formatNumber(elsewhere)} give no country` : ''
    map.setPoints(points, `World map: ${formatNumber(collection.count)} of the ${formatNumber(page.count)} matching ` +
      `projects at their coordinates (points)${byCountry}${noCountry}. Drag to pan; numbered circles are groups: ` +
      'select one to zoom in.')
    map.element.querySelector('figcaption')?.before(mapLegend(unlocated))
    if (countries.length === 0) return
    countryCodes().then((codes) => {
      if (signal.aborted) return
      const numerics = countries.map((/** @type {any} */ c) => codes[c.alpha2 ?? '']).filter(Boolean)
      return map.showCountries(/** @type {string[]} */ (numerics))
    }).catch(() => {})
  }, (error) => { if (!signal.aborted) showError(error) })
  return summary
}

/**
 * What the map's marks mean: a point, a group, and (when there are any) a shaded country.
 * @param {number} unlocated projects shown by their country
 */
function mapLegend (unlocated) {
  return h('ul', { class: 'map-legend', 'aria-label': 'Map legend' },
    h('li', {}, h('span', { class: 'legend-point', 'aria-hidden': 'true' }), 'A project at its coordinates'),
    h('li', {}, h('span', { class: 'legend-group', 'aria-hidden': 'true' }, '3'),
      'Nearby projects: select to zoom in'),
    unlocated === 0
      ? null
      : h('li', {}, h('span', { class: 'legend-country', 'aria-hidden': 'true' }),
        `A country of projects without coordinates (${formatNumber(unlocated)})`))
}

/**
 * Back on the list, where the page scrolls back to: focus goes to the project the person opened (its card's
 * link) or, when it is not on this page, to the first card in view; false when there is nothing to focus.
 * @param {HTMLElement} main
 */
export function focusWhereScrolled (main) {
  const opened = lastOpened === undefined ? null : main.querySelector(`.project-card[data-id="${lastOpened}"] a`)
  const inView = [...main.querySelectorAll('.project-card a')]
    .find((link) => link.getBoundingClientRect().top >= 0)
  const target = /** @type {HTMLElement | null | undefined} */ (opened ?? inView)
  if (target === null || target === undefined) return false
  target.focus({ preventScroll: true })
  return true
}

/**
 * @param {string} label
 * @param {unknown} value
 */
function fact (label, value) {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return null
  return [h('dt', {}, label), h('dd', {}, /** @type {any} */ (value))]
}

/** @param {{ url: string, title: string }} image */
function imageFigure (image) {
  // The page's CSP loads images from this service only; other hosts are linked instead.
  const local = new URL(image.url, location.href).origin === location.origin
  return h('figure', {},
    local
      ? h('img', { src: image.url, alt: image.title, loading: 'lazy' })
      : h('a', { href: image.url, rel: 'noopener noreferrer' }, `Open image: ${image.title}`),
    h('figcaption', {}, image.title))
}

/**
 * @param {HTMLElement} main
 * @param {string} id
 * @param {{ signal: AbortSignal, rerender: () => void }} context
 */
export async function renderProject (main, id, { signal, rerender }) {
  document.title = 'Project · Tonne explorer'
  const back = h('p', {}, h('a', { href: lastListHash }, '← Back to the projects'))
  if (!haveKey(main, 'Project', rerender)) return
  main.dataset['view'] = 'project'
  replaceChildren(main, back, h('h1', { tabindex: '-1' }, 'Project'), h('p', { class: 'loading' }, 'Loading…'))
  let project
  try {
    project = await apiGet(`${PRODUCTS}${encodeURIComponent(id)}/`, {}, { auth: true, signal })
  } catch (error) {
    if (signal.aborted) return
    const missing = error instanceof ApiError && error.status === 404
    replaceChildren(main, back, h('h1', { tabindex: '-1' }, missing ? 'Project not found' : 'Project'))
    if (missing) {
      showError(error)
      return
    }
    handleCatalogueError(main, error, 'Project', rerender)
    return
  }
  if (signal.aborted) return
  clearError()
  lastOpened = String(project.id)
  document.title = `${project.name} · Tonne explorer`
  const located = project.latitude !== null && project.longitude !== null
  const coordinates = located ? `${formatNumber(project.latitude, 4)}, ${formatNumber(project.longitude, 4)}` : null
  const goals = project.sustainable_development_goals
  let map = null
  if (located) {
    const caption = `World map zoomed to ${project.name}${project.location ? `, ${project.location}` : ''}.`
    map = interactiveMap({ caption, href: () => `#/projects/${project.id}` })
    map.setPoints([{ id: project.id, name: project.name, latitude: project.latitude, longitude: project.longitude }])
    map.focus(project.longitude, project.latitude, 10)
  }
  // Without coordinates, the country: where the project is, as far as the registry says.
  const numeric = located || !project.location_alpha2 ? undefined : (await countryCodes())[project.location_alpha2]
  if (signal.aborted) return
  let countryMap = null
  if (numeric !== undefined) {
    countryMap = interactiveMap({
      caption: `World map showing ${project.location}, the project's country; the registry gives no coordinates.`,
      href: () => `#/projects/${project.id}`
    })
    countryMap.setPoints([])
  }
  const credits = projectCredits(project, signal)
  replaceChildren(main, back,
    h('h1', { tabindex: '-1' }, project.name),
    project.short_description ? h('p', { class: 'lede' }, project.short_description) : null,
    h('div', { class: 'detail-layout' },
      h('section', { 'aria-labelledby': 'facts-heading' },
        h('h2', { id: 'facts-heading' }, 'Facts'),
        h('dl', { class: 'fields' },
          fact('Symbol', project.symbol),
          fact('Registry id', project.external_id),
          fact('Registry', project.registry.verbose_name),
          fact('Standard', project.standard.verbose_name),
          fact('Credit type', project.credit_type?.verbose_name),
          fact('Category', project.category ? humanize(project.category.replaceAll('-', ' ')) : null),
          fact('Project type', project.project_type),
          fact('Methodology', (project.protocol ?? []).join(', ')),
          fact('Status', project.status),
          fact('Market', project.is_compliance === true
            ? 'Compliance'
            : project.is_compliance === false
              ? 'Voluntary'
              : null),
          fact('Rating', project.rating?.verbose_name),
          fact('Certifications', project.certifications.map((/** @type {any} */ c) => c.verbose_name).join(', ')),
          fact('Country', project.location),
          fact('Coordinates', coordinates),
          fact('Start date', project.date ? formatDate(project.date) : null),
          fact('Listed', project.listed_date ? formatDate(project.listed_date) : null),
          fact('Area', project.area === null ? null : `${formatNumber(project.area)} ha`),
          fact('Estimated annual reductions', project.estimated_annual_reductions === null
            ? null
            : `${formatNumber(project.estimated_annual_reductions)} t CO₂e a year`),
          fact('Price', project.inventory_price === null
            ? null
            : `${formatNumber(project.inventory_price, 2)} per tonne`),
          fact('Developer', project.project_developer),
          fact('Vintages', project.vintages.join(', ')),
          fact('Bundle', project.is_bundle
            ? `Yes${Array.isArray(project.bundles) ? `, of ${project.bundles.length} projects` : ''}`
            : null),
          fact('Registry page', project.url
            ? h('a', { href: project.url, rel: 'noopener noreferrer' }, project.url)
            : null))),
      h('section', { 'aria-labelledby': 'map-heading' },
        h('h2', { id: 'map-heading' }, 'Location'),
        map?.element ?? countryMap?.element ?? null,
        located
          ? null
          : h('p', {}, countryMap === null
            ? 'The registry gives no coordinates for this project.'
            : `The registry gives no coordinates for this project: the map shows its country, ${project.location}.`))),
    credits.section,
    goals.length === 0
      ? null
      : h('section', { 'aria-labelledby': 'sdg-heading' },
        h('h2', { id: 'sdg-heading' }, 'Sustainable development goals'),
        h('ul', { class: 'sdgs' }, goals.map((/** @type {any} */ goal) => {
          const number = goal.name_id.split('_')[0]
          const alt = `Goal ${number}: ${goal.verbose_name}`
          return h('li', {}, h('img', { src: goal.icon, alt, width: 72, height: 72 }))
        }))),
    project.description
      ? h('section', { 'aria-labelledby': 'description-heading' },
        h('h2', { id: 'description-heading' }, 'Description'),
        h('p', { class: 'description' }, plainText(project.description)))
      : null,
    project.co_benefits
      ? h('section', { 'aria-labelledby': 'benefits-heading' }, h('h2', { id: 'benefits-heading' }, 'Co-benefits'),
        h('ul', {}, project.co_benefits.split(/\r?\n/).filter((/** @type {string} */ line) => line.trim() !== '')
          .map((/** @type {string} */ line) => h('li', {}, line))))
      : null,
    project.images.length === 0
      ? null
      : h('section', { 'aria-labelledby': 'images-heading' },
        h('h2', { id: 'images-heading' }, 'Images'), h('div', { class: 'images' }, project.images.map(imageFigure))),
    // Last: it grows as its pages arrive, and moves nothing but the footer.
    credits.ledger)
  // Markers are placed for the map's size, known once it is in the page.
  if (map !== null) map.focus(project.longitude, project.latitude, 10)
  if (countryMap !== null && numeric !== undefined) countryMap.showCountry(numeric).catch(() => {})
  // The charts are drawn for their width, and the ledger loads, once they are in the page.
  credits.start().catch((error) => { if (!signal.aborted) showError(error) })
  return `Project ${project.name}.`
}
