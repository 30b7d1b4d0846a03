/**
 * Measures API documentation pages the way the docs UI was chosen (docs/api.md, "Interactive documentation"):
 * axe-core violations at 1440x900 and 390x844, and Lighthouse (mobile and desktop) performance, bytes
 * transferred and unused JavaScript.
 *
 *   node scripts/measure-docs-ui.ts http://127.0.0.1:3000/docs [more URLs...]
 *
 * Chromium: CHROME_PATH, else the project's look-up (scripts/chromium.ts). Lighthouse is not a dependency
 * of the project: the script runs LIGHTHOUSE (a command; default `npx --yes lighthouse@12.8.2`).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { findChromium } from './chromium.ts'

const given = process.env['CHROME_PATH']
const browserFound = given !== undefined && given !== '' ? { executablePath: given, args: [], env: {} } : findChromium()
const chrome = browserFound.executablePath
const lighthouse = (process.env['LIGHTHOUSE'] ?? 'npx --yes lighthouse@12.8.2').split(' ')
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  ...browserFound.args]

interface AxeViolation { id: string, impact: string, nodes: unknown[] }

async function axe (url: string, viewport: { width: number, height: number }): Promise<string> {
  const browser = await chromium.launch({
    executablePath: chrome, args: FLAGS, env: { ...process.env, ...browserFound.env }
  })
  try {
    const page = await browser.newPage({ viewport })
    await page.goto(url, { waitUntil: 'networkidle' })
    await page.evaluate(AXE)
    const violations = await page.evaluate(
      'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations)') as AxeViolation[]
    const count = (impacts: string[]) => violations.filter((v) => impacts.includes(v.impact)).length
    const list = violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join('; ')
    return `${count(['critical'])} critical, ${count(['serious'])} serious, ${count(['moderate', 'minor'])} other` +
      (list === '' ? '' : `: ${list}`)
  } finally {
    await browser.close()
  }
}

function lighthouseRun (url: string, preset: 'mobile' | 'desktop'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tonne-lighthouse-'))
  try {
    const output = path.join(dir, 'report.json')
    execFileSync(lighthouse[0]!, [...lighthouse.slice(1), url, '--quiet', '--output=json', `--output-path=${output}`,
      '--only-categories=performance,accessibility,best-practices', `--chrome-flags=${FLAGS.join(' ')}`,
      ...(preset === 'desktop' ? ['--preset=desktop'] : [])],
    { env: { ...process.env, ...browserFound.env, CHROME_PATH: chrome }, stdio: 'ignore' })
    const report = JSON.parse(readFileSync(output, 'utf8'))
    const score = (category: string) => Math.round(report.categories[category].score * 100)
    const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`
    return `performance ${score('performance')}, accessibility ${score('accessibility')}, best practices ` +
      `${score('best-practices')}, ${kb(report.audits['total-byte-weight'].numericValue)} transferred, ` +
      `${kb(report.audits['unused-javascript'].details?.overallSavingsBytes ?? 0)} unused JS, ` +
      `LCP ${(report.audits['largest-contentful-paint'].numericValue / 1000).toFixed(1)} s`
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

for (const url of process.argv.slice(2)) {
  console.log(`${url}`)
  console.log(`  axe 1440x900: ${await axe(url, { width: 1440, height: 900 })}`)
  console.log(`  axe 390x844:  ${await axe(url, { width: 390, height: 844 })}`)
  console.log(`  Lighthouse mobile:  ${lighthouseRun(url, 'mobile')}`)
  console.log(`  Lighthouse desktop: ${lighthouseRun(url, 'desktop')}`)
}
