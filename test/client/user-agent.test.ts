import assert from 'node:assert/strict'
import { test } from 'node:test'
import { TonneClient } from '../../client/src/index.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { startService } from '../support/service.ts'
import { clientPackageVersion } from './client-package.ts'
import { recordingProxy } from './recording-proxy.ts'

test('every request says User-Agent: tonne-client/VERSION, VERSION being the client package\'s', async (t) => {
  const version = clientPackageVersion()
  const { baseUrl, key } = await startService(t, { records: fixtureProjects() })
  const proxy = await recordingProxy(t, baseUrl)
  const tonne = new TonneClient({ baseUrl: proxy.baseUrl, apiKey: key })

  await tonne.calculator.ping()
  await tonne.projects.list({ limit: 1 })
  await tonne.projects.get(999).catch(() => undefined)
  assert.deepEqual(proxy.requests.map((headers) => headers['user-agent']), Array(3).fill(`tonne-client/${version}`))
})
