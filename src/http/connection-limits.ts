import type { IncomingMessage, Server } from 'node:http'
import fp from 'fastify-plugin'
import type { Socket } from 'node:net'

interface ConnectionLimits {
  /** Open connections one client address may hold; 0 turns the limit off. */
  perAddress: number
  /** A new connection that sends nothing for this long is closed (0: off). */
  firstByteTimeoutMs: number
}

/**
 * The process-wide cap (MAX_CONNECTIONS) on the app's server, and per-address limits on top of it, so that one
 * client holding connections open cannot take every slot; and a short wait for a new connection's first bytes, so
 * that a silent connection frees its slot sooner than HEADERS_TIMEOUT would. Counts socket addresses: behind a
 * proxy every connection is the proxy's, so config.ts turns the limit off when TRUST_PROXY names one.
 */
export const connectionLimits = fp<ConnectionLimits & { maxConnections: number }>(async (app, options) => {
  app.server.maxConnections = options.maxConnections
  limitConnections(app.server, options)
}, { name: 'connection-limits' })

function limitConnections (server: Server, limits: ConnectionLimits): void {
  const open = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    if (limits.firstByteTimeoutMs > 0) awaitFirstBytes(socket, limits.firstByteTimeoutMs)
    const address = socket.remoteAddress
    if (limits.perAddress === 0 || address === undefined) return
    const count = (open.get(address) ?? 0) + 1
    if (count > limits.perAddress) {
      socket.destroy()
      return
    }
    open.set(address, count)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left === 0) open.delete(address)
      else open.set(address, left)
    })
  })
  // Once a connection's first request is in, its wait is over (HEADERS_TIMEOUT and KEEP_ALIVE_TIMEOUT rule).
  server.on('request', (request: IncomingMessage) => { stopWaiting(request.socket) })
}

const waiting = new WeakMap<Socket, () => void>()

/**
 * Closes `socket` if no byte of it has been read after `ms`; a client that trickles its headers is left to
 * HEADERS_TIMEOUT. A timer of its own, not the socket's timeout, whose 'timeout' Node's HTTP server answers by
 * closing the socket itself. After a stall of the event loop the timer is due before the bytes that came meanwhile
 * are read (timers run before the poll phase), so the verdict waits for that read: setImmediate runs after it.
 */
function awaitFirstBytes (socket: Socket, ms: number): void {
  const timer = setTimeout(() => {
    setImmediate(() => {
      if (!waiting.has(socket)) return
      waiting.delete(socket)
      if (socket.bytesRead === 0) socket.destroy()
    })
  }, ms)
  // A wait never keeps a stopping process alive.
  timer.unref()
  waiting.set(socket, () => { clearTimeout(timer) })
  socket.once('close', () => { stopWaiting(socket) })
}

function stopWaiting (socket: Socket): void {
  const stop = waiting.get(socket)
  if (stop === undefined) return
  waiting.delete(socket)
  stop()
}
