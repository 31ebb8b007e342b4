import { expect, test } from './fixtures'

test.describe('phone menu', () => {
  test('shows the same items, closes after choosing one', async ({ page }) => {
    await page.goto('/')
    const banner = page.getByRole('banner')
    // The desktop items are out of the way on a phone.
    await expect(banner.getByRole('button', { name: 'Resources' })).toBeHidden()
    const toggle = banner.getByRole('button', { name: 'Menu' })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await toggle.click()
    const close = banner.getByRole('button', { name: 'Close menu' })
    await expect(close).toHaveAttribute('aria-expanded', 'true')
    for (const name of ['Features', 'Pricing', 'About', 'Sign In', 'Start Free Trial']) {
      await expect(banner.getByRole('link', { name })).toBeVisible()
    }
    await expect(banner.getByRole('button', { name: 'Try Demo' })).toBeVisible()

    await banner.getByRole('link', { name: 'Pricing' }).click()
    await expect(page).toHaveURL('/#pricing')
    await expect(banner.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false')
    await expect(banner.getByRole('link', { name: 'Pricing' })).toBeHidden()

    await banner.getByRole('button', { name: 'Menu' }).click()
    await banner.getByRole('link', { name: 'About' }).click()
    await expect(page).toHaveURL('/about')
    await expect(banner.getByRole('link', { name: 'About' })).toBeHidden()
  })

  test('Escape closes it and returns focus to the toggle', async ({ page }) => {
    await page.goto('/')
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Menu' })
    await toggle.click()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Escape')
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(toggle).toBeFocused()
  })

  test('Start Free Trial in the menu leads to the waitlist', async ({ page }) => {
    await page.goto('/about')
    await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('banner').getByRole('link', { name: 'Start Free Trial' }).click()
    await expect(page).toHaveURL('/waitlist')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  })
})
