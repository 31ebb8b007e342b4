import { LOCAL_INVITATION_REDEEM_SECRET } from '../tools/local/local-env'
import { admittedPerson, emptyTheLine, invitationTo, invite, signUpAndConfirm, withOwnBrowser } from './admission'
import { axeViolations } from './a11y'
import { expect, test } from './fixtures'
import { emailsTo, emailTo, headersOf } from './inbox'
import { copy } from './seed-copy'
import { outboxSettled, statusOf, waitingLine } from './waitlist-rows'

// Letting people in, as the founders and the product's app do it, through the real outbox into
// maildev: four sign-ups (one through another's referral link), `npm run waitlist:invite -- --next 2`
// e-mails exactly the two the line puts first, the app redeems an invitation through the API and
// the person's page says so, and every e-mail's one-click unsubscribe removes a person only when
// POSTed. An admission spec runs after every other (playwright.config.ts): inviting changes who is
// waiting in line, which other specs read.

const { confirmPage, email: words } = copy.waitlist
const stamp = Date.now().toString(36)
const [ada, bob, cy, di] = [admittedPerson('Ada', stamp), admittedPerson('Bob', stamp), admittedPerson('Cy', stamp), admittedPerson('Di', stamp)]

const redeem = (request: import('@playwright/test').APIRequestContext, token: unknown, secret = LOCAL_INVITATION_REDEEM_SECRET) =>
  request.post('/api/invitations/redeem', { headers: { authorization: `Bearer ${secret}` }, data: { token } })

test.describe.configure({ mode: 'serial', timeout: 120_000 })

const links: Record<string, string> = {}

test('four sign-ups, one referred; --next 2 invites exactly the first two of the line, each once', async ({ page, browser }) => {
  // Whoever earlier specs left waiting goes first: the line is theirs before ours.
  await emptyTheLine()

  links[ada.email] = await signUpAndConfirm(page, ada)
  const referral = await page.getByLabel(copy.waitlist.placePanel.linkLabel).inputValue()
  for (const someone of [bob, cy]) links[someone.email] = await signUpAndConfirm(page, someone)
  links[di.email] = await withOwnBrowser(browser, (friend) => signUpAndConfirm(friend, di, new URL(referral).pathname + new URL(referral).search))

  // Di came through Ada's link: Ada moves up; then Bob; Cy and Di follow.
  expect(await waitingLine()).toEqual([ada.email, bob.email, cy.email, di.email])
  const preview = await invite(2, { dryRun: true })
  expect(preview).toMatch(new RegExp(`1\\s+${ada.name}\\s+${ada.email.replace(/\./g, '\\.')}\\n2\\s+${bob.name}`))
  expect(await statusOf(ada.email)).toBe('confirmed')

  expect(await invite(2)).toContain('Invited 2.')
  const adaInvitation = await invitationTo(ada.email)
  await invitationTo(bob.email)
  expect(adaInvitation.mail.to).toEqual([{ address: ada.email, name: ada.name }])
  expect(adaInvitation.mail.text).toContain(words.greeting.replace('{name}', ada.name))
  // Exactly them, exactly once: once the outbox is sent, nothing more.
  await outboxSettled()
  for (const [someone, count] of [
    [ada, 1],
    [bob, 1],
    [cy, 0],
    [di, 0],
  ] as const)
    expect(await emailsTo(someone.email, words.invitationSubject), someone.email).toHaveLength(count)
  expect(await waitingLine()).toEqual([cy.email, di.email])
})

test('the app redeems an invitation once through the API; the person’s page says they joined', async ({ page, request }) => {
  const { token } = await invitationTo(ada.email)
  expect((await redeem(request, token, 'not-the-secret-at-all-0123456789')).status()).toBe(401)
  expect((await request.post('/api/invitations/redeem', { data: { token } })).status()).toBe(401)
  const redeemed = await redeem(request, token)
  expect(redeemed.status()).toBe(200)
  expect(await redeemed.json()).toEqual({
    name: ada.name,
    email: ada.email,
    company: '',
    foundingMember: true,
    invitedAt: expect.any(String),
    joinedAt: expect.any(String),
    language: 'en',
  })
  const again = await redeem(request, token)
  expect(again.status()).toBe(410)
  expect(await again.json()).toEqual({ error: 'invitation_used' })
  const unknown = await redeem(request, 'A'.repeat(43))
  expect(unknown.status()).toBe(404)
  expect(JSON.stringify(await unknown.json())).not.toContain('@')
  expect(await statusOf(ada.email)).toBe('joined')

  await page.goto(links[ada.email]!)
  await expect(page.getByRole('heading', { level: 1, name: confirmPage.joinedTitle })).toBeVisible()
  await expect(page.getByRole('link', { name: confirmPage.signInLabel })).toHaveAttribute('href', copy.settings.appUrl)
  expect(await axeViolations(page)).toEqual([])
})

test('an invited person’s page shows the way in: a fresh link to the app, which redeems', async ({ page, request }) => {
  await page.route('https://app.example.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>The app</title><h1>The app</h1>' }),
  )
  await page.goto(links[bob.email]!)
  await expect(page.getByRole('heading', { level: 1, name: confirmPage.invitedTitle })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: copy.waitlist.placePanel.dataTitle })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  await page.getByRole('button', { name: confirmPage.openAppLabel }).click()
  await page.waitForURL(/^https:\/\/app\.example\.com\/\?invitation=/)
  const token = new URL(page.url()).searchParams.get('invitation')!
  expect((await redeem(request, token)).status()).toBe(200)
  expect(await statusOf(bob.email)).toBe('joined')
})

test('one-click unsubscribe from an e-mail’s header removes the person only when POSTed; a GET leads to a page that asks', async ({ page, request }) => {
  const headers = await headersOf(await emailTo(cy.email, { subject: words.subject }))
  expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
  const header = /<(http:\/\/localhost:\d+\/api\/unsubscribe\?token=[A-Za-z0-9_-]{43})>/.exec(headers['list-unsubscribe'] ?? '')?.[1]
  expect(header, 'the List-Unsubscribe address').toBeDefined()

  // A mail scanner follows the link: nobody is removed.
  const followed = await request.get(header!, { maxRedirects: 0 })
  expect(followed.status()).toBe(303)
  expect(followed.headers().location).toMatch(/^\/waitlist\/unsubscribe#token=/)
  await request.get(header!)
  expect(await statusOf(cy.email)).toBe('confirmed')

  // The mail program's one click (RFC 8058): a POST with the One-Click body.
  const oneClick = await request.post(header!, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, data: 'List-Unsubscribe=One-Click' })
  expect(oneClick.status()).toBe(200)
  expect(await statusOf(cy.email)).toBeNull()

  // A person using the visible link: the page asks first, and the press removes them.
  const mail = await emailTo(di.email, { subject: words.subject })
  const visible = /http:\/\/localhost:\d+\/waitlist\/unsubscribe#token=[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0]
  expect(visible, 'the visible link off the list').toBeDefined()
  await page.goto(visible!)
  const leave = copy.waitlist.unsubscribePage
  await expect(page.getByRole('heading', { level: 1, name: leave.title })).toBeVisible()
  // The token leaves the address bar (and history) as the page starts.
  await expect.poll(() => new URL(page.url()).hash).toBe('')
  expect(await statusOf(di.email)).toBe('confirmed')
  expect(await axeViolations(page)).toEqual([])
  await page.getByRole('button', { name: leave.buttonLabel }).click()
  await expect(page.getByRole('heading', { level: 1, name: leave.doneTitle })).toBeVisible()
  expect(await statusOf(di.email)).toBeNull()
  // Nothing more reaches them: no erasure e-mail for someone who asked for no more mail.
  await outboxSettled()
  expect(await emailsTo(di.email, words.erasureSubject)).toEqual([])
})
