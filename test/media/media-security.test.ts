import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { MediaSigner } from '../../src/media/signing.ts'
import { forEachDatabase } from '../databases.ts'
import { buildTestApp } from '../helpers.ts'
import { fixtureProjects } from '../fixtures/projects.ts'

const SECRET = 'media-security-secret-media-security-0123'
const MEDIA_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

function pathOf (link: string): string {
  const url = new URL(link)
  return `${url.pathname}${url.search}`
}

forEachDatabase((database) => {
  describe(`media answers: their own policies [${database}]`, () => {
    test('every /media answer (200, 403, 404, 400) has the sandbox CSP and may be embedded elsewhere', async (t) => {
      const env = { MEDIA_SIGNING_SECRET: SECRET }
      const { inject } = await buildTestApp(t, { database, records: fixtureProjects(), env })
      const icon = pathOf((await inject('/api/v1/commerce/products/1/')).json().sustainable_development_goals[0].icon)
      const signer = new MediaSigner(SECRET, 3600)
      const answers: Array<[string, number]> = [
        [icon, 200],
        // One hex digit changed (to another digit, whatever the first one is).
        [icon.replace(/signature=(.)/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`), 403],
        [signer.sign('images/00000000000000000000000000000000.png'), 404],
        ['/media/sdg/13.svg', 400]
      ]
      for (const [url, status] of answers) {
        const response = await inject(url)
        assert.equal(response.statusCode, status, url)
        assert.equal(response.headers['content-security-policy'], MEDIA_CSP, url)
        assert.equal(response.headers['cross-origin-resource-policy'], 'cross-origin', url)
        assert.equal(response.headers['x-content-type-options'], 'nosniff', url)
      }
    })

    test('the rest of the service keeps its own policies', async (t) => {
      const { inject } = await buildTestApp(t, { database, records: fixtureProjects() })
      const urls = ['/api/v1/commerce/products/', '/api/v1/co2-calculator/ping', '/health/live', '/nowhere', '/']
      for (const url of urls) {
        const response = await inject(url)
        assert.equal(response.headers['cross-origin-resource-policy'], 'same-origin', url)
        assert.notEqual(response.headers['content-security-policy'], MEDIA_CSP, url)
      }
      const explorer = (await inject('/')).headers['content-security-policy'] as string
      assert.match(explorer, /script-src 'self'/, 'the explorer keeps its policy')
    })
  })

  describe(`signed link lifetime [${database}]`, () => {
    test('a link that expires later than MEDIA_LINK_TTL from now is refused, however well signed', async (t) => {
      const env = { MEDIA_SIGNING_SECRET: SECRET, MEDIA_LINK_TTL: '600' }
      const { inject } = await buildTestApp(t, { database, records: fixtureProjects(), env })
      const signer = new MediaSigner(SECRET, 600)
      // Signed as if made 20 minutes from now: it would expire 30 minutes from now, past the 10-minute lifetime.
      const future = await inject(signer.sign('sdg/13.svg', Date.now() + 1200_000))
      assert.equal(future.statusCode, 403)
      assert.equal(future.json().code, 'forbidden')
      // A signer with a longer lifetime (another instance's setting) is not honoured either.
      assert.equal((await inject(new MediaSigner(SECRET, 86_400 * 365).sign('sdg/13.svg'))).statusCode, 403)
      assert.equal((await inject(signer.sign('sdg/13.svg'))).statusCode, 200, 'a link made now is good')
    })

    test('a non-canonical expires (leading zeros, signs, spaces) is refused, even with its signature', async (t) => {
      const env = { MEDIA_SIGNING_SECRET: SECRET }
      const { inject } = await buildTestApp(t, { database, records: fixtureProjects(), env })
      const good = new URL(`http://x${new MediaSigner(SECRET, 3600).sign('sdg/13.svg')}`)
      const expires = good.searchParams.get('expires')!
      const signature = good.searchParams.get('signature')!
      assert.equal((await inject(`/media/sdg/13.svg?expires=${expires}&signature=${signature}`)).statusCode, 200)
      const variants = [`0${expires}`, `00${expires}`, `+${expires}`, `${expires}.0`, `%20${expires}`, `${expires}e0`]
      for (const variant of variants) {
        const response = await inject(`/media/sdg/13.svg?expires=${variant}&signature=${signature}`)
        assert.equal(response.statusCode, 403, variant)
        assert.match(response.headers['content-type'] as string, /^application\/problem\+json/)
      }
    })
  })
})
