import { TonneApiError, TonneError, TonneNetworkError } from './errors.ts'
import {
  backoffDelay, parseRetryAfter, RETRYABLE_STATUSES, retryPolicy, type RetryOptions,
  type RetryPolicy
} from './retry.ts'
import type { Problem } from './types.ts'
import { VERSION } from './version.ts'

export interface TransportOptions {
  /** Where the service is, e.g. http://127.0.0.1:3000 (a path prefix such as https://example.org/tonne is kept). */
  baseUrl: string
  /**
   * Sent as `Authorization: Bearer KEY`; the catalogue needs one, the calculator does not. Undefined or '' is no
   * key: a catalogue call then fails with a TonneError before any request is sent.
   */
  apiKey?: string
  retry?: RetryOptions
  /** Time limit of one attempt, body included. Default 30 000 ms. */
  timeoutMs?: number
  /** Another fetch (a proxy agent, an instrumented one); default the global fetch. */
  fetch?: typeof fetch
  /** Replaces the wait between attempts (schedulers, tests); it must honour the signal. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>
  /** Replaces Math.random for the backoff jitter. */
  random?: () => number
}

export interface CallOptions {
  /** Aborts the call, including a wait between retries; the signal's reason is thrown as is. */
  signal?: AbortSignal
}

export type QueryValue = string | number | boolean | null | undefined

/** GETs JSON from the service, turning errors into typed ones and retrying what may succeed later. */
export class Transport {
  readonly #baseUrl: string
  readonly #headers: Record<string, string>
  readonly #policy: RetryPolicy
  readonly #timeoutMs: number
  readonly #fetch: typeof fetch
  readonly #sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>
  readonly #random: () => number
  readonly hasApiKey: boolean

  constructor (options: TransportOptions) {
    this.#baseUrl = new URL(options.baseUrl).href.replace(/\/+$/, '')
    this.#headers = { accept: 'application/json, application/problem+json' }
    // A browser sends its own User-Agent: Chromium ignores ours, Firefox would send it and so turn every
    // cross-origin call into a preflighted one.
    if (!inBrowser()) this.#headers['user-agent'] = `tonne-client/${VERSION}`
    this.hasApiKey = options.apiKey !== undefined && options.apiKey !== ''
    if (this.hasApiKey) this.#headers['authorization'] = `Bearer ${checkedKey(options.apiKey!)}`
    this.#policy = retryPolicy(options.retry)
    this.#timeoutMs = options.timeoutMs ?? 30_000
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.#sleep = options.sleep ?? sleep
    this.#random = options.random ?? Math.random
  }

  url (path: string, query: Readonly<Record<string, QueryValue>> = {}): string {
    const search = new URLSearchParams()
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) search.set(name, String(value))
    }
    const text = search.toString()
    return `${this.#baseUrl}${path}${text === '' ? '' : `?${text}`}`
  }

  async get<T> (path: string, query: Readonly<Record<string, QueryValue>> = {}, options: CallOptions = {}): Promise<T> {
    const url = this.url(path, query)
    const started = Date.now()
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt<T>(url, attempt, options.signal)
      if (outcome.ok) return outcome.value
      const failure = outcome.error
      const retryable = failure instanceof TonneNetworkError || RETRYABLE_STATUSES.has(failure.status)
      if (!retryable || attempt >= this.#policy.maxAttempts) throw failure
      const retryAfterMs = failure instanceof TonneApiError ? failure.retryAfterMs : undefined
      const delay = backoffDelay(this.#policy, attempt, retryAfterMs, this.#random)
      // Bounded in time as well as in attempts: a wait that would end past the budget is not started.
      if (Date.now() - started + delay > this.#policy.maxElapsedMs) throw failure
      await this.#sleep(delay, options.signal)
    }
  }

  async #attempt<T> (url: string, attempt: number, signal: AbortSignal | undefined):
  Promise<{ ok: true, value: T } | { ok: false, error: TonneApiError | TonneNetworkError }> {
    signal?.throwIfAborted()
    const timeout = AbortSignal.timeout(this.#timeoutMs)
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout])
    let response: Response
    let body: string
    try {
      response = await this.#fetch(url, { method: 'GET', headers: this.#headers, signal: combined })
      body = await response.text()
    } catch (error) {
      // The caller's own abort is not a failure of the service: rethrow it untouched.
      if (signal?.aborted === true) throw signal.reason
      const timedOut = timeout.aborted
      const message = timedOut
        ? `No answer from ${url} within ${this.#timeoutMs} ms`
        : `Could not reach ${url}: ${describe(error)}${corsHint(url)}`
      return { ok: false, error: new TonneNetworkError(message, { cause: error, timedOut, attempts: attempt }) }
    }
    if (response.ok) {
      try {
        return { ok: true, value: JSON.parse(body) as T }
      } catch (error) {
        throw new TonneError(`${url} answered ${response.status} with a body that is not JSON`, { cause: error })
      }
    }
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now())
    return { ok: false, error: new TonneApiError(problemOf(response, body), { retryAfterMs, attempts: attempt }) }
  }
}

/**
 * A browser hides why a request to another origin failed: a service that does not allow the page's origin (its
 * CORS_ORIGINS unset, the default) looks like a network failure ("Failed to fetch"). That is the likely cause.
 */
function corsHint (url: string): string {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin
  if (!inBrowser() || origin === undefined || origin === 'null' || new URL(url).origin === origin) return ''
  return '. From a web page, a request to another origin also fails this way when the service does not allow ' +
    `the page's origin (CORS): the likely cause if the service is up. Set CORS_ORIGINS=${origin} on the service ` +
    '(see its README), or serve the page from the service\'s origin.'
}

/** Browsers' globals, not their User-Agent strings: a page and a web or service worker. */
function inBrowser (): boolean {
  return 'document' in globalThis || 'WorkerGlobalScope' in globalThis
}

/** Keys are printable ASCII; anything else (a line break read from a file) would fail every call, and only at fetch. */
function checkedKey (key: string): string {
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new TonneError('apiKey holds a space, a line break or a character outside ASCII: pass the key exactly as ' +
      '`tonne keys create` printed it.')
  }
  return key
}

/** The service's problem body; anything else (a proxy's HTML page) becomes one with code `unexpected_response`. */
function problemOf (response: Response, body: string): Problem {
  try {
    const parsed = JSON.parse(body) as Partial<Problem>
    if (typeof parsed.code === 'string' && typeof parsed.detail === 'string') {
      return {
        type: 'about:blank',
        title: response.statusText,
        ...parsed,
        status: response.status,
        code: parsed.code,
        detail: parsed.detail
      }
    }
  } catch {
    // Not JSON: described below.
  }
  const title = response.statusText === '' ? `HTTP ${response.status}` : response.statusText
  return {
    type: 'about:blank',
    title,
    status: response.status,
    code: 'unexpected_response',
    detail: `The server answered ${response.status} ${title} without a problem body.`
  }
}

function describe (error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined
  const code = (cause as { code?: unknown } | undefined)?.code
  return [error instanceof Error ? error.message : String(error), typeof code === 'string' ? code : cause?.message]
    .filter((part) => part !== undefined && part !== '').join(': ')
}

function sleep (ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) { reject(signal.reason); return }
    const onAbort = (): void => { clearTimeout(timer); reject(signal?.reason) }
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve() }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
