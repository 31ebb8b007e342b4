import type { Browser, Page } from '@playwright/test'

/**
 * One tab per worker and purpose, taken from test to test, for specs that only load pages and read
 * them: a new tab starts a renderer process, most of such a test's time on two cores. Between
 * tests the tab forgets what the last one left: its routes, the site's storage and cookies, and the
 * document itself (about:blank, so the next address loads afresh even where only its #token is the
 * same). What `prepare` sets up (init scripts, the browser's text size) stays with the tab.
 *
 * The context is created inside the test, so it takes the test's options (its project's device,
 * `test.use`): a `key` names one set of them.
 */
const tabs = new Map<string, Page>()

export async function inReusedTab(browser: Browser, key: string, prepare: (page: Page) => Promise<void>, check: (page: Page) => Promise<void>) {
  let page = tabs.get(key)
  let opened = false
  if (!page || page.isClosed()) {
    page = await (await browser.newContext()).newPage()
    tabs.set(key, page)
    opened = true
  }
  try {
    // Inside the try: a tab whose preparation failed is closed like any other, not kept half-made.
    if (opened) await prepare(page)
    await check(page)
    await page.unrouteAll({ behavior: 'ignoreErrors' })
    await page.evaluate(() => {
      localStorage.clear()
      sessionStorage.clear()
    })
    await page.context().clearCookies()
    await page.goto('about:blank')
  } catch (error) {
    // A failed test may leave anything behind: the next one gets a new tab.
    await page.context().close()
    throw error
  }
}
