import assert from 'node:assert/strict'
import { chmodSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { chromium } from 'playwright-core'
import { findChromium } from '../../scripts/chromium.ts'
import { tempDir } from '../helpers.ts'

// Which Chromium the browser tests and `npm run lighthouse` take (issue 20): TONNE_TEST_CHROMIUM, then `chromium`
// on the PATH, then the one inside the npm package, so a machine with no browser still runs every browser test.

test('TONNE_TEST_CHROMIUM comes first, then chromium on the PATH, then the npm package\'s', async (t) => {
  const dir = tempDir(t)
  const fake = path.join(dir, 'chromium')
  writeFileSync(fake, '#!/bin/sh\n')
  chmodSync(fake, 0o755)
  const onPath = findChromium({ PATH: `${path.join(dir, 'none')}${path.delimiter}${dir}` })
  assert.deepEqual([onPath.executablePath, onPath.source], [fake, 'the PATH'])
  const given = findChromium({ TONNE_TEST_CHROMIUM: fake, PATH: '' })
  assert.deepEqual([given.executablePath, given.source], [fake, 'TONNE_TEST_CHROMIUM'])
  assert.throws(() => findChromium({ TONNE_TEST_CHROMIUM: path.join(dir, 'missing'), PATH: dir }),
    /TONNE_TEST_CHROMIUM=.*missing is not an executable file/)

  // No browser anywhere: the npm one, which really starts and renders a page.
  const shipped = findChromium({ PATH: path.join(dir, 'none') })
  assert.match(shipped.source, /^@sparticuz\/chromium \d+/)
  const browser = await chromium.launch({
    executablePath: shipped.executablePath,
    args: ['--no-sandbox', ...shipped.args],
    env: { ...process.env, ...shipped.env }
  })
  t.after(async () => { await browser.close() })
  const page = await browser.newPage()
  await page.setContent('<p>Tonne</p>')
  assert.equal(await page.textContent('p'), 'Tonne')
})
