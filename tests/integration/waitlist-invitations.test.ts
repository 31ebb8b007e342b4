/**
 * Letting people in (supabase/migrations/*_waitlist_invitations.sql), on PGlite and on a real
 * PostgreSQL server (where concurrent calls really overlap), with the real dispatcher (its e-mails
 * captured): statuses and their transitions, invitations in the order people earned, the
 * invitation e-mail and its reminder sent once, redemption by the app, expiry back into line,
 * one-click unsubscribe, and what the public key cannot do.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { dispatchOutbox, type DispatchOptions, type OutboxStore } from '@/components/waitlist/outbox/dispatch'
import { capturingEmail, databaseStore, linkToken } from '../helpers/outbox-store'
import { onEachDatabase, resetForMailTests, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { rowsHolding, waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb
const targets = await waitlistDbTargets('waitlist-invitations')
const copy = seedEmailCopy()
const APP = 'https://app.heardly.example/'

type Invited = { place: number; name: string; email: string }

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    let mail = capturingEmail()
    const slack: unknown[] = []

    beforeEach(async () => {
      mail = capturingEmail()
      slack.length = 0
      await resetForMailTests(db)
      // The place per referral and the invitation periods these tests count with, stated here.
      await db.exec(`
      update private.waitlist_referral_settings set places_per_referral = 5;
      update private.waitlist_invitation_settings set invitation_ttl = interval '14 days', reminder_after = interval '5 days';
    `)
    })

    const { address, joined, signUp, mailToken, confirm } = waitlistPeople(() => db, 'invitations.test')
    const options = (overrides: Partial<DispatchOptions> = {}): DispatchOptions => ({
      store: databaseStore(() => db),
      email: mail.channel,
      slack: async (body) => void slack.push(body),
      slackIncludeEmail: false,
      copy: async () => copy,
      appUrl: async () => APP,
      siteUrl: 'https://heardly.example',
      ...overrides,
    })
    const dispatch = (overrides?: Partial<DispatchOptions>) => dispatchOutbox(options(overrides))

    async function service<T>(sql: string, params: unknown[] = []): Promise<T> {
      const result = await runAs<{ value: T }>(db, 'service_role', sql, params, { keep: true, request: { headers: {} } })
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      return result.rows[0]!.value
    }
    const inviteNext = (n: number, dryRun = false) => service<Invited[]>('select public.waitlist_invite_next($1, $2) as value', [n, dryRun])
    const redeem = (token: string) => service<Record<string, unknown>>('select public.waitlist_redeem_invitation($1) as value', [token])
    const entry = async (email: string) =>
      (
        await db.query<{ status: string; invited_at: Date | null; joined_at: Date | null; confirmed_at: Date | null }>(
          'select status, invited_at, joined_at, confirmed_at from public.waitlist where email = $1',
          [email],
        )
      ).rows[0]
    const invitationLink = (email: string) => {
      const sent = mail.sent.filter((message) => message.to.address === email && message.subject === copy.invitationSubject).at(-1)
      if (!sent) throw new Error(`no invitation to ${email}`)
      const url = new URL(/https:\/\/app\.heardly\.example\/\?invitation=[A-Za-z0-9_-]{43}/.exec(sent.text)![0])
      return url.searchParams.get('invitation')!
    }

    /** People who confirmed one after the other, oldest first, with their e-mailed links' tokens. */
    async function line(count: number) {
      const people: { email: string; token: string }[] = []
      for (let i = 0; i < count; i++) people.push(await joined(address(), null, `Person ${i + 1}`))
      return people
    }

    describe('statuses', () => {
      it('move pending → confirmed → invited → joined, each with its time; the database refuses anything else', async () => {
        const email = address()
        expect(await signUp(email)).toMatchObject({ ok: true })
        for (const status of ['invited', 'joined']) {
          await expect(db.query(`update public.waitlist set status = $2 where email = $1`, [email, status])).rejects.toThrow(/cannot go from pending/)
        }
        await confirm(await mailToken(email))
        await expect(db.query(`update public.waitlist set status = 'joined' where email = $1`, [email])).rejects.toThrow(/cannot go from confirmed to joined/)
        await expect(db.query(`update public.waitlist set status = 'pending' where email = $1`, [email])).rejects.toThrow(/cannot go from confirmed to pending/)
        expect(await inviteNext(1)).toEqual([expect.objectContaining({ email, place: 1 })])
        expect(await entry(email)).toMatchObject({ status: 'invited', invited_at: expect.any(Date), joined_at: null })
        await expect(db.query(`update public.waitlist set status = 'pending' where email = $1`, [email])).rejects.toThrow(/cannot go from invited to pending/)
        await dispatch()
        expect(await redeem(invitationLink(email))).toMatchObject({ email })
        expect(await entry(email)).toMatchObject({ status: 'joined', joined_at: expect.any(Date) })
        for (const status of ['pending', 'confirmed', 'invited']) {
          await expect(db.query(`update public.waitlist set status = $2 where email = $1`, [email, status])).rejects.toThrow(/cannot go from joined/)
        }
        // Nor can an inconsistent row be written directly.
        await expect(db.query(`insert into public.waitlist (name, email, status) values ('X', $1, 'joined')`, [address()])).rejects.toThrow(
          /waitlist_step_times/,
        )
      })

      it('the public key can read or change none of it, nor invite, redeem or unsubscribe', async () => {
        await joined()
        for (const sql of [
          "update public.waitlist set status = 'invited'",
          'select invited_at from public.waitlist',
          'select * from private.waitlist_invitations',
          'select * from private.waitlist_invitation_tokens',
          'select public.waitlist_invite_next(1)',
          "select public.waitlist_invite_email('x@invitations.test')",
          'select public.waitlist_line_head(5)',
          `select public.waitlist_redeem_invitation('${'A'.repeat(43)}')`,
          `select public.waitlist_unsubscribe('${'A'.repeat(43)}')`,
          `select public.waitlist_outbox_attach_unsubscribe(gen_random_uuid(), gen_random_uuid(), repeat('a', 64))`,
        ]) {
          expect(await runAs(db, 'anon', sql, [], { request: { headers: { 'x-forwarded-for': '203.0.113.200' } } }), sql).toMatchObject({
            ok: false,
            code: '42501',
          })
        }
      })
    })

    describe('inviting in order', () => {
      it('--next N picks exactly the top N of the line: confirmation order, referral credits, ties to the earlier', async () => {
        const people = await line(8)
        // The 7th brings in one confirmed referral: 5 places up, from 7th to 2nd's score; the tie goes to the 2nd.
        const code = (await db.query<{ referral_code: string }>('select referral_code from public.waitlist where email = $1', [people[6]!.email])).rows[0]!
          .referral_code
        await joined(address(), code, 'Referred Friend')
        // The expected order, computed here from the rule rather than read from the database.
        const order = [0, 1, 6, 2, 3, 4, 5, 7].map((i) => people[i]!.email)
        const preview = await inviteNext(3, true)
        expect(preview.map((person) => [person.place, person.email])).toEqual([
          [1, order[0]],
          [2, order[1]],
          [3, order[2]],
        ])
        expect((await db.query(`select count(*)::int as n from public.waitlist where status = 'invited'`)).rows[0]).toEqual({ n: 0 })
        const invited = await inviteNext(3)
        expect(invited.map((person) => person.email)).toEqual(order.slice(0, 3))
        expect(invited.map((person) => person.name)).toEqual(['Person 1', 'Person 2', 'Person 7'])
        const next = await inviteNext(2)
        expect(next.map((person) => person.email)).toEqual(order.slice(3, 5))
        // Each invitation is written with its e-mail, in the same transaction.
        const messages = await db.query<{ email: string }>(
          `select w.email from public.waitlist_outbox o join public.waitlist w on w.id = o.entry_id where o.kind = 'invitation_email' order by w.email`,
        )
        expect(messages.rows.map((row) => row.email)).toEqual(order.slice(0, 5).sort())
      })

      it('--email invites one person out of order, and says why not for anyone else', async () => {
        const people = await line(3)
        const pending = address()
        await signUp(pending)
        expect(await service('select public.waitlist_invite_email($1) as value', [people[2]!.email.toUpperCase()])).toMatchObject({ invited: true, place: 3 })
        expect(await service('select public.waitlist_invite_email($1) as value', [people[2]!.email])).toEqual({ invited: false, reason: 'status is invited' })
        expect(await service('select public.waitlist_invite_email($1) as value', [pending])).toEqual({ invited: false, reason: 'status is pending' })
        expect(await service('select public.waitlist_invite_email($1) as value', ['nobody@invitations.test'])).toEqual({
          invited: false,
          reason: 'not on the list',
        })
        expect(await db.query(`select out_of_order from private.waitlist_invitations`)).toMatchObject({ rows: [{ out_of_order: true }] })
      })

      it('two runs at once never invite a person twice: each gets its own people, each invitation e-mailed once', async () => {
        await line(10)
        const runs = await Promise.all([inviteNext(3), inviteNext(3), inviteNext(3)])
        const emails = runs.flat().map((person) => person.email)
        expect(emails).toHaveLength(9)
        expect(new Set(emails).size).toBe(9)
        await Promise.all([dispatch(), dispatch(), dispatch()])
        const invitations = mail.sent.filter((message) => message.subject === copy.invitationSubject).map((message) => message.to.address)
        expect(invitations.sort()).toEqual([...emails].sort())
        expect((await db.query(`select count(*)::int as n from private.waitlist_invitations`)).rows[0]).toEqual({ n: 9 })
      })
    })

    describe('the invitation e-mail', () => {
      it('says they are in, greets them by name, links to the app with a token stored only as its hash, and carries a one-click way off the list', async () => {
        const [person] = await line(1)
        await inviteNext(1)
        await dispatch()
        const [invitation] = mail.sent.filter((message) => message.subject === copy.invitationSubject)
        expect(invitation!.to).toEqual({ name: 'Person 1', address: person!.email })
        expect(invitation!.text).toContain(copy.greeting.replace('{name}', 'Person 1'))
        for (const paragraph of copy.invitationBody.split('\n')) expect(invitation!.text).toContain(paragraph)
        const token = invitationLink(person!.email)
        expect(Buffer.from(token, 'base64url')).toHaveLength(32)
        const dump = (
          await db.query<{ dump: string }>(
            `select (select string_agg(k::text, ' ') from private.waitlist_invitation_tokens k) || (select string_agg(o::text, ' ') from public.waitlist_outbox o) as dump`,
          )
        ).rows[0]!.dump
        expect(dump).not.toContain(token)
        expect(invitation!.unsubscribeUrl).toMatch(/^https:\/\/heardly\.example\/api\/unsubscribe\?token=[A-Za-z0-9_-]{43}$/)
        expect(invitation!.text).toContain(copy.unsubscribeLabel)
      })

      it('is not sent twice when the dispatcher dies after sending it', async () => {
        await line(1)
        await dispatch()
        mail.sent.length = 0
        await inviteNext(1)
        const crashing: OutboxStore = {
          ...databaseStore(() => db),
          complete: async () => {
            throw new Error('simulated crash before marking')
          },
        }
        await expect(dispatch({ store: crashing })).rejects.toThrow(/simulated crash/)
        expect(mail.sent).toHaveLength(1)
        await db.exec(`update public.waitlist_outbox set lease_until = now() - interval '1 second' where status = 'sending'`)
        await dispatch()
        await dispatch()
        expect(mail.sent).toHaveLength(1)
        expect((await db.query(`select status from public.waitlist_outbox where kind = 'invitation_email'`)).rows).toEqual([{ status: 'in_doubt' }])
      })

      it('is reminded once after 5 days if unused, with a link of its own; the first link still works', async () => {
        const [person] = await line(1)
        await inviteNext(1)
        await dispatch()
        const first = invitationLink(person!.email)
        await dispatch()
        expect(mail.sent.filter((message) => message.subject === copy.reminderSubject)).toHaveLength(0)
        await db.exec(`update private.waitlist_invitations set invited_at = invited_at - interval '5 days 1 minute'`)
        await dispatch()
        await dispatch()
        const reminders = mail.sent.filter((message) => message.subject === copy.reminderSubject)
        expect(reminders).toHaveLength(1)
        const second = new URL(/https:\/\/app\.heardly\.example\/\?invitation=[A-Za-z0-9_-]{43}/.exec(reminders[0]!.text)![0]).searchParams.get('invitation')!
        expect(second).not.toBe(first)
        expect(await redeem(first)).toMatchObject({ email: person!.email })
        expect(await redeem(second)).toEqual({ error: 'used' })
      })
    })

    describe('redeeming (the app)', () => {
      it('a live token redeems once and says who it is; used, expired and unknown tokens name nobody', async () => {
        const [a, b] = await line(2)
        await inviteNext(2)
        await dispatch()
        const answer = await redeem(invitationLink(a!.email))
        expect(answer).toEqual({
          name: 'Person 1',
          email: a!.email,
          company: 'Acme',
          founding_member: true,
          invited_at: expect.any(String),
          joined_at: expect.any(String),
          language: 'en',
        })
        expect(await redeem(invitationLink(a!.email))).toEqual({ error: 'used' })
        expect(await redeem('A'.repeat(43))).toEqual({ error: 'unknown' })
        expect(await redeem('short')).toEqual({ error: 'unknown' })
        await db.exec(`update private.waitlist_invitations set expires_at = now() - interval '1 second' where redeemed_at is null`)
        expect(await redeem(invitationLink(b!.email))).toEqual({ error: 'expired' })
      })

      it('concurrent redemptions of one token: exactly one succeeds', async () => {
        const [person] = await line(1)
        await inviteNext(1)
        await dispatch()
        const token = invitationLink(person!.email)
        const answers = await Promise.all(Array.from({ length: 12 }, () => redeem(token)))
        expect(answers.filter((answer) => 'email' in answer)).toHaveLength(1)
        expect(answers.filter((answer) => answer.error === 'used')).toHaveLength(11)
      })

      it('tells Slack who joined, how long after the invitation, and how many of those invited have', async () => {
        const [a, b] = await line(2)
        await inviteNext(2)
        await dispatch()
        await db.exec(
          `update private.waitlist_invitations set invited_at = invited_at - interval '2 days 3 hours'; update public.waitlist set invited_at = invited_at - interval '2 days 3 hours' where status = 'invited'`,
        )
        await redeem(invitationLink(a!.email))
        await dispatch()
        const body = JSON.stringify(slack.at(-1))
        expect(body).toContain('Person 1')
        expect(body).toContain('2 days 3 hours after the invitation')
        expect(body).toContain('1 of 2 invited have joined')
        expect(body).not.toContain(b!.email)
      })
    })

    describe('at expiry', () => {
      it('an unused invitation expires after 14 days: the person is back in line at the place they had, and the next run invites them again', async () => {
        const people = await line(3)
        await inviteNext(1)
        await dispatch()
        const old = invitationLink(people[0]!.email)
        await db.exec(`update private.waitlist_invitations set invited_at = invited_at - interval '14 days', expires_at = expires_at - interval '14 days'`)
        await dispatch()
        expect(await entry(people[0]!.email)).toMatchObject({ status: 'confirmed', invited_at: null })
        expect((await inviteNext(1, true)).map((person) => [person.place, person.email])).toEqual([[1, people[0]!.email]])
        expect(await redeem(old)).toEqual({ error: 'expired' })
        // No Slack "new sign-up" for coming back, and no second credit for their referrer.
        expect(JSON.stringify(slack)).not.toContain('4 confirmed')
        await inviteNext(1)
        await dispatch()
        expect(await redeem(invitationLink(people[0]!.email))).toMatchObject({ email: people[0]!.email })
        expect((await db.query(`select count(*)::int as n, count(expired_at)::int as expired from private.waitlist_invitations`)).rows[0]).toEqual({
          n: 2,
          expired: 1,
        })
      })
    })

    describe('one click off the list', () => {
      it('the token of any e-mail to the person takes them off, with everything that names them, and sends nothing more', async () => {
        const [person] = await line(1)
        await inviteNext(1)
        await dispatch()
        const invitation = mail.sent.find((message) => message.subject === copy.invitationSubject)!
        const token = new URL(invitation.unsubscribeUrl!).searchParams.get('token')!
        expect(await service('select public.waitlist_unsubscribe($1) as value', ['B'.repeat(43)])).toBe(false)
        expect(await service('select public.waitlist_unsubscribe($1) as value', [token])).toBe(true)
        expect(await entry(person!.email)).toBeUndefined()
        expect(await service('select public.waitlist_unsubscribe($1) as value', [token])).toBe(false)
        const sentBefore = mail.sent.length
        await dispatch()
        expect(mail.sent).toHaveLength(sentBefore)
        expect(await rowsHolding(db, [person!.email, 'Person 1'])).toEqual([])
      })

      it('every e-mail to a person on the list carries it; the erasure e-mail, to someone who has left, does not', async () => {
        const email = address()
        await signUp(email)
        await dispatch()
        const confirmation = mail.sent.at(-1)!
        expect(confirmation.unsubscribeUrl).toMatch(/\/api\/unsubscribe\?token=/)
        await confirm(linkToken(confirmation))
        await runAs(db, 'anon', 'select public.waitlist_request_link($1)', [email], { keep: true, request: { headers: { 'x-forwarded-for': '203.0.113.77' } } })
        await dispatch()
        const access = mail.sent.at(-1)!
        expect(access.subject).toBe(copy.accessSubject)
        expect(access.unsubscribeUrl).toMatch(/\/api\/unsubscribe\?token=/)
        await runAs(db, 'anon', 'select public.waitlist_delete_me($1)', [linkToken(access)], {
          keep: true,
          request: { headers: { 'x-forwarded-for': '203.0.113.78' } },
        })
        await dispatch()
        const erasure = mail.sent.at(-1)!
        expect(erasure.subject).toBe(copy.erasureSubject)
        expect(erasure.unsubscribeUrl).toBeUndefined()
      })
    })

    describe('the person’s own page', () => {
      it('shows "invited" with a fresh way in, then "joined"; the export holds the status, its times and the invitations', async () => {
        const [person] = await line(1)
        const me = (token: string) =>
          runAs<{ value: Record<string, unknown> }>(db, 'anon', 'select public.waitlist_me($1) as value', [token], {
            keep: true,
            request: { headers: { 'x-forwarded-for': '203.0.113.90' } },
          })
        await inviteNext(1)
        await dispatch()
        expect(await me(person!.token)).toMatchObject({
          ok: true,
          rows: [{ value: { status: 'invited', invited_at: expect.any(String), invitation_expires_at: expect.any(String) } }],
        })
        const fresh = await runAs<{ value: string }>(db, 'anon', 'select public.waitlist_invitation_link($1) as value', [person!.token], {
          keep: true,
          request: { headers: { 'x-forwarded-for': '203.0.113.91' } },
        })
        expect(fresh).toMatchObject({ ok: true, rows: [{ value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }] })
        expect(await redeem(fresh.ok ? fresh.rows[0]!.value : '')).toMatchObject({ email: person!.email })
        expect(await me(person!.token)).toMatchObject({ ok: true, rows: [{ value: { status: 'joined', joined_at: expect.any(String) } }] })
        const exported = await runAs<{ value: { entry: Record<string, unknown>; invitations: unknown[] } }>(
          db,
          'anon',
          'select public.waitlist_export_me($1) as value',
          [person!.token],
          {
            keep: true,
            request: { headers: { 'x-forwarded-for': '203.0.113.92' } },
          },
        )
        expect(exported.ok && exported.rows[0]!.value.entry).toMatchObject({
          status: 'joined',
          confirmed_at: expect.any(String),
          invited_at: expect.any(String),
          joined_at: expect.any(String),
        })
        expect(exported.ok && exported.rows[0]!.value.invitations).toEqual([expect.objectContaining({ redeemed_at: expect.any(String), expired_at: null })])
        // Another holder gets no way in.
        expect(
          await runAs(db, 'anon', 'select public.waitlist_invitation_link($1) as value', ['C'.repeat(43)], {
            keep: true,
            request: { headers: { 'x-forwarded-for': '203.0.113.93' } },
          }),
        ).toMatchObject({ ok: true, rows: [{ value: null }] })
      })
    })
  },
)
