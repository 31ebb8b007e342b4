import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { decodeBatch, type CapturedEvent } from './analytics-capture'
import { CHROMIUM_ARGS } from '../tools/local/chromium'

/**
 * A Chromium that prerenders. Chromium refuses to prerender for a page a DevTools client drives
 * through a page session rather than a tab session ("PrerenderingDisabledByDevTools"): Playwright
 * 1.65 drives pages that way, Puppeteer through the tab, so the prerendering specs drive the same
 * Chromium with Puppeteer, and Playwright only starts the servers. The same flags as
 * playwright.config.ts (CHROMIUM_ARGS); /ingest answered here, as e2e/analytics-capture.ts does for Playwright.
 */
export async function prerenderingBrowser(consent: 'granted' | 'denied' | null): Promise<{
  browser: Browser
  page: Page
  events: CapturedEvent[]
  /** How many requests reached /ingest so far. */
  ingestRequests: () => number
  views: () => unknown[]
}> {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  })
  const page = await browser.newPage()
  // Tall enough that the consent banner (fixed to the bottom) covers no call to action.
  await page.setViewport({ width: 1280, height: 1000 })
  if (consent) {
    await page.evaluateOnNewDocument((choice) => {
      if (!window.localStorage.getItem('consent:analytics')) window.localStorage.setItem('consent:analytics', choice)
    }, consent)
  }
  const events: CapturedEvent[] = []
  let ingest = 0
  await page.setRequestInterception(true)
  page.on('request', async (request) => {
    if (!new URL(request.url()).pathname.startsWith('/ingest/')) return void request.continue()
    ingest += 1
    // The bytes as sent (PostHog gzips its batches): postData() would decode them as text.
    const body = request.method() === 'POST' ? await request.content() : undefined
    if (body) events.push(...decodeBatch(request.url(), Buffer.from(body)))
    await request.respond({ status: 200, contentType: 'application/json', body: '{"status":1}' })
  })
  return {
    browser,
    page,
    events,
    ingestRequests: () => ingest,
    views: () => events.filter((e) => e.event === 'page_view').map((e) => e.properties.page),
  }
}

/** `activationStart` of the page shown: above 0 only for a page that was prerendered. */
export function activationStart(page: Page): Promise<number> {
  return page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming & { activationStart: number }).activationStart)
}

/** When each request to /ingest started, as the page shown records it (prerendered or not). */
export function ingestStarts(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.startsWith('/ingest/'))
      .map((entry) => entry.startTime),
  )
}
