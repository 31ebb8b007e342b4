import { expect, test } from './fixtures'
import { copy } from './seed-copy'

const nav = copy.settings.navigation
const pricing = copy.navLabel('/#pricing')
const about = copy.navLabel('/about')

test.describe('phone menu', () => {
  test('shows the same items, closes after choosing one', async ({ page }) => {
    await page.goto('/')
    const banner = page.getByRole('banner')
    // The desktop items are out of the way on a phone.
    await expect(banner.getByRole('button', { name: nav.resourcesLabel })).toBeHidden()
    const toggle = banner.getByRole('button', { name: nav.menuLabel })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await toggle.click()
    const close = banner.getByRole('button', { name: copy.settings.labels.closeMenu })
    await expect(close).toHaveAttribute('aria-expanded', 'true')
    for (const name of [...[...nav.links, ...nav.resources].map((link) => link.label), nav.signInLabel, nav.startTrialLabel]) {
      await expect(banner.getByRole('link', { name })).toBeVisible()
    }
    await expect(banner.getByRole('button', { name: nav.tryDemoLabel })).toBeVisible()

    await banner.getByRole('link', { name: pricing }).click()
    await expect(page).toHaveURL('/#pricing')
    await expect(banner.getByRole('button', { name: nav.menuLabel })).toHaveAttribute('aria-expanded', 'false')
    await expect(banner.getByRole('link', { name: pricing })).toBeHidden()

    await banner.getByRole('button', { name: nav.menuLabel }).click()
    await banner.getByRole('link', { name: about }).click()
    await expect(page).toHaveURL('/about')
    await expect(banner.getByRole('link', { name: about })).toBeHidden()
  })

  test('Escape closes it and returns focus to the toggle', async ({ page }) => {
    await page.goto('/')
    const toggle = page.getByRole('banner').getByRole('button', { name: nav.menuLabel })
    await toggle.click()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Escape')
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(toggle).toBeFocused()
  })

  test('Start Free Trial in the menu leads to the waitlist', async ({ page }) => {
    await page.goto('/about')
    await page.getByRole('banner').getByRole('button', { name: nav.menuLabel }).click()
    await page.getByRole('banner').getByRole('link', { name: nav.startTrialLabel }).click()
    await expect(page).toHaveURL('/waitlist')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  })
})
