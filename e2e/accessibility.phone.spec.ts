import { axeViolations } from './a11y'
import { expect, SITE_ROUTES, test, waitLikeAPerson } from './fixtures'

for (const route of SITE_ROUTES) {
  test(`${route} has no axe violation on a phone`, async ({ page }) => {
    await page.goto(route)
    await page.waitForLoadState('networkidle')
    expect(await axeViolations(page)).toEqual([])
  })
}

test('with the phone menu open', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('banner').getByRole('button', { name: 'Menu' }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Pricing' })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})

test('with a form error and with the confirmation, on a phone', async ({ page }) => {
  await page.goto('/waitlist')
  await page.getByLabel('Your Name *').fill('Phone Person')
  await page.getByLabel('Work Email *').fill('not-an-email@nowhere')
  await waitLikeAPerson(page)
  await page.getByRole('button', { name: 'Join Waitlist' }).click()
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  await page.getByLabel('Work Email *').fill(`phone.${Date.now()}@example.org`)
  await page.getByRole('button', { name: 'Join Waitlist' }).click()
  await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})
