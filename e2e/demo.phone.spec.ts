import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { tryDemoButtons } from './landing-controls'
import { copy } from './seed-copy'

// The demo widget at phone width: a bottom sheet that fits the screen, steps through the
// conversation and closes. Texts come from the seed.

const widgetCopy = copy.settings.demoWidget
const conversation = copy.deref(copy.landing.demo)
const nav = copy.settings.navigation

const VIEWPORT = { width: 390, height: 844 }
test.use({ viewport: VIEWPORT })

const widget = (page: Page) => page.getByRole('dialog', { name: widgetCopy.title })

/** Inside the viewport, and nothing inside it wider than it. */
async function expectWithinViewport(locator: Locator) {
  const box = (await locator.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORT.width + 0.5)
  expect(box.y + box.height).toBeLessThanOrEqual(VIEWPORT.height + 0.5)
}

test('the phone menu’s Try Demo opens a bottom sheet that fits, steps to the insight and closes', async ({ page }) => {
  await page.goto('/')
  const menu = page.getByRole('banner').getByRole('button', { name: nav.menuLabel })
  await menu.click()
  await page.getByRole('banner').getByRole('button', { name: nav.tryDemoLabel }).click()

  const sheet = widget(page)
  await expect(sheet).toBeVisible()
  await expect(sheet.getByRole('heading', { name: widgetCopy.title })).toBeFocused()
  await expect(sheet.getByRole('log')).toContainText(conversation.opening)
  await expectWithinViewport(sheet)
  const box = (await sheet.boundingBox())!
  // A bottom sheet: full width, on the bottom edge.
  expect(box.width).toBeCloseTo(VIEWPORT.width, 0)
  expect(box.y + box.height).toBeCloseTo(VIEWPORT.height, 0)
  expect(await sheet.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)

  for (const step of conversation.steps) {
    const replies = sheet.getByRole('group', { name: widgetCopy.chooseReplyLabel })
    for (const reply of await replies.getByRole('button').all()) await expectWithinViewport(reply)
    await replies.getByRole('button', { name: step.replies[0]!.text }).click()
    await expect(sheet.getByRole('log')).toContainText(step.replies[0]!.text)
  }
  const insight = sheet.getByRole('article', { name: widgetCopy.insightTitle })
  await expect(insight).toBeVisible()
  await expect(insight).toBeInViewport()
  expect(await insight.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORT.width)

  // The menu closed when its Try Demo was pressed: focus goes back to the menu's button.
  await sheet.getByRole('button', { name: widgetCopy.closeLabel }).click()
  await expect(sheet).toBeHidden()
  await expect(menu).toBeFocused()
})

test('See How It Works opens it at phone width, and Escape returns focus to the button', async ({ page }) => {
  await page.goto('/')
  const opener = tryDemoButtons.hero(page)
  await opener.click()
  await expect(widget(page)).toBeVisible()
  await expectWithinViewport(widget(page))
  await expectWithinViewport(widget(page).getByRole('button', { name: widgetCopy.closeLabel }))
  await page.keyboard.press('Escape')
  await expect(widget(page)).toBeHidden()
  await expect(opener).toBeFocused()
})
