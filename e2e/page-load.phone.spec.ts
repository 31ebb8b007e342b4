import { expect, layoutShiftSoFar, SITE_ROUTES, test } from './fixtures'
import { copy } from './seed-copy'

// What a visitor on a slow phone network sees first. Every request the page makes besides the
// HTML itself is held back for HOLD_MS: the words, styled, must be on screen before any of them
// arrives (no stylesheet, font or script on the critical path), and nothing may shift when they
// land.
const HOLD_MS = 3_000

for (const path of SITE_ROUTES) {
  test(`${path}: the first words paint, styled, from the HTML alone; nothing shifts when the rest arrives`, async ({ page }) => {
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
    const shift = await layoutShiftSoFar(page)
    expect(shift).toBe(0)
  })
}

// The consent banner is in the server's HTML (so it paints with the first words, not after the
// scripts); an inline script hides it before paint for a visitor who has chosen. Checked with every
// script held back, so it is the HTML and that inline script deciding, then again after hydration.
const consentBanner = '[data-consent-banner]'
const { consent } = copy.settings
const visitors: { name: string; consent: 'granted' | 'denied' | null; gpc?: boolean; shown: boolean }[] = [
  { name: 'a new visitor sees the question in the first paint', consent: null, shown: true },
  { name: 'a visitor who accepted never sees it flash', consent: 'granted', shown: false },
  { name: 'a visitor who declined never sees it flash', consent: 'denied', shown: false },
  { name: 'a browser sending Global Privacy Control never sees it flash', consent: null, gpc: true, shown: false },
]
for (const visitor of visitors) {
  test.describe(() => {
    test.use({ consent: visitor.consent })
    test(`consent banner before and after the scripts: ${visitor.name}`, async ({ page }) => {
      if (visitor.gpc) await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }))
      let release: () => void = () => {}
      const scriptsHeld = new Promise<void>((resolve) => (release = resolve))
      await page.route('**/*', async (route) => {
        if (route.request().resourceType() !== 'document') await scriptsHeld
        await route.continue().catch(() => {
          // The test may have ended while this request was held.
        })
      })
      await page.goto('/privacy', { waitUntil: 'commit' })
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      const banner = page.locator(consentBanner)
      await expect(banner).toHaveCount(1)
      // Painted from the HTML, before any script ran: visible with its words, or hidden outright.
      expect(await banner.isVisible()).toBe(visitor.shown)
      // Its buttons wait for the scripts, visibly: a press now would be lost, not recorded.
      if (visitor.shown) await expect(banner.getByRole('button', { name: consent.acceptLabel })).toBeDisabled()

      release()
      await page.waitForLoadState('load')
      // Hydrated: the same answer (React removes the hidden banner; the question stays).
      if (visitor.shown) await expect(page.getByRole('region', { name: consent.title }).getByRole('button', { name: consent.acceptLabel })).toBeEnabled()
      else await expect(page.locator(consentBanner)).toHaveCount(0)
    })
  })
}
