import type { HTTPRequest, Page } from 'puppeteer-core'

// Quiet long enough to call the prerender done: with nothing open, or with one request open that
// never ends (a dev server's hot-reload stream) for longer.
const SETTLE_MS = 300
const SETTLE_OPEN_MS = 1500

/** A request Chromium makes for a page not shown yet: the prerender's document and everything it loads. */
const speculative = (request: HTTPRequest) => /prerender/i.test(request.headers()['sec-purpose'] ?? '')

/**
 * Resolves once Chromium has prerendered a page for this one: it asked for something with
 * `Sec-Purpose: prefetch;prerender`, and the prerender's requests have gone quiet. (With request
 * interception on, Puppeteer reports the prerender's subresources but not its document, so the
 * page's address is not checked here: the caller checks `activationStart` after the click.) What
 * the prerendering spec and the navigation bench wait for between the hover and the click, where a
 * fixed pause is too short on a loaded machine or a throttled network and too long on a quiet one.
 * Rejects after `timeoutMs`. Call it before the hover: it listens from then on.
 */
export function prerendered(page: Page, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0
    let open = 0
    let settle: NodeJS.Timeout | undefined
    const stop = () => {
      clearTimeout(settle)
      clearTimeout(deadline)
      page.off('request', onRequest).off('requestfinished', onEnd).off('requestfailed', onEnd)
    }
    const deadline = setTimeout(() => {
      stop()
      reject(new Error(`Nothing was prerendered within ${timeoutMs} ms (prerender requests: ${seen}, open: ${open})`))
    }, timeoutMs)
    const check = () => {
      clearTimeout(settle)
      settle = setTimeout(
        () => {
          stop()
          resolve()
        },
        open === 0 ? SETTLE_MS : SETTLE_OPEN_MS,
      )
    }
    function onRequest(request: HTTPRequest) {
      if (!speculative(request)) return
      seen += 1
      open += 1
      check()
    }
    function onEnd(request: HTTPRequest) {
      if (!speculative(request)) return
      open -= 1
      check()
    }
    page.on('request', onRequest).on('requestfinished', onEnd).on('requestfailed', onEnd)
  })
}

/** Polls `read` every 100 ms until `accept` holds (10 s unless told), as Playwright's expect.poll does. */
export async function until<T>(read: () => T | Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (accept(value)) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: last ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Clicks `selector` and waits for the page at `path`. Polled rather than awaited through
 * Puppeteer's waitForFunction: activating a prerendered page swaps the tab's page, and a wait
 * running in the old one fails with "Target closed".
 */
export async function clickTo(page: Page, selector: string, path: string, timeoutMs = 10_000): Promise<void> {
  await page.click(selector)
  await until(
    () => page.evaluate(() => location.pathname).catch(() => ''),
    (now) => now === path,
    `the address ${path}`,
    timeoutMs,
  )
}
