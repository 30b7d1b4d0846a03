import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  isKnownErrorCode, KNOWN_ERROR_CODES, TonneApiError, TonneClient, type ErrorCode, type KnownErrorCode
} from '../../client/src/index.ts'
import type { ErrorCode as ServiceErrorCode } from '../../src/http/errors.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'

// Checked by tsc (npm test): the client's known codes are the service's, plus the one the client makes itself
// for an answer without a problem body. A code added to the service fails here until the client knows it.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const inStepWithTheService: Same<KnownErrorCode, ServiceErrorCode | 'unexpected_response'> = true

test('KnownErrorCode is the service\'s codes, listed by KNOWN_ERROR_CODES and told by isKnownErrorCode', () => {
  assert.equal(inStepWithTheService, true)
  assert.equal(new Set(KNOWN_ERROR_CODES).size, KNOWN_ERROR_CODES.length)
  assert.ok(Object.isFrozen(KNOWN_ERROR_CODES))

  const known: KnownErrorCode = 'rate_limited'
  // A code a newer service may send is still an ErrorCode, so old clients compile and run against new services.
  const future: ErrorCode = 'some_future_code'
  // @ts-expect-error a misspelt code is not a KnownErrorCode
  const misspelt: KnownErrorCode = 'rate_limitted'
  assert.deepEqual([known, future, misspelt].map(isKnownErrorCode), [true, false, false])
})

test('the codes the service really answers with are known ones', async (t) => {
  const { baseUrl, key } = await startService(t, { records: fixtureProjects(), env: { RATE_LIMIT_CATALOGUE: '4' } })
  const tonne = new TonneClient({ baseUrl, apiKey: key, retry: { maxAttempts: 1 } })
  const germany = { country_code: 'DEU' }
  const calls: Array<[KnownErrorCode, () => Promise<unknown>]> = [
    ['not_found', async () => await tonne.projects.get(999)],
    ['invalid_parameter', async () => await tonne.projects.list({ limit: 5000 })],
    ['unauthorized', async () => await new TonneClient({ baseUrl, apiKey: 'tonne_000000000000_nope' }).projects.list()],
    ['unknown_country', async () => await tonne.calculator.diet({ country_code: 'XYZ', diet_form: 'vegan' })],
    ['unknown_airport', async () => await tonne.calculator.flight({ ...germany, legs: 'FRA-ZZZ' })],
    ['missing_parameter', async () => await tonne.calculator.flight(germany)],
    ['conflicting_parameters',
      async () => await tonne.calculator.flight({ ...germany, frequency: 'rare', distance: 1 })],
    ['rate_limited', async () => { for (;;) await tonne.projects.list({ limit: 1 }) }]
  ]
  for (const [expected, call] of calls) {
    const error = await call().then(() => assert.fail(`expected ${expected}`), (e: unknown) => e)
    assert.ok(error instanceof TonneApiError, String(error))
    const code: ErrorCode = error.code
    assert.equal(code, expected)
    assert.ok(isKnownErrorCode(error.code))
  }
})

test('an answer without a problem body (a proxy\'s error page) is code unexpected_response, a known one', async () => {
  const page = { status: 502, headers: { 'content-type': 'text/html' } }
  const html = async () => new Response('<h1>Bad Gateway</h1>', page)
  const tonne = new TonneClient({ baseUrl: 'http://127.0.0.1:9', fetch: html })
  const error = await tonne.calculator.ping().catch((e: unknown) => e)
  assert.ok(error instanceof TonneApiError)
  assert.equal(error.code, 'unexpected_response')
  assert.ok(isKnownErrorCode(error.code))
})
