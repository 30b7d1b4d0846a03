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
 * Closes `socket` if it stays silent for `ms`. Node's socket timeout restarts with every byte, so a
 * client that trickles its headers is left to HEADERS_TIMEOUT.
 */
function awaitFirstBytes (socket: Socket, ms: number): void {
  const silent = () => { socket.destroy() }
  waiting.set(socket, silent)
  socket.setTimeout(ms)
  socket.once('timeout', silent)
}

function stopWaiting (socket: Socket): void {
  const silent = waiting.get(socket)
  if (silent === undefined) return
  waiting.delete(socket)
  socket.off('timeout', silent)
  socket.setTimeout(0)
}
