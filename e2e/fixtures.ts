import { test as base, expect, type BrowserContext } from '@playwright/test'
import { MIN_FILL_MS } from '../components/waitlist/bot-filter'

type Fixtures = {
  consoleErrors: string[]
  /** The analytics choice already made when a test starts; null = the visitor has not chosen. */
  consent: 'granted' | 'denied' | null
}

export const test = base.extend<Fixtures>({
  consent: ['denied', { option: true }],
  context: async ({ context, consent }, use) => {
    // Every test is the same network to the waitlist (127.0.0.1: the double counts the socket, not
    // headers a client writes); the suite's database lifts the per-network limits (e2e/seed/confirmation.sql).
    await chooseConsent(context, consent)
    await use(context)
  },
  // Collects what the page throws or logs as an error, for tests that assert there is none.
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await use(errors)
  },
})

export { expect }

/** Makes the analytics choice in `context` before any of its pages runs (none: the visitor has not chosen). */
export async function chooseConsent(context: BrowserContext, consent: Fixtures['consent']) {
  if (!consent) return
  await context.addInitScript((choice) => {
    if (!window.localStorage.getItem('consent:analytics')) window.localStorage.setItem('consent:analytics', choice)
  }, consent)
}

/** An address no page or redirect has: the CMS 404. */
export const NOT_FOUND_ROUTE = '/no-such-page'

/** Every page of the site, the 404 included: the routes each page-level check walks. */
export const SITE_ROUTES = [
  '/',
  '/about',
  '/waitlist',
  '/waitlist/leaderboard',
  '/privacy',
  '/careers',
  '/blog',
  '/blog/slack-threads-and-webhooks',
  '/changelog',
  NOT_FOUND_ROUTE,
  '/de',
  '/de/about',
  '/de/waitlist',
] as const

/** Waits as a person reading the page would (the form itself holds a faster submit until MIN_FILL_MS). */
export async function waitLikeAPerson(page: import('@playwright/test').Page) {
  await page.waitForFunction((ms) => performance.now() > ms, MIN_FILL_MS + 1000)
}

/** The page's cumulative layout shift so far, shifts right after input excluded (0 when none). */
export function layoutShiftSoFar(page: import('@playwright/test').Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]
          resolve(entries.filter((entry) => !entry.hadRecentInput).reduce((sum, entry) => sum + entry.value, 0))
        }).observe({ type: 'layout-shift', buffered: true })
        // No entry at all: the observer never calls back.
        setTimeout(() => resolve(0), 250)
      }),
  )
}
