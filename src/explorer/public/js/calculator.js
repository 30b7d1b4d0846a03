// The footprint calculator: a form over the calculator endpoints. The URL's hash holds every input
// (#/calculator?country_code=DEU&…), so a copied link recalculates the same result.
import { ApiError, apiGet } from './api.js'
import { formatNumber, h, humanize, replaceChildren } from './dom.js'
import { clearError, showError } from './errors.js'

const CALCULATOR = '/api/v1/co2-calculator'
const UNIT_NAMES = { km: 'km', mi: 'miles', m2: 'm²', ft2: 'ft²' }
/** Every input the form has, in the order the URL lists them. */
const INPUTS = ['country_code', 'measurement_system', 'frequency', 'diet_form', 'calories', 'mode', 'distance', 'fuel_type', 'car_size', 'rail_type', 'amount', 'home_size', 'household_size', 'heating_type', 'energy_type']
// household_size has no form default: left empty, the service uses the country's average household.
const FORM_DEFAULTS = { frequency: 'rare', amount: 'average' }

const CATEGORIES = [
  { id: 'flight', label: 'Flights', query: (v) => ({ frequency: v.frequency }) },
  { id: 'diet', label: 'Food', query: (v) => ({ diet_form: v.diet_form, calories: v.calories }) },
  {
    id: 'car',
    label: 'Car and public transport',
    // Skipped when no distance is given; fuel and size apply to cars only, rail_type to trains only.
    query: (v) => v.distance === undefined
      ? null
      : { distance: v.distance, mode: v.mode, ...(v.mode === 'car' || v.mode === undefined ? { fuel_type: v.fuel_type, car_size: v.car_size } : {}), ...(v.mode === 'rail' ? { rail_type: v.rail_type } : {}) }
  },
  { id: 'clothes', label: 'Clothes', query: (v) => ({ amount: v.amount }) },
  {
    id: 'energy',
    label: 'Home energy',
    query: (v) => v.home_size === undefined && v.heating_type !== 'none'
      ? null
      : { home_size: v.home_size, household_size: v.household_size, heating_type: v.heating_type, energy_type: v.energy_type }
  }
]

let countries
const configs = new Map()

function valuesOf (params) {
  const values = {}
  for (const name of INPUTS) {
    const value = params.get(name)?.trim()
    if (value) values[name] = value
  }
  return values
}

async function loadCountries (signal) {
  countries ??= apiGet(`${CALCULATOR}/countries`, {}, { signal }).catch((error) => { countries = undefined; throw error })
  return await countries
}

function selectField (name, label, options, value, extra = {}) {
  return h('div', { 'data-field': name, ...extra },
    h('label', { for: `calc-${name}` }, label),
    h('select', { id: `calc-${name}`, name }, options.map(([optionValue, text]) => h('option', { value: optionValue, selected: optionValue === value }, text))))
}

function numberField (name, label, { min, max, step = 'any', hint, value }) {
  const hintId = hint ? `calc-${name}-hint` : null
  return h('div', { 'data-field': name },
    h('label', { for: `calc-${name}`, id: `calc-${name}-label` }, label),
    h('input', { id: `calc-${name}`, name, type: 'number', inputmode: 'decimal', min, max, step, value: value ?? '', 'aria-describedby': hintId }),
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null)
}

const options = (values) => values.map((value) => [value, humanize(value)])

/** Builds the form for one country configuration (units and allowed values come from the service). */
function calculatorForm (config, countryList, values) {
  const e = config?.enums ?? {}
  const d = config?.defaults ?? {}
  const pick = (name) => values[name] ?? FORM_DEFAULTS[name] ?? (d[name] === undefined ? undefined : String(d[name]))
  const distanceUnit = UNIT_NAMES[config?.units.distance] ?? 'km'
  const areaUnit = UNIT_NAMES[config?.units.area] ?? 'm²'
  const mode = pick('mode') ?? 'car'
  const systemLabel = config ? `The country's (${config.default_measurement_system})` : 'The country\'s'
  const form = h('form', { id: 'calculator-form', novalidate: true },
    h('fieldset', {},
      h('legend', {}, 'Where you live'),
      h('div', { class: 'form-grid' },
        selectField('country_code', 'Country', [['', 'Choose a country'], ...countryList.map((c) => [c.country_code, c.country_name])], values.country_code ?? ''),
        selectField('measurement_system', 'Units', [['', systemLabel], ['metric', 'Metric (km, m²)'], ['imperial', 'Imperial (miles, ft²)']], values.measurement_system ?? ''))),
    config === undefined
      ? h('p', { class: 'hint' }, 'Choose a country: the units, the options and the averages follow it.')
      : [
          h('fieldset', {},
            h('legend', {}, 'Flights'),
            h('div', { class: 'form-grid' }, selectField('frequency', 'How often do you fly?', options(e.frequency ?? []), pick('frequency')))),
          h('fieldset', {},
            h('legend', {}, 'Food'),
            h('div', { class: 'form-grid' },
              selectField('diet_form', 'Diet', options(e.diet_form ?? []), pick('diet_form')),
              numberField('calories', 'Food energy a day (kcal)', { min: 1200, max: 4000, step: 1, value: pick('calories') }))),
          h('fieldset', {},
            h('legend', {}, 'Car and public transport'),
            h('div', { class: 'form-grid' },
              selectField('mode', 'Mainly by', options(e.mode ?? []), mode),
              numberField('distance', `Distance a year (${distanceUnit})`, { min: 0, hint: 'Leave empty to leave travel out.', value: values.distance }),
              selectField('fuel_type', 'Fuel', options(e.fuel_type ?? []), pick('fuel_type'), { hidden: mode !== 'car' }),
              selectField('car_size', 'Car size', options(e.car_size ?? []), pick('car_size'), { hidden: mode !== 'car' }),
              selectField('rail_type', 'Kind of train', options(e.rail_type ?? []), pick('rail_type'), { hidden: mode !== 'rail' }))),
          h('fieldset', {},
            h('legend', {}, 'Clothes'),
            h('div', { class: 'form-grid' }, selectField('amount', 'Compared with the average', options(e.amount ?? []), pick('amount')))),
          h('fieldset', {},
            h('legend', {}, 'Home'),
            h('div', { class: 'form-grid' },
              numberField('home_size', `Floor area (${areaUnit})`, { min: 0, hint: 'Leave empty to leave home energy out.', value: values.home_size }),
              numberField('household_size', 'People in the home', { min: 1, max: 20, step: 1, hint: `Leave empty for ${config.country_name}'s average (${formatNumber(d.household_size, 2)}).`, value: values.household_size }),
              selectField('heating_type', 'Heating', options(e.heating_type ?? []), pick('heating_type')),
              selectField('energy_type', 'Electricity tariff', options(e.energy_type ?? []), pick('energy_type')))),
          h('div', { class: 'form-actions' }, h('button', { type: 'submit' }, 'Calculate'))
        ])
  return form
}

function formValues (form) {
  const values = {}
  for (const [name, value] of new FormData(form)) {
    const text = String(value).trim()
    if (text !== '' && !form.elements[name]?.closest('[hidden]')) values[name] = text
  }
  return values
}

function calculatorHash (values) {
  const search = new URLSearchParams()
  for (const name of INPUTS) if (values[name] !== undefined) search.set(name, values[name])
  return `#/calculator?${search}`
}

async function mountForm (main, values, signal) {
  const countryList = await loadCountries(signal)
  let config
  if (values.country_code) {
    const query = { country_code: values.country_code, measurement_system: values.measurement_system }
    const key = JSON.stringify(query)
    if (!configs.has(key)) configs.set(key, await apiGet(`${CALCULATOR}/config`, query, { signal }))
    config = configs.get(key)
  }
  const form = calculatorForm(config, countryList, values)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    location.hash = calculatorHash(formValues(form))
  })
  // A new country or unit system rebuilds the form around its units, keeping what was typed.
  form.addEventListener('change', async (event) => {
    const name = event.target.name
    if (name === 'mode') {
      for (const field of ['fuel_type', 'car_size']) form.querySelector(`[data-field="${field}"]`).hidden = event.target.value !== 'car'
      form.querySelector('[data-field="rail_type"]').hidden = event.target.value !== 'rail'
      return
    }
    if (name !== 'country_code' && name !== 'measurement_system') return
    const typed = formValues(form)
    try {
      const rebuilt = await mountForm(main, typed, undefined)
      rebuilt.querySelector(`[name="${name}"]`).focus()
      clearError()
    } catch (error) {
      showError(error)
    }
  })
  const existing = main.querySelector('#calculator-form') ?? main.querySelector('#calculator-slot')
  existing.replaceWith(form)
  return form
}

function markInvalid (form, error) {
  for (const element of form.querySelectorAll('[aria-invalid]')) element.removeAttribute('aria-invalid')
  if (error instanceof ApiError && error.parameter) {
    const input = form.elements[error.parameter]
    if (input instanceof Element) {
      input.setAttribute('aria-invalid', 'true')
      input.setAttribute('aria-errormessage', 'alerts')
      input.focus()
    }
  }
}

export async function renderCalculator (main, params, { signal }) {
  document.title = 'Footprint calculator · Tonne explorer'
  const values = valuesOf(params)
  if (main.dataset.view !== 'calculator') {
    replaceChildren(main,
      h('h1', { tabindex: '-1' }, 'Footprint calculator'),
      h('p', {}, 'A year of one person\'s emissions, from the service\'s cited factors, compared with the average person in the country and in the world.'),
      h('div', { id: 'calculator-slot' }, h('p', { 'aria-busy': 'true' }, 'Loading the countries…')),
      h('div', { id: 'calculator-result', 'aria-live': 'polite' }))
    main.dataset.view = 'calculator'
  }
  // The form is rebuilt from the URL each time, so it always shows what the link says.
  let form
  try {
    form = await mountForm(main, values, signal)
  } catch (error) {
    if (signal.aborted) return
    showError(error)
    return
  }
  const result = main.querySelector('#calculator-result')
  if (!values.country_code) {
    replaceChildren(result)
    return
  }
  result.setAttribute('aria-busy', 'true')
  let outcome
  try {
    // The form's values: the URL's, with the form's defaults for whatever the URL leaves out.
    outcome = await calculate(formValues(form), signal)
  } catch (error) {
    if (signal.aborted) return
    result.removeAttribute('aria-busy')
    replaceChildren(result)
    markInvalid(form, error)
    showError(error)
    return
  }
  if (signal.aborted) return
  clearError()
  markInvalid(form, undefined)
  result.removeAttribute('aria-busy')
  replaceChildren(result, resultSection(outcome))
  return `Your estimate: ${formatNumber(outcome.totalT, 2)} tonnes of CO₂e a year.`
}

/** Every category the inputs cover, plus the country's average (with the world's), in parallel. */
async function calculate (values, signal) {
  const common = { country_code: values.country_code, measurement_system: values.measurement_system }
  const parts = CATEGORIES
    .map((category) => ({ category, query: category.query(values) }))
    .filter((part) => part.query !== null)
  const [footprint, ...answers] = await Promise.all([
    apiGet(`${CALCULATOR}/footprint`, { country_code: values.country_code }, { signal }),
    ...parts.map((part) => apiGet(`${CALCULATOR}/${part.category.id}`, { ...common, ...part.query }, { signal }))
  ])
  const rows = parts.map((part, i) => ({ ...part.category, answer: answers[i] }))
  const totalT = rows.reduce((sum, row) => sum + row.answer.co2e.kg, 0) / 1000
  const skipped = CATEGORIES.filter((category) => !parts.some((part) => part.category === category))
  const country = (await loadCountries(signal)).find((c) => c.country_code === footprint.country_code)
  return { rows, skipped, totalT, footprint, countryName: country?.country_name ?? footprint.country_code }
}

function bar (value, max, kind) {
  const element = h('div', { class: `bar ${kind ?? ''}` })
  // CSSOM, not a style attribute: the page's CSP allows no inline styles.
  element.style.width = `${max > 0 ? Math.max(0.5, (value / max) * 100) : 0}%`
  return element
}

function resultSection ({ rows, skipped, totalT, footprint, countryName }) {
  const largest = Math.max(...rows.map((row) => row.answer.co2e.kg / 1000), 0.001)
  const comparison = [
    ['You (the categories above)', totalT, ''],
    [`Average person in ${countryName} (${footprint.values[`${footprint.basis}_co2`]?.year ?? ''})`, footprint.co2e.t, 'country'],
    [`World average (${footprint.world.year})`, footprint.world.t, 'world']
  ]
  const comparisonMax = Math.max(...comparison.map(([, t]) => t))
  const sources = new Map()
  for (const answer of [...rows.map((row) => row.answer), footprint]) for (const source of answer.sources) sources.set(source.id, source)
  return h('section', { class: 'result', 'aria-labelledby': 'result-heading' },
    h('h2', { id: 'result-heading', tabindex: '-1' }, 'Your estimate'),
    h('p', { class: 'total', id: 'total' }, `${formatNumber(totalT, 2)} t CO₂e a year`),
    skipped.length > 0 ? h('p', { class: 'hint' }, `Not included: ${skipped.map((c) => c.label.toLowerCase()).join(', ')} (no input given).`) : null,
    h('h3', {}, 'By category'),
    h('div', { class: 'table-wrap' },
      h('table', { id: 'breakdown' },
        h('caption', { class: 'visually-hidden' }, 'Emissions by category, tonnes of CO₂e a year'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Category'), h('th', { scope: 'col', class: 'number' }, 't CO₂e'), h('th', { scope: 'col', class: 'number' }, 'Share'), h('th', { scope: 'col', class: 'bar-cell' }, h('span', { class: 'visually-hidden' }, 'Bar')))),
        h('tbody', {}, rows.map((row) => {
          const t = row.answer.co2e.kg / 1000
          return h('tr', { 'data-category': row.id },
            h('th', { scope: 'row' }, row.label),
            h('td', { class: 'number' }, formatNumber(t, 2)),
            h('td', { class: 'number' }, totalT > 0 ? `${formatNumber((t / totalT) * 100, 0)}%` : '—'),
            h('td', { class: 'bar-cell', 'aria-hidden': 'true' }, bar(t, largest)))
        })),
        h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, 'Total'), h('td', { class: 'number' }, formatNumber(totalT, 2)), h('td', {}), h('td', {}))))),
    rows.map((row) => h('details', {},
      h('summary', {}, `${row.label}: how it was calculated`),
      h('ul', {}, row.answer.breakdown.map((item) => h('li', {},
        `${item.label}: ${formatNumber(item.quantity)} ${item.quantity_unit} × ${formatNumber(item.factor, 4)} ${item.factor_unit} = ${formatNumber(item.kg_co2e)} kg CO₂e`,
        item.factor_status !== 'published' ? ` (${item.factor_status})` : '',
        ` [${item.source}]`))),
      row.answer.assumptions.length > 0 ? h('ul', { class: 'hint' }, row.answer.assumptions.map((a) => h('li', {}, a))) : null)),
    h('h3', {}, 'Compared with the averages'),
    h('div', { class: 'table-wrap' },
      h('table', { id: 'comparison' },
        h('caption', { class: 'visually-hidden' }, 'Your estimate compared with the country\'s and the world\'s average, tonnes a year'),
        h('tbody', {}, comparison.map(([label, t, kind]) => h('tr', {},
          h('th', { scope: 'row' }, label),
          h('td', { class: 'number' }, `${formatNumber(t, 2)} t`),
          h('td', { class: 'bar-cell', 'aria-hidden': 'true' }, bar(t, comparisonMax, kind))))))),
    h('p', { class: 'hint' }, `The averages are ${footprint.basis === 'ghg' ? 'all greenhouse gases' : `${footprint.basis}-based CO₂ only`} per person; the average person in the country emits ${formatNumber(footprint.ratio_to_world, 2)} times the world average.`),
    h('h3', {}, 'Sources'),
    h('ul', { class: 'sources', id: 'sources' }, [...sources.values()].map((source) => h('li', {},
      h('strong', {}, source.name), ` — ${source.publisher}${source.year ? `, ${source.year}` : ''}. Licence: ${source.licence}. `,
      source.url ? h('a', { href: source.url, rel: 'noopener noreferrer' }, 'Source') : null))))
}
