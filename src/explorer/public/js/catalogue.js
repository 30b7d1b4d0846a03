// The catalogue: a list driven entirely by the URL's hash (#/projects?search=…&offset=…), with filters fed by
// the facets endpoint, a map of every matching project (the GeoJSON endpoint), and a project page.
import { ApiError, apiGet } from './api.js'
import { formatNumber, h, plainText, replaceChildren } from './dom.js'
import { clearError, showError } from './errors.js'
import { currentKey, forgetKey, howToGetAKey, keyForm } from './key.js'
import { interactiveMap, loadWorld } from './map.js'

const PRODUCTS = '/api/v1/commerce/products/'
const PAGE_SIZES = [10, 20, 50, 100]
const DEFAULT_LIMIT = 20
/** Orderings; those with `field` are offered only when some project has that field. */
const ORDERINGS = [
  { value: '', text: 'Catalogue order' },
  { value: 'name', text: 'Name, A to Z' },
  { value: '-name', text: 'Name, Z to A' },
  { value: '-date', text: 'Newest first', field: 'date' },
  { value: 'date', text: 'Oldest first', field: 'date' },
  { value: 'location', text: 'Country, A to Z' },
  { value: '-estimated_annual_reductions', text: 'Most reductions', field: 'estimated_annual_reductions' },
  { value: '-area', text: 'Largest area', field: 'area' },
  { value: 'inventory_price', text: 'Lowest price', field: 'inventory_price' },
  { value: '-inventory_price', text: 'Highest price', field: 'inventory_price' }
]
/** Filters whose values come from the facets endpoint, offered as selects with counts. */
const SELECTS = [
  { name: 'registry', label: 'Registry', any: 'Any registry' },
  { name: 'credit_type', label: 'Credit type', any: 'Any credit type' },
  { name: 'certification', label: 'Certification', any: 'Any certification' },
  { name: 'sdg', label: 'Development goal', any: 'Any goal' },
  { name: 'vintage', label: 'Vintage', any: 'Any vintage' },
  { name: 'rating', label: 'Rating', any: 'Any rating' },
  { name: 'in_sale', label: 'In sale', any: 'In sale or not' }
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
/** @typedef {{ count: number, facets: Record<string, FacetValue[]> }} Facets */
/** @typedef {{ facets: Facets, fields: Set<string> }} Shape */

/** What the whole catalogue holds (which filters and orderings can match anything), once per key. */
/** @type {{ key: string | undefined, shape: Promise<Shape> } | undefined} */
let shapeCache
/** @type {Map<string, Promise<Facets>>} */
const facetCache = new Map()
/** @type {Map<string, Promise<any>>} */
const geoCache = new Map()
let lastListHash = '#/projects'

/** @param {AbortSignal} signal */
function catalogueShape (signal) {
  const key = currentKey()
  if (shapeCache === undefined || shapeCache.key !== key) {
    facetCache.clear()
    geoCache.clear()
    const fields = [...new Set(ORDERINGS.flatMap((o) => o.field === undefined ? [] : [o.field]))]
    const shape = Promise.all([
      facetsFor({}, signal),
      ...fields.map(async (field) => {
        const page = await apiGet(PRODUCTS, { ordering: `-${field}`, limit: 1 }, { auth: true, signal })
        return page.results[0]?.[field] === null || page.results[0] === undefined ? null : field
      })
    ]).then(([facets, ...present]) => ({ facets, fields: new Set(present.filter((f) => f !== null)) }))
    shapeCache = { key, shape }
    shape.catch(() => { shapeCache = undefined })
    return shape
  }
  return shapeCache.shape
}

/**
 * @param {Record<string, string>} filters
 * @param {AbortSignal} signal
 * @returns {Promise<Facets>}
 */
function facetsFor (filters, signal) {
  const cacheKey = JSON.stringify(filters)
  let facets = facetCache.get(cacheKey)
  if (facets === undefined) {
    facets = apiGet(`${PRODUCTS}facets/`, filters, { auth: true, signal })
    facetCache.set(cacheKey, facets)
    facets.catch(() => facetCache.delete(cacheKey))
  }
  return facets
}

/**
 * @param {Record<string, string>} filters
 * @param {AbortSignal} signal
 */
function geojsonFor (filters, signal) {
  const cacheKey = JSON.stringify(filters)
  let geo = geoCache.get(cacheKey)
  if (geo === undefined) {
    geo = apiGet(`${PRODUCTS}geojson/`, { ...filters, limit: 10000 }, { auth: true, signal })
    geoCache.set(cacheKey, geo)
    geo.catch(() => geoCache.delete(cacheKey))
  }
  return geo
}

/**
 * Asks for the key in `main` when there is none; true when the view may call the catalogue.
 * @param {HTMLElement} main
 * @param {string} heading
 * @param {() => void} onSaved
 */
function haveKey (main, heading, onSaved) {
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
function handleCatalogueError (main, error, heading, retry) {
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
    if ((name === 'offset' && value === '0') || (name === 'limit' && value === String(DEFAULT_LIMIT))) continue
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
  // A choice in a list applies at once; typed text applies with Enter.
  form.addEventListener('change', (event) => {
    if (/** @type {HTMLElement} */ (event.target).tagName === 'SELECT') apply()
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
 * data can satisfy, and the countries offered; filters the whole catalogue cannot use are hidden.
 * @param {HTMLFormElement} form
 * @param {Record<string, string>} query
 * @param {Facets} facets
 * @param {Shape} shape
 */
function fillForm (form, query, facets, shape) {
  for (const s of SELECTS) {
    const select = /** @type {HTMLSelectElement} */ (form.querySelector(`#filter-${s.name}`))
    const values = facets.facets[s.name] ?? []
    const active = query[s.name]
    const options = [h('option', { value: '' }, s.any),
      ...values.map((v) => h('option', { value: v.value }, `${v.label} (${formatNumber(v.count)})`))]
    if (active !== undefined && !values.some((v) => v.value === active)) {
      options.push(h('option', { value: active }, `${labelOf(shape, s.name, active)} (0)`))
    }
    select.replaceChildren(...options)
    select.value = active ?? ''
    // A filter that cannot tell any two projects of the catalogue apart is not offered.
    const wholeCatalogue = shape.facets.facets[s.name] ?? []
    const field = /** @type {HTMLElement} */ (select.closest('[data-field]'))
    field.hidden = active === undefined && wholeCatalogue.length < 2
  }
  const ordering = /** @type {HTMLSelectElement} */ (form.querySelector('#filter-ordering'))
  ordering.replaceChildren(...ORDERINGS
    .filter((o) => o.field === undefined || shape.fields.has(o.field) || o.value === query['ordering'])
    .map((o) => h('option', { value: o.value }, o.text)))
  ordering.value = query['ordering'] ?? ''
  const countries = /** @type {HTMLElement} */ (form.querySelector('#location-options'))
  replaceChildren(countries, (facets.facets['location'] ?? []).map((v) =>
    h('option', { value: v.value, label: `${v.label} (${formatNumber(v.count)})` })))
}

/**
 * @param {Shape} shape
 * @param {string} name
 * @param {string} value
 */
function labelOf (shape, name, value) {
  const found = (shape.facets.facets[name] ?? []).find((v) => v.value.toLowerCase() === value.toLowerCase())
  return found?.label ?? value
}

/**
 * The active filters as chips, each removable.
 * @param {Record<string, string>} query
 * @param {Shape} shape
 * @param {any} page the list answer, to name a country given by its code
 */
function chips (query, shape, page) {
  const active = FILTERS.filter((name) => query[name] !== undefined)
  if (active.length === 0) return null
  return h('ul', { class: 'chips', 'aria-label': 'Active filters' }, active.map((name) => {
    const value = query[name] ?? ''
    let text = name === 'search' ? value : labelOf(shape, name, value)
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
      onclick: () => { location.hash = listHash({ ...query, [name]: undefined, offset: undefined }) }
    }, label, h('span', { 'aria-hidden': 'true', class: 'chip-x' }, '×')))
  }))
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
    h('ul', { class: 'tags', 'aria-label': 'Details' },
      h('li', {}, project.symbol),
      project.rating ? h('li', {}, `Rating ${project.rating.verbose_name}`) : null,
      project.date ? h('li', {}, `Since ${project.date}`) : null,
      vintages ? h('li', {}, vintages) : null,
      project.estimated_annual_reductions !== null
        ? h('li', {}, `${formatNumber(project.estimated_annual_reductions, 0)} t/year`)
        : null))
}

/**
 * @param {Record<string, string>} query
 * @param {any} page
 */
function pager (query, page) {
  const limit = Number(query['limit'])
  const offset = Number(query['offset'] ?? 0)
  const pages = Math.max(1, Math.ceil(page.count / limit))
  const current = Math.min(pages, Math.floor(offset / limit) + 1)
  const link = (/** @type {string} */ text, /** @type {number} */ target, /** @type {string} */ rel) =>
    h('a', { class: 'button secondary', href: listHash({ ...query, offset: String(target) }), rel }, text)
  return h('nav', { class: 'pager', 'aria-label': 'Pages' },
    page.previous === null
      ? h('span', { class: 'disabled' }, 'Previous')
      : link('Previous', Math.max(0, offset - limit), 'prev'),
    h('span', {}, `Page ${current} of ${pages}`),
    page.next === null ? h('span', { class: 'disabled' }, 'Next') : link('Next', offset + limit, 'next'))
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
        filterForm(query),
        h('div', { id: 'chips' }),
        h('div', { id: 'results' })),
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
  let page, facets, shape
  try {
    // The shape first: it resets the caches for a new key, and its unfiltered facets serve a list without filters.
    const shapeRequest = catalogueShape(signal)
    ;[page, facets, shape] = await Promise.all([
      apiGet(PRODUCTS, query, { auth: true, signal }),
      facetsFor(filters, signal),
      shapeRequest
    ])
  } catch (error) {
    if (signal.aborted) return
    loading.hidden = true
    results.removeAttribute('aria-busy')
    reveal()
    const shapeNow = await catalogueShape(signal).catch(() => undefined)
    if (shapeNow !== undefined) fillForm(form, query, shapeNow.facets, shapeNow)
    syncForm(form, query)
    const chipList = /** @type {HTMLElement} */ (main.querySelector('#chips'))
    replaceChildren(chipList, shapeNow ? chips(query, shapeNow, undefined) : null)
    replaceChildren(results, h('p', { class: 'summary', tabindex: '-1', id: 'summary' }, 'No results: the service ' +
      'did not accept these filters.'))
    if (error instanceof ApiError && error.status === 400 && showFieldError(main, error, query)) {
      clearError()
      return
    }
    handleCatalogueError(main, error, heading, rerender)
    return
  }
  if (signal.aborted) return
  clearError()
  fillForm(form, query, facets, shape)
  replaceChildren(/** @type {HTMLElement} */ (main.querySelector('#chips')), chips(query, shape, page))
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
  replaceChildren(results,
    h('p', { class: 'summary', id: 'summary', tabindex: '-1' }, summary),
    h('div', { class: 'catalogue-layout' }, h('div', {}, cards, pager(query, page)), map.element))
  geojsonFor(filters, signal).then((geo) => {
    if (signal.aborted) return
    const points = geo.features.map((/** @type {any} */ f) => ({
      id: f.properties.id,
      name: f.properties.name,
      longitude: f.geometry.coordinates[0],
      latitude: f.geometry.coordinates[1]
    }))
    map.setPoints(points, `World map: ${formatNumber(geo.count)} of the ${formatNumber(page.count)} matching ` +
      'projects have a recorded location. Drag to pan; numbered circles are groups: select one to zoom in.')
  }, (error) => { if (!signal.aborted) showError(error) })
  return summary
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
          fact('Rating', project.rating?.verbose_name),
          fact('Certifications', project.certifications.map((/** @type {any} */ c) => c.verbose_name).join(', ')),
          fact('Country', project.location),
          fact('Coordinates', coordinates),
          fact('Start date', project.date),
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
        map?.element ?? h('p', {}, 'The registry gives no coordinates for this project.'))),
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
        h('h2', { id: 'images-heading' }, 'Images'), h('div', { class: 'images' }, project.images.map(imageFigure))))
  // Markers are placed for the map's size, known once it is in the page.
  if (map !== null) map.focus(project.longitude, project.latitude, 10)
  return `Project ${project.name}.`
}
