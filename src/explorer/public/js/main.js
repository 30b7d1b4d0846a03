// The explorer's router: the hash (#/projects?…, #/projects/42, #/calculator?…) decides the view,
// so a copied link opens the same view with the same filters or inputs.
import { renderCalculator } from './calculator.js'
import { renderProject, renderProjectList } from './catalogue.js'
import { announce, h, replaceChildren } from './dom.js'
import { clearError, showError } from './errors.js'
import { forgetKey, onKeyChange, renderKeyStatus } from './key.js'

const main = document.getElementById('main')
const keyStatus = document.getElementById('key-status')
let current = { controller: new AbortController(), path: '' }
// The first view keeps the browser's own focus (top of the page, skip link first).
let loaded = false

function parseHash () {
  const hash = location.hash.replace(/^#/, '')
  const [path = '', query = ''] = hash.split('?')
  return { path: path === '' || path === '/' ? '/projects' : path, params: new URLSearchParams(query) }
}

function highlightNav (path) {
  const section = path.startsWith('/calculator') ? 'calculator' : 'projects'
  for (const link of document.querySelectorAll('[data-nav]')) {
    if (link.dataset.nav === section) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
}

async function route () {
  // A newer navigation cancels the answers an older one is still waiting for.
  current.controller.abort()
  const { path, params } = parseHash()
  const newView = path !== current.path
  current = { controller: new AbortController(), path }
  const context = { signal: current.controller.signal, rerender: route }
  highlightNav(path)
  if (newView) {
    clearError()
    delete main.dataset.view
  }
  try {
    let message
    const project = /^\/projects\/([^/]+)$/.exec(path)
    if (path === '/projects') message = await renderProjectList(main, params, context)
    else if (project !== null) message = await renderProject(main, decodeURIComponent(project[1]), context)
    else if (path === '/calculator') message = await renderCalculator(main, params, context)
    else {
      main.dataset.view = 'missing'
      replaceChildren(main, h('h1', { tabindex: '-1' }, 'Page not found'), h('p', {}, h('a', { href: '#/projects' }, 'Go to the catalogue')))
    }
    if (context.signal.aborted) return
    if (message) announce(message)
  } catch (error) {
    if (!context.signal.aborted) showError(error)
  }
  // Moving to another view puts focus on its heading, as a page load would for a screen reader.
  if (newView && !context.signal.aborted && loaded) main.querySelector('h1')?.focus()
  else if (!main.contains(document.activeElement) && document.activeElement === document.body) main.querySelector('#summary, #result-heading')?.focus()
  loaded = true
}

onKeyChange(() => renderKeyStatus(keyStatus))
keyStatus.addEventListener('click', (event) => {
  if (event.target.id !== 'forget-key') return
  forgetKey()
  announce('The API key is forgotten.')
  // On the catalogue, the form asks for a key again at once.
  if (!current.path.startsWith('/calculator')) {
    current.path = ''
    route()
  }
})

// The skip link must not become a route: it moves focus, not the hash.
document.querySelector('.skip-link').addEventListener('click', (event) => {
  event.preventDefault()
  main.focus()
})

if (location.hash === '') history.replaceState(null, '', '#/projects')
renderKeyStatus(keyStatus)
window.addEventListener('hashchange', () => { route() })
route()
