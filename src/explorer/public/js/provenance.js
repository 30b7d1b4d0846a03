// "Data as of … from …": where the catalogue's data comes from (GET /api/v1/commerce/sources/), with the
// attribution or terms each source asks to be shown with its data. A disclosure below the results, read when first
// opened: the list's first view stays at its two requests (issue 25), and nothing above it moves.
import { apiGet } from './api.js'
import { formatDate, h, replaceChildren } from './dom.js'

/** @type {Record<string, string>} */
const NAMES = {
  offsetsdb: 'OffsetsDB',
  verra: 'Verra',
  'gold-standard': 'Gold Standard',
  acr: 'ACR',
  car: 'Climate Action Reserve',
  art: 'ART TREES',
  cercarbono: 'Cercarbono',
  isometric: 'Isometric',
  arb: 'CARB'
}

/**
 * @typedef {object} Source
 * @property {string} name
 * @property {string} kind
 * @property {string | null} data_as_of
 * @property {string | null} last_changed_at
 * @property {string | null} attribution
 */

/**
 * One line per source that has data: "Data as of DATE from NAME: attribution".
 * @param {Source[]} sources
 */
function lines (sources) {
  const dated = sources.filter((source) => (source.data_as_of ?? source.last_changed_at) !== null)
  if (dated.length === 0) return [h('p', {}, 'No source has been synced or imported by this service yet.')]
  return dated.map((source) => {
    const asOf = /** @type {string} */ (source.data_as_of ?? source.last_changed_at).slice(0, 10)
    return h('p', {},
      'Data as of ', h('time', { datetime: asOf }, formatDate(asOf)), ` from ${NAMES[source.kind] ?? source.name}`,
      source.attribution === null ? '.' : [': ', h('small', {}, source.attribution)])
  })
}

/** @returns {HTMLElement} */
export function dataProvenance () {
  const body = h('div', { 'aria-live': 'polite' })
  const element = h('details', { id: 'data-provenance', class: 'provenance' },
    h('summary', {}, 'Data sources and licences'), body)
  let asked = false
  element.addEventListener('toggle', () => {
    if (asked || !(/** @type {HTMLDetailsElement} */ (element)).open) return
    asked = true
    replaceChildren(body, h('p', {}, 'Loading the sources…'))
    apiGet('/api/v1/commerce/sources/', {}, { auth: true }).then(
      (/** @type {{ results: Source[] }} */ list) => replaceChildren(body, lines(list.results)),
      () => {
        asked = false
        replaceChildren(body, h('p', {}, 'The sources could not be loaded; close and open this again to retry.'))
      })
  })
  return element
}
