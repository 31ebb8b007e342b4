import type { Page } from '@playwright/test'
import { HONEYPOT_FIELD } from '../components/waitlist/bot-filter'
import { captureAnalytics } from './analytics-capture'
import { expect, test, waitLikeAPerson } from './fixtures'
import { copy } from './seed-copy'
import { waitlistForm } from './waitlist-form'
import { rowsFor as stored } from './waitlist-rows'

test.use({ consent: 'granted' })

const { messages } = copy.waitlist
const automatedToast = (page: Page) => page.getByRole('alert').filter({ hasText: messages.automated })

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
  const form = waitlistForm(page)
  await form.name.fill('Speedy Person')
  await form.email.fill(email)
  await form.email.press('Enter')
  await expect(form.confirmed).toBeVisible()
  expect(await stored(email)).toEqual([{ name: 'Speedy Person', email, project: '' }])
  await expect.poll(() => ph.named('waitlist_join').length).toBe(1)
})

test('a fast duplicate gets the duplicate toast, not a false confirmation', async ({ page }) => {
  const email = `fastdup.${Date.now()}@example.org`
  const form = waitlistForm(page)
  for (const attempt of ['first', 'second']) {
    await page.goto('/waitlist')
    await form.name.fill('Twice')
    await form.email.fill(email)
    await form.submit.click()
    if (attempt === 'first') await expect(form.confirmed).toBeVisible()
    else await expect(page.getByRole('status')).toContainText(messages.duplicate)
  }
  expect(await stored(email)).toHaveLength(1)
})

test('a filled honeypot is refused as automated and told so, never confirmed; pressing again sends it', async ({ page }) => {
  const ph = await captureAnalytics(page)
  const inserts = await watchInserts(page)
  const email = `bot.${Date.now()}@example.org`
  const form = waitlistForm(page)
  await page.goto('/waitlist')
  await form.name.fill('Maybe Bot')
  await form.email.fill(email)
  // A person cannot reach the field: a script fills it by name.
  await page.locator(`input[name="${HONEYPOT_FIELD}"]`).fill('https://spam.example', { force: true })
  await form.submit.click()
  await expect(automatedToast(page)).toBeVisible()
  await expect(form.confirmed).toHaveCount(0)
  await expect(form.email).toHaveValue(email)
  expect(inserts).toEqual([])
  expect(await stored(email)).toEqual([])
  expect(ph.named('waitlist_join')).toEqual([])

  // The way forward the message gives: press the button again.
  await form.submit.click()
  await expect(form.confirmed).toBeVisible()
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
  const form = waitlistForm(page)
  await page.goto('/waitlist')
  await form.name.fill('Patient Person')
  await form.company.fill('Waiting Co')
  await form.email.fill(email)
  await waitLikeAPerson(page)
  await form.submit.click()
  await expect(page.getByRole('alert').filter({ hasText: messages.rateLimited })).toBeVisible()
  await expect(form.name).toHaveValue('Patient Person')
  await expect(form.company).toHaveValue('Waiting Co')
  await expect(form.email).toHaveValue(email)

  await page.unroute('**/rest/v1/waitlist*')
  await form.submit.click()
  await expect(form.confirmed).toBeVisible()
  expect(await stored(email)).toHaveLength(1)
})
