import { axeViolations } from './a11y'
import { chooseConsent, expect, SITE_ROUTES, test, waitLikeAPerson } from './fixtures'
import { inReusedTab } from './reused-tab'
import { copy } from './seed-copy'
import { waitlistForm } from './waitlist-form'

for (const route of SITE_ROUTES) {
  test(`${route} has no axe violation on a phone`, async ({ browser, consent }) => {
    await inReusedTab(
      browser,
      'accessibility on a phone',
      (page) => chooseConsent(page.context(), consent),
      async (page) => {
        await page.goto(route)
        await page.waitForLoadState('networkidle')
        expect(await axeViolations(page)).toEqual([])
      },
    )
  })
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
