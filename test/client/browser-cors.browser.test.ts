import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { build } from 'esbuild'
import { REPO_ROOT } from '../helpers.ts'
import { startService } from '../support/service.ts'
import { launchBrowser } from '../explorer/browser.ts'
import { TonneClient, TonneNetworkError } from '../../client/src/index.ts'

// Issue 25, item 12: the client in a page of another origin, against a service with CORS off (the default).

const ENTRY = `
import { TonneClient, TonneNetworkError } from './client/src/index.ts'
globalThis.callTonne = async (baseUrl) => {
  const tonne = new TonneClient({ baseUrl, retry: { maxAttempts: 1 } })
  try {
    await tonne.calculator.diet({ country_code: 'DEU', diet_form: 'vegan' })
    return { ok: true }
  } catch (error) {
    return { network: error instanceof TonneNetworkError, message: String(error.message) }
  }
}
`

test('from a page of another origin with CORS off, the client names CORS as the likely cause', async (t) => {
  const { baseUrl } = await startService(t)
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: REPO_ROOT, loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent'
  })
  const browser = await launchBrowser(t)
  const page = await browser.newPage()
  // The page's origin is not the service's: the browser applies CORS to every call.
  const app = 'http://app.localhost:9'
  await page.route(`${app}/**`, async (route) => {
    const script = route.request().url().endsWith('.js')
    await route.fulfill(script
      ? { contentType: 'text/javascript', body: bundle.outputFiles[0]!.text }
      : {
          contentType: 'text/html',
          body: '<!doctype html><html lang="en"><title>app</title><script src="app.js">' +
        '</script></html>'
        })
  })
  await page.goto(`${app}/index.html`)
  const outcome = await page.evaluate(`callTonne(${JSON.stringify(baseUrl)})`) as { network: boolean, message: string }
  assert.equal(outcome.network, true)
  assert.match(outcome.message, /CORS/)
  assert.match(outcome.message, new RegExp(`CORS_ORIGINS=${app.replace(/\./g, '\\.')}`))

  // Outside a browser there is no CORS: a refused connection says so, without the hint.
  const node = await new TonneClient({ baseUrl: 'http://127.0.0.1:9', retry: { maxAttempts: 1 } }).calculator
    .diet({ country_code: 'DEU', diet_form: 'vegan' }).catch((error: unknown) => error)
  assert.ok(node instanceof TonneNetworkError)
  assert.doesNotMatch(node.message, /CORS/)

  const readme = readFileSync(path.join(REPO_ROOT, 'client', 'README.md'), 'utf8')
  assert.match(readme, /CORS_ORIGINS/)
})
