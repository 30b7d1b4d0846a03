import assert from 'node:assert/strict'
import { once } from 'node:events'
import { Agent, request, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { test, type TestContext } from 'node:test'
import { tempDir } from '../support/files.ts'
import { startServerProcess, workersListening, type ServerProcess } from '../support/server-process.ts'

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

/** A server of its own; the ping route reads no catalogue, so the bundled one (a second of CPU) is not loaded. */
function serverEnv (t: TestContext): Record<string, string> {
  return { DATA_DIR: tempDir(t), CREATE_INITIAL_API_KEY: 'false', LOAD_BUNDLED_CATALOGUE: 'false' }
}

async function assertNoResets (t: TestContext, args: string[]): Promise<void> {
  const server = await startServerProcess(t, serverEnv(t), args)
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

/** GET /api/v1/co2-calculator/ping over `agent`: the answer's status and headers, its body read. */
async function ping (server: ServerProcess, agent: Agent): Promise<IncomingMessage> {
  return await new Promise((resolve, reject) => {
    request(`${server.url}/api/v1/co2-calculator/ping`, { agent }, (res) => {
      res.resume().on('end', () => resolve(res)).on('error', reject)
    }).on('error', reject).end()
  })
}

/** Opens a TCP connection to the server's port: 'connected' or the error's code. */
async function connectOutcome (server: ServerProcess): Promise<string> {
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1')
  try {
    await once(socket, 'connect')
    return 'connected'
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error)
  } finally {
    socket.destroy()
  }
}

// The ordering behind the load test above, without its timing: a worker that answers `Connection: close` sends
// its client to reconnect, and a worker still listening then may close its socket with that connection in its
// queue (a reset). So no answer may say close while any worker still takes connections. The other worker is
// frozen (SIGSTOP) through the first answers, so it is surely still listening then. A signal to one worker
// (Ctrl-C reaches the process group; systemd signals every process) must stop the whole server the same way.
test('--workers 2: no answer says Connection: close while the port still takes connections', async (t) => {
  for (const target of ['the primary', 'one worker'] as const) {
    await t.test(`SIGTERM to ${target}`, async (t) => {
      const server = await startServerProcess(t, serverEnv(t), ['--workers', '2'])
      const workers = await workersListening(server)
      t.after(() => { for (const pid of workers) signal(pid, 'SIGKILL') })
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      t.after(() => agent.destroy())
      // The worker that holds this kept-alive connection, from the log line of the request it answered.
      const first = await ping(server, agent)
      const line = await server.line(new RegExp(`"reqId":"${String(first.headers['x-request-id'])}"`))
      const ours = (JSON.parse(line) as { pid: number }).pid
      const other = workers.find((pid) => pid !== ours)!
      const exit = once(server.child, 'exit')
      signal(other, 'SIGSTOP')
      signal(target === 'the primary' ? server.child.pid! : ours, 'SIGTERM')
      for (let i = 0; i < 50; i++) {
        const answer = await ping(server, agent)
        assert.notEqual(answer.headers.connection, 'close', `answer ${i} says close; a worker still listens`)
      }
      signal(other, 'SIGCONT')
      let answer = first
      for (let sent = 1; answer.headers.connection !== 'close'; sent++) {
        assert.ok(sent < 20_000, 'no answer said Connection: close')
        answer = await ping(server, agent)
      }
      assert.equal(await connectOutcome(server), 'ECONNREFUSED', `answered ${answer.statusCode} with close`)
      assert.equal((await exit)[0], 0)
    })
  }
})

/** process.kill that ignores a process already gone. */
function signal (pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
  }
}
