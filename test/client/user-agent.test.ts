import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { TonneClient } from '../../client/src/index.ts'
import { fixtureProjects } from '../fixtures/projects.ts'
import { REPO_ROOT } from '../helpers.ts'
import { startService } from '../support/service.ts'
import { recordingProxy } from './recording-proxy.ts'

test('every request says User-Agent: tonne-client/VERSION, VERSION being the client package\'s', async (t) => {
  const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'client', 'package.json'), 'utf8')) as { version: string }
  const { baseUrl, key } = await startService(t, { records: fixtureProjects() })
  const proxy = await recordingProxy(t, baseUrl)
  const tonne = new TonneClient({ baseUrl: proxy.baseUrl, apiKey: key })

  await tonne.calculator.ping()
  await tonne.projects.list({ limit: 1 })
  await tonne.projects.get(999).catch(() => undefined)
  assert.deepEqual(proxy.requests.map((headers) => headers['user-agent']), Array(3).fill(`tonne-client/${version}`))
})
