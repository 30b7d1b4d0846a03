// Lighthouse scores of the explorer: its first view, a catalogue view, a project page, the ledger and a calculator
// result, on a phone (Lighthouse's default mobile emulation and simulated throttling) and on a desktop. Writes
// docs/lighthouse.md and exits 1 when a score is under 95 (issue 15's bar).
//
//   npm run lighthouse
// (its Chromium: TONNE_TEST_CHROMIUM, else `chromium` on the PATH, else the npm one; scripts/chromium.ts)
//
// It starts the real service (`tonne serve`) on a free port over a fresh database with the bundled catalogue,
// keeps the first API key the service prints in the browser's storage ("remember this key on this device"), and
// runs Lighthouse through the DevTools port of a Chromium that Playwright launched.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import lighthouse from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import { chromium } from 'playwright-core'
import { findChromium } from './chromium.ts'
import { freePort } from './free-port.ts'

const ROOT = path.join(import.meta.dirname, '..')
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const BAR = 95
const VIEWS = [
  { name: 'First view', hash: '' },
  { name: 'Catalogue', hash: '#/projects' },
  // A bundled project with coordinates, SDG icons and a ledger (Cercarbono CDC-29, 114 transactions): the page
  // whose map, icons and credit charts arrive last (issue 25, item 11; issue 21).
  { name: 'Project page', hash: '#/projects/637' },
  // The whole ledger's retirements: the totals, a page of 20 with their projects (issue 36, item 2).
  { name: 'Ledger', hash: '#/ledger?type=retirement' },
  { name: 'Calculator result', hash: '#/calculator?country_code=DEU&frequency=rare&distance=8000&home_size=70' }
]

async function startService (dataDir: string) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'tonne.js'), 'serve'], {
    env: { PATH: process.env['PATH'] ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  let key: string | undefined
  let url: string | undefined
  for await (const line of createInterface({ input: child.stdout })) {
    key ??= /^\s+(tonne_\S+)$/.exec(line)?.[1]
    url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1]
    if (url !== undefined) break
  }
  if (key === undefined || url === undefined) throw new Error('The service did not start (no key or address).')
  return { child, key, url }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'tonne-lighthouse-'))
const service = await startService(path.join(dataDir, 'var'))
const rows: string[] = []
let failed = false
let browser: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined
try {
  const debuggingPort = await freePort()
  const browserToUse = findChromium()
  browser = await chromium.launchPersistentContext(path.join(dataDir, 'profile'), {
    executablePath: browserToUse.executablePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${debuggingPort}`,
      ...browserToUse.args],
    env: { ...process.env, ...browserToUse.env }
  })
  const page = await browser.newPage()
  await page.goto(`${service.url}/`)
  await page.evaluate(`localStorage.setItem('tonne.apiKey', ${JSON.stringify(service.key)})`)
  const version = browser.browser()?.version() ?? (await page.evaluate('navigator.userAgent') as string)
  for (const [formFactor, config] of [['phone', undefined], ['desktop', desktopConfig]] as const) {
    for (const view of VIEWS) {
      const url = `${service.url}/${view.hash}`
      let result: Awaited<ReturnType<typeof lighthouse>>
      // Lighthouse itself sometimes fails to record a trace (NO_NAVSTART); such a run has no scores to report.
      for (let attempt = 1; attempt <= 3; attempt++) {
        result = await lighthouse(url, {
          port: debuggingPort,
          output: 'json',
          logLevel: 'error',
          onlyCategories: CATEGORIES,
          // The remembered key must survive: Lighthouse clears the origin's storage unless told not to.
          disableStorageReset: true
        }, config)
        if (result?.lhr.runtimeError === undefined) break
        console.log(`${view.name} (${formFactor}): ${result.lhr.runtimeError.code}, running it again`)
      }
      if (result === undefined) throw new Error(`Lighthouse returned nothing for ${url}`)
      const scores = CATEGORIES.map((id) => Math.round((result.lhr.categories[id]?.score ?? 0) * 100))
      if (scores.some((score) => score < BAR)) failed = true
      rows.push(`| ${view.name} | ${formFactor} | ${scores.join(' | ')} |`)
      console.log(`${view.name} (${formFactor}): ${CATEGORIES.map((id, i) => `${id} ${scores[i]}`).join(', ')}`)
      const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time',
        'cumulative-layout-shift']
      console.log(`  ${metrics.map((id) => `${id} ${result.lhr.audits[id]?.displayValue ?? '?'}`).join(', ')}`)
      if (scores.some((score) => score < BAR)) {
        if (result.lhr.runtimeError !== undefined) console.log(`  ${result.lhr.runtimeError.message}`)
        for (const warning of result.lhr.runWarnings) console.log(`  ${warning}`)
        for (const audit of Object.values(result.lhr.audits)) {
          if (audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative') {
            console.log(`  ${audit.id}: ${audit.score} ${audit.displayValue ?? ''}`)
          }
        }
      }
    }
  }
  const lighthouseVersion = (await import('lighthouse/package.json', { with: { type: 'json' } })).default.version
  writeFileSync(path.join(ROOT, 'docs', 'lighthouse.md'), `# Lighthouse scores of the explorer

Written by \`npm run lighthouse\` ([scripts/lighthouse.ts](../scripts/lighthouse.ts)): Lighthouse ${lighthouseVersion}
from npm, in Chromium ${version} (headless), against \`tonne serve\` on a fresh database with the bundled catalogue.
"phone" is Lighthouse's default mobile emulation with simulated slow 4G and a 4x slower CPU; "desktop" its
desktop preset. The catalogue view uses the first API key, kept as "remember this key on this device" would.
The bar (issue 15) is 95 in every category. Performance depends on the machine's load (the CPU slowdown is
applied to what was measured): on a busy machine, run it again before reading much into a few points.

| View | Screen | Performance | Accessibility | Best practices | SEO |
|---|---|---|---|---|---|
${rows.join('\n')}
`)
} finally {
  await browser?.close()
  service.child.kill('SIGTERM')
  rmSync(dataDir, { recursive: true, force: true })
}
process.exitCode = failed ? 1 : 0
