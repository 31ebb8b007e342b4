import type { Page } from '@playwright/test'
import { HONEYPOT_FIELD } from '../components/waitlist/bot-filter'
import { captureAnalytics } from './analytics-capture'
import { expect, test, waitLikeAPerson } from './fixtures'
import { rowsFor as stored } from './waitlist-rows'

test.use({ consent: 'granted' })

const automatedToast = (page: Page) => page.getByRole('alert').filter({ hasText: 'This sign-up looked automated, so it was not saved.' })

async function watchInserts(page: Page) {
  const inserts: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/waitlist') && request.method() === 'POST') inserts.push(request.url())
  })
  return inserts
}

test('a form filled and submitted at once (autofill, Enter) is stored and confirmed, and tracked', async ({ page }) => {
  const ph = await captureAnalytics(page)
  const email = `fast.${Date.now()}@example.org`
  await page.goto('/waitlist')
  // No waiting anywhere: fill and press Enter as fast as the browser allows.
  await page.getByLabel('Your Name *').fill('Speedy Person')
  await page.getByLabel('Work Email *').fill(email)
  await page.getByLabel('Work Email *').press('Enter')
  await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible()
  expect(await stored(email)).toEqual([{ name: 'Speedy Person', email, project: '' }])
  await expect.poll(() => ph.named('waitlist_join').length).toBe(1)
})

test('a fast duplicate gets the duplicate toast, not a false confirmation', async ({ page }) => {
  const email = `fastdup.${Date.now()}@example.org`
  for (const expected of ["You're on the list!", "You're already on the waitlist!"]) {
    await page.goto('/waitlist')
    await page.getByLabel('Your Name *').fill('Twice')
    await page.getByLabel('Work Email *').fill(email)
    await page.getByRole('button', { name: 'Join Waitlist' }).click()
    if (expected === "You're on the list!") await expect(page.getByRole('heading', { name: expected })).toBeVisible()
    else await expect(page.getByRole('status')).toContainText(expected)
  }
  expect(await stored(email)).toHaveLength(1)
})

test('a filled honeypot is refused as automated and told so, never confirmed; pressing again sends it', async ({ page }) => {
  const ph = await captureAnalytics(page)
  const inserts = await watchInserts(page)
  const email = `bot.${Date.now()}@example.org`
  await page.goto('/waitlist')
  await page.getByLabel('Your Name *').fill('Maybe Bot')
  await page.getByLabel('Work Email *').fill(email)
  // A person cannot reach the field: a script fills it by name.
  await page.locator(`input[name="${HONEYPOT_FIELD}"]`).fill('https://spam.example', { force: true })
  await page.getByRole('button', { name: 'Join Waitlist' }).click()
  await expect(automatedToast(page)).toBeVisible()
  await expect(page.getByRole('heading', { name: "You're on the list!" })).toHaveCount(0)
  await expect(page.getByLabel('Work Email *')).toHaveValue(email)
  expect(inserts).toEqual([])
  expect(await stored(email)).toEqual([])
  expect(ph.named('waitlist_join')).toEqual([])

  // The way forward the message gives: press the button again.
  await page.getByRole('button', { name: 'Join Waitlist' }).click()
  await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible()
  expect(await stored(email)).toHaveLength(1)
})

test('the honeypot is hidden from people, assistive technology and autofill', async ({ page }) => {
  await page.goto('/waitlist')
  const honeypot = page.locator(`input[name="${HONEYPOT_FIELD}"]`)
  await expect(honeypot).not.toBeInViewport()
  await expect(honeypot).toHaveAttribute('tabindex', '-1')
  await expect(honeypot).toHaveAttribute('autocomplete', 'off')
  // Names and labels that autofill heuristics match (url, website, company, name, email...) are avoided.
  const label = await page.locator(`label[for="waitlist-${HONEYPOT_FIELD}"]`).textContent()
  expect(`${HONEYPOT_FIELD} ${label}`.toLowerCase()).not.toMatch(/url|web|site|home|company|org|name|mail|phone|address|user|pass/)
  await expect(page.getByRole('textbox')).toHaveCount(3)
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
