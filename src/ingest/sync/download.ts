import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'

// A source's file, downloaded for a sync: a conditional GET (the stored ETag and Last-Modified), streamed to a file
// the caller names, hashed on the way, within a size cap and timeouts, retried with exponential backoff when the
// failure may pass (the network, a timeout, 429 or 5xx). Redirects are followed (fetch's default, at most 20).

/** Timers the download waits with; tests hand in their own so no test waits in real time. */
export interface Timers {
  setTimeout: (run: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

export const REAL_TIMERS: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => { clearTimeout(handle as NodeJS.Timeout) }
}

interface DownloadOptions {
  url: string
  /** Validators from the last download of this URL: a 304 then means nothing changed. */
  etag: string | null
  lastModified: string | null
  /** Where the body goes (the caller's own temporary file). */
  file: string
  maxBytes: number
  /** From the request until the response's headers (connecting included). */
  connectTimeoutMs: number
  /** Longest wait for the next bytes of the body. */
  readTimeoutMs: number
  /** Tries in all (1: no retry); the n-th retry waits backoffMs × 2^(n-1). */
  attempts: number
  backoffMs: number
  sleep: (ms: number) => Promise<void>
  timers: Timers
  /** Called before each retry, with why. */
  onRetry?: (attempt: number, waitMs: number, reason: string) => void
}

type DownloadResult =
  | { status: 'not_modified' }
  | { status: 'downloaded', sha256: string, bytes: number, etag: string | null, lastModified: string | null }

/** A download that failed; `retryable` when trying again later may succeed. */
class DownloadError extends Error {
  readonly retryable: boolean
  constructor (message: string, retryable: boolean) {
    super(message)
    this.name = 'DownloadError'
    this.retryable = retryable
  }
}

/** Downloads `options.url` into `options.file`, retrying what may pass; throws DownloadError when it gives up. */
export async function download (options: DownloadOptions): Promise<DownloadResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await downloadOnce(options)
    } catch (error) {
      const failure = error instanceof DownloadError ? error : new DownloadError((error as Error).message, true)
      if (!failure.retryable || attempt >= options.attempts) {
        throw new DownloadError(attempt > 1 ? `${failure.message} (after ${attempt} tries)` : failure.message,
          failure.retryable)
      }
      const wait = options.backoffMs * 2 ** (attempt - 1)
      options.onRetry?.(attempt, wait, failure.message)
      await options.sleep(wait)
    }
  }
}

async function downloadOnce (options: DownloadOptions): Promise<DownloadResult> {
  const { timers } = options
  const abort = new AbortController()
  let timedOut: string | undefined
  let timer: unknown
  const arm = (ms: number, what: string) => {
    timers.clearTimeout(timer)
    timer = timers.setTimeout(() => {
      timedOut = what
      abort.abort(new DownloadError(what, true))
    }, ms)
  }
  const headers: Record<string, string> = {}
  if (options.etag !== null) headers['if-none-match'] = options.etag
  if (options.lastModified !== null) headers['if-modified-since'] = options.lastModified
  arm(options.connectTimeoutMs, `no answer from ${hostOf(options.url)} within ${options.connectTimeoutMs} ms`)
  try {
    let response: Response
    try {
      response = await fetch(options.url, { headers, redirect: 'follow', signal: abort.signal })
    } catch (error) {
      throw new DownloadError(timedOut ?? `could not reach ${hostOf(options.url)}: ${causeOf(error)}`, true)
    }
    if (response.status === 304) {
      await response.body?.cancel()
      return { status: 'not_modified' }
    }
    if (response.status !== 200) {
      await response.body?.cancel()
      const retryable = response.status === 429 || response.status === 408 || response.status >= 500
      throw new DownloadError(`${hostOf(options.url)} answered ${response.status} ${response.statusText}`.trim(),
        retryable)
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN)
    if (declared > options.maxBytes) {
      await response.body?.cancel()
      throw new DownloadError(tooLarge(options.maxBytes, declared), false)
    }
    if (response.body === null) throw new DownloadError('the answer has no body', true)
    const hash = createHash('sha256')
    let bytes = 0
    const readTimeout = `no bytes from ${hostOf(options.url)} for ${options.readTimeoutMs} ms`
    arm(options.readTimeoutMs, readTimeout)
    const meter = new Transform({
      transform (chunk: Buffer, _encoding, done) {
        bytes += chunk.length
        if (bytes > options.maxBytes) return done(new DownloadError(tooLarge(options.maxBytes), false))
        arm(options.readTimeoutMs, readTimeout)
        hash.update(chunk)
        done(null, chunk)
      }
    })
    try {
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), meter,
        createWriteStream(options.file), { signal: abort.signal })
    } catch (error) {
      if (error instanceof DownloadError) throw error
      throw new DownloadError(timedOut ?? `the download from ${hostOf(options.url)} broke off: ${causeOf(error)}`,
        true)
    }
    return {
      status: 'downloaded',
      sha256: hash.digest('hex'),
      bytes,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified')
    }
  } finally {
    timers.clearTimeout(timer)
  }
}

function tooLarge (maxBytes: number, declared?: number): string {
  const mb = (n: number) => n >= 1_048_576 ? `${Math.round(n / 104_857.6) / 10} MB` : `${n} bytes`
  return `the file is larger than the ${mb(maxBytes)} allowed (SYNC_MAX_MB)` +
    `${declared === undefined ? '' : `: ${mb(declared)} declared`}`
}

/** The host only: a URL's path or query may hold a token that must not reach logs or the sources list's errors. */
function hostOf (url: string): string {
  return new URL(url).host
}

function causeOf (error: unknown): string {
  const cause = (error as { cause?: { code?: string, message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error as Error).message
}
