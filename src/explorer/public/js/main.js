// The explorer's router: the hash (#/, #/projects?…, #/projects/42, #/calculator?…) decides the view,
// so a copied link opens the same view with the same filters or inputs.
import { renderCalculator } from './calculator.js'
import { focusWhereScrolled, renderProject, renderProjectList } from './catalogue.js'
import { announce, h, replaceChildren } from './dom.js'
import { clearError, showError } from './errors.js'
import { renderHome } from './home.js'
import { renderLedger } from './ledger.js'
import { forgetKey, onKeyChange, renderKeyStatus } from './key.js'

const main = /** @type {HTMLElement} */ (document.getElementById('main'))
const keyStatus = /** @type {HTMLElement} */ (document.getElementById('key-status'))
let current = { controller: new AbortController(), path: '', hash: '' }
// The first view keeps the browser's own focus (top of the page, skip link first).
let loaded = false
/** Where each list view was scrolled to when left, so Back returns to the same place. */
/** @type {Map<string, number>} */
const scrollPositions = new Map()
history.scrollRestoration = 'manual'

function parseHash () {
  const hash = location.hash.replace(/^#/, '')
  const [path = '', query = ''] = hash.split('?')
  return { path: path === '' ? '/' : path, params: new URLSearchParams(query) }
}

/** @param {string} path */
function highlightNav (path) {
  const section = path.startsWith('/calculator')
    ? 'calculator'
    : path.startsWith('/projects') ? 'projects' : path.startsWith('/ledger') ? 'ledger' : 'home'
  for (const link of document.querySelectorAll('[data-nav]')) {
    if (/** @type {HTMLElement} */ (link).dataset['nav'] === section) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
}

async function route () {
  // A newer navigation cancels the answers an older one is still waiting for.
  current.controller.abort()
  if (current.path === '/projects') scrollPositions.set(current.hash, window.scrollY)
  const { path, params } = parseHash()
  const newView = path !== current.path
  current = { controller: new AbortController(), path, hash: location.hash }
  const context = { signal: current.controller.signal, rerender: route }
  highlightNav(path)
  if (newView) {
    clearError()
    delete main.dataset['view']
  }
  try {
    let message
    const project = /^\/projects\/([^/]+)$/.exec(path)
    if (path === '/') message = renderHome(main)
    else if (path === '/projects') message = await renderProjectList(main, params, context)
    else if (project !== null) message = await renderProject(main, decodeURIComponent(project[1] ?? ''), context)
    else if (path === '/ledger') message = await renderLedger(main, params, context)
    else if (path === '/calculator') message = await renderCalculator(main, params, context)
    else {
      main.dataset['view'] = 'missing'
      replaceChildren(main, h('h1', { tabindex: '-1' }, 'Page not found'),
        h('p', {}, 'This address matches no view of the explorer. ', h('a', { href: '#/' }, 'Go to the start')))
    }
    if (context.signal.aborted) return
    if (message) announce(message)
  } catch (error) {
    if (!context.signal.aborted) showError(error, { retry: route })
  }
  if (context.signal.aborted) return
  const restored = path === '/projects' ? scrollPositions.get(location.hash) ?? 0 : 0
  if (newView) window.scrollTo(0, restored)
  // Moving to another view puts focus on its heading, as a page load would for a screen reader; back on a list
  // scrolled down, focus goes where the person is looking (the project they came from), not off-screen.
  if (newView && loaded && !(restored > 0 && focusWhereScrolled(main))) {
    main.querySelector('h1')?.focus({ preventScroll: true })
  }
  loaded = true
}

onKeyChange(() => renderKeyStatus(keyStatus))
keyStatus.addEventListener('click', (event) => {
  if (/** @type {HTMLElement} */ (event.target).id !== 'forget-key') return
  forgetKey()
  announce('The API key is forgotten.')
  // On the catalogue, the form asks for a key again at once.
  if (current.path.startsWith('/projects') || current.path === '/ledger') {
    current.path = ''
    route()
  }
})

// The skip link must not become a route: it moves focus, not the hash.
document.querySelector('.skip-link')?.addEventListener('click', (event) => {
  event.preventDefault()
  main.focus()
})

renderKeyStatus(keyStatus)
window.addEventListener('hashchange', () => { route() })
route()
