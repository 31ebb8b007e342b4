import { axeViolations, expectNoAxeViolationAt } from './a11y'
import { expect, SITE_ROUTES, test, waitLikeAPerson } from './fixtures'
import { copy } from './seed-copy'
import { waitlistForm } from './waitlist-form'

for (const route of SITE_ROUTES) {
  test(`${route} has no axe violation on a phone`, ({ browser, consent }) =>
    expectNoAxeViolationAt(route, { browser, consent, key: 'accessibility on a phone' }))
}

test('with the phone menu open', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('banner').getByRole('button', { name: copy.settings.navigation.menuLabel }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: copy.navLabel('/#pricing') })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})

test('with a form error and with the confirmation, on a phone', async ({ page }) => {
  const form = waitlistForm(page)
  await page.goto('/waitlist')
  await form.name.fill('Phone Person')
  await form.email.fill('not-an-email@nowhere')
  await waitLikeAPerson(page)
  await form.submit.click()
  await expect(page.getByText(copy.waitlist.form.errorInvalidEmail)).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  await form.email.fill(`phone.${Date.now()}@example.org`)
  await form.submit.click()
  await expect(form.confirmed).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
})
