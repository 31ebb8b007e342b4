import { axeViolations, expectNoAxeViolationAt } from './a11y'
import { expect, SITE_ROUTES, test, waitLikeAPerson } from './fixtures'
import { startTrialLinks, tryDemoButtons } from './landing-controls'
import { copy } from './seed-copy'
import { nameRequired, waitlistForm } from './waitlist-form'

const nav = copy.settings.navigation

for (const route of SITE_ROUTES) {
  test(`${route} has no axe violation`, ({ browser, consent }) => expectNoAxeViolationAt(route, { browser, consent, key: 'accessibility' }))
}

test('with the Resources dropdown open', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('banner').getByRole('button', { name: nav.resourcesLabel }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: copy.navLabel('/about') })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})

test('with the demo open', async ({ page }) => {
  await page.goto('/')
  await tryDemoButtons.hero(page).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})

test.describe('with the consent banner showing', () => {
  test.use({ consent: null })
  test('has no axe violation', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('region', { name: copy.settings.consent.title })).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
  })
})

test('with a form error shown, and with the confirmation shown', async ({ page }) => {
  const form = waitlistForm(page)
  await page.goto('/waitlist')
  await waitLikeAPerson(page)
  await form.submit.click()
  await expect(page.getByText(nameRequired)).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  await form.name.fill('Axe Tester')
  await form.email.fill(`axe.${Date.now()}@example.org`)
  await form.submit.click()
  await expect(form.confirmed).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})

test('keyboard only: from the landing page to a saved sign-up', async ({ page }) => {
  await page.goto('/')
  // Tab from the top of the page to the header's Start Free Trial, as a keyboard user would.
  const target = startTrialLinks.navigation(page)
  for (let presses = 0; presses < 20 && !(await target.evaluate((el) => el === document.activeElement)); presses++) await page.keyboard.press('Tab')
  await expect(target).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL('/waitlist')

  const form = waitlistForm(page)
  const name = form.name
  for (let presses = 0; presses < 30 && !(await name.evaluate((el) => el === document.activeElement)); presses++) await page.keyboard.press('Tab')
  await expect(name).toBeFocused()
  await page.keyboard.type('Keyboard User')
  await page.keyboard.press('Tab')
  await expect(form.company).toBeFocused()
  await page.keyboard.type('Tab Co')
  await page.keyboard.press('Tab')
  await expect(form.email).toBeFocused()
  await page.keyboard.type(`keys.${Date.now()}@example.org`)
  await page.keyboard.press('Tab')
  // The updates box is next, and Space ticks it.
  await expect(form.updates).toBeFocused()
  await page.keyboard.press('Space')
  await expect(form.updates).toBeChecked()
  await waitLikeAPerson(page)
  await page.keyboard.press('Tab')
  await expect(form.submit).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(form.confirmed).toBeFocused()
})
