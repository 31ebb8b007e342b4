import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { chooseConsent, expect } from './fixtures'
import { inReusedTab } from './reused-tab'

/** Axe over the whole page: WCAG 2.1 A and AA, and axe's best practices. */
export async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  )
}

/** One of the site's routes has no axe violation once loaded, in the worker's tab for `key` (e2e/reused-tab.ts). */
export function expectNoAxeViolationAt(
  route: string,
  { browser, consent, key }: { browser: Browser; consent: Parameters<typeof chooseConsent>[1]; key: string },
) {
  return inReusedTab(
    browser,
    key,
    (page) => chooseConsent(page.context(), consent),
    async (page) => {
      await page.goto(route)
      await page.waitForLoadState('networkidle')
      expect(await axeViolations(page)).toEqual([])
    },
  )
}
