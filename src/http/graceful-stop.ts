import { Server as NetServer } from 'node:net'
import type { Server } from 'node:http'

/**
 * Stops accepting connections and waits until the open ones have closed, or `drainMs` has passed.
 * Uses net's close, not http's: http's also closes idle keep-alive sockets at once, which resets a
 * request the client is writing on one just then. Kept open, such a socket carries one more request,
 * whose answer says `Connection: close`; whatever is still idle after `drainMs` is closed by app.close().
 */
export async function drainConnections (server: Server, drainMs: number): Promise<void> {
  if (!server.listening) return
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, drainMs)
    NetServer.prototype.close.call(server, () => {
      clearTimeout(timer)
      resolve()
    })
  })
}
