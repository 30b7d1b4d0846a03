import { Server as NetServer } from 'node:net'
import type { Server } from 'node:http'
import fp from 'fastify-plugin'

const drained = new WeakMap<Server, Promise<void>>()

/**
 * Closes the listening socket at once: no connection is accepted after this returns. Kept-alive connections
 * go on carrying requests meanwhile, with ordinary answers. Uses net's close, not http's: http's also closes
 * idle keep-alive sockets at once, which resets a request the client is writing on one just then.
 */
export function stopAccepting (server: Server): void {
  allClosed(server)
}

/** Settles once the server no longer accepts and every open connection has closed. */
function allClosed (server: Server): Promise<void> {
  let done = drained.get(server)
  if (done === undefined) {
    done = server.listening
      ? new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()))
      : Promise.resolve()
    drained.set(server, done)
  }
  return done
}

/**
 * Stops accepting connections (if that has not happened yet) and waits until the open ones have closed,
 * or `drainMs` has passed. Kept open, an idle socket carries one more request, whose answer says
 * `Connection: close`; whatever is still idle after `drainMs` is closed by app.close().
 */
async function drainConnections (server: Server, drainMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    allClosed(server),
    new Promise<void>((resolve) => { timer = setTimeout(resolve, drainMs) })
  ])
  clearTimeout(timer)
}

/**
 * While stopping, answers close their connection so a keep-alive client cannot hold the exit; kept-alive sockets
 * may carry one more request (Fastify answers it 503) before the rest are closed, after `drainMs` at most.
 */
export const gracefulStop = fp<{ drainMs: number }>(async (app, { drainMs }) => {
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
    await drainConnections(app.server, drainMs)
  })
  // Hooks on every request take a callback, not a promise: an async hook costs a promise and a microtask turn.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
}, { name: 'graceful-stop' })
