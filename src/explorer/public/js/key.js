// The API key lives in sessionStorage: it survives reloads of this tab and is gone when the tab closes.
import { h, replaceChildren } from './dom.js'

const STORAGE_KEY = 'tonne.apiKey'
const listeners = new Set()

export function currentKey () {
  return sessionStorage.getItem(STORAGE_KEY) ?? undefined
}

export function saveKey (key) {
  sessionStorage.setItem(STORAGE_KEY, key)
  for (const listener of listeners) listener()
}

export function forgetKey () {
  sessionStorage.removeItem(STORAGE_KEY)
  for (const listener of listeners) listener()
}

export function onKeyChange (listener) {
  listeners.add(listener)
}

/** The header's "key set · Forget key" line. */
export function renderKeyStatus (container) {
  if (currentKey() === undefined) {
    replaceChildren(container, h('span', {}, 'No API key in this session'))
    return
  }
  replaceChildren(container,
    h('span', {}, 'API key set for this session'),
    h('button', { type: 'button', id: 'forget-key' }, 'Forget key'))
}

/** The form that asks for the key; `onSaved` runs once a key is stored. */
export function keyForm (onSaved, reason) {
  const input = h('input', { id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, 'aria-describedby': 'api-key-hint' })
  const form = h('form', { class: 'key-form', id: 'key-form' },
    h('h2', {}, 'API key'),
    h('p', {}, reason ?? 'The catalogue needs an API key. Ask the service\'s operator for one (`tonne keys create`).'),
    h('label', { for: 'api-key' }, 'API key'),
    input,
    h('p', { class: 'hint', id: 'api-key-hint' }, 'Kept in this browser tab only, until the tab is closed or you choose "Forget key".'),
    h('div', { class: 'form-actions' }, h('button', { type: 'submit' }, 'Use this key')))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const key = input.value.trim()
    if (key === '') return
    saveKey(key)
    onSaved()
  })
  return form
}
