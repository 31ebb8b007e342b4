/**
 * The second page: a visitor on the home page presses the hero's "Start Free Trial", and /waitlist
 * is drawn. Timed in Chromium under Lighthouse's mobile throttling as the bench applies it (slow 4G,
 * 4 × CPU), with the speculation rules as shipped (the CTA hovered first, as a pointer does before
 * a click, so `moderate` eagerness prerenders it) and with the rules removed (the same hover, then
 * a plain navigation). The figure is the LCP of /waitlist after its activation: for a prerendered
 * page its LCP minus `activationStart` (never below 0, as web-vitals reports it), for a plain load
 * its LCP from the navigation's start.
 *
 * Puppeteer, not Playwright: Chromium prerenders only for a DevTools client attached through the
 * tab (e2e/prerender-browser.ts). `tsx tools/bench/prerender-navigation.ts <site url> [runs]`
 * measures a running site alone; `npm run bench` runs it beside everything else.
 */
import puppeteer, { type Page } from 'puppeteer-core'
import { throttling } from 'lighthouse/core/config/constants.js'
import { median } from './lighthouse'
import { CHROMIUM_ARGS } from '../local/chromium'
import { clickTo, prerendered, until } from '../local/prerender-watch'

export const NAVIGATION_RUNS = 5
// The hero's call to action: the first of the page's content that prerendering marks.
const HERO_CTA = 'main a[data-prerender][href="/waitlist"]'
// Chromium's hover delay for `moderate`: as long as the pointer rests without the rules.
const HOVER_MS = 200

export type NavigationRuns = { lcpAfterActivationMs: number[]; prerendered: boolean[] }
export type NavigationReport = { runs: number; withRules: NavigationRuns; withoutRules: NavigationRuns; medianWithMs: number; medianWithoutMs: number }

/** LCP after activation of the page now shown, and whether it was prerendered. */
function lcpAfterActivation(page: Page): Promise<{ ms: number; prerendered: boolean }> {
  return page.evaluate(
    () =>
      new Promise<{ ms: number; prerendered: boolean }>((resolve) => {
        const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming & { activationStart: number }
        new PerformanceObserver((list) => {
          const entries = list.getEntries()
          const last = entries[entries.length - 1]!
          resolve({ ms: Math.max(0, last.startTime - navigation.activationStart), prerendered: navigation.activationStart > 0 })
        }).observe({ type: 'largest-contentful-paint', buffered: true })
      }),
  )
}

async function once(executablePath: string, site: string, withRules: boolean): Promise<{ ms: number; prerendered: boolean }> {
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
  })
  try {
    const page = await browser.newPage()
    // A desktop-sized window: the hover that triggers `moderate` is a pointer's (a phone's press is
    // the same trigger, 100 ms or so later). The consent banner is answered first, as most visitors have.
    await page.setViewport({ width: 1280, height: 1000 })
    await page.evaluateOnNewDocument(() => window.localStorage.setItem('consent:analytics', 'denied'))
    const slow4g = throttling.mobileSlow4G
    await page.emulateNetworkConditions({
      download: (slow4g.downloadThroughputKbps * 1024) / 8,
      upload: (slow4g.uploadThroughputKbps * 1024) / 8,
      latency: slow4g.requestLatencyMs,
    })
    await page.emulateCPUThrottling(slow4g.cpuSlowdownMultiplier)
    await page.goto(`${site}/`, { waitUntil: 'load' })
    // Under the throttling React hydrates after `load`, and the rules are taken out (for the run
    // without them) only once React has hydrated them: an element missing before then fails
    // hydration (React error 418), and React draws the page again under the pointer. Both runs wait alike.
    await until(
      () =>
        page.evaluate(() => {
          const rules = document.querySelector('script[type="speculationrules"]')
          return rules !== null && Object.keys(rules).some((key) => key.startsWith('__reactFiber$'))
        }),
      (hydrated) => hydrated,
      'the home page hydrated',
      30_000,
    )
    if (!withRules) await page.evaluate(() => document.querySelectorAll('script[type="speculationrules"]').forEach((rules) => rules.remove()))
    // With the rules, the click comes once the prerender has settled (as it does for a visitor
    // whose pointer rests a moment); without them, after the same 200 ms hover.
    const settled = withRules ? prerendered(page) : new Promise((resolve) => setTimeout(resolve, HOVER_MS))
    await page.hover(HERO_CTA)
    await settled
    await clickTo(page, HERO_CTA, '/waitlist', 30_000)
    return await lcpAfterActivation(page)
  } finally {
    await browser.close()
  }
}

/** `runs` navigations each way, alternating, each in a fresh browser. */
export async function measureCtaNavigation(executablePath: string, site: string, runs = NAVIGATION_RUNS): Promise<NavigationReport> {
  const withRules: NavigationRuns = { lcpAfterActivationMs: [], prerendered: [] }
  const withoutRules: NavigationRuns = { lcpAfterActivationMs: [], prerendered: [] }
  for (let run = 0; run < runs; run++) {
    for (const [rules, into] of [
      [true, withRules],
      [false, withoutRules],
    ] as const) {
      const { ms, prerendered } = await once(executablePath, site, rules)
      into.lcpAfterActivationMs.push(Math.round(ms))
      into.prerendered.push(prerendered)
    }
  }
  return { runs, withRules, withoutRules, medianWithMs: median(withRules.lcpAfterActivationMs), medianWithoutMs: median(withoutRules.lcpAfterActivationMs) }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [site = 'http://localhost:3000', runs = String(NAVIGATION_RUNS)] = process.argv.slice(2)
  const report = await measureCtaNavigation(process.env.CHROME_PATH ?? '/usr/bin/chromium', site, Number(runs))
  console.log(JSON.stringify(report, null, 2))
}
