import assert from 'node:assert/strict'
import { once } from 'node:events'
import net from 'node:net'
import { describe, test, type TestContext } from 'node:test'
import { startService } from '../support/service.ts'

const PING = '/api/v1/co2-calculator/ping'
/** Generous: the settings below are 1 to 2 seconds; without them Node waits 300 s and more. */
const BOUND_MS = 20_000

interface Connection {
  socket: net.Socket
  /** Everything the server sent. */
  received: () => string
  /** Resolves when the server has closed the connection, or rejects after BOUND_MS. */
  closed: Promise<void>
}

/**
 * Raw TCP connections to the service, so a test can send as slowly or as little as an attacker would.
 * Made before the service starts, so its clean-up (destroying every connection) runs before the service closes.
 */
function client (t: TestContext): (port: number) => Promise<Connection> {
  const sockets: net.Socket[] = []
  t.after(() => { for (const socket of sockets) socket.destroy() })
  return async (port) => {
    const socket = net.connect(port, '127.0.0.1')
    sockets.push(socket)
    return await watch(socket)
  }
}

async function watch (socket: net.Socket): Promise<Connection> {
  let text = ''
  socket.on('data', (chunk) => { text += String(chunk) })
  socket.on('error', () => undefined)
  const closed = new Promise<void>((resolve, reject) => {
    const open = new Error(`the server kept the connection open for ${BOUND_MS} ms`)
    const timer = setTimeout(() => reject(open), BOUND_MS)
    socket.on('close', () => { clearTimeout(timer); resolve() })
  })
  await once(socket, 'connect')
  return { socket, received: () => text, closed }
}

/** Writes `chunk` every 250 ms until the connection closes: a client that trickles bytes to hold it open. */
function trickle (connection: Connection, chunk: string): void {
  const timer = setInterval(() => { if (!connection.socket.destroyed) connection.socket.write(chunk) }, 250)
  connection.socket.on('close', () => clearInterval(timer))
}

const SETTINGS = { REQUEST_TIMEOUT: '2', HEADERS_TIMEOUT: '1', KEEP_ALIVE_TIMEOUT: '1' }

// Each test waits a second or two of real time for a server setting to cut a connection off; each has a service
// of its own, so they wait together rather than one after another.
describe('slow and idle connections', { concurrency: true }, () => {
  test('a request body trickled a byte at a time is cut off at REQUEST_TIMEOUT with a 408', async (t) => {
    const connect = client(t)
    const { port } = await startService(t, { env: SETTINGS })
    const connections = await Promise.all(Array.from({ length: 5 }, async () => await connect(port)))
    for (const connection of connections) {
      connection.socket.write(`GET ${PING} HTTP/1.1\r\nHost: tonne.test\r\nContent-Length: 100000\r\n\r\nA`)
      trickle(connection, 'A')
    }
    for (const connection of connections) {
      await connection.closed
      assert.match(connection.received(), /HTTP\/1\.1 408 Request Timeout/)
      assert.match(connection.received(), /"code":"request_timeout"/)
    }
  })

  test('headers trickled a line at a time are cut off at HEADERS_TIMEOUT', async (t) => {
    const connect = client(t)
    const { port } = await startService(t, { env: SETTINGS })
    const connection = await connect(port)
    connection.socket.write(`GET ${PING} HTTP/1.1\r\nHost: tonne.test\r\n`)
    trickle(connection, 'X-Padding: a\r\n')
    await connection.closed
    assert.match(connection.received(), /^HTTP\/1\.1 408 /)
  })

  test('an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT', async (t) => {
    const connect = client(t)
    const { port } = await startService(t, { env: SETTINGS })
    const connection = await connect(port)
    connection.socket.write(`GET ${PING} HTTP/1.1\r\nHost: tonne.test\r\n\r\n`)
    await connection.closed
    assert.match(connection.received(), /^HTTP\/1\.1 200 OK[\s\S]*keep-alive[\s\S]*"pong"/i)
  })

  test('connections past MAX_CONNECTIONS are refused; a slot frees when one closes', async (t) => {
    const connect = client(t)
    const { port, baseUrl } = await startService(t, { env: { MAX_CONNECTIONS: '3', KEEP_ALIVE_TIMEOUT: '60' } })
    // Three clients each hold a connection open (a request in flight, its body still coming).
    const held = await Promise.all(Array.from({ length: 3 }, async () => await connect(port)))
    for (const connection of held) {
      connection.socket.write(`GET ${PING} HTTP/1.1\r\nHost: tonne.test\r\nContent-Length: 10\r\n\r\n`)
    }
    await Promise.all(held.map(async (c) => { while (!c.received().includes('pong')) await once(c.socket, 'data') }))

    const fourth = await connect(port)
    fourth.socket.write(`GET ${PING} HTTP/1.1\r\nHost: tonne.test\r\n\r\n`)
    await fourth.closed
    assert.equal(fourth.received(), '', 'the fourth connection got nothing')

    held[0]!.socket.destroy()
    let status = 0
    for (const deadline = Date.now() + BOUND_MS; status !== 200 && Date.now() < deadline;) {
      status = await fetch(`${baseUrl}${PING}`, { headers: { connection: 'close' } }).then((r) => r.status, () => 0)
    }
    assert.equal(status, 200)
  })
})
