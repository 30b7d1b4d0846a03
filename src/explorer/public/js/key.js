// The API key. By default it lives in sessionStorage (this tab, until it closes); the person may choose
// "remember this key on this device", which keeps it in localStorage until "Forget key".
import { h, replaceChildren } from './dom.js'

const STORAGE_KEY = 'tonne.apiKey'
/** @type {Set<() => void>} */
const listeners = new Set()

/** @returns {string | undefined} */
export function currentKey () {
  return sessionStorage.getItem(STORAGE_KEY) ?? localStorage.getItem(STORAGE_KEY) ?? undefined
}

/**
 * @param {string} key
 * @param {boolean} remember keep it on this device (localStorage) rather than in this tab only
 */
export function saveKey (key, remember) {
  forgetQuietly()
  if (remember) localStorage.setItem(STORAGE_KEY, key)
  else sessionStorage.setItem(STORAGE_KEY, key)
  for (const listener of listeners) listener()
}

function forgetQuietly () {
  sessionStorage.removeItem(STORAGE_KEY)
  localStorage.removeItem(STORAGE_KEY)
}

export function forgetKey () {
  forgetQuietly()
  for (const listener of listeners) listener()
}

/** @param {() => void} listener */
export function onKeyChange (listener) {
  listeners.add(listener)
}

/**
 * The header's "key set · Forget key" line.
 * @param {HTMLElement} container
 */
export function renderKeyStatus (container) {
  if (currentKey() === undefined) {
    replaceChildren(container, h('span', {}, 'No API key set'))
    return
  }
  const remembered = localStorage.getItem(STORAGE_KEY) !== null
  replaceChildren(container,
    h('span', {}, remembered ? 'API key remembered on this device' : 'API key set for this tab'),
    h('button', { type: 'button', id: 'forget-key' }, 'Forget key'))
}

/** Where a key comes from, for someone who has never heard of Tonne. */
export function howToGetAKey () {
  return [
    h('h2', { id: 'get-key' }, 'How to get an API key'),
    h('p', {}, 'The catalogue needs a key; the footprint calculator does not. Keys come from whoever runs this ' +
      'Tonne service: ask them for one. If you run it yourself, its first start printed a key, and ',
    h('code', {}, 'npx tonne keys create --name NAME'), ' makes more.')
  ]
}

/**
 * The form that asks for the key; `onSaved` runs once a key is stored.
 * @param {() => void} onSaved
 * @param {string} [reason]
 */
export function keyForm (onSaved, reason) {
  const input = h('input', {
    id: 'api-key',
    name: 'api-key',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'api-key-hint'
  })
  const remember = h('input',
    { id: 'remember-key', name: 'remember', type: 'checkbox', 'aria-describedby': 'remember-hint' })
  const form = h('form', { class: 'key-form', id: 'key-form', 'aria-labelledby': 'key-form-heading' },
    h('h2', { id: 'key-form-heading' }, 'Enter your API key'),
    reason ? h('p', {}, reason) : null,
    h('label', { for: 'api-key' }, 'API key'),
    input,
    h('p', { class: 'hint', id: 'api-key-hint' }, 'It starts with tonne_.'),
    h('div', { class: 'check' }, remember, h('label', { for: 'remember-key' }, 'Remember this key on this device')),
    h('p', { class: 'hint', id: 'remember-hint' },
      'Left unticked, the key is kept in this tab only, until you close it. Ticked, this browser keeps it until ' +
      'you choose "Forget key": do not tick it on a shared computer.'),
    h('div', { class: 'form-actions' }, h('button', { type: 'submit' }, 'Use this key')))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const key = /** @type {HTMLInputElement} */ (input).value.trim()
    if (key === '') return
    saveKey(key, /** @type {HTMLInputElement} */ (remember).checked)
    onSaved()
  })
  return form
}
