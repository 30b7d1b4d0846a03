// The first screen: what Tonne is, the calculator (no key needed), and how to get and enter a key.
import { CALCULATOR_CATEGORIES } from './calculator-categories.js'
import { h, replaceChildren } from './dom.js'
import { currentKey, howToGetAKey, keyForm } from './key.js'

/**
 * @param {HTMLElement} main
 */
export function renderHome (main) {
  document.title = 'Tonne explorer: carbon-offset projects and your footprint'
  main.dataset['view'] = 'home'
  const haveKey = currentKey() !== undefined
  replaceChildren(main,
    h('h1', { tabindex: '-1' }, 'Carbon-offset projects and your footprint'),
    h('p', { class: 'lede' }, 'Tonne is an open-source service with two halves: a catalogue of carbon-offset ' +
      'projects from public registries, and a calculator that estimates one person\'s yearly carbon footprint from ' +
      'cited emission factors. This explorer is its web page; the same data is open to programs through the ',
    h('a', { href: '/docs' }, 'API'), '.'),
    h('div', { class: 'cards' },
      h('section', { class: 'card', 'aria-labelledby': 'calculator-card' },
        h('h2', { id: 'calculator-card' }, 'Footprint calculator'),
        h('p', {}, `${categoryList()}, compared with the average person in your country and in the world. ` +
          'No key needed.'),
        h('p', {}, h('a', { class: 'button', href: '#/calculator' }, 'Calculate your footprint'))),
      h('section', { class: 'card', 'aria-labelledby': 'catalogue-card' },
        h('h2', { id: 'catalogue-card' }, 'Project catalogue'),
        h('p', {}, 'Search projects by country, registry, credit type, vintage and development goal, on a list and a ' +
          `map. ${haveKey ? 'Your API key is set.' : 'Needs an API key.'}`),
        h('p', {}, h('a', { class: 'button', href: '#/projects' }, 'Browse the projects')))),
    haveKey ? null : [howToGetAKey(), keyForm(() => { location.hash = '#/projects' })])
  return 'Tonne explorer.'
}

/** The calculator's categories as a sentence ("Flights, food, … and home energy"), from the generated list. */
function categoryList () {
  const labels = CALCULATOR_CATEGORIES.map((category, i) => i === 0 ? category.label : category.label.toLowerCase())
  return labels.length < 2 ? labels.join('') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`
}
