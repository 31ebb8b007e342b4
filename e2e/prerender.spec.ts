import type { Page as PuppeteerPage } from 'puppeteer-core'
import { expect, test } from './fixtures'
import { activationStart, ingestStarts, prerenderingBrowser } from './prerender-browser'
import { clickTo, prerendered, until } from '../tools/local/prerender-watch'

// The page a visitor is about to open, prerendered by Chromium's speculation rules
// (components/site/speculation-rules.tsx), and what it holds back until it is shown
// (lib/prerender.ts): no event, no cookie, the consent banner as the visitor left it. Chromium is
// driven by Puppeteer here (e2e/prerender-browser.ts says why).

// The hero's "Start Free Trial": the first call to action in the page's content.
const HERO_CTA = 'main a[data-prerender][href="/waitlist"]'
// Chromium starts after a hover of 200 ms (`moderate`); the click waits for the prerender to settle.
async function hoverAndWait(page: PuppeteerPage, selector: string) {
  const settled = prerendered(page)
  await page.hover(selector)
  await settled
}

const cookiesOf = async (page: PuppeteerPage) => (await page.browser().cookies()).map(({ name, value }) => `${name}=${value}`).sort()
const bannerShown = (page: PuppeteerPage) =>
  page.evaluate(() => {
    const banner = document.querySelector('[data-consent-banner]')
    return banner !== null && getComputedStyle(banner).display !== 'none'
  })

test.describe.configure({ timeout: 60_000 })

test('a visitor who accepted: /waitlist is prerendered on hover, sends and stores nothing before the click, and one page_view after', async ({ baseURL }) => {
  const { browser, page, views, events } = await prerenderingBrowser('granted')
  try {
    await page.goto(`${baseURL}/`)
    await until(views, (seen) => seen.length === 1, 'the page_view of /')
    const cookies = await cookiesOf(page)

    await hoverAndWait(page, HERO_CTA)
    // Prerendered by now, and it has sent nothing and written no cookie. / itself goes on sending
    // (its Web Vitals) while the pointer rests, so each event is told apart by the page it names.
    expect(events.filter((event) => event.properties.$pathname !== '/')).toEqual([])
    expect(await cookiesOf(page)).toEqual(cookies)

    await clickTo(page, HERO_CTA, '/waitlist')
    const shownAt = await activationStart(page)
    expect(shownAt).toBeGreaterThan(0)
    await until(views, (seen) => seen.length === 2, 'the page_view of /waitlist')
    // Everything the page sent to /ingest, events or not, it sent after it was shown (its own timings).
    expect((await ingestStarts(page)).every((start) => start >= shownAt)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(views()).toEqual(['/', '/waitlist'])
    // Shown, it behaves as a visited page: no banner, a form that takes a sign-up.
    expect(await bannerShown(page)).toBe(false)
    await until(
      () => page.$eval('form button[type="submit"]', (button) => (button as HTMLButtonElement).disabled),
      (disabled) => !disabled,
      'the form’s button enabled',
    )
  } finally {
    await browser.close()
  }
})

test('a visitor who declined: a prerendered page sends nothing, ever, before or after it is shown', async ({ baseURL }) => {
  const { browser, page, ingestRequests } = await prerenderingBrowser('denied')
  try {
    await page.goto(`${baseURL}/`)
    await hoverAndWait(page, HERO_CTA)
    await clickTo(page, HERO_CTA, '/waitlist')
    expect(await activationStart(page)).toBeGreaterThan(0)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(ingestRequests()).toBe(0)
    expect(await ingestStarts(page)).toEqual([])
  } finally {
    await browser.close()
  }
})

test('a visitor who accepts after the next page was prerendered: it is made again, shown without the banner, and counted once', async ({ baseURL }) => {
  const { browser, page, views } = await prerenderingBrowser(null)
  try {
    await page.goto(`${baseURL}/`)
    await hoverAndWait(page, HERO_CTA)
    expect(views()).toEqual([])
    await page.click(`[data-consent-banner] button:not([disabled])`)
    await until(views, (seen) => seen.length === 1, 'the page_view of / on accepting')
    // The rules were replaced (lib/prerender.ts restartSpeculations): the next hover prerenders anew.
    await page.mouse.move(0, 0)
    await hoverAndWait(page, HERO_CTA)
    await clickTo(page, HERO_CTA, '/waitlist')
    expect(await activationStart(page)).toBeGreaterThan(0)
    expect(await bannerShown(page)).toBe(false)
    await until(views, (seen) => seen.length === 2, 'the page_view of /waitlist')
    expect(views()).toEqual(['/', '/waitlist'])
  } finally {
    await browser.close()
  }
})

test('the navigation’s pages and the calls to action are marked for prerendering, in every language, and nothing else is', async ({ page }) => {
  for (const path of ['/', '/de']) {
    await page.goto(path)
    const rules = await page.locator('script[type="speculationrules"]').allTextContents()
    expect(rules).toHaveLength(1)
    const marked = await page.locator('a[data-prerender]').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))
    const origin = new URL(page.url()).origin
    expect(marked.every((href) => new URL(href).origin === origin)).toBe(true)
    const paths = new Set(marked.map((href) => new URL(href).pathname))
    const prefix = path === '/' ? '' : '/de'
    expect(paths).toContain(`${prefix}/waitlist`)
    expect(paths).toContain(`${prefix}/about`)
    expect(paths).toContain(path)
    // Only pages: not an API route, a feed or a Markdown twin.
    expect([...paths].every((p) => !p.startsWith('/api/') && !p.endsWith('.xml') && !p.endsWith('.md'))).toBe(true)
  }
})
