import assert from 'node:assert/strict'
import { EventEmitter, once } from 'node:events'
import net from 'node:net'
import { Writable } from 'node:stream'
import { test } from 'node:test'
import { createPostgresDatabase, TEST_DATABASES } from '../databases.ts'
import { startService } from '../support/service.ts'
import { TcpProxy, through } from '../support/tcp-proxy.ts'

const servers = { skip: TEST_DATABASES.includes('postgres') ? false : 'TONNE_TEST_DATABASES leaves PostgreSQL out' }

interface LogLine { level: number, msg: string, reqId?: string }

test('a client that leaves before its 404 is built causes no error-level log line [postgres]', servers, async (t) => {
  const databaseUrl = await createPostgresDatabase(t)
  const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(databaseUrl).port || 5432) })
  const lines: LogLine[] = []
  const logged = new EventEmitter()
  const logStream = new Writable({
    write (chunk, _encoding, done) {
      const line = JSON.parse(String(chunk)) as LogLine
      lines.push(line)
      logged.emit('line', line)
      done()
    }
  })
  const { app, port, key } = await startService(t,
    { logStream, env: { DATABASE_URL: through(databaseUrl, proxy), DATABASE_POOL_SIZE: '2' } })
  t.after(async () => await proxy.close())
  const headers = { authorization: `Bearer ${key}` }
  // The key is verified (and kept) first, so that the request below waits only on the missing project.
  assert.equal((await app.inject({ url: '/api/v1/commerce/products/999999/', headers })).statusCode, 404)

  const next = async (test: (line: LogLine) => boolean) => await new Promise<LogLine>((resolve) => {
    const look = (line: LogLine) => { if (test(line)) { logged.off('line', look); resolve(line) } }
    logged.on('line', look)
  })
  for (let i = 0; i < 3; i++) {
    const id = `left-early-${i}`
    proxy.hold()
    const serverSide = once(app.server, 'connection') as Promise<[net.Socket]>
    const client = net.connect(port, '127.0.0.1')
    client.on('error', () => undefined)
    client.write(`GET /api/v1/commerce/products/99999${i}/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
      `X-Request-Id: ${id}\r\n\r\n`)
    const [socket] = await serverSide
    const incoming = next((line) => line.reqId === id)
    await incoming
    // The client gives up while the database is slow; then the database answers: "no such project".
    const closed = once(socket, 'close')
    client.destroy()
    await closed
    const answered = next((line) => line.reqId === id && line.msg !== 'incoming request')
    proxy.release()
    const line = await answered
    assert.ok(line.level < 50, JSON.stringify(line))
  }
  assert.deepEqual(lines.filter((line) => line.level >= 50), [])
})
