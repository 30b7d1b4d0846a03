import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { parseRateLimit } from '../../src/access/api-keys.ts'
import { AnswerCache } from '../../src/http/answer-cache.ts'
import { EncodedBody } from '../../src/http/compression.ts'
import { wantsCsv } from '../../src/http/csv.ts'
import { isExpensivePage, offsetPrice } from '../../src/http/expensive-reads.ts'
import { failedAnswerUnits } from '../../src/http/rate-limit.ts'
import { MediaSigner } from '../../src/media/signing.ts'

// Rules of the HTTP layer that a planted mutant once changed without any test noticing (a hand-run mutation
// campaign): each test here fails with that mutant and passes without it.

describe('answer cache: what an entry costs and when one is kept', () => {
  test('a key costs two bytes a character: a 1,000-byte answer under key "k" is over an eighth of 8,000 bytes',
    async () => {
      const answers = new AnswerCache(8000)
      const get = async () => (await answers.getOrBuild('k', () => 'v', () => 1000)).built
      assert.equal(await get(), true)
      assert.equal(await get(), true, 'not kept: 1,000 + 2 bytes is more than 1,000')
      assert.equal(answers.bytes, 0)
    })

  test('an answer of 1,500 bytes (over an eighth, under a quarter of 8,000) is not kept', async () => {
    const answers = new AnswerCache(8000)
    await answers.getOrBuild('k', () => 'v', () => 1500)
    assert.equal((await answers.getOrBuild('k', () => 'v', () => 1500)).built, true)
  })

  test('entries that fill the budget exactly all stay: eight of 1,000 bytes (996 + a two-character key) in 8,000',
    async () => {
      const answers = new AnswerCache(8000)
      const get = async (key: string) => (await answers.getOrBuild(key, () => key, () => 996)).built
      for (let i = 0; i < 8; i++) assert.equal(await get(`k${i}`), true)
      assert.equal(answers.bytes, 8000)
      for (let i = 0; i < 8; i++) assert.equal(await get(`k${i}`), false, `k${i} is kept`)
    })
})

describe('signed media links: the lifetime', () => {
  test('a link signed on a whole second, expiring exactly the 600 s lifetime later, is valid; one second more is not',
    () => {
      const signer = new MediaSigner('a-test-secret-of-at-least-32-characters', 600)
      const now = Date.parse('2026-03-01T10:00:00.000Z')
      const link = new URL(`http://x${signer.sign('sdg/13.svg', now)}`)
      const expires = link.searchParams.get('expires')!
      assert.equal(Number(expires), Date.parse('2026-03-01T10:10:00.000Z') / 1000)
      assert.equal(signer.verify('sdg/13.svg', expires, link.searchParams.get('signature')!, now), 'valid')
      // Signed by an instance with a longer lifetime: 601 s from now is past this service's 600 s.
      const longer = new MediaSigner('a-test-secret-of-at-least-32-characters', 601)
      const far = new URL(`http://x${longer.sign('sdg/13.svg', now)}`)
      assert.equal(signer.verify('sdg/13.svg', far.searchParams.get('expires')!, far.searchParams.get('signature')!,
        now), 'invalid')
    })
})

// docs/api.md: "A page with `offset` of 10,000 or more costs 1 request more per 10,000", and is an expensive read.
describe('deep pages: price and slot', () => {
  test('offsets below 10,000 cost nothing more; 10,000 to 19,999 one request; 25,000 two', () => {
    assert.deepEqual([undefined, 0, 1, 5000, 9999].map(offsetPrice), [0, 0, 0, 0, 0])
    assert.deepEqual([10_000, 19_999, 20_000, 25_000].map(offsetPrice), [1, 1, 2, 2])
  })

  test('a page at offset 10,000 exactly is an expensive read; at 9,999 it is not, nor is a blank search', () => {
    assert.equal(isExpensivePage({ offset: 10_000 }), true)
    assert.equal(isExpensivePage({ offset: 9_999 }), false)
    assert.equal(isExpensivePage({ search: '  ' }), false)
    assert.equal(isExpensivePage({ search: 'cookstove' }), true)
  })
})

describe('CSV by Accept: only when text/csv is preferred to JSON (docs/api.md, "CSV")', () => {
  const wants = (accept: string) => wantsCsv({ headers: { accept } } as FastifyRequest, undefined)

  test('text/csv and JSON at the same quality is JSON; text/csv above JSON is CSV', () => {
    assert.equal(wants('text/csv, application/json'), false)
    assert.equal(wants('text/csv;q=0.5, */*;q=0.5'), false)
    assert.equal(wants('text/csv, application/json;q=0.9'), true)
    assert.equal(wants('text/csv'), true)
    // Media types are case-insensitive (RFC 9110, 8.3.1).
    assert.equal(wants('Text/CSV'), true)
  })
})

// The compress plugin's threshold is 1,024 bytes: it leaves a shorter payload alone and compresses the rest.
describe('kept answers: compressed from 1 KiB on, as the compress plugin compresses the others', () => {
  const gzip = { headers: { 'accept-encoding': 'gzip' } } as unknown as FastifyRequest

  test('a body of exactly 1,024 bytes goes out gzipped; one of 1,023 bytes as it is', () => {
    assert.equal(new EncodedBody('x'.repeat(1024)).codingFor(gzip), 'gzip')
    assert.equal(new EncodedBody('x'.repeat(1023)).codingFor(gzip), undefined)
  })

  test('Vary: Accept-Encoding from 1,024 bytes on (there the coding depends on the request), added to a Vary', () => {
    const varied = (size: number, vary?: string) => {
      const headers = new Map<string, string>(vary === undefined ? [] : [['vary', vary]])
      const reply = {
        getHeader: (name: string) => headers.get(name),
        header: (name: string, value: string) => { headers.set(name, value) }
      } as unknown as FastifyReply
      new EncodedBody('x'.repeat(size)).vary(reply)
      return headers.get('vary')
    }
    assert.equal(varied(1024), 'accept-encoding')
    assert.equal(varied(1023), undefined)
    assert.equal(varied(1024, 'Accept'), 'Accept, accept-encoding')
    assert.equal(varied(1024, 'Accept, Accept-Encoding'), 'Accept, Accept-Encoding', 'not listed twice')
  })

  // RFC 9110, 8.4.1: content codings are case-insensitive ("GZIP" is gzip).
  test('codings in any case; "x-gzip" and "*" stand for gzip, as the plugin reads them', () => {
    const body = new EncodedBody('x'.repeat(2048))
    const asking = (header: string) =>
      body.codingFor({ headers: { 'accept-encoding': header } } as unknown as FastifyRequest)
    assert.equal(asking('GZIP'), 'gzip')
    assert.equal(asking('Br, gzip'), 'br')
    assert.equal(asking('X-GZIP'), 'gzip')
    assert.equal(asking('*'), 'gzip')
    assert.equal(asking('identity'), undefined)
  })
})

// docs/api.md, "Rate limits": a failed answer is charged its time, each part of a work unit as a whole one.
describe('a failed answer owes its time in whole work units, less what was counted', () => {
  test('2.5 units of time cost 3 requests: the one counted on arrival and 2 more', () => {
    assert.equal(failedAnswerUnits(2_500, 1_000, 0), 2)
  })

  test('exactly 2 units cost 2; a moment over costs 3', () => {
    assert.equal(failedAnswerUnits(2_000, 1_000, 0), 1)
    assert.equal(failedAnswerUnits(2_001, 1_000, 0), 2)
  })

  test('rows charged before the failure are taken off; a failure quicker than a unit owes nothing more', () => {
    assert.equal(failedAnswerUnits(4_200, 1_000, 3), 1)
    assert.equal(failedAnswerUnits(4_200, 1_000, 6), -2)
    assert.equal(failedAnswerUnits(300, 1_000, 0), 0)
  })
})

describe('a key\'s own rate limit, as `tonne keys create --rate-limit` takes it', () => {
  test('a whole number of requests a minute from 1, with or without "/min"; 0 and anything else is no limit', () => {
    assert.equal(parseRateLimit('1'), 1)
    assert.equal(parseRateLimit('600'), 600)
    assert.equal(parseRateLimit(' 600/min '), 600)
    assert.equal(parseRateLimit('9999999'), 9_999_999)
    for (const text of ['0', '0/min', '-5', '1.5', '600/hour', '10000000', '', 'many']) {
      assert.equal(parseRateLimit(text), undefined, text)
    }
  })
})
