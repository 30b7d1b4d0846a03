// Tonne's API documentation: draws /openapi.json as a page, with a form per operation that sends a real request.
// Plain browser JavaScript, no build step, no dependency; every style is in docs.css (the page's CSP allows no
// inline style or script).

const BODY_LIMIT = 60_000
const SHOWN_HEADERS = ['content-type', 'etag', 'www-authenticate', 'retry-after', 'ratelimit-limit',
  'ratelimit-remaining', 'ratelimit-reset', 'x-request-id']

let apiKey = ''

/** An element with attributes and children (strings become text: nothing is parsed as HTML). */
function h (tag, attributes = {}, ...children) {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === undefined || value === null) continue
    if (name === 'className') element.className = value
    else element.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue
    element.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return element
}

/** Text with `code` spans, as the document's descriptions write them. */
function prose (text = '') {
  return text.split(/(`[^`]+`)/).map((part) => part.startsWith('`') && part.endsWith('`') && part.length > 2
    ? h('code', {}, part.slice(1, -1))
    : part)
}

const title = (text) => text[0].toUpperCase() + text.slice(1)
const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
const operationId = (method, path) => `op-${method}-${slug(path) || 'root'}`

function resolve (document, schema) {
  let current = schema
  for (let i = 0; current?.$ref !== undefined && i < 10; i++) {
    current = current.$ref.replace(/^#\//, '').split('/').reduce((node, part) => node?.[part], document)
  }
  return current ?? {}
}

/** A short type label: integer (1 to 1000, default 50), one of a, b… */
function typeLabel (document, raw) {
  const schema = resolve(document, raw)
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`
  const variants = schema.anyOf ?? schema.oneOf
  if (Array.isArray(variants)) return variants.map((variant) => typeLabel(document, variant)).join(' or ')
  let label = schema.type === 'array' ? `array of ${typeLabel(document, schema.items ?? {})}` : (schema.type ?? 'any')
  if (schema.format !== undefined) label += ` (${schema.format})`
  const limits = []
  const { minimum, maximum } = schema
  if (minimum !== undefined && maximum !== undefined) limits.push(`${minimum} to ${maximum}`)
  else if (schema.minimum !== undefined) limits.push(`at least ${schema.minimum}`)
  if (schema.maxLength !== undefined) limits.push(`up to ${schema.maxLength} characters`)
  if (schema.default !== undefined) limits.push(`default ${JSON.stringify(schema.default)}`)
  return limits.length === 0 ? label : `${label}, ${limits.join(', ')}`
}

/** A schema as a nested list of its fields (drawn when its disclosure is first opened). */
function schemaTree (document, raw, depth = 0) {
  const schema = resolve(document, raw)
  const variants = (schema.anyOf ?? schema.oneOf ?? []).map((variant) => resolve(document, variant))
  const object = [schema, ...variants].find((candidate) => candidate.properties !== undefined) ??
    (schema.type === 'array' ? resolve(document, schema.items) : undefined)
  if (object?.properties === undefined || depth > 4) return null
  const required = new Set(object.required ?? [])
  return h('ul', { className: 'fields' }, Object.entries(object.properties).map(([name, field]) => {
    const resolved = resolve(document, field)
    return h('li', {},
      h('code', {}, name), ' ', h('span', { className: 'type' }, typeLabel(document, field)),
      required.has(name) ? '' : h('span', { className: 'optional' }, ' (may be absent)'),
      resolved.description === undefined
        ? ''
        : h('span', { className: 'description' }, ' — ', prose(resolved.description)),
      schemaTree(document, field, depth + 1))
  }))
}

function lazyDetails (summary, draw) {
  const details = h('details', {}, h('summary', {}, summary))
  details.addEventListener('toggle', () => {
    if (details.open && details.dataset['drawn'] === undefined) {
      details.dataset['drawn'] = 'true'
      details.append(draw())
    }
  })
  return details
}

function securityNote (operation) {
  const requirements = operation.security ?? []
  const scopes = requirements.flatMap((requirement) => Object.values(requirement).flat())
  if (requirements.length === 0) return h('p', { className: 'security' }, 'No key needed.')
  const open = requirements.some((requirement) => Object.keys(requirement).length === 0)
  return h('p', { className: 'security' }, open
    ? ['Key optional (scope ', h('code', {}, scopes.join(', ')), ').']
    : ['Needs an API key with the scope ', h('code', {}, scopes.join(', ')), '.'])
}

function parameterList (document, parameters) {
  if (parameters.length === 0) return h('p', {}, 'No parameters.')
  return h('ul', { className: 'params' }, parameters.map((parameter) => h('li', {},
    h('code', {}, parameter.name), ' ',
    h('span', { className: 'where' }, `${parameter.in}${parameter.required === true ? ', required' : ''}`), ' ',
    h('span', { className: 'type' }, typeLabel(document, parameter.schema ?? {})),
    parameter.description === undefined ? '' : h('p', {}, prose(parameter.description)),
    parameter.example === undefined
      ? ''
      : h('p', { className: 'example' }, 'Example: ', h('code', {}, String(parameter.example))))))
}

function responseList (document, responses) {
  return h('dl', { className: 'responses' }, Object.entries(responses).flatMap(([status, raw]) => {
    const response = resolve(document, raw)
    const headers = Object.entries(response.headers ?? {})
    const content = Object.entries(response.content ?? {})
    return [
      h('dt', {}, h('span', { className: `status status-${status[0]}` }, status)),
      h('dd', {},
        h('p', {}, prose(response.description ?? '')),
        headers.length === 0
          ? ''
          : h('p', { className: 'headers' }, 'Headers: ', headers.map(([name, header], i) =>
            [i === 0 ? '' : ', ', h('code', {}, name), header.required === true ? ' (always)' : ''])),
        content.length === 0
          ? ''
          : h('p', { className: 'media' }, 'Body: ',
            content.map(([type], i) => [i === 0 ? '' : ', ', h('code', {}, type)])),
        content.length >= 1 && content[0][1].schema !== undefined
          ? lazyDetails('Body fields',
            () => schemaTree(document, content[0][1].schema) ?? h('p', {}, 'No fields listed.'))
          : '',
        content.filter(([, media]) => media.example !== undefined).map(([type, media]) =>
          lazyDetails(`Example (${type})`, () => h('pre', { className: 'body', tabindex: '0' },
            typeof media.example === 'string' ? media.example : JSON.stringify(media.example, null, 2)))))
    ]
  }))
}

function fieldFor (document, parameter, id) {
  const schema = resolve(document, parameter.schema ?? {})
  const label = h('label', { for: id }, parameter.name, parameter.required === true ? ' (required)' : '')
  const hint = parameter.example !== undefined
    ? `e.g. ${parameter.example}`
    : schema.default !== undefined ? `default ${schema.default}` : ''
  if (Array.isArray(schema.enum)) {
    return h('div', { className: 'field' }, label, h('select', { id, name: parameter.name },
      h('option', { value: '' }, parameter.required === true ? 'Choose…' : '(not sent)'),
      schema.enum.map((value) => h('option', { value }, String(value)))))
  }
  const value = parameter.required === true && parameter.example !== undefined ? String(parameter.example) : undefined
  const input = { id, name: parameter.name, type: 'text', value, placeholder: hint, autocomplete: 'off' }
  return h('div', { className: 'field' }, label, h('input', { ...input, spellcheck: 'false' }))
}

function tryForm (document, method, path, operation) {
  const base = operationId(method, path)
  const parameters = operation.parameters ?? []
  const output = h('div', { className: 'result', role: 'status', 'aria-live': 'polite' })
  const form = h('form', { className: 'try-form', 'data-path': path },
    parameters.map((parameter) => fieldFor(document, parameter, `${base}-${parameter.in}-${parameter.name}`)),
    h('button', { type: 'submit' }, 'Send request'))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    send(form, path, parameters, output)
      .catch((error) => output.replaceChildren(h('p', { className: 'error' }, String(error))))
  })
  return h('details', { className: 'try' }, h('summary', {}, 'Try it'), form, output)
}

async function send (form, path, parameters, output) {
  const values = new FormData(form)
  let url = path
  const query = new URLSearchParams()
  for (const parameter of parameters) {
    const value = String(values.get(parameter.name) ?? '').trim()
    if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(value))
    else if (value !== '' && parameter.in === 'query') query.set(parameter.name, value)
  }
  const target = `${url}${query.size > 0 ? `?${query}` : ''}`
  const headers = apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` }
  output.replaceChildren(h('p', {}, `Sending GET ${target}…`))
  const response = await fetch(target, { headers })
  const type = response.headers.get('content-type') ?? ''
  let body
  if (/json/.test(type)) {
    const text = JSON.stringify(await response.json(), null, 2)
    body = text.length > BODY_LIMIT
      ? `${text.slice(0, BODY_LIMIT)}\n… (${text.length - BODY_LIMIT} more characters)`
      : text
  } else {
    body = `(${type || 'no content type'}, ${(await response.arrayBuffer()).byteLength} bytes)`
  }
  const curl = `curl${apiKey === '' ? '' : ' -H "Authorization: Bearer $KEY"'} '${new URL(target, location.href)}'`
  output.replaceChildren(
    h('p', { className: 'answer' },
      h('span', { className: `status status-${String(response.status)[0]}` }, response.status),
      ' ', response.statusText),
    h('p', {}, 'As a command: ', h('code', { className: 'curl' }, curl)),
    h('ul', { className: 'answer-headers', 'aria-label': 'Response headers' }, SHOWN_HEADERS
      .filter((name) => response.headers.has(name))
      .map((name) => h('li', {}, h('code', {}, `${name}: ${response.headers.get(name)}`)))),
    h('pre', { className: 'body', tabindex: '0', 'aria-label': 'Response body' }, body))
}

function operationArticle (document, method, path, operation) {
  const id = operationId(method, path)
  return h('article', { id, className: 'operation', 'aria-labelledby': `${id}-title` },
    h('h3', { id: `${id}-title` }, h('span', { className: `method method-${method}` }, method.toUpperCase()), ' ',
      h('code', { className: 'path' }, path)),
    h('p', { className: 'summary' }, operation.summary ?? ''),
    path.endsWith('/') && path !== '/'
      ? h('p', { className: 'alias' }, 'Also answers at ', h('code', {}, path.slice(0, -1)), ' (no trailing slash).')
      : '',
    operation.description === undefined ? '' : h('p', {}, prose(operation.description)),
    securityNote(operation),
    h('h4', {}, 'Parameters'), parameterList(document, operation.parameters ?? []),
    h('h4', {}, 'Responses'), responseList(document, operation.responses ?? {}),
    codeSamples(path, operation),
    tryForm(document, method, path, operation))
}

/** The operation's first request to copy, as the document gives it (`x-sample-request`: it answers 2xx as shown). */
function sampleUrl (operation) {
  return `${location.origin}${operation['x-sample-request'] ?? ''}`
}

/** The query of a sample request, as an object for the client's methods. */
function sampleQuery (operation) {
  const query = new URL(sampleUrl(operation)).searchParams
  const typed = (value) => /^\d+(\.\d+)?$/.test(value) ? Number(value) : value
  return Object.fromEntries([...query].map(([name, value]) => [name, typed(value)]))
}

/** The client's method for an operation, where it has one (client/README.md lists them), with `args`. */
function clientCall (path, args) {
  const calculator = /\/co2-calculator\/(\w+)$/.exec(path)?.[1]
  if (calculator !== undefined) return `tonne.calculator.${calculator}(${args})`
  if (/\/commerce\/products\/\{id\}\/$/.test(path)) return 'tonne.projects.get(1)'
  const list = /\/commerce\/products\/(facets\/|geojson\/)?$/.exec(path)
  if (list === null) return undefined
  return `tonne.projects.${list[1] === undefined ? 'list' : list[1].slice(0, -1)}(${args})`
}

/** The same first request as curl, JavaScript (the @tonne/client package, else fetch) and Python. */
function codeSamples (path, operation) {
  const link = operation['x-sample-link']
  if (link !== undefined) return linkSample(link)
  const url = sampleUrl(operation)
  const requirements = operation.security ?? []
  // A key only where one is required: an empty Bearer header would be refused.
  const keyed = requirements.length > 0 && requirements.every((requirement) => Object.keys(requirement).length > 0)
  const required = sampleQuery(operation)
  const args = Object.keys(required).length === 0
    ? ''
    : `{ ${Object.entries(required).map(([name, value]) => `${name}: ${JSON.stringify(value)}`).join(', ')} }`
  const call = clientCall(path, args)
  const header = 'headers: { authorization: \'Bearer \' + process.env.TONNE_KEY }'
  const samples = [
    ['curl', `curl${keyed ? ' -H "Authorization: Bearer $TONNE_KEY"' : ''} '${url}'`],
    ['JavaScript', call === undefined
      ? `const response = await fetch('${url}'${keyed ? `, {\n  ${header}\n}` : ''})\n` +
        'console.log(await response.json())'
      : `import { TonneClient } from '@tonne/client'\n\nconst tonne = new TonneClient({\n  baseUrl: '${
        location.origin}'${keyed ? ',\n  apiKey: process.env.TONNE_KEY' : ''}\n})\nconsole.log(await ${call})`],
    ['Python', `import os\nimport requests\n\nresponse = requests.get(\n    "${url}",${keyed
      ? '\n    headers={"Authorization": "Bearer " + os.environ["TONNE_KEY"]},'
      : ''}\n    timeout=30,\n)\nresponse.raise_for_status()\nprint(response.json())`]
  ]
  return lazyDetails('Code samples: curl, JavaScript, Python', () => h('div', {}, samples.map(([language, code]) =>
    h('div', { className: 'sample' }, h('h5', {}, language),
      h('pre', { className: 'body', tabindex: '0', 'aria-label': `${language} sample` }, code)))))
}

/** Signed links (media) come from other answers: the sample takes one from the answer the document names. */
function linkSample (link) {
  const code = `curl -s -H "Authorization: Bearer $TONNE_KEY" '${location.origin}${link.from}' \\\n` +
    `  | grep -o '"${link.field}":"[^"]*"' | head -n 1 | cut -d '"' -f 4 \\\n  | xargs curl -sS -o ${link.field}.svg`
  return lazyDetails('Code sample: curl', () => h('div', {}, h('div', { className: 'sample' }, h('h5', {}, 'curl'),
    h('p', {}, `Links are signed and expire: this takes the first ${link.field} link of a project's answer.`),
    h('pre', { className: 'body', tabindex: '0', 'aria-label': 'curl sample' }, code))))
}

function render (document) {
  const info = document.info ?? {}
  window.document.getElementById('intro').replaceChildren(
    h('p', { className: 'version' }, `Version ${info.version ?? ''} · OpenAPI ${document.openapi ?? ''}`),
    h('p', {}, prose(info.description ?? '')))
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item).filter(([method]) => method === 'get')
      .map(([method, operation]) => ({ path, method, operation })))
  const tags = (document.tags ?? [])
    .map((tag) => ({ ...tag, operations: operations.filter((o) => o.operation.tags?.includes(tag.name)) }))
    .filter((tag) => tag.operations.length > 0)
  const search = h('input', {
    id: 'search', type: 'search', autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. vintage, 429, flight'
  })
  search.addEventListener('input', () => filterOperations(search.value))
  window.document.getElementById('contents').replaceChildren(h('h2', { className: 'contents-title' }, 'Operations'),
    h('div', { className: 'search', role: 'search' }, h('label', { for: 'search' }, 'Search the operations'), search,
      h('p', { id: 'search-status', className: 'search-status', role: 'status' })),
    h('ul', {}, tags.map((tag) => h('li', {}, h('a', { href: `#tag-${slug(tag.name)}` }, title(tag.name)),
      h('ul', {}, tag.operations.map(({ path, method, operation }) =>
        h('li', {}, h('a', { href: `#${operationId(method, path)}` }, operation.summary ?? path))))))))
  window.document.getElementById('operations').replaceChildren(...tags.map((tag) =>
    h('section', { id: `tag-${slug(tag.name)}`, 'aria-labelledby': `tag-${slug(tag.name)}-title` },
      h('h2', { id: `tag-${slug(tag.name)}-title` }, title(tag.name)),
      h('p', {}, prose(tag.description ?? '')),
      tag.operations.map(({ path, method, operation }) => operationArticle(document, method, path, operation)))))
  // A link to one operation (#op-…) works once the page is drawn.
  if (location.hash.length > 1) window.document.getElementById(location.hash.slice(1))?.scrollIntoView()
}

/** Shows the operations (and their entries in the contents) whose text holds every word typed. */
function filterOperations (text) {
  const words = text.toLowerCase().split(/\s+/).filter((word) => word !== '')
  let shown = 0
  for (const article of document.querySelectorAll('article.operation')) {
    const haystack = article.textContent.toLowerCase()
    const match = words.every((word) => haystack.includes(word))
    article.hidden = !match
    document.querySelector(`#contents a[href="#${article.id}"]`)?.parentElement?.toggleAttribute('hidden', !match)
    if (match) shown++
  }
  for (const section of document.querySelectorAll('#operations > section')) {
    section.hidden = section.querySelector('article.operation:not([hidden])') === null
  }
  document.getElementById('search-status').textContent = words.length === 0
    ? ''
    : `${shown} ${shown === 1 ? 'operation matches' : 'operations match'}.`
}

function setUpKey () {
  const status = document.getElementById('key-status')
  const input = document.getElementById('key-input')
  document.getElementById('key-form').addEventListener('submit', (event) => {
    event.preventDefault()
    apiKey = input.value.trim()
    input.value = ''
    status.textContent = apiKey === ''
      ? 'No key set: catalogue operations will answer 401.'
      : `Key set (…${apiKey.slice(-4)}): the forms below send it.`
  })
  document.getElementById('key-clear').addEventListener('click', () => {
    apiKey = ''
    input.value = ''
    status.textContent = 'Key forgotten: catalogue operations will answer 401.'
  })
}

setUpKey()
fetch('/openapi.json')
  .then(async (response) => {
    if (!response.ok) throw new Error(`/openapi.json answered ${response.status}`)
    render(await response.json())
  })
  .catch((error) => {
    document.getElementById('intro').replaceChildren(h('p', { className: 'error', role: 'alert' },
      `The OpenAPI document could not be loaded (${error.message}). It is at `,
      h('a', { href: '/openapi.json' }, '/openapi.json'), '.'))
  })
