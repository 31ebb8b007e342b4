import type { Page } from '@playwright/test'
import { captureAnalytics } from './analytics-capture'
import { expect, test, waitLikeAPerson } from './fixtures'
import { rowsFor as stored } from './waitlist-rows'

test.use({ consent: 'granted' })


async function watchInserts(page: Page) {
  const inserts: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/waitlist') && request.method() === 'POST') inserts.push(request.url())
  })
  return inserts
}

test('a filled honeypot looks like success, but nothing is stored or tracked', async ({ page }) => {
  const ph = await captureAnalytics(page)
  const inserts = await watchInserts(page)
  const email = `bot.${Date.now()}@spam.example`
  await page.goto('/waitlist')
  await page.getByLabel('Your Name *').fill('Bot')
  await page.getByLabel('Work Email *').fill(email)
  // A person cannot reach the field: a script fills it by name.
  await page.locator('input[name="website"]').fill('https://spam.example', { force: true })
  await waitLikeAPerson(page)
  await page.getByRole('button', { name: 'Join Waitlist' }).click()
  await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible()
  await page.waitForTimeout(1000)
  expect(inserts).toEqual([])
  expect(await stored(email)).toEqual([])
  expect(ph.named('waitlist_join')).toEqual([])
})

test('the honeypot is hidden from people and from assistive technology', async ({ page }) => {
  await page.goto('/waitlist')
  const honeypot = page.locator('input[name="website"]')
  await expect(honeypot).not.toBeInViewport()
  await expect(honeypot).toHaveAttribute('tabindex', '-1')
  await expect(page.getByRole('textbox')).toHaveCount(3)
})

test('a submit faster than a person could type looks like success, but nothing is stored or tracked', async ({ page }) => {
  const ph = await captureAnalytics(page)
  const inserts = await watchInserts(page)
  const email = `fast.${Date.now()}@spam.example`
  await page.goto('/waitlist')
  await page.getByLabel('Your Name *').fill('Speedy')
  await page.getByLabel('Work Email *').fill(email)
  await page.getByRole('button', { name: 'Join Waitlist' }).click()
  await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible()
  await page.waitForTimeout(1000)
  expect(inserts).toEqual([])
  expect(await stored(email)).toEqual([])
  expect(ph.named('waitlist_join')).toEqual([])
})

test('a rate-limited sign-up (429) shows its own message, keeps the values and can be retried later', async ({ page }) => {
  const email = `limited.${Date.now()}@example.org`
  await page.route('**/rest/v1/waitlist*', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '60', 'access-control-allow-origin': '*' },
      body: JSON.stringify({ code: 'WL429', message: 'Too many sign-ups from this network.', details: null, hint: null }),
    }),
  )
  await page.goto('/waitlist')
  await page.getByLabel('Your Name *').fill('Patient Person')
  await page.getByLabel('Project or Company').fill('Waiting Co')
  await page.getByLabel('Work Email *').fill(email)
  await waitLikeAPerson(page)
  await page.getByRole('button', { name: 'Join Waitlist' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Too many attempts. Please wait a minute and try again.' })).toBeVisible()
  await expect(page.getByLabel('Your Name *')).toHaveValue('Patient Person')
  await expect(page.getByLabel('Project or Company')).toHaveValue('Waiting Co')
  await expect(page.getByLabel('Work Email *')).toHaveValue(email)

  await page.unroute('**/rest/v1/waitlist*')
  await page.getByRole('button', { name: 'Join Waitlist' }).click()
  await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible()
  expect(await stored(email)).toHaveLength(1)
})
