import assert from 'node:assert/strict'
import { Agent, request } from 'node:http'
import { test, type TestContext } from 'node:test'
import { tempDir } from '../helpers.ts'
import { startServerProcess, type ServerProcess } from '../support/server-process.ts'

// Keep-alive clients sending without pause while the server gets SIGTERM (issue 24, item 8). Bounded: a
// few sockets on loopback, and each client stops once the server no longer takes connections.
const CLIENTS = 8
const ANSWERS_BEFORE_SIGNAL = 300
const MAX_REQUESTS = 20_000

interface Tally { answers: number, statuses: Map<number, number>, closing: number, refused: number, resets: string[] }

/**
 * Runs CLIENTS loops of GET /api/v1/co2-calculator/ping over one keep-alive agent, calls `onAnswers` once
 * ANSWERS_BEFORE_SIGNAL answers are in, and resolves when every loop has stopped. A request that fails
 * before it was fully written was never sent (a refused connection); one that fails after is a reset.
 */
async function loadUntilGone (server: ServerProcess, onAnswers: () => void): Promise<Tally> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS })
  const tally: Tally = { answers: 0, statuses: new Map(), closing: 0, refused: 0, resets: [] }
  // An object, so the loops see a refused connection that another loop met.
  const run = { sent: 0, gone: false }
  const once = async () => await new Promise<void>((resolve) => {
    let written = false
    const req = request(`${server.url}/api/v1/co2-calculator/ping`, { agent }, (res) => {
      res.resume()
      res.on('end', () => {
        tally.answers++
        tally.statuses.set(res.statusCode!, (tally.statuses.get(res.statusCode!) ?? 0) + 1)
        if (res.headers.connection === 'close') tally.closing++
        if (tally.answers === ANSWERS_BEFORE_SIGNAL) onAnswers()
        resolve()
      })
      res.on('error', (error) => {
        tally.resets.push(`answer cut: ${error.message}`)
        resolve()
      })
    })
    req.on('finish', () => { written = true })
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!written) {
        // Never sent: the listener is gone, so this client is done.
        if (error.code === 'ECONNREFUSED') run.gone = true
        tally.refused++
      } else {
        const socket = req.reusedSocket ? 'kept-alive socket' : 'new connection'
        tally.resets.push(`${error.code ?? ''} ${error.message} (${socket})`)
      }
      resolve()
    })
    req.end()
  })
  const loop = async () => {
    while (!run.gone && run.sent < MAX_REQUESTS) {
      run.sent++
      await once()
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, loop))
  agent.destroy()
  return tally
}

async function assertNoResets (t: TestContext, args: string[]): Promise<void> {
  const server = await startServerProcess(t, {
    DATA_DIR: tempDir(t), CREATE_INITIAL_API_KEY: 'false'
  }, args)
  let exit: Promise<number | null> | undefined
  const tally = await loadUntilGone(server, () => { exit = server.stop() })
  assert.ok(exit !== undefined, `only ${tally.answers} answers arrived`)
  t.diagnostic(`answers ${JSON.stringify([...tally.statuses])}, never sent ${tally.refused}, ` +
    `cut off ${tally.resets.length}`)
  assert.equal(await exit, 0)
  assert.deepEqual(tally.resets, [], `requests cut off after they were sent (${tally.answers} answered)`)
  assert.ok(sentAfterSignal(tally), `the load stopped before the signal: ${JSON.stringify([...tally.statuses])}`)
}

/** More answers than the ones that triggered the signal: the load really ran through the stop. */
function sentAfterSignal (tally: Tally): boolean {
  return tally.answers > ANSWERS_BEFORE_SIGNAL && tally.closing > 0
}

test('SIGTERM under keep-alive load: every request sent gets a whole answer (one process)', async (t) => {
  await assertNoResets(t, [])
})

// Workers listen on sockets of their own (Linux): node:cluster's primary used to accept while they stopped
// and reset the connections it still held once the last one had gone (1 run in 5-7).
test('SIGTERM under keep-alive load: every request sent is answered (--workers 2)', async (t) => {
  await assertNoResets(t, ['--workers', '2'])
})
