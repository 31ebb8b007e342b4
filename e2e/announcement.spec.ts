import type { Page } from '@playwright/test'
import { E2E } from '../tools/test/e2e-env'
import { ANNOUNCEMENT_STORAGE_KEY } from '../components/site/announcement/announcement-bar'
import { expect, test } from './fixtures'
import { currentDocument, publishLocally as publish } from './local-publish'
import { copy } from './seed-copy'

// Site settings → Announcement bar: drawn on the server, closed for good by the visitor without a
// cookie, and never flashing or shifting the page on later visits.

const { settings } = copy
const announcement = settings.announcement!
const bar = (page: Page) => page.locator('[data-announcement]')

test('every page shows it above the header, in the server’s HTML, with its link', async ({ page, request }) => {
  for (const path of ['/', '/about', '/waitlist', '/privacy']) {
    expect(await (await request.get(path)).text()).toContain(announcement.text!)
  }
  await page.goto('/about')
  await expect(bar(page)).toBeVisible()
  const header = (await page.getByRole('banner').boundingBox())!
  expect((await bar(page).boundingBox())!.y).toBeLessThan(header.y)
  await bar(page).getByRole('link', { name: announcement.link!.label }).click()
  await expect(page).toHaveURL(announcement.link!.path!)
})

test('closed, it stays closed on later pages and visits, without a cookie, and nothing shifts', async ({ page, context }) => {
  await page.goto('/')
  await bar(page).getByRole('button', { name: settings.labels.closeAnnouncement }).click()
  await expect(bar(page)).toBeHidden()
  await expect(page.locator('#main')).toBeFocused()
  expect(await page.evaluate((key) => localStorage.getItem(key), ANNOUNCEMENT_STORAGE_KEY)).toMatch(/^[0-9a-z]+$/)
  expect(await context.cookies()).toEqual([])

  // On the next page the bar is hidden before the first paint: hidden when the document is parsed, no layout shift.
  await page.addInitScript(() => {
    type Shift = { value: number; sources: { node?: Node | null }[] }
    const record = window as unknown as { shifts: number; shifted: string[]; barShownAtParse: boolean | null }
    record.shifts = 0
    record.shifted = []
    record.barShownAtParse = null
    new PerformanceObserver((list) =>
      list.getEntries().forEach((entry) => {
        const shift = entry as unknown as Shift
        record.shifts += shift.value
        // Named in the failure: what moved, not only by how much.
        for (const source of shift.sources)
          record.shifted.push(source.node instanceof Element ? source.node.outerHTML.slice(0, 120) : String(source.node?.nodeName))
      }),
    ).observe({ type: 'layout-shift', buffered: true })
    document.addEventListener('DOMContentLoaded', () => {
      const element = document.querySelector('[data-announcement]')
      record.barShownAtParse = element ? getComputedStyle(element).display !== 'none' : null
    })
  })
  for (const path of ['/about', '/']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(await page.evaluate(() => (window as unknown as { barShownAtParse: boolean | null }).barShownAtParse)).toBe(false)
    await page.waitForLoadState('networkidle')
    const { shifts, shifted } = await page.evaluate(() => {
      const record = window as unknown as { shifts: number; shifted: string[] }
      return { shifts: record.shifts, shifted: record.shifted }
    })
    // The bar drawn and then hidden scores about 0.03 (its height over the viewport's). A full CI
    // run once measured 0.0000029 here, which no rerun reproduced (the message names the source if
    // it recurs). Lighthouse shows CLS to three decimals: below 0.001 is its 0.000.
    expect(shifts, `shifted: ${shifted.join(' | ')}`).toBeLessThan(0.001)
  }
})

test.describe('a new announcement', () => {
  // Three publishes through the CLI (tsx start-up each) and their polls, then one more after: on
  // two busy cores that outgrows 30 s (it timed out so while another build ran beside it).
  test.describe.configure({ mode: 'serial', timeout: 90_000 })
  const site = `http://localhost:${E2E.sitePort}`
  // This test's own edit, published and then expected on the page.
  const newText = 'Something new: the Slack digest is here.'
  let original: Record<string, unknown>
  const landingSays = async (text: string) => (await (await fetch(site)).text()).includes(text)

  test.beforeAll(async () => {
    original = await currentDocument('siteSettings')
  })
  test.afterAll(async () => {
    await publish([original])
    await expect.poll(() => landingSays(announcement.text!), { timeout: 10_000 }).toBe(true)
  })

  test('shows again to a visitor who closed the old one; switched off, there is none', async ({ page }) => {
    await page.goto('/')
    await bar(page).getByRole('button', { name: settings.labels.closeAnnouncement }).click()
    await publish([{ ...original, announcement: { ...(original.announcement as object), text: newText } }])
    await expect.poll(() => landingSays(newText), { timeout: 10_000 }).toBe(true)
    await page.goto('/')
    await expect(bar(page)).toBeVisible()
    await expect(bar(page)).toContainText(newText)

    await publish([{ ...original, announcement: { ...(original.announcement as object), enabled: false } }])
    await expect.poll(() => landingSays(newText), { timeout: 10_000 }).toBe(false)
    await page.goto('/')
    await expect(bar(page)).toHaveCount(0)
  })
})
