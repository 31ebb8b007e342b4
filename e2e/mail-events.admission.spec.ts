import { Webhook } from 'standardwebhooks'
import { admittedPerson, emptyTheLine, invite, ownerEnv, signUpAndConfirm, startOwnerConsole } from './admission'
import { axeViolations } from './a11y'
import { expect, test } from './fixtures'
import { emailsTo } from './inbox'
import { copy } from './seed-copy'
import { outboxSettled, owner } from './waitlist-rows'
import { E2E } from '../tools/test/e2e-env'
import { readMailHealth, resumeMail } from '../tools/owner/mail'
import { ownerClient } from '../tools/owner/owner'

// The mail providers' events (issue #71) on the suite's server, signed as Resend signs them
// (Svix, with the suite's RESEND_WEBHOOK_SECRET): complaints for addresses nobody has raise the
// 7-day complaint rate above 0.3 % and sending pauses on its own; an invitation is queued while
// paused; the invitee's hard bounce then suppresses them, and a complaint ends another person's
// updates; the founders' console in Chromium shows the rates, the warning and the pause, and
// Resume sending; after it, everything else leaves and nothing reaches the bounced address, the
// invitation queued before the bounce included. An admission spec: it invites, and its pause
// must not hold up the specs that run beside it (the admission specs run one after another).

const stamp = `m${Date.now().toString(36)}`
const ann = admittedPerson('Ann', stamp)
const bo = { ...admittedPerson('Bo', stamp), updates: true }
const { email: words } = copy.waitlist
const client = ownerClient(ownerEnv).client
const site = `http://localhost:${E2E.sitePort}`
let counter = 0

let ownerConsole: Awaited<ReturnType<typeof startOwnerConsole>> | undefined

test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  ownerConsole = await startOwnerConsole()
})

test.afterAll(async () => {
  ownerConsole?.stop()
  // Whatever happened above, the specs after this one send again.
  await resumeMail(client)
})

/** A Resend event as Resend posts it: its documented body, signed now. */
async function resendEvent(type: 'email.bounced' | 'email.complained', to: string): Promise<Response> {
  const id = `msg_${stamp}_${++counter}`
  const body = JSON.stringify({
    type,
    created_at: new Date().toISOString(),
    data: {
      email_id: `e2e-${id}`,
      from: 'waitlist@example.com',
      to: [to],
      subject: 'not seed copy: the provider echoes a subject',
      ...(type === 'email.bounced' ? { bounce: { message: 'The recipient does not exist.', subType: 'General', type: 'Permanent' } } : {}),
    },
  })
  const at = new Date()
  return fetch(`${site}/api/mail-events/resend`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'svix-id': id,
      'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
      'svix-signature': new Webhook(E2E.resendSecret).sign(id, at, body),
    },
  })
}

test('a hard bounce stops every e-mail to the address, an invitation queued before it included; a complaint ends updates; the console shows the rates and the pause', async ({
  page,
}) => {
  await emptyTheLine()
  await signUpAndConfirm(page, ann)
  await signUpAndConfirm(page, bo)
  await outboxSettled()

  // A forged event is refused and changes nothing.
  const forged = await fetch(`${site}/api/mail-events/resend`, {
    method: 'POST',
    body: '{}',
    headers: { 'svix-id': 'x', 'svix-timestamp': String(Math.floor(Date.now() / 1000)), 'svix-signature': 'v1,AAAA' },
  })
  expect(forged.status).toBe(401)

  // Complaints from addresses nobody on the list has, until the rate pauses sending.
  for (let i = 0; i < 60 && !(await readMailHealth(client)).paused_at; i++) {
    expect((await resendEvent('email.complained', `complainer${i}.${stamp}@elsewhere.example`)).status).toBe(200)
  }
  const paused = await readMailHealth(client)
  expect(paused.paused_at, 'sending paused on its own').not.toBeNull()
  expect(paused.complaint_rate!).toBeGreaterThan(paused.pause_complaint_rate)

  // Queued while paused, then the invitee's address bounces (in another spelling).
  await invite(1)
  expect((await resendEvent('email.bounced', ann.email.toUpperCase())).status).toBe(200)
  expect(await (await resendEvent('email.complained', bo.email)).json()).toMatchObject({ ok: true, results: ['suppressed'] })
  const { data: boRow } = await owner.from('waitlist').select('updates').eq('email', bo.email).single()
  expect(boRow?.updates, 'a complaint ends updates').toBe(false)

  // The console, in Chromium.
  await page.goto(ownerConsole!.url.href)
  // not seed copy: the console's words
  const section = page.getByRole('region', { name: 'Bounces and complaints' })
  await expect(section).toBeVisible()
  // not seed copy: the console's words
  await expect(section.getByRole('alert').filter({ hasText: 'Sending is paused' })).toBeVisible()
  // not seed copy: the console's words
  await expect(section.getByRole('alert').filter({ hasText: /^Spam complaints are \d+\.\d\d % of e-mails sent \(warning above 0\.10 %\)\.$/ })).toBeVisible()
  const health = await readMailHealth(client)
  // not seed copy: the console's words
  const rates = page.getByRole('region', { name: 'The last 7 days' })
  // not seed copy: the console's words
  await expect(rates.getByRole('row').filter({ hasText: 'Spam complaints' })).toContainText(
    `${health.complained}${((health.complaint_rate ?? 0) * 100).toFixed(2)} %0.10 %0.30 %`,
  )
  // not seed copy: the console's words
  await expect(rates.getByRole('row').filter({ hasText: 'Bounces' })).toContainText(
    `${health.bounced}${((health.bounce_rate ?? 0) * 100).toFixed(2)} %2.00 %5.00 %`,
  )
  expect(await axeViolations(page)).toEqual([])
  // The invitation is still waiting while paused.
  expect(await emailsTo(ann.email, words.invitationSubject)).toEqual([])

  // not seed copy: the console's words
  await page.getByRole('button', { name: 'Resume sending' }).click()
  // not seed copy: the console's words
  await expect(section.getByRole('status')).toHaveText('Sending resumed: the dispatcher sends what waited, in order.')
  // not seed copy: the console's words
  await expect(section.getByRole('alert').filter({ hasText: 'Sending is paused' })).toHaveCount(0)
  expect((await readMailHealth(client)).paused_at).toBeNull()

  await outboxSettled()
  expect(await emailsTo(ann.email, words.invitationSubject), 'no invitation after the bounce').toEqual([])
  const { data: annRow } = await owner.from('waitlist').select('id').eq('email', ann.email).single()
  const { data: messages } = await owner.from('waitlist_outbox').select('status, note').eq('entry_id', annRow!.id).eq('kind', 'invitation_email')
  expect(messages).toEqual([expect.objectContaining({ status: 'skipped', note: 'Not sent: the address is suppressed (hard bounce).' })])
})
