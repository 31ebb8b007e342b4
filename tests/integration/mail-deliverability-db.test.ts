/**
 * Deliverability in the database (supabase/schemas/21_deliverability.sql, and the outbox's claim and
 * last check in 07_outbox.sql), on PGlite and a real PostgreSQL, through the real dispatcher: a hard
 * bounce or complaint suppresses the mailbox in every spelling, its queued e-mails (an invitation
 * among them) are never sent, a complaint ends updates, a pending sign-up is removed and credits
 * nobody, soft bounces count up to the limit (a late delivery does not reset a newer one), an event
 * id is acted on once, the own data and the export say it, and the 7-day rates pause sending until
 * a founder resumes.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { dispatchOutbox, type DispatchOptions } from '@/components/waitlist/outbox/dispatch'
import { capturingEmail, databaseStore } from '../helpers/outbox-store'
import { onEachDatabase, resetForMailTests, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb
const targets = await waitlistDbTargets('mail-deliverability')
const copy = seedEmailCopy()

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    let mail = capturingEmail()
    beforeEach(async () => {
      await resetForMailTests(db)
      await db.exec(`
        delete from private.waitlist_suppressions;
        delete from private.waitlist_soft_bounces;
        delete from private.waitlist_mail_events;
        delete from private.waitlist_mail_daily;
        update private.waitlist_mail_settings set paused_at = null, paused_reason = null, resumed_at = null, pause_min_sent = 100, soft_bounce_limit = 3;
      `)
      mail = capturingEmail()
    })
    const dispatch = (overrides: Partial<DispatchOptions> = {}) =>
      dispatchOutbox({
        store: databaseStore(() => db),
        email: mail.channel,
        slack: null,
        slackIncludeEmail: false,
        copy: async () => copy,
        appUrl: async () => 'https://app.example/',
        siteUrl: 'https://heardly.example',
        ...overrides,
      })
    const { address, joined, signUp, exportMe } = waitlistPeople(() => db, 'bounce.test')
    let eventCounter = 0
    const event = async (kind: string, email: string | null, options: { id?: string; provider?: string; at?: string } = {}) =>
      (
        await db.query<{ value: string }>('select public.waitlist_mail_event($1, $2, $3, $4, $5) as value', [
          options.provider ?? 'resend',
          options.id ?? `evt-${++eventCounter}`,
          kind,
          email,
          options.at ?? new Date().toISOString(),
        ])
      ).rows[0]!.value
    const outbox = async (email: string) =>
      (
        await db.query<{ kind: string; status: string; note: string | null }>(
          `select o.kind, o.status, o.note from public.waitlist_outbox o join public.waitlist w on w.id = o.entry_id where w.email_key = lower($1) order by o.created_at`,
          [email],
        )
      ).rows
    const sentTo = (email: string) => mail.sent.filter((sent) => sent.to.address.toLowerCase() === email.toLowerCase())
    const health = async () => (await db.query<{ value: Record<string, unknown> }>('select public.waitlist_mail_health() as value')).rows[0]!.value

    it('suppresses a hard-bounced mailbox: an invitation queued before the bounce is never sent, nor anything after', async () => {
      const person = await joined(address())
      await dispatch()
      mail.sent.length = 0
      // The invitation is queued, then the bounce is heard before the dispatcher runs.
      await db.query('select public.waitlist_invite_next(1)')
      expect((await outbox(person.email)).filter((m) => m.kind === 'invitation_email').map((m) => m.status)).toEqual(['pending'])
      expect(await event('hard_bounce', person.email.toUpperCase())).toBe('suppressed')
      await dispatch()
      expect(sentTo(person.email)).toEqual([])
      const invitation = (await outbox(person.email)).find((m) => m.kind === 'invitation_email')!
      expect(invitation).toMatchObject({ status: 'skipped', note: 'Not sent: the address is suppressed (hard bounce).' })
      // Own data says when and why.
      const own = await exportMe(person.token)
      expect(own?.suppressed).toMatchObject({ reason: 'hard_bounce', provider: 'resend' })
      expect(typeof (own?.suppressed as { suppressed_at: unknown }).suppressed_at).toBe('string')
      // The export's flag column.
      const page = (await db.query<{ value: unknown[][] }>('select public.waitlist_export_page() as value')).rows[0]!.value
      const row = page.find((values) => values[7] === person.email)!
      expect(row[14]).toBe('suppressed:hard_bounce')
    })

    it('refuses at the last check an e-mail already claimed when the bounce arrives', async () => {
      const email = address()
      await signUp(email)
      const store = databaseStore(() => db)
      const [claimed] = await store.claim(10)
      expect(claimed?.kind).toBe('confirmation_email')
      await event('complaint', email)
      expect(await store.beginSend(claimed!)).toBeNull()
    })

    it('removes a pending sign-up whose confirmation hard-bounced, and its referrer gets no credit', async () => {
      const referrer = await joined(address())
      const code = (await db.query<{ referral_code: string }>('select referral_code from public.waitlist where email_key = lower($1)', [referrer.email]))
        .rows[0]!.referral_code
      const friend = address()
      await signUp(friend, code)
      await dispatch()
      expect(sentTo(friend)).toHaveLength(1)
      expect(await event('hard_bounce', friend)).toBe('suppressed')
      expect((await db.query('select 1 from public.waitlist where email_key = lower($1)', [friend])).rows).toEqual([])
      const credits = await db.query<{ referral_credits: number }>('select referral_credits from public.waitlist where email_key = lower($1)', [referrer.email])
      expect(credits.rows[0]!.referral_credits).toBe(0)
      expect((await db.query('select 1 from private.waitlist_referral_ledger')).rows).toEqual([])
    })

    it('holds across a new sign-up with the same mailbox in another spelling', async () => {
      await event('hard_bounce', 'Jane.Doe@gmail.com')
      // Gmail ignores dots and a +tag; googlemail.com is the same mailbox (waitlist_rules.mailbox_key).
      const again = 'janedoe+launch@googlemail.com'
      await signUp(again)
      await dispatch()
      expect(sentTo(again)).toEqual([])
      expect(await outbox(again)).toEqual([{ kind: 'confirmation_email', status: 'skipped', note: 'Not sent: the address is suppressed (hard bounce).' }])
    })

    it('ends updates on a complaint, and sends no update e-mail', async () => {
      const person = await joined(address())
      await db.query('update public.waitlist set updates = true, updates_opted_in_at = now() where email_key = lower($1)', [person.email])
      expect(await event('complaint', person.email)).toBe('suppressed')
      const row = (
        await db.query<{ updates: boolean; updates_stopped_at: string | null }>(
          'select updates, updates_stopped_at from public.waitlist where email_key = lower($1)',
          [person.email],
        )
      ).rows[0]!
      expect(row.updates).toBe(false)
      expect(row.updates_stopped_at).not.toBeNull()
      expect((await exportMe(person.token))?.suppressed).toMatchObject({ reason: 'complaint' })
    })

    it('counts soft bounces up to the limit; a delivery older than the last soft bounce does not reset the count', async () => {
      const email = address()
      const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()
      expect(await event('soft_bounce', email, { at: at(30) })).toBe('counted')
      expect(await event('soft_bounce', email, { at: at(20) })).toBe('counted')
      // Out of order: a delivery from before the last soft bounce arrives late.
      expect(await event('delivered', email, { at: at(25) })).toBe('recorded')
      expect(await event('soft_bounce', email, { at: at(10) })).toBe('suppressed')
      expect((await db.query<{ reason: string }>('select reason from private.waitlist_suppressions')).rows).toEqual([{ reason: 'soft_bounces' }])
      // A newer delivery resets another mailbox's count.
      const other = address()
      await event('soft_bounce', other, { at: at(30) })
      await event('soft_bounce', other, { at: at(20) })
      expect(await event('delivered', other, { at: at(5) })).toBe('reset')
      expect(await event('soft_bounce', other)).toBe('counted')
    })

    it('acts on an event id once: a replay changes nothing', async () => {
      const email = address()
      expect(await event('soft_bounce', email, { id: 'same' })).toBe('counted')
      expect(await event('soft_bounce', email, { id: 'same' })).toBe('replayed')
      expect(await event('soft_bounce', email, { id: 'same' })).toBe('replayed')
      expect((await db.query<{ bounces: number }>('select bounces from private.waitlist_soft_bounces')).rows).toEqual([{ bounces: 1 }])
      // The same id from another provider is another event.
      expect(await event('soft_bounce', email, { id: 'same', provider: 'postmark' })).toBe('counted')
    })

    it('shows the 7-day rates, pauses sending above 5 % bounces, and resumes when a founder says so', async () => {
      await db.exec(`update private.waitlist_mail_settings set pause_min_sent = 10`)
      const people = await Promise.all(Array.from({ length: 10 }, () => address()).map((email) => signUp(email).then(() => email)))
      await dispatch()
      expect(mail.sent).toHaveLength(10)
      expect(await health()).toMatchObject({ sent: 10, bounced: 0, complained: 0, paused_at: null })
      // One in ten bounced: 10 %, above the 5 % pause.
      await event('hard_bounce', people[0]!)
      const paused = await health()
      expect(paused).toMatchObject({ sent: 10, bounced: 1 })
      expect(Number(paused.bounce_rate)).toBeCloseTo(0.1)
      expect(paused.paused_at).not.toBeNull()
      expect(String(paused.paused_reason)).toMatch(/^Bounces 10\.00 % of e-mails over 7 days/)
      // Paused: a new sign-up's e-mail waits, pending.
      mail.sent.length = 0
      const waiting = address()
      await signUp(waiting)
      await dispatch()
      expect(mail.sent).toEqual([])
      expect(await outbox(waiting)).toEqual([{ kind: 'confirmation_email', status: 'pending', note: null }])
      expect((await db.query<{ value: boolean }>('select public.waitlist_mail_resume() as value')).rows[0]!.value).toBe(true)
      expect((await db.query<{ value: boolean }>('select public.waitlist_mail_resume() as value')).rows[0]!.value).toBe(false)
      await dispatch()
      expect(sentTo(waiting)).toHaveLength(1)
    })

    it('pauses on complaints above 0.3 % but not below pause_min_sent e-mails', async () => {
      await db.exec(`insert into private.waitlist_mail_daily (day, sent) values ((now() at time zone 'UTC')::date, 50)`)
      await event('complaint', address())
      expect((await health()).paused_at).toBeNull()
      await db.exec(`update private.waitlist_mail_daily set sent = 500`)
      await event('complaint', address())
      const now = await health()
      expect(now.paused_at).not.toBeNull()
      expect(String(now.paused_reason)).toMatch(/^Complaints 0\.40 %/)
    })

    describe('the public key', () => {
      it('cannot report events, read the rates or resume', async () => {
        const { runAs } = await import('../helpers/waitlist-db')
        for (const sql of [
          `select public.waitlist_mail_event('resend', 'x', 'hard_bounce', 'a@b.test', now())`,
          'select public.waitlist_mail_health()',
          'select public.waitlist_mail_resume()',
        ]) {
          const result = await runAs(db, 'anon', sql)
          expect(result).toMatchObject({ ok: false, code: '42501' })
        }
      })
    })
  },
)
