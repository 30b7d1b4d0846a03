// "Data as of … from …": where the catalogue's data comes from (GET /api/v1/commerce/sources/), with the
// attribution or terms each source asks to be shown with its data. Filled once the list answers; it sits below
// the results, so nothing above it moves when it arrives.
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
 * The element, empty until the sources answer; it stays empty when none is recorded or the list cannot be read.
 * @returns {HTMLElement}
 */
export function dataProvenance () {
  const element = h('div', { id: 'data-provenance', class: 'provenance' })
  apiGet('/api/v1/commerce/sources/', {}, { auth: true }).then((/** @type {{ results: Source[] }} */ list) => {
    const dated = list.results.filter((source) => (source.data_as_of ?? source.last_changed_at) !== null)
    replaceChildren(element, dated.map((source) => {
      const asOf = /** @type {string} */ (source.data_as_of ?? source.last_changed_at).slice(0, 10)
      return h('p', {},
        'Data as of ', h('time', { datetime: asOf }, formatDate(asOf)), ` from ${NAMES[source.kind] ?? source.name}`,
        source.attribution === null ? '.' : [': ', h('small', {}, source.attribution)])
    }))
  }, () => {})
  return element
}
