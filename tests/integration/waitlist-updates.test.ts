/**
 * Updates by e-mail (supabase/migrations/*_waitlist_updates.sql), on PGlite and on a real PostgreSQL
 * server (where concurrent broadcasts really overlap), with the real dispatcher (its e-mails
 * captured): the opt-in and its time, a post e-mailed once to exactly the people who asked,
 * suppression up to the moment of sending, the hourly cap, and the update e-mail's one click, which
 * stops updates and never erases anyone. And what the public key cannot do.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { dispatchOutbox, type DispatchOptions, type OutboxStore } from '@/components/waitlist/outbox/dispatch'
import { capturingEmail, databaseStore } from '../helpers/outbox-store'
import { onEachDatabase, resetForMailTests, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb
const targets = await waitlistDbTargets('waitlist-updates')
const copy = seedEmailCopy()
const SITE = 'https://heardly.example'
const POST = { post_id: 'post-hello', title: 'Hello, research', excerpt: 'What we learned from 100 interviews.', path: '/blog/hello-research' }

type Entry = { status: string; updates: boolean; updates_opted_in_at: Date | null; updates_stopped_at: Date | null }

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    let mail = capturingEmail()

    beforeEach(async () => {
      mail = capturingEmail()
      await resetForMailTests(db)
    })

    const { address, api, call, mailToken, confirm, exportMe, deleteMe } = waitlistPeople(() => db, 'updates.test')
    const dispatch = (overrides: Partial<DispatchOptions> = {}) =>
      dispatchOutbox({
        store: databaseStore(() => db),
        email: mail.channel,
        slack: null,
        slackIncludeEmail: false,
        copy: async () => copy,
        appUrl: async () => 'https://app.example/',
        siteUrl: SITE,
        ...overrides,
      })

    async function service<T>(sql: string, params: unknown[] = []): Promise<T> {
      const result = await runAs<{ value: T }>(db, 'service_role', sql, params, { keep: true, request: { headers: {} } })
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      return result.rows[0]!.value
    }
    const broadcast = (post: Partial<typeof POST> = {}) => {
      const { post_id, title, excerpt, path } = { ...POST, ...post }
      return service<{ broadcast: boolean; recipients: number }>('select public.waitlist_broadcast_post($1, $2, $3, $4) as value', [
        post_id,
        title,
        excerpt,
        path,
      ])
    }
    const signUp = (email: string, updates?: boolean) =>
      runAs(
        db,
        'anon',
        `insert into public.waitlist (name, email, project${updates === undefined ? '' : ', updates'}) values ($1, $2, 'Acme'${updates === undefined ? '' : ', $3'})`,
        [`Reader ${email.split('@')[0]}`, email, ...(updates === undefined ? [] : [updates])],
        {
          keep: true,
          request: api(),
        },
      )
    /** A confirmed person, with updates or without; their e-mailed link's token. */
    async function person(updates: boolean) {
      const email = address()
      expect(await signUp(email, updates)).toEqual({ ok: true, rows: [] })
      const token = await mailToken(email)
      expect(await confirm(token)).toBe('confirmed')
      return { email, token }
    }
    const entry = async (email: string) =>
      (await db.query<Entry>('select status, updates, updates_opted_in_at, updates_stopped_at from public.waitlist where email = $1', [email])).rows[0]
    const updatesTo = (email: string) =>
      mail.sent.filter((message) => message.to.address === email && message.subject === copy.updateSubject.replace('{title}', POST.title))
    const unsubscribe = (token: string) => service<boolean>('select public.waitlist_unsubscribe($1) as value', [token])
    const updatesToken = (email: string) => new URL(updatesTo(email).at(-1)!.unsubscribeUrl!).searchParams.get('token')!
    const setUpdates = (token: string, wanted: boolean | null) => call<boolean>('select public.waitlist_updates($1, $2) as value', [token, wanted])

    describe('the opt-in', () => {
      it('is off unless ticked; when ticked, the database records its own time, which no writer can set', async () => {
        const [quiet, ticked] = [address(), address()]
        await signUp(quiet)
        expect(await entry(quiet)).toMatchObject({ updates: false, updates_opted_in_at: null, updates_stopped_at: null })
        const before = (await db.query<{ now: Date }>('select now() as now')).rows[0]!.now
        await signUp(ticked, true)
        const recorded = (await entry(ticked))!
        expect(recorded.updates).toBe(true)
        expect(recorded.updates_opted_in_at!.getTime()).toBeGreaterThanOrEqual(before.getTime())
        expect(recorded.updates_opted_in_at!.getTime()).toBeLessThan(Date.now() + 60_000)

        // The public key may not name the times at all.
        expect(
          await runAs(db, 'anon', `insert into public.waitlist (name, email, updates, updates_opted_in_at) values ('F', $1, true, '2001-01-01')`, [address()], {
            request: api(),
          }),
        ).toMatchObject({
          ok: false,
          code: '42501',
        })
        // Not even the owner's SQL can forge or backdate them: the trigger takes the database's clock.
        const forged = address()
        await db.query(
          `insert into public.waitlist (name, email, updates, updates_opted_in_at, updates_stopped_at) values ('F', $1, true, '2001-01-01', '2001-01-02')`,
          [forged],
        )
        expect((await entry(forged))!.updates_opted_in_at!.getFullYear()).toBe(new Date().getFullYear())
        expect((await entry(forged))!.updates_stopped_at).toBeNull()
        await db.query(`update public.waitlist set updates_opted_in_at = '2001-01-01' where email = $1`, [ticked])
        expect((await entry(ticked))!.updates_opted_in_at).toEqual(recorded.updates_opted_in_at)
      })

      it('the person reads and changes it on their own page (their link), with its time; nobody else can, and an unconfirmed entry cannot', async () => {
        const { email, token } = await person(false)
        expect(await setUpdates(token, null)).toBe(false)
        expect(await setUpdates(token, true)).toBe(true)
        expect(await entry(email)).toMatchObject({ updates: true, updates_opted_in_at: expect.any(Date), updates_stopped_at: null })
        expect(await setUpdates(token, false)).toBe(false)
        expect(await entry(email)).toMatchObject({ updates: false, updates_opted_in_at: expect.any(Date), updates_stopped_at: expect.any(Date) })
        expect(await setUpdates('A'.repeat(43), true)).toBeNull()
        const pending = address()
        await signUp(pending)
        expect(await setUpdates(await mailToken(pending), true)).toBeNull()
        expect(await entry(pending)).toMatchObject({ updates: false })
        // Their data download says what they chose, and when.
        await setUpdates(token, true)
        expect((await exportMe(token))!.entry).toMatchObject({ updates: true, updates_opted_in_at: expect.any(String), updates_stopped_at: null })
      })
    })

    describe('a post, e-mailed once', () => {
      it('reaches exactly the confirmed people who asked: not the unconfirmed, the unticked, the erased or those who stopped', async () => {
        const [wants, invited, quiet, stopped, erased] = [await person(true), await person(true), await person(false), await person(true), await person(true)]
        const pending = address()
        await signUp(pending, true)
        await service('select public.waitlist_invite_email($1) as value', [invited.email])
        await setUpdates(stopped.token, false)
        expect(await deleteMe(erased.token)).toBe(true)

        expect(await broadcast()).toEqual({ broadcast: true, recipients: 2 })
        await dispatch()
        for (const [who, count] of [
          [wants.email, 1],
          [invited.email, 1],
          [quiet.email, 0],
          [stopped.email, 0],
          [erased.email, 0],
          [pending, 0],
        ] as const)
          expect(updatesTo(who), who).toHaveLength(count)
      })

      it('publishing again, an edit or a replayed webhook sends nothing more, even for new subscribers', async () => {
        const first = await person(true)
        expect(await broadcast()).toEqual({ broadcast: true, recipients: 1 })
        const later = await person(true)
        expect(await broadcast({ title: 'Hello, research (edited)' })).toEqual({ broadcast: false, recipients: 0 })
        expect(await broadcast()).toEqual({ broadcast: false, recipients: 0 })
        await dispatch()
        await dispatch()
        expect(updatesTo(first.email)).toHaveLength(1)
        expect(updatesTo(later.email)).toHaveLength(0)
        // Another post is another e-mail.
        expect(await broadcast({ post_id: 'post-two', title: 'Second' })).toEqual({ broadcast: true, recipients: 2 })
      })

      it('many calls at once for one post enqueue one e-mail per person', async () => {
        const people = [await person(true), await person(true), await person(true)]
        const answers = await Promise.all(Array.from({ length: 8 }, () => broadcast()))
        expect(answers.filter((answer) => answer.broadcast)).toHaveLength(1)
        const counts = (await db.query<{ n: number }>(`select count(*)::int as n from public.waitlist_outbox where kind = 'update_email' group by entry_id`))
          .rows
        expect(counts).toEqual(people.map(() => ({ n: 1 })))
        await Promise.all([dispatch(), dispatch(), dispatch()])
        for (const someone of people) expect(updatesTo(someone.email)).toHaveLength(1)
      })

      it('refuses a draft id, a path off this site, and a missing title', async () => {
        await person(true)
        for (const bad of [
          { post_id: 'drafts.post-hello' },
          { path: '//evil.example/x' },
          { path: 'https://evil.example/' },
          { path: '/blog/a?b' },
          { title: ' ' },
        ]) {
          await expect(broadcast(bad), JSON.stringify(bad)).rejects.toThrow(/22023/)
        }
        expect((await db.query(`select * from private.waitlist_broadcasts`)).rows).toEqual([])
      })
    })

    describe('suppression at send time', () => {
      it('a person who erases themselves or stops updates after the post was enqueued gets nothing', async () => {
        const [erased, stopped, unsubscribed, stays] = [await person(true), await person(true), await person(true), await person(true)]
        await broadcast({ post_id: 'post-earlier', title: 'An earlier post' })
        await dispatch()
        await broadcast()
        await deleteMe(erased.token)
        await setUpdates(stopped.token, false)
        // One click in the earlier update e-mail stops this one too.
        expect(await unsubscribe(updatesTokenOf(unsubscribed.email))).toBe(true)
        await dispatch()
        expect([erased, stopped, unsubscribed, stays].map((who) => updatesTo(who.email).length)).toEqual([0, 0, 0, 1])
        expect((await db.query(`select o.note from public.waitlist_outbox o where o.kind = 'update_email' and o.status = 'skipped'`)).rows).toHaveLength(2)
      })

      it('even between the claim and the send: the last check refuses, and nothing is sent', async () => {
        const { email, token } = await person(true)
        await broadcast()
        const store = databaseStore(() => db)
        const racing: OutboxStore = {
          ...store,
          claim: async (max) => {
            const claimed = await store.claim(max)
            await setUpdates(token, false)
            return claimed
          },
        }
        const report = await dispatch({ store: racing })
        expect(report).toMatchObject({ sent: 0, failed: 0 })
        expect(updatesTo(email)).toHaveLength(0)
        expect((await db.query(`select status, attempts from public.waitlist_outbox where kind = 'update_email'`)).rows).toEqual([
          { status: 'skipped', attempts: 1 },
        ])
      })

      it('the hourly cap holds them back in order; the per-mailbox cap for links anyone can ask for does not apply', async () => {
        const people = [await person(true), await person(true), await person(true)]
        // Each of them already had a link counted today: at a per-mailbox cap of 1. With 5 an hour,
        // those 3 leave room for 2 more e-mails this hour.
        await db.exec(`update private.waitlist_mail_caps set unproven_per_recipient = 1, emails_per_hour = 5`)
        for (const someone of people) {
          await db.query(
            `insert into private.waitlist_mail_log (recipient_hash, kind) values (private.waitlist_mailbox_hash('mail', $1), 'confirmation_email')`,
            [someone.email],
          )
        }
        await broadcast()
        await dispatch()
        expect(people.map((someone) => updatesTo(someone.email).length)).toEqual([1, 1, 0])
        await db.exec(`update private.waitlist_mail_log set created_at = now() - interval '2 hours'`)
        await dispatch()
        expect(people.map((someone) => updatesTo(someone.email).length)).toEqual([1, 1, 1])
      })

      it('under the cap, a post to many waits behind a new sign-up’s confirmation, which goes first', async () => {
        const people = [await person(true), await person(true), await person(true)]
        await db.exec(`delete from public.waitlist_outbox where kind <> 'update_email'`)
        await broadcast()
        const newcomer = address()
        await signUp(newcomer)
        await db.exec(`update private.waitlist_mail_caps set emails_per_hour = 2`)
        await dispatch()
        // The two e-mails this hour allows: the newcomer's link, then the first of the post's.
        expect(mail.sent.map((message) => message.to.address).sort()).toEqual([newcomer, people[0]!.email].sort())
      })
    })

    describe('the update e-mail', () => {
      it('greets by name, carries the post’s title, summary and link, and a one-click token scoped to updates', async () => {
        const { email } = await person(true)
        await broadcast()
        await dispatch()
        const [sent] = updatesTo(email)
        expect(sent!.subject).toBe(`New from Heardly: ${POST.title}`)
        expect(sent!.to).toEqual({ name: `Reader ${email.split('@')[0]}`, address: email })
        expect(sent!.text).toContain(copy.updateGreeting.replace('{name}', `Reader ${email.split('@')[0]}`))
        expect(sent!.text).toContain(POST.excerpt)
        expect(sent!.html).toContain(`href="${SITE}${POST.path}"`)
        expect(sent!.unsubscribeUrl).toMatch(/^https:\/\/heardly\.example\/api\/unsubscribe\?token=updates\.[A-Za-z0-9_-]{43}$/)
        expect(sent!.text).toMatch(/https:\/\/heardly\.example\/waitlist\/unsubscribe#token=updates\.[A-Za-z0-9_-]{43}/)
        expect((await db.query(`select scope from private.waitlist_unsubscribe_tokens where scope = 'updates'`)).rows).toHaveLength(1)
      })
    })

    describe('one click in an update e-mail', () => {
      it('stops updates, with its time, and keeps the person on the list; the next post does not reach them', async () => {
        const { email, token } = await person(true)
        await broadcast()
        await dispatch()
        const oneClick = updatesToken(email)
        expect(await unsubscribe(oneClick)).toBe(true)
        expect(await entry(email)).toMatchObject({ status: 'confirmed', updates: false, updates_stopped_at: expect.any(Date) })
        const stoppedAt = (await entry(email))!.updates_stopped_at
        // A second click changes nothing, not even the time.
        expect(await unsubscribe(oneClick)).toBe(true)
        expect((await entry(email))!.updates_stopped_at).toEqual(stoppedAt)
        expect(await broadcast({ post_id: 'post-two' })).toEqual({ broadcast: true, recipients: 0 })
        // Their own page still opens their place.
        expect(await call('select public.waitlist_me($1) as value', [token])).toMatchObject({ status: 'confirmed', place: 1 })
      })

      it('attacks: a guessed or altered token does nothing; an updates token cannot erase; the scope is not the caller’s to choose', async () => {
        const { email } = await person(true)
        await broadcast()
        await dispatch()
        const oneClick = updatesToken(email)
        const bare = oneClick.slice('updates.'.length)
        // A guessed token, one with the prefix taken off, or put on a different token: nobody's.
        for (const forged of ['B'.repeat(43), `updates.${'B'.repeat(43)}`, bare, `waitlist.${bare}`, `${oneClick}=`, oneClick.toUpperCase()]) {
          expect(await unsubscribe(forged), forged).toBe(false)
        }
        expect(await entry(email)).toMatchObject({ status: 'confirmed', updates: true })
        expect(await unsubscribe(oneClick)).toBe(true)
        expect(await entry(email)).toMatchObject({ status: 'confirmed', updates: false })
        // The public key cannot call it at all, nor read or write the tables behind it.
        for (const sql of [
          `select public.waitlist_unsubscribe('${oneClick}')`,
          `select public.waitlist_broadcast_post('p', 't', 'e', '/blog/p')`,
          'select * from private.waitlist_broadcasts',
          'select * from private.waitlist_unsubscribe_tokens',
          'select * from public.waitlist_outbox',
          'select updates, updates_opted_in_at from public.waitlist',
          'update public.waitlist set updates = true',
          `insert into public.waitlist_outbox (entry_id, kind, payload) select id, 'update_email', '{}' from public.waitlist`,
        ]) {
          expect(await runAs(db, 'anon', sql, [], { request: api() }), sql).toMatchObject({ ok: false, code: '42501' })
        }
      })

      it('a waitlist e-mail’s token still erases; replayed after the erasure it answers as an unknown one', async () => {
        const { email } = await person(true)
        // The confirmation e-mail's one-click token is the waitlist kind.
        await db.exec(`delete from public.waitlist_outbox`)
        await db.query(`insert into public.waitlist_outbox (entry_id, kind) select id, 'access_email' from public.waitlist where email = $1`, [email])
        await dispatch()
        const access = mail.sent.at(-1)!
        const leave = new URL(access.unsubscribeUrl!).searchParams.get('token')!
        expect(leave).toMatch(/^[A-Za-z0-9_-]{43}$/)
        expect(await unsubscribe(`updates.${leave}`)).toBe(false)
        expect(await entry(email)).toBeDefined()
        expect(await unsubscribe(leave)).toBe(true)
        expect(await entry(email)).toBeUndefined()
        expect(await unsubscribe(leave)).toBe(await unsubscribe('C'.repeat(43)))
      })
    })

    /** The one-click token of the newest update e-mail to `email`, whatever post it carried. */
    function updatesTokenOf(email: string): string {
      const sent = mail.sent.filter((message) => message.to.address === email && message.unsubscribeUrl?.includes('token=updates.')).at(-1)
      if (!sent) throw new Error(`no update e-mail to ${email}`)
      return new URL(sent.unsubscribeUrl!).searchParams.get('token')!
    }
  },
)
