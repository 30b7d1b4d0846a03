import net from 'node:net'

/**
 * A TCP proxy on loopback between the service and a real server (PostgreSQL, Redis), so a test
 * can cut the line or hold traffic without touching the shared server.
 */
export class TcpProxy {
  readonly #server: net.Server
  readonly #sockets = new Set<net.Socket>()
  #refusing = false
  #holding = false
  port = 0
  /** Connections opened through the proxy so far (refused ones included). */
  connections = 0
  /** Called when a connection the server answered has closed (see `nextExchange`). */
  readonly #exchanges = new Set<() => void>()

  private constructor (target: { host: string, port: number }) {
    this.#server = net.createServer((client) => {
      this.connections++
      if (this.#refusing) { client.destroy(); return }
      const upstream = net.connect(target)
      // Who was waiting when this connection came: they hear of it once the server has answered and it closes.
      const waiting = [...this.#exchanges]
      let answered = false
      upstream.once('data', () => { answered = true })
      client.once('close', () => {
        if (!answered) return
        for (const resolve of waiting) { this.#exchanges.delete(resolve); resolve() }
      })
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket)
        socket.on('close', () => this.#sockets.delete(socket))
        socket.on('error', () => { client.destroy(); upstream.destroy() })
        if (this.#holding) socket.pause()
      }
      client.pipe(upstream)
      upstream.pipe(client)
    })
  }

  static async start (target: { host: string, port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target)
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve))
    proxy.port = (proxy.#server.address() as net.AddressInfo).port
    return proxy
  }

  /**
   * Resolves when a connection opened from now on, which the server answered, has closed: one client's whole
   * exchange, such as a reconnection probe's (connect, ask, disconnect). The proxy runs in the test's process, so
   * the client has acted on the answer before its connection's close reaches the proxy.
   */
  async nextExchange (): Promise<void> {
    await new Promise<void>((resolve) => this.#exchanges.add(resolve))
  }

  /** Drops every connection and refuses new ones: the server seems gone. */
  cut (): void {
    this.#refusing = true
    for (const socket of this.#sockets) socket.destroy()
  }

  restore (): void {
    this.#refusing = false
  }

  /** Stops moving bytes (connections stay open): the server seems slow. */
  hold (): void {
    this.#holding = true
    for (const socket of this.#sockets) socket.pause()
  }

  release (): void {
    this.#holding = false
    for (const socket of this.#sockets) socket.resume()
  }

  async close (): Promise<void> {
    this.cut()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }
}

/** `url` with its host and port replaced by the proxy's. */
export function through (url: string, proxy: TcpProxy): string {
  const parsed = new URL(url)
  parsed.hostname = '127.0.0.1'
  parsed.port = String(proxy.port)
  return parsed.toString()
}
