// Shows the service's error messages (its problem bodies) in the page's alert region.
import { h, replaceChildren } from './dom.js'

const HEADINGS = {
  401: 'The API key was refused',
  403: 'The API key may not do this',
  404: 'Not found',
  429: 'Too many requests',
  503: 'The service is unavailable'
}

export function showError (error) {
  const alerts = document.getElementById('alerts')
  if (error?.code === undefined) {
    console.error(error)
    replaceChildren(alerts, h('div', { class: 'problem' }, h('h2', {}, 'Something went wrong'), h('p', {}, String(error?.message ?? error))))
    return
  }
  const heading = HEADINGS[error.status] ?? (error.status >= 500 ? 'The service failed' : 'The request was not accepted')
  replaceChildren(alerts, h('div', { class: 'problem', 'data-code': error.code, 'data-status': error.status },
    h('h2', {}, heading),
    h('p', { class: 'detail' }, error.detail),
    // Listed unless the service's own message already does.
    error.allowedValues?.length > 0 && !error.detail.includes(error.allowedValues.join(', ')) ? h('p', {}, `Allowed values: ${error.allowedValues.join(', ')}.`) : null,
    error.retryAfter !== undefined ? h('p', { class: 'retry-after' }, `You can try again in ${error.retryAfter} seconds.`) : null,
    h('p', { class: 'meta' }, `HTTP ${error.status === 0 ? '—' : error.status} · ${error.code}`, error.requestId ? ` · request ${error.requestId}` : '')))
}

export function clearError () {
  replaceChildren(document.getElementById('alerts'))
}
