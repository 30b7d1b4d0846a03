import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test, type TestContext } from 'node:test'
import { DOMParser } from '@xmldom/xmldom'
import { tonne } from '../cli.helpers.ts'
import { databaseEnv, forEachDatabase, type TestDatabase } from '../databases.ts'
import { project } from '../fixtures/projects.ts'
import { buildTestApp, tempDir } from '../helpers.ts'
import { GIF, JPEG, png, SAFE_SVG, WEBP } from '../support/images.ts'

// An import file is trusted as data, never as a path to the server's files (SECURITY.md).

/**
 * A folder holding an import file (in `import/`), a file beside that folder (`outside.png`, a real PNG)
 * and a data directory whose generated signing secret exists, as on a server that has run.
 */
async function workspace (t: TestContext, database: TestDatabase) {
  const root = tempDir(t)
  const importDir = path.join(root, 'import')
  mkdirSync(importDir)
  writeFileSync(path.join(root, 'outside.png'), png())
  const dataDir = path.join(root, 'data')
  mkdirSync(path.join(dataDir, 'secrets'), { recursive: true })
  const secretFile = path.join(dataDir, 'secrets', 'media-signing-secret')
  writeFileSync(secretFile, 'a-generated-secret-a-generated-secret-0123\n')
  const env = { DATA_DIR: dataDir, ...await databaseEnv(t, database) }
  const put = (name: string, content: Buffer | string) => {
    mkdirSync(path.dirname(path.join(importDir, name)), { recursive: true })
    writeFileSync(path.join(importDir, name), content)
  }
  const importImages = async (urls: string[]) => {
    const file = path.join(importDir, 'import.json')
    const images = urls.map((url, i) => ({ title: `image ${i}`, url }))
    writeFileSync(file, JSON.stringify([project(1), project(2, { images })]))
    return await tonne(['import', file], env)
  }
  /** Nothing reached the database or the media store. */
  const assertNothingImported = async () => {
    const exported = await tonne(['export'], env)
    assert.equal(exported.code, 0, exported.stderr)
    assert.deepEqual(JSON.parse(exported.stdout), [])
    const images = path.join(dataDir, 'media', 'images')
    assert.deepEqual(existsSync(images) ? readdirSync(images) : [], [], 'no image file was copied')
  }
  return { root, importDir, dataDir, secretFile, env, put, importImages, assertNothingImported }
}

forEachDatabase((database) => {
  describe(`import: image paths stay inside the import file's folder [${database}]`, () => {
    test('a path that climbs out of the folder is refused, naming the record, the field and the path', async (t) => {
      const ws = await workspace(t, database)
      const result = await ws.importImages(['../outside.png'])
      assert.equal(result.code, 1, result.stdout)
      assert.match(result.stderr,
        /record 1, field "images\[0\]\.url": .*"\.\.\/outside\.png".*outside the import file's folder/)
      await ws.assertNothingImported()
    })

    test('a deep ../../ path to a system file is refused', async (t) => {
      const ws = await workspace(t, database)
      // As many ../ as it takes to reach / from the import folder, then a file every Linux machine has.
      const climb = '../'.repeat(ws.importDir.split(path.sep).length + 2)
      const result = await ws.importImages([`${climb}etc/../${path.relative('/', path.join(ws.root, 'outside.png'))}`])
      assert.equal(result.code, 1, result.stdout)
      assert.match(result.stderr, /record 1, field "images\[0\]\.url".*outside the import file's folder/)
      await ws.assertNothingImported()
    })

    test('symbolic links are never followed: to /etc/passwd, the signing secret, inside the folder', async (t) => {
      const ws = await workspace(t, database)
      ws.put('real.png', png())
      const links: Array<[string, string]> = [
        ['evil.png', '/etc/passwd'],
        ['secret.svg', ws.secretFile],
        ['alias.png', path.join(ws.importDir, 'real.png')],
        ['relative.png', '../outside.png']
      ]
      for (const [name, target] of links) {
        symlinkSync(target, path.join(ws.importDir, name))
        const result = await ws.importImages([name])
        assert.equal(result.code, 1, `${name}: ${result.stdout}`)
        const named = `record 1, field "images\\[0\\]\\.url": .*"${name.replace('.', '\\.')}"`
        assert.match(result.stderr, new RegExp(`${named}.*symbolic link`))
      }
      await ws.assertNothingImported()
    })

    test('a folder that is a symbolic link (inside or out) is refused', async (t) => {
      const ws = await workspace(t, database)
      symlinkSync(ws.root, path.join(ws.importDir, 'up'))
      mkdirSync(path.join(ws.importDir, 'photos'))
      ws.put('photos/a.png', png())
      symlinkSync(path.join(ws.importDir, 'photos'), path.join(ws.importDir, 'pictures'))
      for (const url of ['up/outside.png', 'pictures/a.png']) {
        const result = await ws.importImages([url])
        assert.equal(result.code, 1, result.stdout)
        const refused = /record 1, field "images\[0\]\.url".*(symbolic link|outside the import file's folder)/
        assert.match(result.stderr, refused, url)
      }
      await ws.assertNothingImported()
    })

    test('a file whose bytes are not an image of the type its name says is refused', async (t) => {
      const ws = await workspace(t, database)
      const cases: Array<[string, Buffer | string, RegExp]> = [
        ['notes.png', 'hello, this is text', /not a PNG image/],
        ['photo.jpg', png(), /not a JPEG image/],
        ['anim.gif', JPEG, /not a GIF image/],
        ['still.webp', GIF, /not a WebP image/],
        ['shape.avif', png(), /not an AVIF image/],
        ['empty.png', Buffer.alloc(0), /not a PNG image/],
        ['drawing.svg', 'not xml at all <', /not well-formed XML|not an SVG image/],
        ['page.svg', '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>', /not an SVG image/]
      ]
      for (const [name, content, message] of cases) {
        ws.put(name, content)
        const result = await ws.importImages([name])
        assert.equal(result.code, 1, `${name}: ${result.stdout}`)
        const named = `record 1, field "images\\[0\\]\\.url": .*"${name.replace('.', '\\.')}"`
        assert.match(result.stderr, new RegExp(named), name)
        assert.match(result.stderr, message, name)
      }
      await ws.assertNothingImported()
    })

    test('real PNG, JPEG, GIF, WebP and SVG files in the folder and below it are imported', async (t) => {
      const ws = await workspace(t, database)
      ws.put('a.png', png(2, 2))
      ws.put('photos/b.JPG', JPEG)
      ws.put('c.gif', GIF)
      ws.put('deeper/still/d.webp', WEBP)
      ws.put('e.svg', SAFE_SVG)
      const urls = ['a.png', 'photos/b.JPG', './c.gif', 'deeper/still/../still/d.webp', 'e.svg']
      const result = await ws.importImages(urls)
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /Imported 2 projects and 5 image files/)
    })
  })

  describe(`import: only http(s) links [${database}]`, () => {
    const refused: Array<[string, object]> = [
      ['url', { url: 'javascript:alert(document.domain)' }],
      ['url', { url: ' JavaScript:alert(1)' }],
      ['url', { url: 'data:text/html,<script>alert(1)</script>' }],
      ['url', { url: 'vbscript:msgbox(1)' }],
      ['url', { url: '//evil.example/path' }],
      ['url', { url: 'https://' }],
      ['url', { url: 'https://exa mple.org/' }],
      ['images[0].url', { images: [{ title: 'x', url: 'javascript:alert(1)//.png' }] }],
      ['images[0].url', { images: [{ title: 'x', url: 'data:image/svg+xml,<svg onload="alert(1)"/>' }] }],
      ['images[0].url', { images: [{ title: 'x', url: 'https://exa\nmple.org/a.png' }] }]
    ]
    test('a url or image url that is not an absolute http(s) URL is refused, naming record and field', async (t) => {
      const ws = await workspace(t, database)
      const file = path.join(ws.importDir, 'import.json')
      for (const [field, fields] of refused) {
        writeFileSync(file, JSON.stringify([project(1), project(2, fields)]))
        const result = await tonne(['import', file], ws.env)
        assert.equal(result.code, 1, `${JSON.stringify(fields)}: ${result.stdout}`)
        const named = `record 1, field "${field.replace(/[[\].]/g, '\\$&')}"`
        assert.match(result.stderr, new RegExp(`${named}: .*http`), JSON.stringify(fields))
      }
      await ws.assertNothingImported()
    })

    test('http and https links are kept as they are', async (t) => {
      const ws = await workspace(t, database)
      const file = path.join(ws.importDir, 'import.json')
      const records = [project(1, {
        url: 'https://registry.example.org/projects/1?tab=docs#top',
        images: [{ title: 'x', url: 'http://cdn.example.org/a.png' }]
      })]
      writeFileSync(file, JSON.stringify(records))
      assert.equal((await tonne(['import', file], ws.env)).code, 0)
      const { inject } = await buildTestApp(t, { database, env: ws.env })
      const body = (await inject('/api/v1/commerce/products/1/')).json()
      assert.equal(body.url, 'https://registry.example.org/projects/1?tab=docs#top')
      assert.equal(body.images[0].url, 'http://cdn.example.org/a.png')
    })
  })

  describe(`import: SVG files are sanitised [${database}]`, () => {
    test('script, handlers, foreignObject, external references, javascript: links go; the drawing stays', async (t) => {
      const ws = await workspace(t, database)
      ws.put('hostile.svg', `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet href="https://evil.example/style.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     viewBox="0 0 100 100" onload="alert(1)">
  <title>Logo</title>
  <script>alert(document.cookie)</script>
  <script xlink:href="https://evil.example/x.js"/>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#0a0"/></linearGradient></defs>
  <circle cx="50" cy="50" r="40" fill="url(#g)" stroke="#000" onclick="alert(2)" onmouseover="alert(3)"/>
  <rect width="10" height="10" style="fill: url(https://evil.example/track.svg#p)"/>
  <rect width="5" height="5" style="fill:#f00"/>
  <a href="javascript:alert(4)"><text x="10" y="90">click</text></a>
  <a xlink:href="javascript:alert(5)"><path d="M0 0L10 10"/></a>
  <foreignObject width="100" height="100">
    <body xmlns="http://www.w3.org/1999/xhtml"><script>alert(6)</script></body>
  </foreignObject>
  <use href="https://evil.example/sprite.svg#icon"/>
  <use xlink:href="#g"/>
  <image href="https://evil.example/pixel.png" width="1" height="1"/>
  <animate attributeName="href" values="javascript:alert(7)"/>
  <set attributeName="onclick" to="alert(8)"/>
  <style>@import url(https://evil.example/x.css); circle { fill: red }</style>
  <iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example/"/>
</svg>`)
      const result = await ws.importImages(['hostile.svg'])
      assert.equal(result.code, 0, result.stderr)
      const { inject } = await buildTestApp(t, { database, env: ws.env })
      const link = new URL((await inject('/api/v1/commerce/products/2/')).json().images[0].url)
      const served = await inject(`${link.pathname}${link.search}`)
      assert.equal(served.statusCode, 200)
      const svg = served.body
      const document = new DOMParser().parseFromString(svg, 'image/svg+xml')
      const elements = [...document.getElementsByTagName('*')]
      const names = elements.map((e) => e.localName ?? '')
      for (const banned of ['script', 'foreignObject', 'iframe', 'body', 'animate', 'set', 'image', 'style']) {
        assert.ok(!names.includes(banned), `no <${banned}> in ${svg}`)
      }
      for (const element of elements) {
        for (const attribute of [...element.attributes]) {
          assert.doesNotMatch(attribute.name, /^on/i, `no event handler: ${attribute.name}`)
          assert.doesNotMatch(attribute.value, /javascript:|evil\.example/i, `no script or link: ${attribute.name}`)
        }
      }
      assert.doesNotMatch(svg, /evil\.example|javascript:|alert/)
      // The drawing itself survives: shapes, the gradient and its internal references, the title and text.
      const drawing = ['svg', 'title', 'circle', 'linearGradient', 'stop', 'text', 'path', 'use']
      assert.deepEqual(names.filter((n) => drawing.includes(n)).sort(),
        ['circle', 'linearGradient', 'path', 'stop', 'svg', 'text', 'title', 'use'])
      assert.match(svg, /fill="url\(#g\)"/)
      assert.match(svg, /style="fill:#f00"/)
      assert.match(svg, /<text x="10" y="90">click<\/text>/)
    })

    test('an SVG with a DOCTYPE (entities) is refused', async (t) => {
      const ws = await workspace(t, database)
      ws.put('entities.svg', '<?xml version="1.0"?>' +
        '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>' +
        '<svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>')
      const result = await ws.importImages(['entities.svg'])
      assert.equal(result.code, 1, result.stdout)
      assert.match(result.stderr, /record 1, field "images\[0\]\.url": .*"entities\.svg".*DOCTYPE/)
      await ws.assertNothingImported()
    })
  })
})
