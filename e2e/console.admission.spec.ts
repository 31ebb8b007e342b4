import { chromium, type Page } from '@playwright/test'
import { admittedPerson, emptyTheLine, invitationTo, signUpAndConfirm, startOwnerConsole } from './admission'
import { axeViolations } from './a11y'
import { expect, test } from './fixtures'
import { emailsTo } from './inbox'
import { copy } from './seed-copy'
import { outboxSettled, owner, statusOf, waitingLine } from './waitlist-rows'
import { webhookDeliveries } from './webhooks'

// The founders' console (`npm run waitlist:console`) as a founder uses it in Chromium: the funnel
// read from the database, the chart, the head of the line, and "Invite next N" pressed on the page;
// and as a hostile web page would reach it: through DNS rebinding (a foreign Host), from another
// origin (a foreign Origin), or without this run's token. An admission spec: it invites people.
// The console's words are its own (tools/owner/console/page.ts), not content from Sanity: the
// founders' tool, in English, never edited in the Studio.

const stamp = `c${Date.now().toString(36)}`
const [eve, fay] = [admittedPerson('Eve', stamp), admittedPerson('Fay', stamp)]
const [gil, hal] = [admittedPerson('Gil', stamp), admittedPerson('Hal', stamp)]
/** The failed webhook delivery e2e/seed/confirmation.sql stores (an entry.left for this id). */
const FAILED_DELIVERY_ENTRY = '00000000-0000-4000-8000-00000000e2e0'
const { email: words } = copy.waitlist

let ownerConsole: Awaited<ReturnType<typeof startOwnerConsole>> | undefined
/** The address the console printed: its origin and this run's token. */
let printed: URL

test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  ownerConsole = await startOwnerConsole()
  printed = ownerConsole.url
})

test.afterAll(() => {
  ownerConsole?.stop()
})

/** What the owner's table holds, counted here on its own: the funnel's expected figures. */
async function statusCounts() {
  const { data, error } = await owner.from('waitlist').select('status')
  if (error) throw new Error(error.message)
  const statuses = (data as { status: string }[]).map((row) => row.status)
  const atLeast = (...some: string[]) => statuses.filter((status) => some.includes(status)).length
  return { signedUp: statuses.length, confirmed: atLeast('confirmed', 'invited', 'joined'), invited: atLeast('invited', 'joined'), joined: atLeast('joined') }
}

const cell = (page: Page, table: string, row: string, column: number) =>
  page
    .getByRole('region', { name: table })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: row, exact: true }) })
    .getByRole('cell')
    .nth(column)

test('shows the funnel, the chart and the line, and invites the next in line from the page, once', async ({ page }) => {
  await emptyTheLine()
  for (const someone of [eve, fay]) await signUpAndConfirm(page, someone)
  expect(await waitingLine()).toEqual([eve.email, fay.email])

  await page.goto(printed.href)
  // not seed copy: the console's words
  await expect(page.getByRole('heading', { level: 1, name: 'Waitlist console' })).toBeVisible()
  const counts = await statusCounts()
  // not seed copy: the console's words
  for (const [step, count] of [
    ['Signed up', counts.signedUp],
    ['Confirmed', counts.confirmed],
    ['Invited', counts.invited],
    ['Joined', counts.joined],
  ] as const) {
    await expect(cell(page, 'Funnel figures', step, 0), step).toHaveText(String(count))
  }
  // not seed copy: the console's words
  await expect(cell(page, 'Funnel figures', 'Confirmed', 1)).toHaveText(
    `${(Math.round((1000 * counts.confirmed) / counts.signedUp) / 10).toFixed(1)} % of signed up`,
  )
  // not seed copy: the console's words
  const chart = page.getByRole('img', { name: 'Sign-ups and confirmations per day' })
  await expect(chart).toBeVisible()
  expect(await chart.locator('rect.signups').count()).toBeGreaterThan(0)
  // not seed copy: the console's words
  const line = page.getByRole('region', { name: 'Next in line' }).getByRole('row')
  await expect(line.nth(1)).toContainText(eve.email)
  await expect(line.nth(2)).toContainText(fay.email)
  expect(await axeViolations(page)).toEqual([])

  // Preview one, then invite them.
  // not seed copy: the console's words
  await page.getByLabel('How many').fill('1')
  // not seed copy: the console's words
  await page.getByRole('button', { name: 'Preview' }).click()
  // not seed copy: the console's words
  const preview = page.getByRole('region', { name: 'Would be invited' }).getByRole('row')
  await expect(preview).toHaveCount(2)
  await expect(preview.nth(1)).toContainText(eve.email)
  // The same preview in a second tab, pressed after the first: it is stale by then.
  const stale = await page.context().newPage()
  await stale.goto(page.url())
  // not seed copy: the console's words
  await page.getByRole('button', { name: 'Invite 1 person' }).click()
  // not seed copy: the console's words
  await expect(page.getByRole('status')).toContainText('Invited 1 person.')
  // not seed copy: the console's words
  await expect(page.getByRole('region', { name: 'Invited', exact: true })).toContainText(eve.email)
  expect(await statusOf(eve.email)).toBe('invited')
  await invitationTo(eve.email)

  // Reloading the result, or pressing the stale preview's button, invites nobody more.
  await page.reload()
  // not seed copy: the console's words
  await expect(page.getByRole('status')).toContainText('Invited 1 person.')
  // not seed copy: the console's words
  await stale.getByRole('button', { name: 'Invite 1 person' }).click()
  // not seed copy: the console's words
  await expect(stale.getByRole('status')).toContainText('Nobody was invited')
  // not seed copy: the console's words
  await expect(stale.getByRole('region', { name: 'Would be invited' })).toContainText(fay.email)
  await outboxSettled()
  expect(await statusOf(fay.email)).toBe('confirmed')
  expect(await emailsTo(eve.email, words.invitationSubject)).toHaveLength(1)
  expect(await emailsTo(fay.email, words.invitationSubject)).toEqual([])
})

test('shows the held referral credits and the webhook deliveries, grants a credit and resends a failed delivery from the page', async ({ page }) => {
  // Every page of the suite signs up from 127.0.0.1: a friend joining through Gil's link comes
  // from Gil's own network within the hour, so the credit is held for a founder's decision.
  await signUpAndConfirm(page, gil)
  const { data, error } = await owner.from('waitlist').select('referral_code').eq('email', gil.email).single()
  if (error) throw new Error(error.message)
  await signUpAndConfirm(page, hal, `/waitlist?ref=${(data as { referral_code: string }).referral_code}`)
  // The page is read once: the dispatcher has dealt with their confirmations' webhooks first.
  await outboxSettled()

  await page.goto(printed.href)
  // not seed copy: the console's words
  const held = page.getByRole('region', { name: 'Credits awaiting your decision' }).getByRole('row').filter({ hasText: hal.email })
  await expect(held).toHaveCount(1)
  // not seed copy: the console's words
  await expect(held).toContainText('same network as the referrer')
  await expect(held).toContainText(gil.email)
  // not seed copy: the console's words
  const deliveries = page.getByRole('region', { name: 'Latest deliveries' }).getByRole('row')
  const failed = deliveries.filter({ hasText: FAILED_DELIVERY_ENTRY })
  // not seed copy: the console's words
  await expect(failed).toContainText('failed')
  await expect(failed).toContainText('Webhook answered HTTP 503.') // not seed copy: the stored error
  // The suite's receiver (tools/test/webhook-inbox.ts) took Gil's and Hal's confirmations.
  // not seed copy: the console's words
  const confirmed = deliveries.filter({ hasText: 'entry.confirmed' }).first() // not seed copy: the event's type
  await expect(confirmed).toContainText('sent')
  await expect(confirmed).not.toContainText('not sent') // not seed copy: the console's words
  expect(await axeViolations(page)).toEqual([])

  // not seed copy: the console's words
  await held.getByRole('button', { name: /^Grant credit \d+$/ }).click()
  // not seed copy: the console's words
  await expect(page.getByRole('status')).toContainText('it now counts')
  // not seed copy: the console's words
  await expect(page.getByRole('region', { name: 'Credits awaiting your decision' }).getByRole('row').filter({ hasText: hal.email })).toHaveCount(0)

  // not seed copy: the console's words
  await page
    .getByRole('region', { name: 'Latest deliveries' })
    .getByRole('row')
    .filter({ hasText: FAILED_DELIVERY_ENTRY })
    .getByRole('button', { name: /^Resend delivery / })
    .click()
  // not seed copy: the console's words
  await expect(page.getByRole('status')).toContainText('is due again')
  expect(await axeViolations(page)).toEqual([])
  // The dispatcher takes it again and the suite's receiver takes it: sent, and no Resend is offered.
  await outboxSettled()
  await page.goto(printed.href)
  const again = page.getByRole('region', { name: 'Latest deliveries' }).getByRole('row').filter({ hasText: FAILED_DELIVERY_ENTRY }) // not seed copy: the console's words
  // not seed copy: the console's words
  await expect(again).toContainText('sent')
  await expect(again).not.toContainText(/failed|not sent/) // not seed copy: the console's words
  await expect(again.getByRole('button')).toHaveCount(0)
  expect((await webhookDeliveries()).filter((delivery) => delivery.body.includes(FAILED_DELIVERY_ENTRY)).map((delivery) => delivery.verified)).toEqual([true])
})

test('refuses a request without this run’s token', async ({ page }) => {
  // not seed copy: the console's words
  for (const address of [printed.origin, `${printed.origin}/?token=${'A'.repeat(43)}`]) {
    const response = await page.goto(address)
    expect(response?.status(), address).toBe(403)
    // not seed copy: the console's words
    await expect(page.locator('body')).toContainText('Refused')
    await expect(page.locator('body')).not.toContainText(fay.email)
  }
})

test('refuses a page that reaches it through DNS rebinding: a foreign Host', async () => {
  // The attacker's name resolves to 127.0.0.1, as a rebinding DNS answer makes it; even with the token the page is refused.
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--host-resolver-rules=MAP rebind.example 127.0.0.1'],
  })
  try {
    const page = await browser.newPage()
    const response = await page.goto(`http://rebind.example:${printed.port}/?${printed.searchParams}`)
    expect(response?.status()).toBe(421)
    await expect(page.locator('body')).not.toContainText(fay.email)
  } finally {
    await browser.close()
  }
})

test('refuses an action sent by another web page: a foreign Origin, even with the token', async ({ page }) => {
  // A page on another site that knows the token and posts the Invite form to the console.
  await page.route('http://attacker.example/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<title>Cats</title><form method="post" action="${printed.origin}/invite"><input name="token" value="${printed.searchParams.get('token')}"><input name="n" value="1"><input name="expect" value="x"><button>Go</button></form>`,
    }),
  )
  await page.goto('http://attacker.example/')
  // not seed copy: the console's words
  const [answer] = await Promise.all([page.waitForResponse(`${printed.origin}/invite`), page.getByRole('button', { name: 'Go' }).click()])
  expect(answer.status()).toBe(403)
  expect(await answer.request().headerValue('origin')).toBe('http://attacker.example')
  expect(await statusOf(fay.email)).toBe('confirmed')
})

test('refuses an action from its own origin without the token, or with a wrong one', async ({ request }) => {
  for (const token of [undefined, 'A'.repeat(43)]) {
    const form = { n: '1', expect: 'x', ...(token ? { token } : {}) }
    const answer = await request.post(`${printed.origin}/invite`, { headers: { origin: printed.origin }, form })
    expect(answer.status(), String(token)).toBe(403)
  }
  expect(await statusOf(fay.email)).toBe('confirmed')
})
