import { axeViolations } from './a11y'
import { expect, SITE_ROUTES, test, waitLikeAPerson } from './fixtures'

for (const route of SITE_ROUTES) {
  test(`${route} has no axe violation`, async ({ page }) => {
    await page.goto(route)
    await page.waitForLoadState('networkidle')
    expect(await axeViolations(page)).toEqual([])
  })
}

test('with the Resources dropdown open', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('banner').getByRole('button', { name: 'Resources' }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'About' })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})

test('with the demo open', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('button', { name: 'See How It Works' }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})

test.describe('with the consent banner showing', () => {
  test.use({ consent: null })
  test('has no axe violation', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('region', { name: 'Analytics and your privacy' })).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
  })
})

test('with a form error shown, and with the confirmation shown', async ({ page }) => {
  await page.goto('/waitlist')
  await waitLikeAPerson(page)
  await page.getByRole('button', { name: 'Join Waitlist' }).click()
  await expect(page.getByText('Please enter your name.')).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  await page.getByLabel('Your Name *').fill('Axe Tester')
  await page.getByLabel('Work Email *').fill(`axe.${Date.now()}@example.org`)
  await page.getByRole('button', { name: 'Join Waitlist' }).click()
  await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})

test('keyboard only: from the landing page to a saved sign-up', async ({ page }) => {
  await page.goto('/')
  // Tab from the top of the page to the header's Start Free Trial, as a keyboard user would.
  const target = page.getByRole('banner').getByRole('link', { name: 'Start Free Trial' })
  for (let presses = 0; presses < 20 && !(await target.evaluate((el) => el === document.activeElement)); presses++) await page.keyboard.press('Tab')
  await expect(target).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL('/waitlist')

  const name = page.getByLabel('Your Name *')
  for (let presses = 0; presses < 30 && !(await name.evaluate((el) => el === document.activeElement)); presses++) await page.keyboard.press('Tab')
  await expect(name).toBeFocused()
  await page.keyboard.type('Keyboard User')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Project or Company')).toBeFocused()
  await page.keyboard.type('Tab Co')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Work Email *')).toBeFocused()
  await page.keyboard.type(`keys.${Date.now()}@example.org`)
  await waitLikeAPerson(page)
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Join Waitlist' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeFocused()
})
