import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AnswerCache } from './answer-cache.ts'
import { EncodedBody } from './compression.ts'
import { etagMatches } from './etag.ts'
import { inSlot, isExpensivePage, type ExpensiveRead } from './expensive-reads.ts'
import { answerKey } from './query-policy.ts'
import type { Charge } from './rate-limit.ts'

/** What every answer of one area shares (app.ts makes one per area: the catalogue with its ledger, the calculator). */
export interface AnswerArea {
  /** The first word of the area's keys in the one answer cache. */
  name: string
  /**
   * What the answers are a function of besides their key: the catalogue's version (a write anywhere starts a new
   * one), or the calculator's code and data. Read once per request.
   */
  version: () => Promise<string> | string
  /** The service's one answer cache. */
  answers: AnswerCache
  /** The Cache-Control of a successful answer. */
  cacheControl: string
  /**
   * `weak`: one tag for every content coding, and equal answers may differ byte for byte (links re-signed each
   * second). `strong`: the answer's bytes are fixed by its key, so each content coding has a tag of its own
   * (RFC 9110 8.8.3), and a 304 confirms only the coding the request would get.
   */
  validator: 'weak' | 'strong'
  /** Counts more requests against the caller's rate limit: what building an answer costs past the request itself. */
  charge?: Charge
  /** Takes an expensive read's slot (search, deep pages, totals); waits its turn or refuses with 429 past the caps. */
  expensive?: ExpensiveRead
}

/** One answer: how it is built, and what it costs. */
export interface AnswerOptions<T> {
  /** Builds the answer at `version`: the body's text, or (with `render`) what each second's body is made from. */
  build: (version: string) => Promise<T> | T
  /** What building costs against the caller's rate limit (default 1: the request itself, already counted). */
  cost?: number
  /** Whether building takes an expensive read's slot (default: a search or a deep page, `isExpensivePage`). */
  expensive?: boolean
  /**
   * What, besides the area and the version, names the answer: by default the path and the operation's known
   * parameters (`answerKey`); answers with absolute links add the origin.
   */
  key?: string
  /** The Content-Type of the body (default JSON). */
  type?: string
  /**
   * For answers whose bytes change with time though their content does not (media links signed per second):
   * the kept value is `build`'s, and its body is made by `text` anew whenever `stamp()` changes. Weak areas only.
   */
  render?: {
    stamp: () => number
    text: (value: T, request: FastifyRequest, stamp: number) => string
    /** Bytes of the kept value, for the cache's accounting. */
    bytes: (value: T) => number
  }
}

interface Kept<T> {
  /**
   * `build`'s value, kept only for `render`: otherwise the body holds the answer, and its text would be a second
   * copy of it on the V8 heap (docs/performance.md, "the answer cache at 160 MB").
   */
  value: T | undefined
  /** The quoted opaque tag (SHA-1 of the key), computed once, when the answer is built. */
  tag: string
  body: EncodedBody | undefined
  stamp: number
}

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * The one path every kept answer takes (catalogue, ledger, sources and calculator alike). An answer is a function
 * of its area's version and its key, kept in the answer cache by both. Validators are set only on a successful answer,
 * so a 304 only ever confirms a 200; a build that throws goes to the error handler and is never kept. The body is
 * kept with its compressed variants (http/compression.ts).
 */
export class AnswerPath {
  readonly #area: AnswerArea

  constructor (area: AnswerArea) {
    this.#area = area
  }

  async send<T = string> (request: FastifyRequest, reply: FastifyReply, options: AnswerOptions<T>):
  Promise<FastifyReply> {
    const { answers, charge, expensive, validator } = this.#area
    const { render } = options
    if (render !== undefined && validator === 'strong') throw new Error('an answer re-made in time has no strong tag')
    const version = await this.#area.version()
    const key = `${this.#area.name} ${version} ${options.key ?? answerKey(request)}`
    const slot = expensive !== undefined &&
      (options.expensive ?? isExpensivePage(request.query as { search?: string, offset?: number }))
    const { value: kept, built } = await answers.getOrBuild<Kept<T>>(key, async () => {
      const value = slot
        ? await inSlot(() => expensive(request), async () => await options.build(version))
        : await options.build(version)
      return {
        value: render === undefined ? undefined : value,
        tag: `"${createHash('sha1').update(key).digest('base64url')}"`,
        body: render === undefined ? new EncodedBody(value as string) : undefined,
        stamp: 0
      }
    }, (kept) => (kept.body?.bytes ?? render?.bytes(kept.value as T) ?? 0) + kept.tag.length * 2)
    const cost = options.cost ?? 1
    if (built && cost > 1 && charge !== undefined) await charge(request, cost - 1)

    // A strong tag names the coding, so it is negotiated once, here, for the tag and the body alike.
    const coding = validator === 'strong' ? kept.body!.codingFor(request) : undefined
    const etag = validator === 'weak' ? `W/${kept.tag}` : codedTag(kept.tag, coding)
    reply.header('etag', etag).header('cache-control', this.#area.cacheControl)
    if (etagMatches(request.headers['if-none-match'], etag)) {
      // The 304 stands for the same representation the 200 would be, Vary included.
      kept.body?.vary(reply)
      return reply.code(304).send()
    }
    if (render !== undefined) {
      const stamp = render.stamp()
      if (kept.body === undefined || kept.stamp !== stamp) {
        const previous = kept.body?.bytes ?? 0
        kept.body = new EncodedBody(render.text(kept.value as T, request, stamp))
        kept.stamp = stamp
        answers.resize(key, kept.body.bytes - previous)
      }
    }
    const type = options.type ?? JSON_TYPE
    answers.resize(key, validator === 'strong'
      ? kept.body!.send(request, reply, type, coding)
      : kept.body!.send(request, reply, type))
    return reply
  }
}

/** A strong tag per content coding: the compressed bytes are other bytes than the plain ones. */
function codedTag (tag: string, coding: string | undefined): string {
  return coding === undefined ? tag : `${tag.slice(0, -1)}-${coding}"`
}
