import { expect, SITE_ROUTES, test } from './fixtures'

// What a visitor on a phone sees while a page loads: the budget's "CLS 0" and "fonts with no
// layout shift" held on a slow network too, not only on this fast loopback.

for (const path of SITE_ROUTES) {
  test(`${path}: nothing shifts when the web font arrives after the first paint`, async ({ page }) => {
    // A slow network: the font lands well after the text has been painted.
    let fontServed = false
    await page.route('**/*.woff2', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await route.continue()
      fontServed = true
    })
    await page.goto(path)
    await expect.poll(() => fontServed, { timeout: 10_000 }).toBe(true)
    // Give the browser frames to apply the font, if it were going to swap it in.
    await page.waitForTimeout(500)
    const shift = await page.evaluate(
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
    expect(shift).toBe(0)
  })
}
