import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { Worker } from 'node:worker_threads'
import { loadConfig } from '../../src/config.ts'
import { prepareDatabase } from '../../src/startup.ts'
import { openStore } from '../../src/store/connect.ts'
import { resolveSigningSecret } from '../../src/media/signing.ts'
import { tempDir } from '../helpers.ts'

const secretFile = (dataDir: string) => path.join(dataDir, 'secrets', 'media-signing-secret')

test('a generated secret is 32+ characters, kept with mode 0600, and leaves no temporary file', (t) => {
  const dataDir = tempDir(t)
  const secret = resolveSigningSecret(undefined, dataDir)
  assert.ok(secret.length >= 32, secret)
  assert.equal(readFileSync(secretFile(dataDir), 'utf8').trim(), secret)
  assert.equal(statSync(secretFile(dataDir)).mode & 0o777, 0o600)
  assert.deepEqual(readdirSync(path.dirname(secretFile(dataDir))), ['media-signing-secret'])
  assert.equal(resolveSigningSecret(undefined, dataDir), secret, 'the next start reads the same secret')
})

test('an empty or short secret file stops the start instead of signing with it', (t) => {
  for (const content of ['', '\n', 'short-secret\n']) {
    const dataDir = tempDir(t)
    mkdirSync(path.dirname(secretFile(dataDir)), { recursive: true })
    writeFileSync(secretFile(dataDir), content)
    assert.throws(() => resolveSigningSecret(undefined, dataDir), /at least 32 characters/, JSON.stringify(content))
  }
})

test('threads racing on a fresh data directory all get the same full secret', async (t) => {
  const script = `
    const { workerData, parentPort } = require('node:worker_threads')
    import(workerData.module).then(({ resolveSigningSecret }) => {
      Atomics.wait(new Int32Array(workerData.gate), 0, 0)
      let answer
      try { answer = resolveSigningSecret(undefined, workerData.dataDir) } catch (error) { answer = String(error) }
      parentPort.postMessage(answer)
    })`
  const module = new URL('../../src/media/signing.ts', import.meta.url).href
  for (let round = 0; round < 20; round++) {
    const dataDir = tempDir(t)
    const gate = new SharedArrayBuffer(4)
    const workers = Array.from({ length: 6 }, () =>
      new Worker(script, { eval: true, workerData: { module, dataDir, gate } }))
    const answers = workers.map(async (worker) => await new Promise<string>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
    }))
    // Every thread has loaded the module and waits at the gate once it is online; then all go at once.
    await Promise.all(workers.map(async (worker) => await new Promise((resolve) => worker.once('online', resolve))))
    Atomics.store(new Int32Array(gate), 0, 1)
    Atomics.notify(new Int32Array(gate), 0)
    const secrets = await Promise.all(answers)
    await Promise.all(workers.map(async (worker) => await worker.terminate()))
    assert.equal(new Set(secrets).size, 1, `round ${round}: ${secrets.join(' | ')}`)
    assert.ok(secrets[0]!.length >= 32, secrets[0])
  }
})

test('the preparation before serving (the primary, before it forks workers) creates the secret', async (t) => {
  const dataDir = tempDir(t)
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
  const store = await openStore(config)
  try {
    await prepareDatabase({ ...config, loadBundledCatalogue: false, createInitialApiKey: false }, store, () => {})
  } finally {
    await store.close()
  }
  assert.ok(readFileSync(secretFile(dataDir), 'utf8').trim().length >= 32)
})
