// Calls the Tonne API on this same origin and turns its RFC 9457 problem bodies into ApiErrors.
import { currentKey } from './key.js'

/**
 * @typedef {object} Problem
 * @property {number} status
 * @property {string} code
 * @property {string} [title]
 * @property {string} detail
 * @property {string} [parameter]
 * @property {string[]} [allowed_values]
 * @property {string} [request_id]
 */

export class ApiError extends Error {
  /**
   * @param {Problem} problem
   * @param {number} [retryAfter]
   */
  constructor (problem, retryAfter) {
    super(problem.detail)
    this.name = 'ApiError'
    this.status = problem.status
    this.code = problem.code
    this.title = problem.title
    this.detail = problem.detail
    this.parameter = problem.parameter
    this.allowedValues = problem.allowed_values
    this.requestId = problem.request_id
    /** Seconds, from the Retry-After header of a 429 or 503. */
    this.retryAfter = retryAfter
  }
}

/**
 * GET path?params as JSON. `auth` sends the key (the catalogue needs it).
 * @param {string} path
 * @param {Record<string, string | number | undefined | null>} [params]
 * @param {{ auth?: boolean, signal?: AbortSignal }} [options]
 * @returns {Promise<any>}
 */
export async function apiGet (path, params = {}, { auth = false, signal } = {}) {
  const url = urlOf(path, params)
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json, application/problem+json, application/geo+json' }
  const key = auth ? currentKey() : undefined
  if (key !== undefined) headers['authorization'] = `Bearer ${key}`
  let response
  try {
    response = await fetch(url, { headers, signal })
  } catch (error) {
    if (signal?.aborted) throw error
    throw networkError()
  }
  const text = await response.text()
  if (response.ok) return JSON.parse(text)
  throw new ApiError(problemOf(response, text), retryAfterSeconds(response.headers.get('retry-after')))
}

/**
 * @param {string} path
 * @param {Record<string, string | number | undefined | null>} params
 */
function urlOf (path, params) {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value))
  }
  return query.size === 0 ? path : `${path}?${query}`
}

/** No answer at all (offline, refused, blocked): status 0. */
function networkError () {
  return new ApiError({
    status: 0,
    code: 'network_error',
    title: 'Network error',
    detail: 'The service could not be reached. Check the connection and try again.'
  })
}

/**
 * Downloads path?params (with the key) and saves it under the name the service gives (it follows the filters), else
 * `filename`: the key goes in a header, so a plain link could not fetch it.
 * @param {string} path
 * @param {Record<string, string | number | undefined | null>} params
 * @param {string} filename
 */
export async function apiDownload (path, params, filename) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'text/csv, application/problem+json' }
  const key = currentKey()
  if (key !== undefined) headers['authorization'] = `Bearer ${key}`
  let response
  try {
    response = await fetch(urlOf(path, params), { headers })
  } catch {
    throw networkError()
  }
  if (!response.ok) {
    const retryAfter = retryAfterSeconds(response.headers.get('retry-after'))
    throw new ApiError(problemOf(response, await response.text()), retryAfter)
  }
  const link = document.createElement('a')
  link.href = URL.createObjectURL(await response.blob())
  const given = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1]
  link.download = given ?? filename
  link.click()
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000)
}

/**
 * @param {Response} response
 * @param {string} text
 * @returns {Problem}
 */
function problemOf (response, text) {
  try {
    const body = JSON.parse(text)
    if (typeof body.code === 'string' && typeof body.detail === 'string') return { ...body, status: response.status }
  } catch {
    // Not a problem body: described below.
  }
  return {
    status: response.status,
    code: 'unexpected_response',
    title: response.statusText || `HTTP ${response.status}`,
    detail: `The server answered ${response.status} without an error description.`
  }
}

/** @param {string | null} header */
function retryAfterSeconds (header) {
  if (header === null) return undefined
  if (/^\d+$/.test(header.trim())) return Number(header)
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}
