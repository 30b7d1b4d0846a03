// Shows the service's error messages (its problem bodies) in the page's alert region, or in a region of a view.
import { h, replaceChildren } from './dom.js'

/** @type {Record<number, string>} */
const HEADINGS = {
  401: 'That API key was not accepted',
  403: 'This API key may not do this',
  404: 'Not found',
  429: 'Too many requests for now',
  503: 'The service is unavailable'
}

/** Messages written for a person where the service's own is written for a programmer. */
/** @type {Record<number, string>} */
const DETAILS = {
  401: 'The service does not recognise this key: it may be mistyped, revoked, or from another Tonne service. ' +
    'Check it and enter it again, or ask the service\'s operator for a new one.',
  403: 'The key works, but it is not allowed to read the catalogue. Ask the service\'s operator for a key that is.'
}

/** A running countdown per region, stopped when the region shows something else. */
const countdowns = new WeakMap()

/**
 * @typedef {object} ShowOptions
 * @property {HTMLElement} [region] where to show it (default: the page's alert region)
 * @property {() => void} [retry] offers a "Try again" button; after a 429 it waits out Retry-After first
 */

/**
 * @param {any} error an ApiError, or anything else thrown
 * @param {ShowOptions} [options]
 */
export function showError (error, { region, retry } = {}) {
  const alerts = region ?? /** @type {HTMLElement} */ (document.getElementById('alerts'))
  clearInterval(countdowns.get(alerts))
  if (error?.code === undefined) {
    console.error(error)
    replaceChildren(alerts, h('div', { class: 'problem' }, h('h2', {}, 'Something went wrong'),
      h('p', {}, String(error?.message ?? error)), retry ? retryButton(alerts, retry, undefined) : null))
    return
  }
  const heading = error.status === 0
    ? 'The service could not be reached'
    : HEADINGS[error.status] ?? (error.status >= 500 ? 'The service failed' : 'The request was not accepted')
  const detail = DETAILS[error.status] ?? error.detail
  const allowed = error.allowedValues?.length > 0 && error.allowedValues.length <= 20 &&
    !detail.includes(error.allowedValues.join(', '))
  replaceChildren(alerts, h('div', { class: 'problem', 'data-code': error.code, 'data-status': error.status },
    h('h2', {}, heading),
    h('p', { class: 'detail' }, detail),
    // Listed unless the service's own message already does, or the list is too long to read.
    allowed ? h('p', {}, `Allowed values: ${error.allowedValues.join(', ')}.`) : null,
    error.retryAfter !== undefined && retry === undefined
      ? h('p', { class: 'retry-after' }, `You can try again in ${error.retryAfter} seconds.`)
      : null,
    retry ? retryButton(alerts, retry, error.retryAfter) : null,
    // No answer has no status: the line names what happened instead.
    h('p', { class: 'meta' },
      error.status === 0 ? 'No answer from the service' : `HTTP ${error.status} · ${error.code}`,
      error.requestId ? ` · request ${error.requestId}` : '')))
}

/**
 * What went wrong in a few words, for a sentence ("…could not be loaded (too many requests for now)").
 * @param {any} error
 */
export function shortReason (error) {
  if (error?.status === 0) return 'the service could not be reached'
  if (error?.status === 429) return 'too many requests for now'
  if (error?.status >= 500) return 'the service failed'
  return String(error?.title ?? error?.message ?? 'an error').toLowerCase()
}

/**
 * "Try again", disabled with a countdown while the service asks us to wait.
 * @param {HTMLElement} region
 * @param {() => void} retry
 * @param {number | undefined} seconds
 */
function retryButton (region, retry, seconds) {
  const button = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'retry' }, 'Try again'))
  button.addEventListener('click', () => {
    clearInterval(countdowns.get(region))
    retry()
  })
  if (seconds === undefined || seconds <= 0) return button
  let left = seconds
  const tick = () => {
    button.disabled = left > 0
    button.textContent = left > 0 ? `Try again in ${left} s` : 'Try again'
    if (left <= 0) clearInterval(countdowns.get(region))
    left -= 1
  }
  tick()
  countdowns.set(region, setInterval(tick, 1000))
  return button
}

/** @param {HTMLElement} [region] */
export function clearError (region) {
  const alerts = region ?? /** @type {HTMLElement} */ (document.getElementById('alerts'))
  clearInterval(countdowns.get(alerts))
  replaceChildren(alerts)
}
