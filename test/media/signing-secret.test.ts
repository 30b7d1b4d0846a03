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
  // Six threads load the module once, then race in every round: each says it is ready, waits at the round's
  // gate, and all are let go at once (a thread per round and try cost 120 thread starts, most of the test's time).
  const script = `
    const { workerData, parentPort } = require('node:worker_threads')
    import(workerData.module).then(({ resolveSigningSecret }) => {
      parentPort.on('message', ({ dataDir, gate }) => {
        parentPort.postMessage({ ready: true })
        Atomics.wait(new Int32Array(gate), 0, 0)
        let answer
        try { answer = resolveSigningSecret(undefined, dataDir) } catch (error) { answer = String(error) }
        parentPort.postMessage({ answer })
      })
      parentPort.postMessage({ loaded: true })
    })`
  const module = new URL('../../src/media/signing.ts', import.meta.url).href
  const workers = Array.from({ length: 6 }, () => new Worker(script, { eval: true, workerData: { module } }))
  t.after(async () => await Promise.all(workers.map(async (worker) => await worker.terminate())))
  const next = async (worker: Worker, field: 'loaded' | 'ready' | 'answer') =>
    await new Promise<unknown>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (!(field in message)) return
        worker.off('message', onMessage).off('error', reject)
        resolve(message[field])
      }
      worker.on('message', onMessage).once('error', reject)
    })
  await Promise.all(workers.map(async (worker) => await next(worker, 'loaded')))
  for (let round = 0; round < 20; round++) {
    const dataDir = tempDir(t)
    const gate = new SharedArrayBuffer(4)
    const ready = workers.map(async (worker) => await next(worker, 'ready'))
    const answers = workers.map(async (worker) => await next(worker, 'answer') as string)
    for (const worker of workers) worker.postMessage({ dataDir, gate })
    await Promise.all(ready)
    Atomics.store(new Int32Array(gate), 0, 1)
    Atomics.notify(new Int32Array(gate), 0)
    const secrets = await Promise.all(answers)
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
