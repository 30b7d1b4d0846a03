import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { test } from 'node:test'
import { MediaStore } from '../../src/media/media-store.ts'
import { MediaSigner } from '../../src/media/signing.ts'
import { tonne } from '../cli.helpers.ts'
import { launchBrowser } from '../explorer/browser.ts'
import { project } from '../fixtures/projects.ts'
import { tempDir } from '../helpers.ts'
import { png } from '../support/images.ts'
import { startService } from '../support/service.ts'

const SECRET = 'media-browser-secret-media-browser-0123'

/** A project as a client on the network gets it: its links name the server's real origin. */
async function fetchProject (baseUrl: string, key: string, id: number) {
  const headers = { authorization: `Bearer ${key}` }
  const response = await fetch(`${baseUrl}/api/v1/commerce/products/${id}/`, { headers })
  assert.equal(response.status, 200)
  return await response.json() as {
    images: Array<{ url: string }>, sustainable_development_goals: Array<{ icon: string }>
  }
}

// A drawing that tries what the outside test did: read the explorer's stored API key and show it.
const HOSTILE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" ' +
  'onload="alert(\'onload \' + sessionStorage.getItem(\'tonne.apiKey\'))">' +
  '<rect width="10" height="10" fill="#080"/>' +
  '<script>alert(\'script \' + sessionStorage.getItem(\'tonne.apiKey\'))</script></svg>'

test('an SVG with script, opened through its signed link, runs nothing, so cannot read the key', async (t) => {
  const dir = tempDir(t)
  writeFileSync(path.join(dir, 'logo.svg'), HOSTILE_SVG)
  const records = [project(1, { images: [{ title: 'Logo', url: 'logo.svg' }] })]
  writeFileSync(path.join(dir, 'import.json'), JSON.stringify(records))
  const env = { DATA_DIR: path.join(dir, 'data'), MEDIA_SIGNING_SECRET: SECRET }
  // The import sanitises it; a file an older version stored unsanitised is planted directly, to test the policy alone.
  const imported = await tonne(['import', path.join(dir, 'import.json')], env)
  assert.equal(imported.code, 0, imported.stderr)
  const { baseUrl, key } = await startService(t, { env })
  new MediaStore(path.join(env.DATA_DIR, 'media')).put('images/planted-by-an-older-version.svg', HOSTILE_SVG)
  const links = [
    (await fetchProject(baseUrl, key, 1)).images[0]!.url,
    `${baseUrl}${new MediaSigner(SECRET, 3600).sign('images/planted-by-an-older-version.svg')}`
  ]

  const browser = await launchBrowser(t)
  const page = await browser.newPage()
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    dialog.dismiss().catch(() => undefined)
  })
  // The explorer keeps the key in this tab's sessionStorage, on the service's origin.
  await page.goto(`${baseUrl}/`)
  await page.getByLabel('API key', { exact: true }).fill(key)
  await page.getByRole('button', { name: 'Use this key' }).click()
  await page.locator('#key-status').filter({ hasText: /API key set/ }).waitFor()

  for (const link of links) {
    const response = await page.goto(link, { waitUntil: 'load' })
    assert.equal(response?.status(), 200, link)
    assert.equal(response?.headers()['content-type'], 'image/svg+xml')
    // Parsing and the load event are over: an inline script or onload handler would have run by now.
    assert.equal(await page.locator('rect').count(), 1, 'the drawing is shown')
  }
  assert.deepEqual(dialogs, [], 'no script ran')
})

test('a page on another origin shows a signed image in an <img>', async (t) => {
  const dir = tempDir(t)
  mkdirSync(path.join(dir, 'photos'))
  writeFileSync(path.join(dir, 'photos', 'forest.png'), png(4, 3))
  writeFileSync(path.join(dir, 'import.json'), JSON.stringify([project(1, {
    images: [{ title: 'Forest', url: 'photos/forest.png' }],
    sustainable_development_goals: [{ name_id: '13_CLIMATE_ACTION', verbose_name: 'Climate Action' }]
  })]))
  const env = { DATA_DIR: path.join(dir, 'data') }
  assert.equal((await tonne(['import', path.join(dir, 'import.json')], env)).code, 0)
  const { baseUrl, key } = await startService(t, { env })
  const detail = await fetchProject(baseUrl, key, 1)
  const photo = detail.images[0]!.url
  const icon = detail.sustainable_development_goals[0]!.icon

  // The partner's page: another port is another origin.
  const partner = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8')
    response.end(`<!doctype html><title>Partner</title><img id="photo" alt="Forest" src="${photo}">` +
      (icon === undefined ? '' : `<img id="icon" alt="Goal" src="${icon}">`))
  })
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve))
  t.after(() => { partner.close() })
  const partnerUrl = `http://localhost:${(partner.address() as AddressInfo).port}/`
  assert.notEqual(new URL(partnerUrl).origin, new URL(photo).origin)

  const browser = await launchBrowser(t)
  const page = await browser.newPage()
  await page.goto(partnerUrl)
  await page.waitForFunction('[...document.images].every((image) => image.complete)')
  const size = await page.evaluate('["naturalWidth", "naturalHeight"].map((p) => document.getElementById("photo")[p])')
  assert.deepEqual(size, [4, 3])
  assert.equal(await page.evaluate('document.getElementById("icon").naturalWidth'), 100)
})
