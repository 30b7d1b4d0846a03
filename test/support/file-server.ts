import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'

// A local HTTP server for the sync tests (never the internet): each path has a handler the test sets, and every
// request is kept with the headers that matter to a conditional download.

export type Handler = (request: IncomingMessage, response: ServerResponse) => void

export interface FileServer {
  /** The absolute URL of a path on this server. */
  url: (path: string) => string
  /** Handlers by path; a path without one answers 404. */
  routes: Map<string, Handler>
  requests: Array<{ path: string, ifNoneMatch: string | undefined, ifModifiedSince: string | undefined }>
}

export async function fileServer (t: TestContext): Promise<FileServer> {
  const routes = new Map<string, Handler>()
  const requests: FileServer['requests'] = []
  const server = createServer((request, response) => {
    const path = request.url ?? '/'
    requests.push({
      path,
      ifNoneMatch: request.headers['if-none-match'],
      ifModifiedSince: request.headers['if-modified-since']
    })
    const handler = routes.get(path)
    if (handler === undefined) {
      response.writeHead(404).end('not found')
      return
    }
    handler(request, response)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  const { port } = server.address() as AddressInfo
  return { url: (path) => `http://127.0.0.1:${port}${path}`, routes, requests }
}

/** A file with validators, as a static file server sends it: 304 when the client's validators still match. */
export function servedFile (body: Buffer | string, validators: { etag?: string, lastModified?: string } = {}): Handler {
  return (request, response) => {
    const headers: Record<string, string> = { 'content-type': 'text/csv' }
    if (validators.etag !== undefined) headers['etag'] = validators.etag
    if (validators.lastModified !== undefined) headers['last-modified'] = validators.lastModified
    const etagMatches = validators.etag !== undefined && request.headers['if-none-match'] === validators.etag
    const dateMatches = validators.etag === undefined && validators.lastModified !== undefined &&
      request.headers['if-modified-since'] === validators.lastModified
    if (etagMatches || dateMatches) {
      response.writeHead(304, headers).end()
      return
    }
    response.writeHead(200, headers).end(body)
  }
}
