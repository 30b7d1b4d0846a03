import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { after, type TestContext } from 'node:test'
import {
  chromium, type Browser as PlaywrightBrowser, type BrowserContext, type Locator, type Page
} from 'playwright-core'
import { findChromium } from '../../scripts/chromium.ts'
import { REPO_ROOT, type TestAppOptions } from '../helpers.ts'
import { startService, type RunningService } from '../support/service.ts'
import { ledgerProjects } from './ledger-fixture.ts'

/** Where the test run saves its screenshots (git-ignored). */
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-output', 'screenshots')
// Screenshots are for a person to look at, never compared, and cost: 28 of them took 4.7 of views.browser's (now
// in every-view.browser) 11.1 s of CPU (2026-11-28, load average 20). So they are taken only when asked for
// (README, "Web explorer").
const SCREENSHOTS = process.env['TONNE_TEST_SCREENSHOTS'] === '1'

// --disable-software-rasterizer: no SwiftShader in a GPU process, which nothing here needs (the pages draw with SVG
// and a 2D canvas, never WebGL). Two browser files took 85-87 s of the machine's CPU with it, 90-102 s without
// (alternated, 2026-11-28; docs/test-suite.md, "Stop 47").
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-software-rasterizer',
  '--disable-component-update', '--disable-sync']

export interface Browser {
  context: BrowserContext
  /** Uncaught page errors and Content-Security-Policy violations seen so far: a test expects none. */
  problems: string[]
  newPage: (viewport?: { width: number, height: number }) => Promise<Page>
}

// One Chromium per test process, shared by its tests and files (the runner puts several browser files in one
// process): starting it cost more CPU than most tests' pages. Each test gets a context of its own, which shares
// no cookies, storage or cache with another test's, and is closed after the test.
let running: Promise<PlaywrightBrowser> | undefined
async function sharedChromium (): Promise<PlaywrightBrowser> {
  running ??= (async () => {
    // TONNE_TEST_CHROMIUM, else `chromium` on the PATH, else the npm package's (scripts/chromium.ts).
    const found = findChromium()
    const browser = await chromium.launch({
      executablePath: found.executablePath,
      headless: true,
      args: [...FLAGS, ...found.args],
      env: { ...process.env, ...found.env }
    })
    // A Chromium that crashed is not the next test's: it starts another.
    browser.on('disconnected', () => { running = undefined })
    return browser
  })().catch((error: unknown) => {
    running = undefined
    throw error
  })
  return await running
}
// At the top level on purpose: it runs once, after the last test of the process (of every file in it).
after(async () => { await (await running?.catch(() => undefined))?.close() })

/** A fresh browser context (its own cookies, storage and cache) in the process's Chromium, closed after the test. */
export async function launchBrowser (t: TestContext): Promise<Browser> {
  const context = await (await sharedChromium()).newContext({ viewport: { width: 1280, height: 900 } })
  t.after(async () => { await context.close() })
  const problems: string[] = []
  const newPage = async (viewport?: { width: number, height: number }) => {
    const page = await context.newPage()
    // Long enough for a loaded machine; a failing wait still ends the test in reasonable time.
    page.setDefaultTimeout(15_000)
    if (viewport !== undefined) await page.setViewportSize(viewport)
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
        problems.push(message.text())
      }
    })
    return page
  }
  return { context, problems, newPage }
}

/** A browser test's start: the service (as `startService` starts it), a fresh browser and one page of `viewport`. */
export async function serviceAndPage (t: TestContext, options: TestAppOptions,
  viewport: { width: number, height: number }): Promise<Opened> {
  const service = await startService(t, options)
  const browser = await launchBrowser(t)
  return { ...service, browser, page: await browser.newPage(viewport) }
}

/** The value of a JavaScript expression in the page (as text: the DOM is not in this project's TS libraries). */
export async function inPage (page: Page, expression: string): Promise<unknown> {
  return await page.evaluate(expression)
}

/** With TONNE_TEST_SCREENSHOTS=1, the page saved as test-output/screenshots/NAME.png. */
export async function screenshot (page: Page, name: string, fullPage = true): Promise<void> {
  if (!SCREENSHOTS) return
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage })
}

/** A screenshot of one part of the page: for a page too tall to capture whole in reasonable time (/docs). */
export async function screenshotOf (part: Locator, name: string): Promise<void> {
  // Capturing it waits for it to be visible: a test that does not capture it still does.
  if (!SCREENSHOTS) return await part.waitFor()
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await part.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) })
}

// Runs inside the page (plain JavaScript: the DOM is not in this project's TypeScript libraries).
const ACCESSIBILITY_CHECK = readFileSync(path.join(import.meta.dirname, 'accessibility-check.js'), 'utf8')

/** Problems a person would meet: controls without labels, images without alt text, low text contrast (WCAG AA). */
export async function accessibilityProblems (page: Page): Promise<string[]> {
  return await page.evaluate(ACCESSIBILITY_CHECK) as string[]
}

/** The two screens every view is checked on: a laptop and a phone. */
export const DESKTOP = { width: 1440, height: 900 }
export const PHONE = { width: 390, height: 844 }

/** What `serviceAndPage` and `openWithKeyRemembered` give: the running service, a browser and its first page. */
type Opened = RunningService & { browser: Browser, page: Page }

/**
 * The service with `records` (ledger-fixture.ts's projects unless given) and a page that has the key already, as
 * "Remember this key on this device" leaves it, opened at `hash`; with `trackShift`, counting its layout shifts.
 */
export async function openWithKeyRemembered (t: TestContext, viewport = DESKTOP, hash = '#/projects/1',
  trackShift = false, records: readonly object[] = ledgerProjects()): Promise<Opened> {
  const opened = await serviceAndPage(t, { records }, viewport)
  await opened.page.addInitScript(`localStorage.setItem('tonne.apiKey', ${JSON.stringify(opened.key)})`)
  if (trackShift) await trackLayoutShift(opened.page)
  await opened.page.goto(`${opened.baseUrl}/${hash}`)
  return opened
}

const require = createRequire(import.meta.url)
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe-core's WCAG 2.2 A/AA and best-practice rules on the page as it is now: each violation as
 * "rule-id: selector". Evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export async function axeViolations (page: Page): Promise<string[]> {
  if (await page.evaluate('typeof window.axe') === 'undefined') await page.evaluate(AXE)
  const result = await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })
    .then((r) => r.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' '))))`)
  return result as string[]
}

// Runs inside the page: controls whose text (options, value or placeholder) is wider than the control.
const CUT_OFF_CHECK = `(() => {
  const context = document.createElement('canvas').getContext('2d')
  const cut = []
  for (const control of document.querySelectorAll('select, input:not([type=checkbox]):not([type=radio])')) {
    if (control.getClientRects().length === 0) continue
    const style = getComputedStyle(control)
    context.font = style.font
    // A fixed vocabulary must fit whole; a list fed by the data (countries, credit types) must fit its choice.
    const texts = control.tagName !== 'SELECT'
      ? [control.value, control.placeholder]
      : control.hasAttribute('data-open-vocabulary')
        ? [control.selectedOptions[0]?.text ?? '']
        : [...control.options].map((option) => option.text)
    // A select's arrow takes about 1.5em of its width.
    const arrow = control.tagName === 'SELECT' ? 1.5 * parseFloat(style.fontSize) : 0
    const room = control.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow
    for (const text of texts) {
      if (context.measureText(text).width > room + 1) cut.push((control.id || control.name) + ': ' + text)
    }
  }
  return cut
})()`

/** Options, values and placeholders that do not fit in their control (the user would see them cut off). */
export async function cutOffTexts (page: Page): Promise<string[]> {
  return await page.evaluate(CUT_OFF_CHECK) as string[]
}

/** Starts counting layout shifts in every page of the browser from its first paint (call before goto). */
export async function trackLayoutShift (page: Page): Promise<void> {
  await page.addInitScript(`window.__layoutShift = { total: 0 }
    window.__layoutShift.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift.total += entry.value
    })
    window.__layoutShift.observer.observe({ type: 'layout-shift', buffered: true })`)
}

/** Cumulative layout shift so far (shifts within 500 ms of an input are not counted, as in the Web Vitals). */
export async function layoutShift (page: Page): Promise<number> {
  return await page.evaluate(`(() => {
    const state = window.__layoutShift
    for (const entry of state.observer.takeRecords()) if (!entry.hadRecentInput) state.total += entry.value
    return state.total
  })()`) as number
}

/** The element's box relative to the viewport, or null when it is not rendered. */
export async function boxOf (page: Page, selector: string): Promise<{ top: number, bottom: number } | null> {
  return await page.evaluate(`(() => {
    const element = document.querySelector(${JSON.stringify(selector)})
    if (element === null) return null
    const box = element.getBoundingClientRect()
    return { top: box.top, bottom: box.bottom }
  })()`) as { top: number, bottom: number } | null
}

/** Opens the explorer at `url` and gives it the key, as a person pastes it. */
export async function openWithKey (page: Page, url: string, key: string): Promise<void> {
  await page.goto(url)
  await page.getByLabel('API key', { exact: true }).fill(key)
  await page.getByRole('button', { name: 'Use this key' }).click()
}

/** Waits until the results summary says `text`. */
export async function showing (page: Page, text: RegExp): Promise<void> {
  await page.locator('#summary').filter({ hasText: text }).waitFor()
}

// Waits on the page's own events, evaluated through DevTools: `waitForFunction` with a string evaluates it inside
// the page, which the explorer's CSP (no 'unsafe-eval') refuses once the first check fails.

/** Resolves once every image matching `selector` has loaded or failed. */
export async function imagesSettled (page: Page, selector: string): Promise<void> {
  await page.evaluate(`Promise.all([...document.querySelectorAll(${JSON.stringify(selector)})].map((image) =>
    image.complete ? undefined : new Promise((resolve) => {
      image.addEventListener('load', resolve, { once: true })
      image.addEventListener('error', resolve, { once: true })
    })))`)
}

/** Resolves once the page is scrolled to within 2 px of `y` (now, or at a later scroll event). */
export async function scrolledTo (page: Page, y: number): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    const there = () => Math.abs(scrollY - ${y}) <= 2
    if (there()) return resolve(true)
    addEventListener('scroll', () => { if (there()) resolve(true) })
  })`)
}
