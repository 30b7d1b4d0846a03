// Small DOM helpers. Everything from the API goes in as text nodes, never as HTML.

/** @typedef {Node | string | number | null | undefined | false | Array<any>} Child */

const SVG_TAGS = new Set(['svg', 'g', 'path', 'circle', 'title', 'desc', 'rect', 'text', 'line'])

/**
 * Creates an element: h('a', { href: '#/x', class: 'y' }, 'text', child).
 * Attributes set to null, undefined or false are left out; `true` sets an empty attribute.
 * @param {string} tag
 * @param {Record<string, any>} [attributes]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h (tag, attributes = {}, ...children) {
  const svg = SVG_TAGS.has(tag)
  const element = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag) : document.createElement(tag)
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value)
    else element.setAttribute(name, value === true ? '' : String(value))
  }
  append(element, children)
  return /** @type {HTMLElement} */ (element)
}

/**
 * @param {Element} parent
 * @param {Child[]} children
 */
export function append (parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue
    parent.append(child instanceof Node ? child : String(child))
  }
  return parent
}

/**
 * @param {Element} parent
 * @param {...Child} children
 */
export function replaceChildren (parent, ...children) {
  parent.replaceChildren()
  return append(parent, children)
}

// Numbers and dates in the reader's language (the browser's list of languages), English where it has none.
// A browser may report a tag Intl refuses (a POSIX locale gives "en-US@posix"): such tags are left out.
const locales = [...(navigator.languages ?? []).filter(isLanguageTag), 'en']

/** @param {string} tag */
function isLanguageTag (tag) {
  try {
    return Intl.getCanonicalLocales(tag).length === 1
  } catch {
    return false
  }
}
const numbers = new Intl.NumberFormat(locales, { maximumFractionDigits: 2 })
/**
 * @param {number | null | undefined} value
 * @param {number} [digits]
 */
export function formatNumber (value, digits) {
  if (value === null || value === undefined) return '—'
  if (digits === undefined) return numbers.format(value)
  return new Intl.NumberFormat(locales, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value)
}

/**
 * An ISO date (2019-03-01) as the reader writes dates; anything else as it is.
 * @param {string | null | undefined} iso
 */
export function formatDate (iso) {
  if (iso === null || iso === undefined) return '—'
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (match === null) return iso
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return new Intl.DateTimeFormat(locales, { dateStyle: 'medium', timeZone: 'UTC' }).format(date)
}

/**
 * "natural_gas" → "Natural gas".
 * @param {unknown} value
 */
export function humanize (value) {
  const text = String(value).replaceAll('_', ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * Text of an HTML fragment from the API, without running or rendering any of it.
 * @param {string} html
 */
export function plainText (html) {
  const parsed = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html')
  for (const block of parsed.body.querySelectorAll('p, br, li, div, h1, h2, h3, h4')) block.append('\n')
  return (parsed.body.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim()
}

/**
 * Announces a short message to screen readers (the polite status region).
 * @param {string} message
 */
export function announce (message) {
  const status = /** @type {HTMLElement} */ (document.getElementById('status'))
  status.textContent = ''
  // A fresh text node in a later task is announced even when the words repeat.
  setTimeout(() => { status.textContent = message }, 50)
}
