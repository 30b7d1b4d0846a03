import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'

export interface RecordingProxy {
  /** Where to point a client: http://127.0.0.1:PORT, forwarding to the service. */
  baseUrl: string
  /** The headers of every request, in order, as they arrived on the wire. */
  requests: http.IncomingHttpHeaders[]
}

/**
 * An HTTP forwarder in front of the real service that notes what each request carried, so a test
 * sees the headers a client really sent (not what it meant to send). Closed after the test.
 */
export async function recordingProxy (t: TestContext, target: string): Promise<RecordingProxy> {
  const requests: http.IncomingHttpHeaders[] = []
  const server = http.createServer((request, response) => {
    requests.push(request.headers)
    const options = { method: request.method, headers: request.headers }
    const upstream = http.request(new URL(request.url ?? '/', target), options, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    upstream.on('error', () => response.destroy())
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}
