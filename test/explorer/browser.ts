import { accessSync, constants, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { TestContext } from 'node:test'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { REPO_ROOT, tempDir } from '../helpers.ts'

// The browser tests' settings, the way test/databases.ts holds the database suites':
//   TONNE_TEST_CHROMIUM  the Chromium executable (default: `chromium` on the PATH, Debian's package)
const env = process.env

/** Where the test run saves its screenshots (git-ignored). */
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-output', 'screenshots')

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync']

export function chromiumPath (): string {
  const given = env['TONNE_TEST_CHROMIUM']
  const candidates = given !== undefined && given !== ''
    ? [given]
    : (env['PATH'] ?? '').split(path.delimiter).filter((dir) => dir !== '').map((dir) => path.join(dir, 'chromium'))
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not here: try the next folder.
    }
  }
  throw new Error('The explorer tests need headless Chromium, and none was found ' +
    `(${given === undefined ? 'no `chromium` on the PATH' : `TONNE_TEST_CHROMIUM=${given} is not executable`}). ` +
    'Install Debian\'s package (`apt-get install -y --no-install-recommends chromium`, as .ci/run does) or set TONNE_TEST_CHROMIUM.')
}

export interface Browser {
  context: BrowserContext
  /** Uncaught page errors and Content-Security-Policy violations seen so far: a test expects none. */
  problems: string[]
  newPage: (viewport?: { width: number, height: number }) => Promise<Page>
}

/** Headless Chromium with a fresh profile, closed after the test. */
export async function launchBrowser (t: TestContext): Promise<Browser> {
  const context = await chromium.launchPersistentContext(tempDir(t, 'tonne-chromium-'), {
    executablePath: chromiumPath(),
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 }
  })
  t.after(async () => { await context.close() })
  const problems: string[] = []
  const newPage = async (viewport?: { width: number, height: number }) => {
    const page = await context.newPage()
    if (viewport !== undefined) await page.setViewportSize(viewport)
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text())
    })
    return page
  }
  return { context, problems, newPage }
}

/** The value of a JavaScript expression in the page (as text: the DOM is not in this project's TypeScript libraries). */
export async function inPage (page: Page, expression: string): Promise<unknown> {
  return await page.evaluate(expression)
}

export async function screenshot (page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage })
}

// Runs inside the page (plain JavaScript: the DOM is not in this project's TypeScript libraries).
const ACCESSIBILITY_CHECK = readFileSync(path.join(import.meta.dirname, 'accessibility-check.js'), 'utf8')

/** Problems a person would meet: controls without labels, images without alt text, low text contrast (WCAG AA). */
export async function accessibilityProblems (page: Page): Promise<string[]> {
  return await page.evaluate(ACCESSIBILITY_CHECK) as string[]
}
