import assert from 'node:assert/strict'
import { once } from 'node:events'
import net from 'node:net'
import { test, type TestContext } from 'node:test'
import { loadConfig } from '../../src/config.ts'
import { startService } from '../support/service.ts'

const PING = '/api/v1/co2-calculator/ping'

/**
 * Silent connections from `localAddress` (any 127.x address is this machine on Linux). Made before the
 * service starts, so that their clean-up (destroying them) runs before the service closes.
 */
function connections (t: TestContext) {
  const sockets: net.Socket[] = []
  t.after(() => { for (const socket of sockets) socket.destroy() })
  return async (port: number, localAddress: string, count: number) => {
    const made = Array.from({ length: count }, () => net.connect({ port, host: '127.0.0.1', localAddress }))
    sockets.push(...made)
    for (const socket of made) socket.on('error', () => undefined)
    await Promise.all(made.map(async (socket) => await once(socket, 'connect')))
    return made
  }
}

test('one address holding its connection limit cannot stop another address\'s requests',
  { skip: process.platform !== 'linux' && 'needs the 127.0.0.0/8 loopback' }, async (t) => {
    const holdConnections = connections(t)
    const { app, port } = await startService(t, {
      env: {
        MAX_CONNECTIONS: '8',
        MAX_CONNECTIONS_PER_ADDRESS: '4',
        HEADERS_TIMEOUT: '60',
        REQUEST_TIMEOUT: '60',
        FIRST_BYTE_TIMEOUT: '60'
      }
    })
    const seen = new Promise<void>((resolve) => {
      let connections = 0
      app.server.on('connection', () => { if (++connections === 8) resolve() })
    })
    // One client opens 8 connections and sends nothing: as many as the whole process allows.
    const held = await holdConnections(port, '127.0.0.2', 8)
    const fourClosed = new Promise<void>((resolve) => {
      let closed = 0
      for (const socket of held) socket.once('close', () => { if (++closed === 4) resolve() })
    })
    await seen
    // Past its 4, the server closes them at once.
    await fourClosed
    const kept = held.filter((socket) => !socket.closed)
    assert.equal(kept.length, 4, 'the client keeps exactly its 4 connections')
    // Each of the 4 is served (a connection the server had closed would still look open here for a moment).
    const answers = await Promise.all(kept.map(async (socket) => await new Promise<string>((resolve) => {
      socket.once('data', (data: Buffer) => { resolve(data.toString().split('\r\n', 1)[0]!) })
      socket.once('close', () => { resolve('closed') })
      socket.write(`GET ${PING} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`)
    })))
    assert.deepEqual(answers, Array(4).fill('HTTP/1.1 200 OK'))
    // Another address still gets answers.
    const response = await fetch(`http://127.0.0.1:${port}${PING}`, { headers: { connection: 'close' } })
    assert.equal(response.status, 200)
  })

test('a connection that sends nothing is closed after FIRST_BYTE_TIMEOUT, long before HEADERS_TIMEOUT',
  async (t) => {
    const holdConnections = connections(t)
    const { port } = await startService(t,
      { env: { FIRST_BYTE_TIMEOUT: '1', HEADERS_TIMEOUT: '120', REQUEST_TIMEOUT: '120' } })
    const [silent] = await holdConnections(port, '127.0.0.1', 1)
    // Without the first-byte timeout this waits two minutes, and the test times out.
    await once(silent!, 'close')
    // A connection that sends its request at once is answered, and kept alive past that second.
    const response = await fetch(`http://127.0.0.1:${port}${PING}`)
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('connection'), 'keep-alive')
  })

test('a request that came while the event loop was stalled past FIRST_BYTE_TIMEOUT is answered, not cut off',
  async (t) => {
    const { app, port } = await startService(t,
      { env: { FIRST_BYTE_TIMEOUT: '1', HEADERS_TIMEOUT: '120', REQUEST_TIMEOUT: '120' } })
    const accepted = once(app.server, 'connection')
    const client = net.connect({ port, host: '127.0.0.1' })
    t.after(() => client.destroy())
    client.on('error', () => undefined)
    await Promise.all([once(client, 'connect'), accepted])
    client.write(`GET ${PING} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    // The stall itself is what is tested (a slow synchronous read, a loaded machine): after it the connection's
    // timer is due before the request, already in the kernel's buffer, has been read.
    for (const until = performance.now() + 1200; performance.now() < until;);
    let answer = ''
    client.on('data', (chunk: Buffer) => { answer += chunk.toString() })
    await once(client, 'close')
    assert.match(answer, /^HTTP\/1\.1 200 /)
  })

test('the connection settings: per-address limit on by default, off behind a proxy; bad values stop the start', () => {
  assert.equal(loadConfig({}).http.maxConnectionsPerAddress, 100)
  assert.equal(loadConfig({ TRUST_PROXY: '1' }).http.maxConnectionsPerAddress, 0)
  assert.equal(loadConfig({ TRUST_PROXY: '1', MAX_CONNECTIONS_PER_ADDRESS: '50' }).http.maxConnectionsPerAddress, 50)
  assert.equal(loadConfig({}).http.firstByteTimeoutMs, 5000)
  assert.equal(loadConfig({ HEADERS_TIMEOUT: '2', REQUEST_TIMEOUT: '2' }).http.firstByteTimeoutMs, 2000)
  assert.throws(() => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: 'many' }), /MAX_CONNECTIONS_PER_ADDRESS/)
  assert.throws(() => loadConfig({ FIRST_BYTE_TIMEOUT: '20' }), /FIRST_BYTE_TIMEOUT must not be longer/)
})
