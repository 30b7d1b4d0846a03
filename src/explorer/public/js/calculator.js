// The footprint calculator: a form over the calculator endpoints. The URL's hash holds every input
// (#/calculator?country_code=DEU&…), so a copied link recalculates the same result.
import { ApiError, apiGet } from './api.js'
import { CALCULATOR_CATEGORIES } from './calculator-categories.js'
import { append, formatNumber, h, humanize, replaceChildren } from './dom.js'
import { clearError, showError } from './errors.js'
import { countryChoices, optionChoices, optionLabel, withFormattedNumbers } from './labels.js'

const CALCULATOR = '/api/v1/co2-calculator'
/** @type {Record<string, string>} */
const UNIT_NAMES = { km: 'km', mi: 'miles', m2: 'm²', ft2: 'ft²' }
// Exact conversion factors: the international mile is 1.609344 km and the square foot 0.09290304 m²
// (NIST Special Publication 811, appendix B).
const KM_PER_MILE = 1.609344
const M2_PER_FT2 = 0.09290304
/** Every input of the hand-made fields, in the order the URL lists them (a generated category's follow). */
const FORM_INPUTS = ['country_code', 'measurement_system', 'frequency', 'legs', 'diet_form', 'calories', 'mode',
  'distance', 'fuel_type', 'car_size', 'rail_type', 'amount', 'spend_usd', 'home_size', 'household_size',
  'heating_type', 'energy_type', 'electricity_kwh', 'heating_kwh']
// household_size has no form default: left empty, the service uses the country's average household. Flights have
// none either: a person who does not answer is not counted as a flyer (docs/explorer.md, "Flights").
/** @type {Record<string, string>} */
const FORM_DEFAULTS = { amount: 'average' }

/** @typedef {Record<string, string>} Values */
/** @typedef {{ min: number, max: number, integer: boolean, unit: string }} Range */

/**
 * The ranges the service accepts (its query schemas), in the form's units.
 * @param {any} config
 * @returns {Record<string, Range>}
 */
function rangesFor (config) {
  const imperial = config?.units.distance === 'mi'
  return {
    ...Object.assign({}, ...CATEGORIES.map((category) => category.ranges)),
    calories: { min: 1200, max: 4000, integer: true, unit: 'kcal' },
    distance: imperial
      ? { min: 0, max: Math.floor(1_000_000 / KM_PER_MILE), integer: false, unit: 'miles' }
      : { min: 0, max: 1_000_000, integer: false, unit: 'km' },
    home_size: imperial
      ? { min: 1, max: Math.floor(5000 / M2_PER_FT2), integer: false, unit: 'ft²' }
      : { min: 1, max: 5000, integer: false, unit: 'm²' },
    household_size: { min: 1, max: 20, integer: true, unit: 'people' },
    spend_usd: { min: 0, max: 100_000, integer: false, unit: 'US dollars' },
    electricity_kwh: { min: 0, max: 200_000, integer: false, unit: 'kWh' },
    heating_kwh: { min: 0, max: 200_000, integer: false, unit: 'kWh' }
  }
}

/**
 * What a category's fields are built from: the country's configuration and the form's values.
 * @typedef {object} FormContext
 * @property {any} config
 * @property {Values} values
 * @property {(name: string) => string | undefined} pick the value, else the form's or the country's default
 * @property {Record<string, Range>} ranges
 */
/**
 * The explorer's own fields and query for a category it knows. A category without one (a route added to the
 * service since) gets a fieldset of its own parameters from the generated list: no hand edit needed.
 * @typedef {object} CategoryForm
 * @property {string} [legend] the fieldset's legend, when not the category's label
 * @property {(c: FormContext) => unknown[]} fields
 * @property {(v: Values) => Values | null} query null: the category is skipped (no input given)
 */
/** @type {Record<string, CategoryForm>} */
export const CATEGORY_FORMS = {
  flight: {
    fields: ({ config, pick, values }) => [
      selectField('frequency', 'How often do you fly?',
        [['', 'Not counted'], ...options(config.enums.frequency ?? [])], pick('frequency')),
      textField('legs', 'Or your flights, by airport code', {
        hint: 'For example FRA-JFK, JFK-FRA (a return trip). Given, it replaces how often you fly.',
        value: values['legs'],
        maxLength: 800
      })
    ],
    // The person's own flights, when given, instead of how often they fly.
    query: (v) => {
      /** @type {Values} */
      const query = v['legs'] !== undefined ? { legs: v['legs'].replace(/\s+/g, '').toUpperCase() } : {}
      if (v['legs'] === undefined && v['frequency'] !== undefined) query['frequency'] = v['frequency']
      return Object.keys(query).length === 0 ? null : query
    }
  },
  diet: {
    fields: ({ config, pick, ranges }) => [
      selectField('diet_form', 'Diet', options(config.enums.diet_form ?? []), pick('diet_form')),
      numberField('calories', 'Food energy a day (kcal)', { range: ranges['calories'], value: pick('calories') })
    ],
    query: (v) => ({ diet_form: v['diet_form'] ?? '', calories: v['calories'] ?? '' })
  },
  car: {
    fields: ({ config, pick, ranges, values }) => {
      const e = config.enums
      const mode = pick('mode') ?? 'car'
      const distanceUnit = UNIT_NAMES[config.units.distance] ?? 'km'
      return [
        selectField('mode', 'Mainly by', options(e.mode ?? []), mode),
        numberField('distance', `Distance a year (${distanceUnit})`,
          { range: ranges['distance'], hint: 'Leave empty to leave travel out.', value: values['distance'] }),
        selectField('fuel_type', 'Fuel', options(e.fuel_type ?? []), pick('fuel_type'), { hidden: mode !== 'car' }),
        selectField('car_size', 'Car size', options(e.car_size ?? []), pick('car_size'), { hidden: mode !== 'car' }),
        selectField('rail_type', 'Kind of train', options(e.rail_type ?? []), pick('rail_type'),
          { hidden: mode !== 'rail' })
      ]
    },
    // Skipped when no distance is given; fuel and size apply to cars only, rail_type to trains only.
    query: (v) => {
      if (v['distance'] === undefined) return null
      /** @type {Values} */
      const query = { distance: v['distance'], mode: v['mode'] ?? '' }
      if (v['mode'] === 'car' || v['mode'] === undefined) {
        Object.assign(query, { fuel_type: v['fuel_type'] ?? '', car_size: v['car_size'] ?? '' })
      }
      if (v['mode'] === 'rail') query['rail_type'] = v['rail_type'] ?? ''
      return query
    }
  },
  clothes: {
    fields: ({ config, pick, ranges, values }) => [
      selectField('amount', 'Compared with the average', options(config.enums.amount ?? []), pick('amount')),
      numberField('spend_usd', 'Or what you spend on clothes a year (US dollars)', {
        range: ranges['spend_usd'],
        hint: 'Given, it replaces the comparison with the average.',
        value: values['spend_usd']
      })
    ],
    query: (v) => {
      /** @type {Values} */
      const query = {}
      if (v['spend_usd'] !== undefined) query['spend_usd'] = v['spend_usd']
      else query['amount'] = v['amount'] ?? ''
      return query
    }
  },
  energy: {
    legend: 'Home',
    fields: ({ config, pick, ranges, values }) => [
      numberField('home_size', `Floor area (${UNIT_NAMES[config.units.area] ?? 'm²'})`, {
        range: ranges['home_size'],
        hint: 'Leave it and the kWh below empty to leave home energy out.',
        value: values['home_size']
      }),
      numberField('household_size', 'People in the home', {
        range: ranges['household_size'],
        hint: `Empty: ${config.country_name}'s average (${formatNumber(config.defaults.household_size, 2)}).`,
        value: values['household_size']
      }),
      selectField('heating_type', 'Heating', options(config.enums.heating_type ?? []), pick('heating_type')),
      selectField('energy_type', 'Electricity tariff', options(config.enums.energy_type ?? []), pick('energy_type')),
      numberField('electricity_kwh', 'Electricity a year, from your bills (kWh)', {
        range: ranges['electricity_kwh'],
        hint: 'The whole home\'s. Empty: the country\'s average home of this size.',
        value: values['electricity_kwh']
      }),
      numberField('heating_kwh', 'Heating a year, from your bills (kWh)', {
        range: ranges['heating_kwh'],
        hint: 'Gas, oil, heat or heating electricity. Empty: the country\'s average home of this size.',
        value: values['heating_kwh']
      })
    ],
    // Counted once the home is described: its floor area, its own kWh, or no heating at all.
    query: (v) => v['home_size'] === undefined && v['heating_type'] !== 'none' && v['electricity_kwh'] === undefined &&
      v['heating_kwh'] === undefined
      ? null
      : {
          home_size: v['home_size'] ?? '',
          household_size: v['household_size'] ?? '',
          heating_type: v['heating_type'] ?? '',
          energy_type: v['energy_type'] ?? '',
          // A green tariff is counted by the market-based method (its own supply), or it would change nothing.
          electricity_method: v['energy_type'] === 'green' ? 'market_based' : '',
          electricity_kwh: v['electricity_kwh'] ?? '',
          heating_kwh: v['heating_kwh'] ?? ''
        }
  }
}

/** Parameters every category shares: the first two are set under "Where you live", boundary is the service's. */
const SHARED_PARAMETERS = new Set(['country_code', 'measurement_system', 'boundary'])

/**
 * A category the explorer has no form of its own for: a field per parameter of its own (a name another field
 * already has is shared with it), and a query of what was typed in them; skipped while they are all empty.
 * A category whose every parameter is shared has no fieldset of its own.
 * @param {import('./calculator-categories.js').CalculatorCategory} category
 * @returns {CategoryForm & { ranges: Record<string, Range> }}
 */
function generatedForm (category) {
  const own = category.parameters.filter((parameter) => !SHARED_PARAMETERS.has(parameter.name))
  const fielded = own.filter((parameter) => !FORM_INPUTS.includes(parameter.name))
  /** @type {Record<string, Range>} */
  const ranges = {}
  for (const p of fielded) {
    if (p.type !== 'number' && p.type !== 'integer') continue
    ranges[p.name] = {
      min: p.minimum ?? p.exclusiveMinimum ?? 0,
      max: p.maximum ?? Number.MAX_SAFE_INTEGER,
      integer: p.type === 'integer',
      unit: ''
    }
  }
  return {
    ranges,
    fields: ({ config, values }) => fielded.map((p) => {
      const label = humanize(p.name)
      const choices = p.type === 'boolean' ? ['true', 'false'] : config.enums[p.name] ?? p.enum
      if (choices !== undefined) {
        return selectField(p.name, label, [['', 'Not given'], ...options(choices)], values[p.name])
      }
      const range = ranges[p.name]
      if (range !== undefined) return numberField(p.name, label, { range, value: values[p.name] })
      return textField(p.name, label, { hint: '', value: values[p.name], maxLength: 800 })
    }),
    query: (v) => {
      /** @type {Values} */
      const query = {}
      for (const p of own) if (v[p.name] !== undefined) query[p.name] = v[p.name]
      return Object.keys(query).length === 0 ? null : query
    }
  }
}

/**
 * @typedef {object} Category
 * @property {string} id
 * @property {string} label
 * @property {string} legend
 * @property {(c: FormContext) => unknown[]} fields
 * @property {(v: Values) => Values | null} query
 * @property {Record<string, Range>} ranges the generated fields' ranges (the hand-made ones are in rangesFor)
 */
/**
 * The calculator's categories, in the service's order: the generated list (calculator-categories.js, from the
 * OpenAPI document), each with the explorer's own form where it has one.
 * @param {import('./calculator-categories.js').CalculatorCategory[]} listed
 * @returns {Category[]}
 */
export function calculatorCategories (listed) {
  return listed.map((category) => {
    const form = CATEGORY_FORMS[category.id]
    const generated = form === undefined ? generatedForm(category) : undefined
    const chosen = form ?? /** @type {CategoryForm} */ (generated)
    return {
      id: category.id,
      label: category.label,
      legend: chosen.legend ?? category.label,
      fields: chosen.fields,
      query: chosen.query,
      ranges: generated?.ranges ?? {}
    }
  })
}

const CATEGORIES = calculatorCategories(CALCULATOR_CATEGORIES)
/** Every input the form has, in the order the URL lists them: the hand-made fields', then the generated ones'. */
const INPUTS = [...new Set([...FORM_INPUTS,
  ...CALCULATOR_CATEGORIES.filter((category) => CATEGORY_FORMS[category.id] === undefined)
    .flatMap((category) => category.parameters.map((parameter) => parameter.name))
    .filter((name) => !SHARED_PARAMETERS.has(name))])]

/**
 * "What if": one change per category a person could make, asked of the service with the same inputs otherwise, so
 * the saving uses the same factors as the result. `query` null: the category is left out (its whole figure saved).
 * @typedef {object} WhatIf
 * @property {string} category
 * @property {string} label
 * @property {(v: Values) => boolean} applies
 * @property {(v: Values, current: Values) => Values | null} query
 */
/** @type {WhatIf[]} */
const WHAT_IFS = [
  { category: 'flight', label: 'Not flying', applies: () => true, query: () => null },
  {
    category: 'diet',
    label: 'A vegetarian diet',
    applies: (v) => !['vegetarian', 'vegan'].includes(v['diet_form'] ?? ''),
    query: (_v, current) => ({ ...current, diet_form: 'vegetarian' })
  },
  {
    category: 'diet',
    label: 'A vegan diet',
    applies: (v) => v['diet_form'] === 'vegetarian',
    query: (_v, current) => ({ ...current, diet_form: 'vegan' })
  },
  {
    category: 'car',
    label: 'The same distance by train',
    applies: (v) => (v['mode'] ?? 'car') === 'car',
    query: (v) => ({ distance: v['distance'] ?? '', mode: 'rail', rail_type: 'national' })
  },
  {
    category: 'energy',
    label: 'A green electricity tariff',
    applies: (v) => v['energy_type'] !== 'green',
    query: (_v, current) => ({ ...current, energy_type: 'green', electricity_method: 'market_based' })
  },
  {
    category: 'clothes',
    label: 'Buying little new clothing',
    applies: (v) => v['spend_usd'] === undefined && ['average', 'much'].includes(v['amount'] ?? 'average'),
    query: () => ({ amount: 'little' })
  }
]

/** @type {Promise<any[]> | undefined} */
let countries
/** @type {Map<string, any>} */
const configs = new Map()
/** The inputs of the result on screen, to tell when the form no longer matches it. */
/** @type {Values | undefined} */
let shownValues
/** Set by the form's submit: the next result is scrolled into view (on a phone it is below the form). */
let revealNext = false

/** @param {URLSearchParams} params */
function valuesOf (params) {
  /** @type {Values} */
  const values = {}
  for (const name of INPUTS) {
    const value = params.get(name)?.trim()
    if (value) values[name] = value
  }
  return values
}

/** @param {AbortSignal | undefined} signal */
async function loadCountries (signal) {
  countries ??= apiGet(`${CALCULATOR}/countries`, {}, { signal })
    .catch((error) => { countries = undefined; throw error })
  return await countries
}

/**
 * The country's configuration, or an error for a country the service does not know.
 * @param {Values} values
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<{ config?: any, error?: ApiError }>}
 */
async function configFor (values, signal) {
  if (!values['country_code']) return {}
  const query = { country_code: values['country_code'], measurement_system: values['measurement_system'] }
  const key = JSON.stringify(query)
  if (!configs.has(key)) {
    try {
      configs.set(key, await apiGet(`${CALCULATOR}/config`, query, { signal }))
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) return { error }
      throw error
    }
  }
  return { config: configs.get(key) }
}

/**
 * @param {string} name
 * @param {string} label
 * @param {Array<[string, string]>} choices
 * @param {string | undefined} value
 * @param {Record<string, unknown>} [extra]
 */
function selectField (name, label, choices, value, extra = {}) {
  return h('div', { 'data-field': name, ...extra },
    h('label', { for: `calc-${name}` }, label),
    h('select', {
      id: `calc-${name}`,
      name,
      'aria-describedby': `calc-${name}-error`,
      // The countries come from the service; their longest names may not fit a closed select.
      'data-open-vocabulary': name === 'country_code'
    },
    choices.map(([optionValue, text]) => h('option', { value: optionValue, selected: optionValue === value }, text))),
    h('p', { class: 'field-error', id: `calc-${name}-error` }))
}

/**
 * @param {string} name
 * @param {string} label
 * @param {{ range: Range, hint?: string, value?: string }} options
 */
function numberField (name, label, { range, hint, value }) {
  const rangeText = `From ${formatNumber(range.min)} to ${formatNumber(range.max)}${unitText(range)}.`
  return h('div', { 'data-field': name },
    h('label', { for: `calc-${name}` }, label),
    h('input', {
      id: `calc-${name}`,
      name,
      type: 'number',
      inputmode: range.integer ? 'numeric' : 'decimal',
      min: range.min,
      max: range.max,
      step: range.integer ? 1 : 'any',
      value: value ?? '',
      'aria-describedby': `calc-${name}-hint calc-${name}-error`
    }),
    h('p', { class: 'hint', id: `calc-${name}-hint` }, hint ? `${hint} ${rangeText}` : rangeText),
    h('p', { class: 'field-error', id: `calc-${name}-error` }))
}

/**
 * @param {string} name
 * @param {string} label
 * @param {{ hint: string, value?: string, maxLength: number }} options
 */
function textField (name, label, { hint, value, maxLength }) {
  return h('div', { 'data-field': name },
    h('label', { for: `calc-${name}` }, label),
    h('input', {
      id: `calc-${name}`,
      name,
      type: 'text',
      autocapitalize: 'characters',
      spellcheck: 'false',
      maxlength: maxLength,
      value: value ?? '',
      'aria-describedby': `calc-${name}-hint calc-${name}-error`
    }),
    h('p', { class: 'hint', id: `calc-${name}-hint` }, hint),
    h('p', { class: 'field-error', id: `calc-${name}-error` }))
}

/** @param {string[]} values */
const options = optionChoices

/**
 * Builds the form for one country configuration (units and allowed values come from the service).
 * @param {any} config
 * @param {any[]} countryList
 * @param {Values} values
 */
function calculatorForm (config, countryList, values) {
  const d = config?.defaults ?? {}
  const pick = (/** @type {string} */ name) =>
    values[name] ?? FORM_DEFAULTS[name] ?? (d[name] === undefined ? undefined : String(d[name]))
  /** @type {FormContext} */
  const context = { config, values, pick, ranges: rangesFor(config) }
  const systemLabel = config ? `The country's (${config.default_measurement_system})` : 'The country\'s'
  const known = countryList.some((c) => c.country_code === values['country_code'])
  const form = h('form', { id: 'calculator-form', novalidate: true },
    h('fieldset', {},
      h('legend', {}, 'Where you live'),
      h('div', { class: 'form-grid' },
        selectField('country_code', 'Country', [['', 'Choose a country'], ...countryChoices(countryList)],
          known ? values['country_code'] : ''),
        selectField('measurement_system', 'Units', [['', systemLabel], ['metric', 'Metric (km, m²)'],
          ['imperial', 'Imperial (miles, ft²)']], values['measurement_system'] ?? ''))),
    config === undefined
      ? h('p', { class: 'hint' }, 'Choose a country: the units, the options and the averages follow it.')
      : [
          CATEGORIES.map((category) => {
            const fields = category.fields(context)
            return fields.length === 0
              ? null
              : h('fieldset', {}, h('legend', {}, category.legend), h('div', { class: 'form-grid' }, fields))
          }),
          h('div', { class: 'form-actions' }, h('button', { type: 'submit' }, 'Calculate'))
        ])
  return /** @type {HTMLFormElement} */ (form)
}

/** @param {HTMLFormElement} form */
function formValues (form) {
  /** @type {Values} */
  const values = {}
  for (const [name, value] of new FormData(form)) {
    const element = /** @type {HTMLElement | undefined} */ (form.elements.namedItem(name) ?? undefined)
    let text = String(value).trim()
    // The API takes one written form per number: a number field's "1e3" or "-0" is sent as 1000 or 0.
    if (element instanceof HTMLInputElement && element.type === 'number' && text !== '' &&
      Number.isFinite(Number(text))) text = String(Number(text))
    if (text !== '' && !element?.closest('[hidden]')) values[name] = text
  }
  return values
}

/** @param {Values} values */
function calculatorHash (values) {
  const search = new URLSearchParams()
  for (const name of INPUTS) if (values[name] !== undefined) search.set(name, values[name])
  return `#/calculator?${search}`
}

/**
 * Typed distances and areas follow a change of units, so 12,000 miles stay 12,000 miles (19,312 km).
 * @param {Values} values
 * @param {any} from the old configuration
 * @param {any} to the new one
 */
function convertUnits (values, from, to) {
  if (from === undefined || to === undefined) return values
  const converted = { ...values }
  const distance = Number(values['distance'])
  if (values['distance'] !== undefined && Number.isFinite(distance) && from.units.distance !== to.units.distance) {
    const km = to.units.distance === 'mi' ? distance / KM_PER_MILE : distance * KM_PER_MILE
    converted['distance'] = String(Math.round(km))
  }
  const area = Number(values['home_size'])
  if (values['home_size'] !== undefined && Number.isFinite(area) && from.units.area !== to.units.area) {
    converted['home_size'] = String(Math.round(to.units.area === 'ft2' ? area / M2_PER_FT2 : area * M2_PER_FT2))
  }
  return converted
}

/**
 * @param {HTMLElement} main
 * @param {HTMLFormElement} form
 */
function markStale (main, form) {
  const result = main.querySelector('#calculator-result')
  if (result === null || shownValues === undefined || result.querySelector('#total') === null) return
  const stale = JSON.stringify(formValues(form)) !== JSON.stringify(shownValues)
  const note = result.querySelector('#stale-note')
  if (stale) result.setAttribute('data-stale', 'true')
  else result.removeAttribute('data-stale')
  if (note !== null) /** @type {HTMLElement} */ (note).hidden = !stale
}

/**
 * Builds and mounts the form for `values`; a country the service does not know is marked at its field.
 * @param {HTMLElement} main
 * @param {Values} values
 * @param {AbortSignal | undefined} signal
 */
async function mountForm (main, values, signal) {
  const countryList = await loadCountries(signal)
  const { config, error } = await configFor(values, signal)
  const form = calculatorForm(config, countryList, values)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const typed = formValues(form)
    if (!validate(form, config)) return
    revealNext = true
    const hash = calculatorHash(typed)
    // The same inputs again (after a 429, say) recalculate without a change of URL.
    if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'))
    else location.hash = hash
  })
  form.addEventListener('input', () => markStale(main, form))
  // A new country or unit system rebuilds the form around its units, converting what was typed.
  form.addEventListener('change', async (event) => {
    const target = /** @type {HTMLSelectElement} */ (event.target)
    const name = target.name
    if (name === 'mode') {
      for (const field of form.querySelectorAll('[data-field="fuel_type"], [data-field="car_size"]')) {
        field.toggleAttribute('hidden', target.value !== 'car')
      }
      form.querySelector('[data-field="rail_type"]')?.toggleAttribute('hidden', target.value !== 'rail')
    }
    if (name !== 'country_code' && name !== 'measurement_system') {
      markStale(main, form)
      return
    }
    const typed = formValues(form)
    // Calories left at the old country's default intake follow the new country's (each country has its own).
    if (name === 'country_code' && config?.defaults?.calories !== undefined &&
      typed['calories'] === String(config.defaults.calories)) delete typed['calories']
    try {
      const next = await configFor(typed, undefined)
      const rebuilt = await mountForm(main, convertUnits(typed, config, next.config), undefined)
      const changed = /** @type {HTMLElement | null} */ (rebuilt.querySelector(`select[name="${name}"]`))
      changed?.focus()
      clearError(/** @type {HTMLElement} */ (main.querySelector('#calculator-problem')))
      markStale(main, rebuilt)
    } catch (error) {
      showError(error, { region: /** @type {HTMLElement} */ (main.querySelector('#calculator-problem')) })
    }
  })
  const existing = main.querySelector('#calculator-form') ?? main.querySelector('#calculator-slot')
  existing?.replaceWith(form)
  if (error !== undefined) {
    fieldError(form, 'country_code', `"${values['country_code']}" is not a country the calculator knows: ` +
      'choose one from the list.')
  }
  return form
}

/**
 * @param {HTMLFormElement} form
 * @param {string} name
 * @param {string} message
 */
function fieldError (form, name, message) {
  const input = form.querySelector(`#calc-${name}`)
  const slot = form.querySelector(`#calc-${name}-error`)
  if (input === null || slot === null) return false
  input.setAttribute('aria-invalid', 'true')
  slot.textContent = message
  return true
}

/** @param {HTMLFormElement} form */
function clearFieldErrors (form) {
  for (const element of form.querySelectorAll('[aria-invalid]')) element.removeAttribute('aria-invalid')
  for (const slot of form.querySelectorAll('.field-error')) slot.textContent = ''
}

/** @param {Range} range a generated field's has no unit */
const unitText = (range) => range.unit === '' ? '' : ` ${range.unit}`

/**
 * @param {Range} range
 */
function rangeMessage (range) {
  return `Enter a ${range.integer ? 'whole ' : ''}number from ${formatNumber(range.min)} to ` +
    `${formatNumber(range.max)}${unitText(range)}.`
}

/**
 * Checks the numbers against the service's ranges before anything is sent; the first bad field gets focus.
 * @param {HTMLFormElement} form
 * @param {any} config
 */
function validate (form, config) {
  clearFieldErrors(form)
  const ranges = rangesFor(config)
  let first = null
  for (const [name, range] of Object.entries(ranges)) {
    const input = /** @type {HTMLInputElement | null} */ (form.querySelector(`#calc-${name}`))
    if (input === null || input.value.trim() === '' || input.closest('[hidden]')) continue
    const value = Number(input.value)
    const bad = input.validity.badInput || !Number.isFinite(value) || value < range.min || value > range.max ||
      (range.integer && !Number.isInteger(value))
    if (bad && fieldError(form, name, rangeMessage(range))) first ??= input
  }
  first?.focus()
  return first === null
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 * @param {{ signal: AbortSignal, rerender: () => void }} context
 */
export async function renderCalculator (main, params, { signal, rerender }) {
  document.title = 'Footprint calculator · Tonne explorer'
  const values = valuesOf(params)
  if (main.dataset['view'] !== 'calculator') {
    replaceChildren(main,
      h('h1', { tabindex: '-1' }, 'Footprint calculator'),
      h('p', {}, 'A year of one person\'s emissions, from cited emission factors, compared with the average person ' +
        'in the country and in the world. No API key needed.'),
      h('div', { id: 'calculator-slot', class: 'form-placeholder' },
        h('p', { class: 'loading' }, 'Loading the countries…')),
      h('div', { id: 'calculator-problem', role: 'alert' }),
      h('div', { id: 'calculator-result', 'aria-live': 'polite' }))
    main.dataset['view'] = 'calculator'
    shownValues = undefined
  }
  const problem = /** @type {HTMLElement} */ (main.querySelector('#calculator-problem'))
  const result = /** @type {HTMLElement} */ (main.querySelector('#calculator-result'))
  // The form is rebuilt from the URL each time, so it always shows what the link says.
  let form
  try {
    form = await mountForm(main, values, signal)
  } catch (error) {
    if (signal.aborted) return
    const slot = main.querySelector('#calculator-slot')
    if (slot !== null) replaceChildren(slot)
    showError(error, { region: problem, retry: rerender })
    return
  }
  clearError(problem)
  const country = /** @type {HTMLSelectElement} */ (form.querySelector('#calc-country_code'))
  if (!values['country_code'] || country.value === '') {
    replaceChildren(result)
    shownValues = undefined
    return
  }
  const typed = formValues(form)
  if (!validate(form, configs.get(JSON.stringify({
    country_code: values['country_code'], measurement_system: values['measurement_system']
  })))) return
  const reveal = revealNext
  revealNext = false
  result.setAttribute('aria-busy', 'true')
  let outcome
  try {
    // The form's values: the URL's, with the form's defaults for whatever the URL leaves out.
    outcome = await calculate(typed, signal)
  } catch (error) {
    if (signal.aborted) return
    result.removeAttribute('aria-busy')
    // A refused calculation keeps the previous result (marked out of date) and says what to do.
    markStale(main, form)
    if (error instanceof ApiError && error.parameter && fieldError(form, error.parameter,
      `${error.detail}${error.detail.endsWith('.') ? '' : '.'} ${rangeFor(form, error.parameter)}`)) {
      const input = /** @type {HTMLElement | null} */ (form.querySelector(`#calc-${error.parameter}`))
      input?.focus()
      return
    }
    showError(error, { region: problem, retry: () => form.requestSubmit() })
    return
  }
  if (signal.aborted) return
  clearFieldErrors(form)
  result.removeAttribute('aria-busy')
  replaceChildren(result, resultSection(outcome))
  shownValues = typed
  markStale(main, form)
  if (reveal) {
    const heading = /** @type {HTMLElement} */ (result.querySelector('#result-heading'))
    heading.focus({ preventScroll: true })
    heading.scrollIntoView({ block: 'start' })
  }
  return `Your estimate: ${formatNumber(outcome.totalT, 2)} tonnes of CO₂e a year.`
}

/**
 * @param {HTMLFormElement} form
 * @param {string} name
 */
function rangeFor (form, name) {
  const input = /** @type {HTMLInputElement | null} */ (form.querySelector(`#calc-${name}`))
  if (input === null || input.type !== 'number') return ''
  return `Allowed: ${formatNumber(Number(input.min))} to ${formatNumber(Number(input.max))}.`
}

/**
 * The form's answers as /footprint's person parameters (prefixed where two endpoints share a name).
 * @param {Values} v
 * @returns {Values}
 */
function personQuery (v) {
  /** @type {Values} */
  const query = {}
  const copy = (/** @type {string} */ from, /** @type {string} */ to) => {
    if (v[from] !== undefined && v[from] !== '') query[to] = v[from]
  }
  if (v['legs'] === undefined) copy('frequency', 'flight_frequency')
  copy('diet_form', 'diet_form')
  copy('calories', 'calories')
  copy('distance', 'car_distance')
  if (v['distance'] !== undefined) copy('mode', 'car_mode')
  if (v['distance'] !== undefined && (v['mode'] ?? 'car') === 'car') copy('fuel_type', 'fuel_type')
  if (v['spend_usd'] === undefined) copy('amount', 'clothes_amount')
  for (const name of ['home_size', 'household_size', 'heating_type', 'energy_type', 'electricity_kwh', 'heating_kwh']) {
    copy(name, name)
  }
  return query
}

/**
 * Every category the inputs cover, plus the country's average (with the world's), in parallel.
 * @param {Values} values
 * @param {AbortSignal} signal
 */
async function calculate (values, signal) {
  // The unit system is always sent: left to the service, a number could be read in a unit the person did not
  // see (80 in the USA is 80 ft², issue 35).
  const { config } = await configFor(values, signal)
  const common = {
    country_code: values['country_code'],
    measurement_system: values['measurement_system'] || config?.measurement_system || 'metric'
  }
  const parts = CATEGORIES
    .map((category) => ({ category, query: category.query(values) }))
    .filter((part) => part.query !== null)
  const changes = WHAT_IFS.flatMap((change) => {
    const part = parts.find((p) => p.category.id === change.category)
    return part === undefined || part.query === null || !change.applies(values)
      ? []
      : [{ change, query: change.query(values, part.query) }]
  })
  const [footprint, whole, ...answers] = await Promise.all([
    // Greenhouse gases in CO₂e, the basis of the categories' figures, so the comparison is like for like.
    apiGet(`${CALCULATOR}/footprint`, { country_code: values['country_code'], basis: 'ghg' }, { signal }),
    // The whole picture: the person's answers, the country's defaults for the rest, goods and services.
    apiGet(`${CALCULATOR}/footprint`, { ...common, scope: 'person', ...personQuery(values) }, { signal }),
    ...parts.map((part) => apiGet(`${CALCULATOR}/${part.category.id}`, { ...common, ...part.query }, { signal })),
    ...changes.map(({ change, query }) => query === null
      ? Promise.resolve({ co2e: { kg: 0 } })
      : apiGet(`${CALCULATOR}/${change.category}`, { ...common, ...query }, { signal }))
  ])
  const rows = parts.map((part, i) => ({ ...part.category, answer: answers[i] }))
  const whatIf = changes
    .map(({ change }, i) => {
      const now = rows.find((row) => row.id === change.category)?.answer.co2e.kg ?? 0
      const after = answers[parts.length + i].co2e.kg
      return { label: change.label, category: change.category, savedT: (now - after) / 1000 }
    })
    .filter((item) => item.savedT > 0.005)
    .sort((a, b) => b.savedT - a.savedT)
    .slice(0, 3)
  const totalT = rows.reduce((sum, row) => sum + row.answer.co2e.kg, 0) / 1000
  const skipped = CATEGORIES.filter((category) => !parts.some((part) => part.category === category))
  const country = (await loadCountries(signal)).find((c) => c.country_code === footprint.country_code)
  return {
    rows, skipped, totalT, footprint, whole, whatIf, countryName: country?.country_name ?? footprint.country_code
  }
}

/**
 * @param {number} value
 * @param {number} max
 * @param {string} [kind]
 */
function bar (value, max, kind) {
  const element = h('div', { class: `bar ${kind ?? ''}` })
  // CSSOM, not a style attribute: the page's CSP allows no inline styles.
  element.style.width = `${max > 0 ? Math.max(0.5, (value / max) * 100) : 0}%`
  return element
}

/** Notes for programmers and auditors (parameter names, factor ids, verification status) stay in the toggle. */
const TECHNICAL = /=|tonne:|[a-z]+-\d{4}[a-z-]*:|Not yet checked|co2e_combustion|Assumption \(/

/** @param {string} unit e.g. "kg CO2e per passenger-km" */
const readableUnit = (unit) => unit.replaceAll('CO2e', 'CO₂e').replaceAll('CO2', 'CO₂')

/**
 * "How it was calculated", for a person, with the technical details behind a toggle.
 * @param {any} row
 * @param {Map<string, any>} sources
 */
function howItWasCalculated (row, sources) {
  const answer = row.answer
  const summary = h('summary', {}, `${row.label}: how it was calculated`)
  const details = h('details', { class: 'how', 'data-category': row.id }, summary)
  // Built when first opened (the click comes before the browser opens it): most people never open most of them,
  // and a phone then has less to build after Calculate.
  summary.addEventListener('click', () => {
    if (details.childElementCount > 1) return
    const plainNotes = answer.assumptions.filter((/** @type {string} */ a) => !TECHNICAL.test(a))
    append(details, [
      h('ul', {}, answer.breakdown.map((/** @type {any} */ item) => h('li', {},
        `${optionLabel(item.label)}: ${formatNumber(item.quantity)} ${item.quantity_unit} at ` +
        `${formatNumber(item.factor, 3)} ${readableUnit(item.factor_unit)} = ${formatNumber(item.kg_co2e, 0)} kg CO₂e` +
        ` (source: ${sources.get(item.source)?.name ?? 'see the sources below'}).`))),
      plainNotes.length > 0
        ? h('ul', { class: 'hint' }, plainNotes.map((/** @type {string} */ a) => h('li', {}, withFormattedNumbers(a))))
        : null,
      h('details', { class: 'technical' },
        h('summary', {}, 'Technical details'),
        h('ul', {}, answer.breakdown.map((/** @type {any} */ item) => h('li', {},
          h('code', {}, item.factor_id), `: ${item.derivation ?? ''} (${item.factor_status})`))),
        h('ul', {}, answer.assumptions.map((/** @type {string} */ a) => h('li', {}, a))))
    ])
  })
  return details
}

/**
 * The service's warnings (a result above the country's average, a floor area implausible in its unit), each
 * with the category it came from, so a number read in the wrong unit is seen.
 * @param {any[]} rows
 */
function warningList (rows) {
  const warnings = rows.flatMap((row) => (row.answer.warnings ?? []).map((/** @type {string} */ text) =>
    ({ label: row.label, text })))
  if (warnings.length === 0) return null
  return h('ul', { class: 'calc-warnings', id: 'calc-warnings' },
    warnings.map(({ label, text }) => h('li', {}, h('strong', {}, `${label}: `), text)))
}

/**
 * The person's whole footprint beside the average resident's, part by part (issue 35).
 * @param {any} whole
 * @param {string} countryName
 */
function wholeSection (whole, countryName) {
  const parts = whole.person?.parts ?? []
  return [
    h('h3', {}, 'Your whole footprint'),
    h('p', { class: 'hint', id: 'whole-basis' },
      `${formatNumber(whole.co2e.t, 2)} t CO₂e a year (range ${formatNumber(whole.range.low.t, 1)}–` +
      `${formatNumber(whole.range.high.t, 1)} t): your answers, ${countryName}'s averages for what you left out, ` +
      'and the goods, services and public services of an average resident.'),
    h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Your whole footprint, table' },
      h('table', { id: 'whole-footprint' },
        h('caption', { class: 'visually-hidden' },
          `Your whole footprint and the average resident's of ${countryName}, kg of CO₂e a year`),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, 'Part'),
          h('th', { scope: 'col', class: 'number' }, 'You, t'),
          h('th', { scope: 'col', class: 'number' }, 'Average, t'),
          h('th', { scope: 'col', class: 'number' }, 'Difference, t'),
          h('th', { scope: 'col' }, 'From'))),
        h('tbody', {}, parts.map((/** @type {any} */ part) => h('tr', { 'data-part': part.category },
          h('th', { scope: 'row' }, part.label),
          h('td', { class: 'number' }, formatNumber(part.you_kg / 1000, 2)),
          h('td', { class: 'number' }, formatNumber(part.average_kg / 1000, 2)),
          h('td', { class: 'number' },
            `${part.difference_kg > 0 ? '+' : ''}${formatNumber(part.difference_kg / 1000, 2)}`),
          h('td', {}, part.from)))),
        h('tfoot', {}, h('tr', {},
          h('th', { scope: 'row' }, 'Total'),
          h('td', { class: 'number' }, formatNumber(whole.co2e.t, 2)),
          h('td', { class: 'number' }, formatNumber((whole.person?.national_co2e_kg ?? 0) / 1000, 2)),
          h('td', {}), h('td', {})))))
  ]
}

/** @param {any} outcome */
function resultSection ({ rows, skipped, totalT, footprint, whole, whatIf, countryName }) {
  const largest = Math.max(...rows.map((/** @type {any} */ row) => row.answer.co2e.kg / 1000), 0.001)
  /** @type {Array<[string, number, string]>} */
  const comparison = [
    ['You (the categories entered)', totalT, ''],
    [`Average person in ${countryName} (${footprint.values.ghg_co2e?.year ?? ''})`, footprint.co2e.t, 'country'],
    [`World average (${footprint.world.year})`, footprint.world.t, 'world']
  ]
  const comparisonMax = Math.max(...comparison.map(([, t]) => t))
  /** @type {Map<string, any>} */
  const sources = new Map()
  for (const answer of [...rows.map((/** @type {any} */ row) => row.answer), footprint, whole]) {
    for (const source of answer.sources) sources.set(source.id, source)
  }
  return h('section', { class: 'result', 'aria-labelledby': 'result-heading' },
    h('h2', { id: 'result-heading', tabindex: '-1' }, 'Your estimate'),
    h('p', { class: 'total', id: 'total' }, `${formatNumber(totalT, 2)} t CO₂e a year`),
    h('p', { class: 'stale-note', id: 'stale-note', hidden: true },
      'The inputs above have changed: this result is out of date. Choose Calculate to update it.'),
    warningList(rows),
    skipped.length > 0
      ? h('p', { class: 'hint' }, `Not included: ${skipped.map((/** @type {Category} */ c) => c.label.toLowerCase())
        .join(', ')} (no input given).`)
      : null,
    // From the footprint to the catalogue: where credits come from, without pretending to sell any.
    h('p', { class: 'to-catalogue' }, `Offsetting ${formatNumber(totalT, 1)} t a year would take credits for as ` +
      'many tonnes of verified reductions. ',
    h('a', { href: '#/projects?ordering=-estimated_annual_reductions' }, 'See the projects that reduce the most'),
    ' in the catalogue (Tonne lists projects; it sells no credits).'),
    h('h3', {}, 'By category'),
    h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Emissions by category, table' },
      h('table', { id: 'breakdown' },
        h('caption', { class: 'visually-hidden' }, 'Emissions by category, tonnes of CO₂e a year'),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, 'Category'),
          h('th', { scope: 'col', class: 'number' }, 't CO₂e'),
          h('th', { scope: 'col', class: 'number' }, 'Share'),
          h('td', { class: 'bar-cell' }))),
        h('tbody', {}, rows.map((/** @type {any} */ row) => {
          const t = row.answer.co2e.kg / 1000
          return h('tr', { 'data-category': row.id },
            h('th', { scope: 'row' }, row.label),
            h('td', { class: 'number' }, formatNumber(t, 2)),
            h('td', { class: 'number' }, totalT > 0 ? `${formatNumber((t / totalT) * 100, 0)}%` : '—'),
            h('td', { class: 'bar-cell', 'aria-hidden': 'true' }, bar(t, largest)))
        })),
        h('tfoot', {}, h('tr', {},
          h('th', { scope: 'row' }, 'Total'), h('td', { class: 'number' }, formatNumber(totalT, 2)),
          h('td', {}), h('td', {}))))),
    rows.map((/** @type {any} */ row) => howItWasCalculated(row, sources)),
    whatIf.length === 0
      ? null
      : [
          h('h3', {}, 'What would change it most'),
          h('p', { class: 'hint' }, 'Each asked of the service with your other inputs unchanged, so it uses the same ' +
            'factors as your result.'),
          h('ol', { id: 'what-if' }, whatIf.map((/** @type {any} */ item) =>
            h('li', { 'data-category': item.category },
            `${item.label}: ${formatNumber(item.savedT, 2)} t CO₂e a year less ` +
            `(${formatNumber((item.savedT / totalT) * 100, 0)}% of your total).`)))
        ],
    wholeSection(whole, countryName),
    h('h3', {}, 'Compared with the averages'),
    h('p', { class: 'hint', id: 'comparison-basis' },
      'All three in CO₂e, counting all greenhouse gases, per person per year. The averages are everything emitted ' +
      'in the country (every sector) divided by its people; yours counts only the categories entered. The average ' +
      `person in ${countryName} emits ${formatNumber(footprint.ratio_to_world, 2)} times the world average.`),
    h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Compared with the averages, table' },
      h('table', { id: 'comparison' },
        h('caption', { class: 'visually-hidden' },
          'Your estimate compared with the country\'s and the world\'s average, tonnes of CO₂e a year'),
        h('tbody', {}, comparison.map(([label, t, kind]) => h('tr', {},
          h('th', { scope: 'row' }, label),
          h('td', { class: 'number' }, `${formatNumber(t, 2)} t`),
          h('td', { class: 'bar-cell', 'aria-hidden': 'true' }, bar(t, comparisonMax, kind))))))),
    h('h3', {}, 'Sources'),
    h('ul', { class: 'sources', id: 'sources' }, [...sources.values()].map((source) => h('li', {},
      h('strong', {}, source.name), ` — ${source.publisher}${source.year ? `, ${source.year}` : ''}. ` +
      `Licence: ${source.licence}. `,
      source.url ? h('a', { href: source.url, rel: 'noopener noreferrer' }, `${source.name} (source)`) : null))))
}
