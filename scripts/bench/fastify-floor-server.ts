// A second reference: bare Fastify (no plugins, no hooks) answering each path with the captured
// bytes. Between it and the node:http ceiling lies the framework's own cost, which every route pays.
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'

interface Captured { status: number, contentType: string, body: string }

const responses = new Map(Object.entries(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, Captured>)
  .map(([url, r]) => [url, { ...r, bytes: Buffer.from(r.body, 'base64') }]))

const app = Fastify({ logger: false })
app.get('/*', async (request, reply) => {
  const found = responses.get(request.url)
  if (found === undefined) return await reply.code(404).send()
  return await reply.type(found.contentType).send(found.bytes)
})
// PORT: a port of the caller's choosing (bench:container's start to first answer); else any free one.
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env['PORT'] ?? 0) })
console.log(`fastify listening on ${new URL(address).port}`)
process.on('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
