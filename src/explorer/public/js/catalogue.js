// The catalogue: a list driven entirely by the URL's hash (#/projects?search=…&offset=…) and a project page.
import { ApiError, apiGet } from './api.js'
import { formatNumber, h, plainText, replaceChildren } from './dom.js'
import { clearError, showError } from './errors.js'
import { currentKey, forgetKey, keyForm } from './key.js'
import { worldMap } from './map.js'

const PRODUCTS = '/api/v1/commerce/products/'
const PAGE_SIZES = [10, 20, 50, 100]
const DEFAULT_LIMIT = 20
const ORDERINGS = [
  ['', 'Catalogue order'],
  ['name', 'Name, A to Z'],
  ['-name', 'Name, Z to A'],
  ['-date', 'Newest first'],
  ['date', 'Oldest first'],
  ['location', 'Country, A to Z'],
  ['-estimated_annual_reductions', 'Largest annual reductions'],
  ['-area', 'Largest area'],
  ['inventory_price', 'Lowest price'],
  ['-inventory_price', 'Highest price']
]
const TEXT_FILTERS = [
  ['search', 'Search', 'Name, symbol, registry id or developer'],
  ['location', 'Country', 'e.g. Brazil'],
  ['registry', 'Registry', 'e.g. VERRA'],
  ['credit_type', 'Credit type', 'e.g. ENERGY_INDUSTRIES'],
  ['rating', 'Rating', 'e.g. AA']
]
/** Every parameter the list view reads from the URL; anything else in the hash is ignored. */
const LIST_PARAMS = ['search', 'location', 'registry', 'credit_type', 'rating', 'in_sale', 'ordering', 'limit', 'offset']

// Values seen in answers (and in the service's allowed_values), offered as suggestions.
const suggestions = { registry: new Set(), credit_type: new Set(), rating: new Set() }
let lastListHash = '#/projects'

/** Asks for the key in `main` when there is none; true when the view may call the catalogue. */
function haveKey (main, heading, onSaved) {
  if (currentKey() !== undefined) return true
  delete main.dataset.view
  replaceChildren(main, h('h1', { tabindex: '-1' }, heading), keyForm(onSaved))
  return false
}

/** A refused key (401) is forgotten, and the form asks again under the service's message. */
function handleCatalogueError (main, error, heading, retry) {
  showError(error)
  if (error instanceof ApiError && error.status === 401) {
    forgetKey()
    delete main.dataset.view
    replaceChildren(main, h('h1', { tabindex: '-1' }, heading), keyForm(retry, 'The service refused that key. Enter another one.'))
  }
}

function listQuery (params) {
  const query = {}
  for (const name of LIST_PARAMS) {
    const value = params.get(name)
    if (value !== null && value !== '') query[name] = value
  }
  query.limit ??= String(DEFAULT_LIMIT)
  return query
}

function listHash (query) {
  const search = new URLSearchParams()
  for (const name of LIST_PARAMS) {
    const value = query[name]
    if (value === undefined || value === '' || (name === 'offset' && value === '0') || (name === 'limit' && value === String(DEFAULT_LIMIT))) continue
    search.set(name, value)
  }
  return search.size === 0 ? '#/projects' : `#/projects?${search}`
}

function filterForm (query) {
  const fields = TEXT_FILTERS.map(([name, label, hint]) => {
    const list = suggestions[name] ? `${name}-options` : null
    return h('div', {},
      h('label', { for: `filter-${name}` }, label),
      h('input', { id: `filter-${name}`, name, type: name === 'search' ? 'search' : 'text', value: query[name] ?? '', placeholder: hint, list, autocomplete: 'off' }),
      list === null ? null : h('datalist', { id: list }, [...suggestions[name]].sort().map((value) => h('option', { value }))))
  })
  const select = (name, label, options, value) => h('div', {},
    h('label', { for: `filter-${name}` }, label),
    h('select', { id: `filter-${name}`, name }, options.map(([optionValue, text]) => h('option', { value: optionValue, selected: optionValue === value }, text))))
  const form = h('form', { class: 'filters', id: 'filters', role: 'search', 'aria-label': 'Filter projects' },
    h('div', { class: 'form-grid' },
      fields,
      select('in_sale', 'In sale', [['', 'Any'], ['true', 'In sale'], ['false', 'Not in sale']], query.in_sale ?? ''),
      select('ordering', 'Order by', ORDERINGS, query.ordering ?? ''),
      select('limit', 'Per page', PAGE_SIZES.map((n) => [String(n), String(n)]), query.limit)),
    h('div', { class: 'form-actions' },
      h('button', { type: 'submit' }, 'Apply filters'),
      h('a', { class: 'button secondary', href: '#/projects' }, 'Clear')))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const data = new FormData(form)
    const next = {}
    for (const [name, value] of data) next[name] = String(value).trim()
    // New filters start from the first page.
    location.hash = listHash(next)
  })
  return form
}

/** Puts the URL's values into the mounted form (back and forward buttons) without rebuilding it. */
function syncForm (form, query) {
  for (const element of form.elements) {
    if (element.name === '' || element.name === undefined) continue
    element.value = query[element.name] ?? ''
  }
}

/** The suggestion lists grow with what the answers showed, in place, so focus is not lost. */
function refreshSuggestions (form) {
  if (form === null) return
  for (const [name, values] of Object.entries(suggestions)) {
    const list = form.querySelector(`#${name}-options`)
    if (list !== null) replaceChildren(list, [...values].sort().map((value) => h('option', { value })))
  }
}

function projectCard (project) {
  const facts = [project.location || 'No country given', project.registry.verbose_name, project.credit_type?.verbose_name].filter(Boolean)
  const vintages = project.vintages.length === 0 ? null : `Vintages ${Math.min(...project.vintages)}–${Math.max(...project.vintages)}`
  return h('li', { class: 'project-card' },
    h('h2', {}, h('a', { href: `#/projects/${project.id}` }, project.name)),
    h('p', {}, facts.join(' · ')),
    h('ul', { class: 'tags', 'aria-label': 'Details' },
      h('li', {}, project.symbol),
      project.rating ? h('li', {}, `Rating ${project.rating.verbose_name}`) : null,
      project.date ? h('li', {}, `Since ${project.date}`) : null,
      vintages ? h('li', {}, vintages) : null,
      project.estimated_annual_reductions !== null ? h('li', {}, `${formatNumber(project.estimated_annual_reductions, 0)} t/year`) : null))
}

function pager (query, page) {
  const limit = Number(query.limit)
  const offset = Number(query.offset ?? 0)
  const pages = Math.max(1, Math.ceil(page.count / limit))
  const current = Math.min(pages, Math.floor(offset / limit) + 1)
  const link = (text, targetOffset, rel) => h('a', { class: 'button secondary', href: listHash({ ...query, offset: String(targetOffset) }), rel }, text)
  return h('nav', { class: 'pager', 'aria-label': 'Pages' },
    page.previous === null ? h('span', { class: 'disabled' }, 'Previous') : link('Previous', Math.max(0, offset - limit), 'prev'),
    h('span', {}, `Page ${current} of ${pages}`),
    page.next === null ? h('span', { class: 'disabled' }, 'Next') : link('Next', offset + limit, 'next'))
}

function remember (project) {
  suggestions.registry.add(project.registry.name_id)
  if (project.credit_type) suggestions.credit_type.add(project.credit_type.name_id)
  if (project.rating) suggestions.rating.add(project.rating.name_id)
}

export async function renderProjectList (main, params, { signal, rerender }) {
  const heading = 'Carbon-offset projects'
  document.title = 'Projects · Tonne explorer'
  if (!haveKey(main, heading, rerender)) return
  const query = listQuery(params)
  lastListHash = location.hash || '#/projects'
  // The view stays mounted while only its query changes, so focus stays where the user left it.
  const mounted = main.dataset.view === 'list'
  const results = mounted ? main.querySelector('#results') : h('div', { id: 'results', 'aria-busy': 'true' })
  if (mounted) {
    syncForm(main.querySelector('#filters'), query)
    results.setAttribute('aria-busy', 'true')
  } else {
    replaceChildren(main, h('h1', { tabindex: '-1' }, heading), filterForm(query), results)
    main.dataset.view = 'list'
  }
  let page
  try {
    page = await apiGet(PRODUCTS, query, { auth: true, signal })
  } catch (error) {
    if (signal.aborted) return
    results.removeAttribute('aria-busy')
    if (error instanceof ApiError && error.allowedValues && suggestions[error.parameter]) {
      for (const value of error.allowedValues) suggestions[error.parameter].add(value)
      refreshSuggestions(main.querySelector('#filters'))
    }
    replaceChildren(results, h('p', { class: 'summary', tabindex: '-1', id: 'summary' }, 'No results: the service refused the request (see the message above).'))
    handleCatalogueError(main, error, heading, rerender)
    return
  }
  if (signal.aborted) return
  clearError()
  page.results.forEach(remember)
  const offset = Number(query.offset ?? 0)
  const summary = page.results.length === 0
    ? (page.count === 0 ? 'No project matches these filters.' : `No projects on this page; ${page.count} match in all.`)
    : `Showing ${offset + 1}–${offset + page.results.length} of ${formatNumber(page.count)} ${page.count === 1 ? 'project' : 'projects'}.`
  const located = page.results.filter((p) => p.latitude !== null && p.longitude !== null)
  replaceChildren(results,
    h('p', { class: 'summary', id: 'summary', tabindex: '-1' }, summary),
    h('div', { class: 'catalogue-layout' },
      h('div', {}, h('ol', { class: 'project-list', start: offset + 1 }, page.results.map(projectCard)), pager(query, page)),
      worldMap(page.results.map((p) => ({ ...p, href: `#/projects/${p.id}` })),
        `World map: ${located.length} of the ${page.results.length} projects on this page have a recorded location.`)))
  results.removeAttribute('aria-busy')
  refreshSuggestions(main.querySelector('#filters'))
  return summary
}

function field (label, value) {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return null
  return [h('dt', {}, label), h('dd', {}, value)]
}

function imageFigure (image) {
  // The page's CSP loads images from this service only; other hosts are linked instead.
  const local = new URL(image.url, location.href).origin === location.origin
  return h('figure', {},
    local ? h('img', { src: image.url, alt: image.title, loading: 'lazy' }) : h('a', { href: image.url, rel: 'noopener noreferrer' }, `Open image: ${image.title}`),
    h('figcaption', {}, image.title))
}

export async function renderProject (main, id, { signal, rerender }) {
  document.title = 'Project · Tonne explorer'
  const back = h('p', {}, h('a', { href: lastListHash }, '← Back to the projects'))
  if (!haveKey(main, 'Project', rerender)) return
  main.dataset.view = 'project'
  replaceChildren(main, back, h('h1', { tabindex: '-1' }, 'Project'), h('p', { 'aria-busy': 'true' }, 'Loading…'))
  let project
  try {
    project = await apiGet(`${PRODUCTS}${encodeURIComponent(id)}/`, {}, { auth: true, signal })
  } catch (error) {
    if (signal.aborted) return
    replaceChildren(main, back, h('h1', { tabindex: '-1' }, error instanceof ApiError && error.status === 404 ? 'Project not found' : 'Project'))
    handleCatalogueError(main, error, 'Project', rerender)
    return
  }
  if (signal.aborted) return
  clearError()
  document.title = `${project.name} · Tonne explorer`
  const located = project.latitude !== null && project.longitude !== null
  const coordinates = located ? `${formatNumber(project.latitude, 4)}, ${formatNumber(project.longitude, 4)}` : null
  const goals = project.sustainable_development_goals
  replaceChildren(main, back,
    h('h1', { tabindex: '-1' }, project.name),
    project.short_description ? h('p', { class: 'lede' }, project.short_description) : null,
    h('div', { class: 'detail-layout' },
      h('section', { 'aria-labelledby': 'facts-heading' },
        h('h2', { id: 'facts-heading' }, 'Facts'),
        h('dl', { class: 'fields' },
          field('Symbol', project.symbol),
          field('Registry id', project.external_id),
          field('Registry', project.registry.verbose_name),
          field('Standard', project.standard.verbose_name),
          field('Credit type', project.credit_type?.verbose_name),
          field('Rating', project.rating?.verbose_name),
          field('Certifications', project.certifications.map((c) => c.verbose_name).join(', ')),
          field('Country', project.location),
          field('Coordinates', coordinates),
          field('Start date', project.date),
          field('Area', project.area === null ? null : `${formatNumber(project.area)} ha`),
          field('Estimated annual reductions', project.estimated_annual_reductions === null ? null : `${formatNumber(project.estimated_annual_reductions)} t CO₂e a year`),
          field('Price', project.inventory_price === null ? null : `${formatNumber(project.inventory_price, 2)} per tonne`),
          field('Developer', project.project_developer),
          field('Vintages', project.vintages.join(', ')),
          field('Bundle', project.is_bundle ? `Yes${Array.isArray(project.bundles) ? `, of ${project.bundles.length} projects` : ''}` : null),
          field('Registry page', project.url ? h('a', { href: project.url, rel: 'noopener noreferrer' }, project.url) : null))),
      h('section', { 'aria-labelledby': 'map-heading' },
        h('h2', { id: 'map-heading' }, 'Location'),
        located
          ? worldMap([{ ...project, href: `#/projects/${project.id}` }], `World map with the location of ${project.name}${project.location ? `, ${project.location}` : ''}.`)
          : h('p', {}, 'The registry gives no coordinates for this project.'))),
    goals.length === 0
      ? null
      : h('section', { 'aria-labelledby': 'sdg-heading' },
        h('h2', { id: 'sdg-heading' }, 'Sustainable development goals'),
        h('ul', { class: 'sdgs' }, goals.map((goal) => {
          const number = goal.name_id.split('_')[0]
          return h('li', {}, h('img', { src: goal.icon, alt: `Goal ${number}: ${goal.verbose_name}`, width: 72, height: 72 }))
        }))),
    project.description
      ? h('section', { 'aria-labelledby': 'description-heading' }, h('h2', { id: 'description-heading' }, 'Description'), h('p', { class: 'description' }, plainText(project.description)))
      : null,
    project.co_benefits
      ? h('section', { 'aria-labelledby': 'benefits-heading' }, h('h2', { id: 'benefits-heading' }, 'Co-benefits'),
        h('ul', {}, project.co_benefits.split(/\r?\n/).filter((line) => line.trim() !== '').map((line) => h('li', {}, line))))
      : null,
    project.images.length === 0
      ? null
      : h('section', { 'aria-labelledby': 'images-heading' }, h('h2', { id: 'images-heading' }, 'Images'), h('div', { class: 'images' }, project.images.map(imageFigure))))
  return `Project ${project.name}.`
}
