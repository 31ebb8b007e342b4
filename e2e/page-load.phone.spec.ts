import { expect, NOT_FOUND_ROUTE, SITE_ROUTES, test } from './fixtures'

// What a visitor on a slow phone network sees first. Every request the page makes besides the
// HTML itself is held back for HOLD_MS: the words, styled, must be on screen before any of them
// arrives (no stylesheet, font or script on the critical path), and nothing may shift when they
// land.
const HOLD_MS = 3_000

for (const path of SITE_ROUTES) {
  test(`${path}: the first words paint, styled, from the HTML alone; nothing shifts when the rest arrives`, async ({ page }) => {
    // An unknown address reaches the pages route, whose notFound() Next answers with an empty
    // HTML shell that the client fills in (vercel/next.js#62228, fix pending): the 404's words
    // need the scripts. Expected to fail until that is fixed; it then passes and flags this line.
    test.fail(path === NOT_FOUND_ROUTE, 'vercel/next.js#62228: notFound() is not server-rendered')
    const held: { type: string; url: string }[] = []
    let released = 0
    await page.route('**/*', async (route) => {
      const request = route.request()
      if (request.resourceType() === 'document') return route.continue()
      held.push({ type: request.resourceType(), url: request.url() })
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS))
      released++
      await route.continue().catch(() => {
        // The test may have ended while this request was held.
      })
    })
    await page.goto(path, { waitUntil: 'commit' })

    const first = await page.evaluate(
      () =>
        new Promise<{ fcp: number | null; lcp: number | null; lcpText: string; styled: boolean; headLinks: string[] }>((resolve) => {
          let fcp: number | null = null
          let lcp: number | null = null
          let lcpText = ''
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') fcp = entry.startTime
          }).observe({ type: 'paint', buffered: true })
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { element: Element | null })[]) {
              lcp = entry.startTime
              lcpText = entry.element?.textContent?.trim() ?? ''
            }
          }).observe({ type: 'largest-contentful-paint', buffered: true })
          const settle = () => {
            // Tailwind's preflight sets every heading to the body's weight; ours are bold only
            // when the site's own styles apply.
            const heading = document.querySelector('h1, h2')
            const styled = !!heading && Number(getComputedStyle(heading).fontWeight) >= 600
            const headLinks = [...document.querySelectorAll('link[rel="stylesheet"], link[rel="preload"][as="font"], link[rel="preload"][as="style"]')].map(
              (link) => link.outerHTML,
            )
            resolve({ fcp, lcp, lcpText, styled, headLinks })
          }
          // Long enough for the browser to paint what it has; well inside the hold.
          setTimeout(settle, 1_000)
        }),
    )
    // Still inside the hold: whatever painted, painted from the HTML alone.
    expect(released).toBe(0)
    expect(first.headLinks).toEqual([])
    expect(first.styled).toBe(true)
    expect(first.fcp).not.toBeNull()
    expect(first.lcp).not.toBeNull()
    expect(first.lcp!).toBeLessThan(HOLD_MS)
    expect(first.lcpText.length).toBeGreaterThan(0)
    // What the page asked for before its first paint: its scripts and its icon, nothing that
    // paints text (stylesheets, fonts) and no call to anyone (analytics, database) before consent.
    expect(held.map((request) => request.type).filter((type) => !['script', 'image', 'other'].includes(type))).toEqual([])
    expect(held.filter((request) => /\.(woff2?|ttf|otf|css)(\?|$)/.test(request.url))).toEqual([])

    // Then the held requests land and the page hydrates: nothing moves.
    await expect.poll(() => released, { timeout: HOLD_MS + 10_000 }).toBe(held.length)
    await page.waitForLoadState('load')
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
