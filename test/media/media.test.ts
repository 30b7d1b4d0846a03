import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { MediaSigner } from '../../src/media/signing.ts'
import { tonne } from '../cli.helpers.ts'
import { databaseEnv, forEachDatabase } from '../databases.ts'
import { buildTestApp, tempDir } from '../helpers.ts'
import { fixtureProjects, project } from '../fixtures/projects.ts'

const SECRET = 'test-secret-test-secret-test-secret-0123'
// The first bytes of a PNG file: enough for the store, which checks the extension, not the pixels.
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')

function pathOf (link: string): string {
  const url = new URL(link)
  return `${url.pathname}${url.search}`
}

forEachDatabase((database) => {
  describe(`signed media links [${database}]`, () => {
    test('icons link to /media/KEY?expires=NOW+3600&signature=…; a good link serves the file with a bounded cache',
      async (t) => {
        const { inject } = await buildTestApp(t, { database, records: fixtureProjects() })
        const before = Math.floor(Date.now() / 1000)
        const icon = (await inject('/api/v1/commerce/products/1/')).json().sustainable_development_goals[
          0].icon as string
        const url = new URL(icon)
        assert.equal(url.pathname, '/media/sdg/13.svg')
        const expires = Number(url.searchParams.get('expires'))
        assert.ok(expires >= before + 3600 && expires <= Math.floor(Date.now() / 1000) + 3600)
        const response = await inject(pathOf(icon))
        assert.equal(response.statusCode, 200)
        assert.equal(response.headers['content-type'], 'image/svg+xml')
        const maxAge = Number(/max-age=(\d+)/.exec(response.headers['cache-control'] as string)?.[1])
        assert.ok(maxAge > 3500 && maxAge <= 3600, `max-age ${maxAge}`)
        assert.match(response.body, /<svg[^>]*aria-label="Sustainable Development Goal 13: Climate Action"/)
      })

    test('every SDG in a response has its own signed icon link', async (t) => {
      const { inject } = await buildTestApp(t, { database, bundled: true })
      const page = (await inject('/api/v1/commerce/products/?limit=1000')).json()
      const goals = page.results.flatMap((p: {
        sustainable_development_goals: Array<{
          name_id: string,
          icon: string
        }>
      }) => p.sustainable_development_goals)
      assert.ok(goals.length > 100)
      const seen = new Set<string>()
      for (const goal of goals) {
        const number = goal.name_id.split('_')[0]
        assert.match(goal.icon, new RegExp(`/media/sdg/${number}\\.svg\\?expires=\\d+&signature=[0-9a-f]{64}$`))
        if (seen.has(number)) continue
        seen.add(number)
        assert.equal((await inject(pathOf(goal.icon))).statusCode, 200)
      }
    })

    test('MEDIA_LINK_TTL sets the lifetime', async (t) => {
      const { inject } = await buildTestApp(t, { database, records: fixtureProjects(), env: { MEDIA_LINK_TTL: '120' } })
      const icon = new URL((await inject('/api/v1/commerce/products/1/')).json().sustainable_development_goals[0].icon)
      assert.ok(Number(icon.searchParams.get('expires')) <= Math.floor(Date.now() / 1000) + 120)
    })

    test('a tampered link is 403, an expired one 403, an unknown key 404', async (t) => {
      const { inject } = await buildTestApp(t,
        { database, records: fixtureProjects(), env: { MEDIA_SIGNING_SECRET: SECRET } })
      const good = new URL((await inject('/api/v1/commerce/products/1/')).json().sustainable_development_goals[0].icon)
      const expires = good.searchParams.get('expires')!
      const signature = good.searchParams.get('signature')!
      const flip = (s: string) => (s[0] === 'a' ? 'b' : 'a') + s.slice(1)
      const cases: Array<[string, number]> = [
        [`/media/sdg/13.svg?expires=${expires}&signature=${flip(signature)}`, 403],
        [`/media/sdg/13.svg?expires=${Number(expires) + 1}&signature=${signature}`, 403],
        [`/media/sdg/15.svg?expires=${expires}&signature=${signature}`, 403],
        [`/media/sdg/13.svg?expires=${expires}&signature=short`, 403],
        [`/media/sdg/13.svg?expires=${expires}`, 400],
        [pathOf(`http://x${new MediaSigner(SECRET, 3600).sign('sdg/13.svg', Date.now() - 7200_000)}`), 403],
        [pathOf(`http://x${new MediaSigner(SECRET, 3600).sign('images/0123456789abcdef.png')}`), 404],
        [pathOf(`http://x${new MediaSigner(SECRET, 3600).sign('../secrets/media-signing-secret')}`), 404]
      ]
      for (const [url, status] of cases) {
        const response = await inject(url)
        assert.equal(response.statusCode, status, url)
        assert.match(response.headers['content-type'] as string, /^application\/problem\+json/)
      }
      const expired = await inject(cases[5]![0])
      assert.match(expired.json().detail, /expired/)
    })

    test('a link signed by one instance verifies on another that shares the secret', async (t) => {
      const first = await buildTestApp(t,
        { database, records: fixtureProjects(), env: { MEDIA_SIGNING_SECRET: SECRET } })
      const second = await buildTestApp(t,
        { database, records: fixtureProjects(), env: { MEDIA_SIGNING_SECRET: SECRET } })
      const third = await buildTestApp(t, { database, records: fixtureProjects() })
      const icon = pathOf(
        (await first.inject('/api/v1/commerce/products/1/')).json().sustainable_development_goals[0].icon)
      assert.equal((await second.inject(icon)).statusCode, 200)
      assert.equal((await third.inject(icon)).statusCode, 403, 'a generated secret is per data directory')
    })
  })

  describe(`images through import and export [${database}]`, () => {
    test('import copies image files into the store; the API links them; export writes them back; the round trip is ' +
      'exact', async (t) => {
      const dir = tempDir(t)
      mkdirSync(path.join(dir, 'photos'))
      writeFileSync(path.join(dir, 'photos', 'canopy.png'), PNG)
      const records = [
        project(1,
          {
            images: [{ title: 'Canopy', url: 'photos/canopy.png' },
              { title: 'Hosted', url: 'https://example.org/river.jpg' }]
          }),
        project(2, { images: [{ title: 'Same file', url: './photos/canopy.png' }] })
      ]
      writeFileSync(path.join(dir, 'import.json'), JSON.stringify(records))
      const env = { DATA_DIR: path.join(dir, 'data'), MEDIA_SIGNING_SECRET: SECRET, ...await databaseEnv(t, database) }
      const imported = await tonne(['import', path.join(dir, 'import.json')], env)
      assert.equal(imported.code, 0, imported.stderr)
      assert.match(imported.stdout, /Imported 2 projects and 2 image files/)

      const { inject } = await buildTestApp(t, { database, env: { ...env, DATA_DIR: env.DATA_DIR } })
      const images = (await inject('/api/v1/commerce/products/1/')).json().images
      assert.equal(images[0].title, 'Canopy')
      assert.match(images[0].url, /\/media\/images\/[0-9a-f]{32}\.png\?expires=\d+&signature=[0-9a-f]{64}$/)
      assert.equal(images[1].url, 'https://example.org/river.jpg')
      const file = await inject(pathOf(images[0].url))
      assert.equal(file.statusCode, 200)
      assert.equal(file.headers['content-type'], 'image/png')
      assert.deepEqual(file.rawPayload, PNG)

      const out = path.join(dir, 'out')
      mkdirSync(out)
      const exported = await tonne(['export', path.join(out, 'export.json')], env)
      assert.equal(exported.code, 0, exported.stderr)
      const exportedRecords = JSON.parse(readFileSync(path.join(out, 'export.json'), 'utf8'))
      const relative = exportedRecords[0].images[0].url as string
      assert.match(relative, /^media\/images\/[0-9a-f]{32}\.png$/)
      assert.deepEqual(readFileSync(path.join(out, relative)), PNG)

      const again = {
        DATA_DIR: path.join(dir, 'data2'),
        MEDIA_SIGNING_SECRET: SECRET,
        ...await databaseEnv(t, database)
      }
      assert.equal((await tonne(['import', path.join(out, 'export.json')], again)).code, 0)
      const copy = await buildTestApp(t, { database, env: again })
      const copied = (await copy.inject('/api/v1/commerce/products/1/')).json().images
      assert.equal(new URL(copied[0].url).pathname, new URL(images[0].url).pathname)
      assert.deepEqual((await copy.inject(pathOf(copied[0].url))).rawPayload, PNG)
    })

    for (const [url, message] of [['photos/missing.png', /no file at "photos\/missing\.png"/],
      ['notes.txt', /unsupported type/], ['/etc/passwd.png', /relative to the import file/],
      ['ftp://example.org/a.png', /http\(s\) URL/]] as const) {
      test(`an image url of ${url} is refused and nothing is written`, async (t) => {
        const dir = tempDir(t)
        writeFileSync(path.join(dir, 'notes.txt'), 'text')
        writeFileSync(path.join(dir, 'import.json'),
          JSON.stringify([project(1), project(2, { images: [{ title: 'x', url }] })]))
        const result = await tonne(['import', path.join(dir, 'import.json')],
          { DATA_DIR: path.join(dir, 'data'), ...await databaseEnv(t, database) })
        assert.equal(result.code, 1)
        assert.match(result.stderr, /record 1.*images\[0\]\.url/)
        assert.match(result.stderr, message)
      })
    }
  })
})
