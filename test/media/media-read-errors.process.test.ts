import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { open } from 'node:fs/promises'
import path from 'node:path'
import { test } from 'node:test'
import { MediaSigner } from '../../src/media/signing.ts'
import { tempDir } from '../support/files.ts'
import { startServerProcess } from '../support/server-process.ts'

const SECRET = 'media-read-errors-secret-0123456789abcdef'
const signed = (key: string) => new MediaSigner(SECRET, 3600).sign(key)

// One server for both tests (a server process costs about a second of CPU): they read different media files
// and match their own request ids in its log. They need no catalogue, so the bundled one is not loaded.
test('media reads in a server process', async (t) => {
  const dataDir = tempDir(t)
  const server = await startServerProcess(t, {
    DATA_DIR: dataDir, MEDIA_SIGNING_SECRET: SECRET, CREATE_INITIAL_API_KEY: 'false', LOAD_BUNDLED_CATALOGUE: 'false'
  })

  await t.test('a media file that cannot be read is a logged 500, not a silent 404; a missing one is still 404',
    async () => {
      // A folder where a file should be: the store is damaged, the file is not absent.
      mkdirSync(path.join(dataDir, 'media', 'images', '0123456789abcdef.png'), { recursive: true })
      const damaged = await fetch(`${server.url}${signed('images/0123456789abcdef.png')}`,
        { headers: { 'x-request-id': 'damaged-1' } })
      assert.equal(damaged.status, 500)
      assert.equal((await damaged.json() as { code: string }).code, 'internal_error')
      const logged = JSON.parse(await server.line(/"reqId":"damaged-1".*"level":50|"level":50.*"reqId":"damaged-1"/))
      assert.match(JSON.stringify(logged.err), /EISDIR/)
      assert.equal((await fetch(`${server.url}${signed('images/fedcba9876543210.png')}`)).status, 404)
    })

  await t.test('reading a media file does not block the server: others are answered while one read waits',
    { skip: process.platform === 'win32' }, async () => {
      // A named pipe stands in for a slow disk: reading it waits until the test writes the image.
      const fifo = path.join(dataDir, 'media', 'images', 'aaaaaaaaaaaaaaaa.png')
      mkdirSync(path.dirname(fifo), { recursive: true })
      execFileSync('mkfifo', [fifo])
      const slow = fetch(`${server.url}${signed('images/aaaaaaaaaaaaaaaa.png')}`,
        { headers: { 'x-request-id': 'slow-1' } })
      await server.line(/"reqId":"slow-1".*"msg":"incoming request"/)
      // With a blocking read this never answers, and the test times out.
      assert.equal((await fetch(`${server.url}/health/live`)).status, 200)
      const writer = await open(fifo, 'w')
      await writer.write(Buffer.from('89504e470d0a1a0a', 'hex'))
      await writer.close()
      const response = await slow
      assert.equal(response.status, 200)
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), Buffer.from('89504e470d0a1a0a', 'hex'))
    })

  assert.equal(await server.stop(), 0)
})
