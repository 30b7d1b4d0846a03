import assert from 'node:assert/strict'
import { test } from 'node:test'
import { TonneApiError, TonneClient, TonneError } from '../../client/src/index.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'
import { recordingProxy } from './recording-proxy.ts'

test('with no API key, a catalogue call fails before any request, saying what to do', async (t) => {
  const { baseUrl } = await startService(t, { records: fixtureProjects() })
  const proxy = await recordingProxy(t, baseUrl)

  // An empty key (an unset variable read as '') is no key.
  const keyless = [new TonneClient({ baseUrl: proxy.baseUrl }), new TonneClient({ baseUrl: proxy.baseUrl, apiKey: '' })]
  for (const tonne of keyless) {
    const calls = [
      async () => await tonne.projects.list(),
      async () => await tonne.projects.get(1),
      async () => await tonne.projects.facets(),
      async () => await tonne.projects.geojson(),
      async () => { for await (const page of tonne.projects.pages()) assert.fail(`got a page of ${page.count}`) },
      async () => { for await (const project of tonne.projects.all()) assert.fail(`got ${project.name}`) }
    ]
    for (const call of calls) {
      const error = await call().then(() => assert.fail('expected an error'), (e: unknown) => e)
      assert.ok(error instanceof TonneError, String(error))
      assert.ok(!(error instanceof TonneApiError), 'not an answer of the service: nothing was asked')
      assert.match(error.message, /API key/)
      assert.match(error.message, /apiKey/)
    }
    assert.deepEqual(await tonne.calculator.ping(), { message: 'pong' })
  }
  assert.deepEqual(proxy.requests.map((headers) => headers.authorization), [undefined, undefined],
    'only the two pings reached the service')
})

test('a key that cannot be sent as a header is refused at construction, without echoing it', () => {
  for (const apiKey of ['tonne_abc_def\n', ' tonne_abc_def', 'tonne abc', 'tonne_ü']) {
    assert.throws(() => new TonneClient({ baseUrl: 'http://127.0.0.1:3000', apiKey }), (error: unknown) => {
      assert.ok(error instanceof TonneError)
      assert.match(error.message, /apiKey/)
      assert.ok(!error.message.includes(apiKey.trim()), 'the key is a secret: never in a message')
      return true
    })
  }
})
