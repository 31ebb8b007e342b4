import type { Page } from '@playwright/test'
import { axeViolations } from './a11y'
import { captureAnalytics } from './analytics-capture'
import { expect, test } from './fixtures'
import { E2E } from '../tools/test/e2e-env'
import { copy as seedCopy } from './seed-copy'
import { confirmLinkIn, emailTo } from './inbox'
import { confirmByPress, joinWaitlist, waitlistForm } from './waitlist-form'
import { statusOf } from './waitlist-rows'

// Double opt-in as a visitor meets it: the e-mail arrives in maildev (read through its REST API,
// as a person would open their inbox), its link opens a page whose button confirms, and a dead
// link offers a new one. The dispatch loop of tools/local/mail-catcher.ts runs beside the site.

const copy = seedCopy.waitlist
// e2e/seed/confirmation.sql stores these tokens' hashes: a confirmed person's link that expired a
// day ago, and the link of a sign-up whose week for confirming ran out yesterday (purged at start).
const EXPIRED = { email: 'expired.link@example.com', token: 'expired-link-token-for-the-e2e-test-0000000' }
const EXPIRED_PENDING = { email: 'expired.pending@example.com', token: 'expired-pending-token-for-the-e2e-test-0000' }

const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.org`

/** The newest e-mail to `address`, once more than `after` have arrived. */
const mailTo = (address: string, after = 0) => emailTo(address, { after })
const confirmLink = confirmLinkIn

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name })

test('sign up, open the e-mail, follow the link, press Confirm: confirmed, once', async ({ page }) => {
  const email = uniqueEmail('confirm')
  const form = waitlistForm(page)
  await page.goto('/waitlist')
  await form.name.fill('Grace Hopper')
  await form.company.fill('Compilers Inc.')
  await form.email.fill(email)
  await form.submit.click()
  await expect(heading(page, copy.confirmation.title)).toBeVisible()
  await expect(page.getByText(copy.confirmation.text)).toBeVisible()

  const mail = await mailTo(email)
  expect(mail.subject).toBe(copy.email.subject)
  expect(mail.text).toContain(copy.email.anonymousGreeting)
  const link = confirmLink(mail)

  await confirmByPress(page, link)
  await expect(heading(page, copy.confirmPage.confirmedTitle)).toBeFocused()
  await expect(page.getByText(copy.confirmPage.confirmedText)).toBeVisible()
  // The token leaves the address bar and the history at once.
  expect(new URL(page.url()).hash).toBe('')
  expect(await axeViolations(page)).toEqual([])

  // Opened again, the link is the person's own page: no button, nothing to confirm twice.
  await page.goto(link)
  await expect(heading(page, copy.confirmPage.alreadyTitle)).toBeVisible()
  await expect(page.getByRole('button', { name: copy.confirmPage.confirmLabel })).toHaveCount(0)
  await expect(page.getByRole('button', { name: copy.confirmPage.resendLabel })).toHaveCount(0)
})

test('opening the link confirms nothing until the button is pressed (a mail scanner that runs the page confirms nobody)', async ({ page, browser }) => {
  const email = uniqueEmail('scanner')
  await joinWaitlist(page, { name: 'Scanned Person', email })
  const link = confirmLink(await mailTo(email))

  // The scanner: a browser of its own that opens the link, runs its scripts, waits, and leaves.
  const scanner = await browser.newContext()
  const scanned = await scanner.newPage()
  await scanned.goto(link)
  await expect(heading(scanned, copy.confirmPage.readyTitle)).toBeVisible()
  await scanned.waitForLoadState('networkidle')
  await scanner.close()
  expect(await statusOf(email)).toBe('pending')

  // The person, later, with the same link.
  await confirmByPress(page, link)
  expect(await statusOf(email)).toBe('confirmed')
})

test('a name with a link in it never reaches the unconfirmed inbox: the e-mail carries only our own words', async ({ page }) => {
  const email = uniqueEmail('relay')
  // not seed copy: what a spammer types into the name and company fields.
  await joinWaitlist(page, { name: 'Win a prize https://evil.example/claim', company: 'Visit evil.example now', email })
  const mail = await mailTo(email)
  for (const part of [mail.subject, mail.text, mail.html, JSON.stringify(mail.to)]) {
    expect(part).not.toContain('evil.example')
    expect(part).not.toContain('prize')
  }
  expect(mail.to).toEqual([expect.objectContaining({ address: email, name: '' })])
})

test('a confirmed person’s expired link says so, and sends a new link that opens their page', async ({ page }) => {
  await page.goto(`/waitlist/confirm#token=${EXPIRED.token}`)
  await expect(heading(page, copy.confirmPage.expiredTitle)).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  await page.getByLabel(copy.confirmPage.resendEmailLabel).fill(EXPIRED.email)
  await page.getByRole('button', { name: copy.confirmPage.resendLabel }).click()
  await expect(page.getByRole('status').filter({ hasText: copy.confirmPage.resendDone })).toBeVisible()

  const mail = await mailTo(EXPIRED.email)
  expect(mail.subject).toBe(copy.email.accessSubject)
  await page.goto(confirmLink(mail))
  await expect(heading(page, copy.confirmPage.alreadyTitle)).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: seedCopy.waitlist.placePanel.title })).toBeVisible()
  // The old link is still expired; the new one did not need it cancelled.
  await page.goto(`/waitlist/confirm#token=${EXPIRED.token}`)
  await expect(heading(page, copy.confirmPage.expiredTitle)).toBeVisible()
})

test('a sign-up never confirmed is deleted after its week: its link says so and offers to join again, which works', async ({ page }) => {
  // The dispatch loop beside the site runs the purge: the entry is gone, and its link opens nothing.
  await expect.poll(() => statusOf(EXPIRED_PENDING.email)).toBeNull()
  await page.goto(`/waitlist/confirm#token=${EXPIRED_PENDING.token}`)
  await expect(heading(page, copy.confirmPage.invalidTitle)).toBeVisible()
  await expect(page.getByText(copy.confirmPage.rejoinText)).toBeVisible()
  await page.getByRole('link', { name: copy.confirmPage.rejoinLabel }).click()
  await expect(page).toHaveURL('/waitlist')
  await joinWaitlist(page, { name: 'Expired Pending', email: EXPIRED_PENDING.email })
  await mailTo(EXPIRED_PENDING.email)
})

// not seed copy: the tests' names, and the addresses they open.
for (const [name, path] of [
  ['no token', '/waitlist/confirm'],
  ['an unknown token', `/waitlist/confirm#token=${'x'.repeat(43)}`],
] as const) {
  test(`the answer to ${name} appears without moving anything already on screen (layout shift 0)`, async ({ page }) => {
    // The scripts wait until the checking state is on screen, and the shifts are counted from
    // then: what is judged is the answer arriving, not how a loaded machine paints a page still
    // coming in (CI once counted 0.00009 here; e2e/page-load.phone.spec.ts judges the first paint).
    let release = () => {}
    const scripts = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/_next/static/**/*.js', async (route) => {
      await scripts
      await route.continue()
    })
    await page.goto(path, { waitUntil: 'domcontentloaded' })
    await expect(heading(page, copy.confirmPage.checkingTitle)).toBeVisible()
    await page.evaluate(() => {
      const counted = window as unknown as { shifted: number }
      counted.shifted = 0
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => (counted.shifted += (entry as unknown as { value: number }).value))).observe({
        type: 'layout-shift',
      })
    })
    release()
    await expect(heading(page, copy.confirmPage.invalidTitle)).toBeVisible()
    await expect(page.getByRole('button', { name: copy.confirmPage.resendLabel })).toBeVisible()
    // A frame for the observer to hear of a shift in the answer's last paint.
    await page.waitForTimeout(250)
    expect(await page.evaluate(() => (window as unknown as { shifted: number }).shifted)).toBe(0)
  })
}

// Lighthouse's LCP waits for the island when the island draws the page's largest text. The server's
// HTML carries the checking text in the paragraph every answer reuses, so the largest paint is the
// HTML's, however long the scripts take.
// not seed copy: the tests' names, and the addresses they open.
for (const [name, path] of [
  ['no token', '/waitlist/confirm'],
  ['an unknown token', `/waitlist/confirm#token=${'x'.repeat(43)}`],
] as const) {
  test(`with ${name}, the largest paint is in the server's HTML: the answer changes words, not what LCP measures`, async ({ page }) => {
    let release: () => void = () => {}
    const scriptsHeld = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/*', async (route) => {
      if (route.request().resourceType() !== 'document') await scriptsHeld
      await route.continue().catch(() => {
        // The test may have ended while this request was held.
      })
    })
    await page.goto(path, { waitUntil: 'commit' })
    await expect(page.getByText(copy.confirmPage.checkingText)).toBeVisible()
    await page.waitForTimeout(300)
    const releasedAt = await page.evaluate(() => performance.now())
    release()
    await expect(heading(page, copy.confirmPage.invalidTitle)).toBeVisible()
    await expect(page.getByText(copy.confirmPage.invalidText)).toBeVisible()
    await expect(page.getByRole('button', { name: copy.confirmPage.resendLabel })).toBeVisible()
    await page.waitForTimeout(300)
    const candidates = await page.evaluate(
      () =>
        new Promise<number[]>((resolve) =>
          new PerformanceObserver((list) => resolve(list.getEntries().map((entry) => entry.startTime))).observe({
            type: 'largest-contentful-paint',
            buffered: true,
          }),
        ),
    )
    expect(candidates.length).toBeGreaterThan(0)
    expect(Math.max(...candidates)).toBeLessThan(releasedAt)
  })
}

test('an unknown, cut-off or missing token gets the same page, which offers a new link and says the same for any address', async ({ page }) => {
  for (const suffix of ['#token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '#token=abc', '']) {
    await page.goto(`/waitlist/confirm${suffix}`)
    await expect(heading(page, copy.confirmPage.invalidTitle)).toBeVisible()
    await expect(page.getByText(copy.confirmPage.invalidText)).toBeVisible()
  }
  await page.getByLabel(copy.confirmPage.resendEmailLabel).fill(uniqueEmail('nobody'))
  await page.getByRole('button', { name: copy.confirmPage.resendLabel }).click()
  await expect(page.getByRole('status').filter({ hasText: copy.confirmPage.resendDone })).toBeVisible()
})

test.describe('in a browser that runs no JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the page says the check needs JavaScript, instead of checking for ever', async ({ page }) => {
    await page.goto('/waitlist/confirm#token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
    await expect(heading(page, copy.confirmPage.checkingTitle)).toBeVisible()
    // Located by its attribute: Playwright's text matching skips <noscript> (it has no script to hide it from).
    await expect(page.locator('[data-no-script-note]')).toBeVisible()
    await expect(page.locator('[data-no-script-note]')).toHaveText(copy.confirmPage.noScriptText)
  })
})

test('with JavaScript the no-JavaScript note never shows', async ({ page }) => {
  await page.goto('/waitlist/confirm#token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
  await expect(heading(page, copy.confirmPage.invalidTitle)).toBeVisible()
  await expect(page.locator('[data-no-script-note]')).toHaveCount(0)
  await expect(page.locator('main')).not.toContainText(copy.confirmPage.noScriptText)
})

test('the database being unreachable is a page that offers to try again, not an error screen', async ({ page }) => {
  await page.route(`http://127.0.0.1:${E2E.supabasePort}/rest/v1/rpc/**`, (route) => route.abort('connectionrefused'))
  await page.goto('/waitlist/confirm#token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
  await expect(heading(page, copy.confirmPage.unreachableTitle)).toBeVisible()
  await page.unroute(`http://127.0.0.1:${E2E.supabasePort}/rest/v1/rpc/**`)
  await page.getByRole('button', { name: copy.confirmPage.retryLabel }).click()
  await expect(heading(page, copy.confirmPage.invalidTitle)).toBeVisible()
})

test.describe('with analytics accepted', () => {
  test.use({ consent: 'granted' })

  test('a confirmation records waitlist_confirmed with no personal data', async ({ page }) => {
    const ph = await captureAnalytics(page)
    const email = uniqueEmail('tracked')
    await joinWaitlist(page, { name: 'Tracked Person', email })
    const link = confirmLink(await mailTo(email))
    await page.goto(link)
    await expect(heading(page, copy.confirmPage.readyTitle)).toBeVisible()
    // Reading what the link opens is no confirmation: nothing is recorded before the press.
    await page.waitForLoadState('networkidle')
    expect(ph.named('waitlist_confirmed')).toHaveLength(0)
    await page.getByRole('button', { name: copy.confirmPage.confirmLabel }).click()
    await expect(heading(page, copy.confirmPage.confirmedTitle)).toBeVisible()
    await expect.poll(() => ph.named('waitlist_confirmed').length).toBe(1)
    const [event] = ph.named('waitlist_confirmed')
    const own = Object.fromEntries(Object.entries(event?.properties ?? {}).filter(([key]) => !key.startsWith('$') && !['token', 'distinct_id'].includes(key)))
    expect(JSON.stringify(own)).not.toContain(email)
    expect(JSON.stringify(event)).not.toContain(link.split('#token=')[1])
  })
})

test('the dispatch route refuses calls without the secret', async ({ request }) => {
  const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-secret' }, { authorization: 'e2e-server-only-outbox-dispatch-secret' }]
  for (const headers of attempts) {
    const response = await request.post('/api/outbox/dispatch', { headers })
    expect(response.status()).toBe(401)
  }
  expect((await request.get('/api/outbox/dispatch')).status()).toBe(401)
})
