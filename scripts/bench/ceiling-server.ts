// The ceiling: the fastest answer Node can give on this machine. A bare node:http server that
// replies to each benchmarked path with the very bytes (and content type) the service returned.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'

interface Captured { status: number, contentType: string, body: string }

const responses = new Map(Object.entries(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, Captured>)
  .map(([url, r]) => [url, { ...r, bytes: Buffer.from(r.body, 'base64') }]))

const server = createServer((request, response) => {
  const found = responses.get(request.url ?? '')
  if (found === undefined) {
    response.writeHead(404).end()
    return
  }
  response.writeHead(found.status, { 'content-type': found.contentType, 'content-length': found.bytes.length })
  response.end(found.bytes)
})
server.keepAliveTimeout = 72_000
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  console.log(`ceiling listening on ${typeof address === 'object' && address !== null ? address.port : ''}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
