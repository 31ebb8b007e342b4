/**
 * The waitlist's e-mails turned against people who never visited (issue #26), attacked as a script
 * with the public key would: on PGlite and on a real PostgreSQL server, through the public
 * functions and the real dispatcher (its e-mails captured instead of sent). Each case is an attack
 * that worked before, and the guarantee that now stops it.
 */
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { dispatchOutbox, type DispatchOptions } from '@/components/waitlist/outbox/dispatch'
import type { EmailChannel } from '@/components/waitlist/outbox/email'
import { BLANK_TEXTS } from '../helpers/blank-text'
import { capturingEmail, databaseStore, linkToken } from '../helpers/outbox-store'
import { onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { rowsHolding } from '../helpers/waitlist-people'

let db: WaitlistDb
const targets = await waitlistDbTargets('waitlist-abuse')
const copy = seedEmailCopy()

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    let mail = capturingEmail()
    let network = 0
    /** A request from its own network (IPv4), unless the test names one. */
    const from = (client = `198.51.${Math.floor(network / 250) % 250}.${(network++ % 250) + 1}`) => ({ headers: { 'x-forwarded-for': client } })

    beforeEach(async () => {
      mail = capturingEmail()
      await db.exec(`
      delete from public.waitlist;
      delete from public.waitlist_outbox;
      delete from private.waitlist_api_attempts;
      delete from private.waitlist_recent_signups;
      delete from private.waitlist_mail_log;
      delete from private.waitlist_referral_ledger;
      update private.waitlist_limits set per_client = 50, window_seconds = 3600, domain_burst = 20, v6_48_factor = 4, v6_32_factor = 16;
      update private.waitlist_confirmation_settings set confirm_per_client = 1000, link_requests_per_client = 1000, link_request_interval_seconds = 0;
      update private.waitlist_referral_settings set own_data_per_client = 1000;
      update private.waitlist_mail_caps set unproven_per_recipient = 3, recipient_window = interval '1 day', emails_per_hour = 500;
    `)
    })

    const options = (email: EmailChannel = mail.channel): DispatchOptions => ({
      store: databaseStore(() => db),
      email,
      slack: null,
      slackIncludeEmail: false,
      copy: async () => copy,
      appUrl: async () => 'https://app.heardly.example',
      siteUrl: 'https://heardly.example',
    })
    const dispatch = (email?: EmailChannel) => dispatchOutbox(options(email))

    async function anon<T>(sql: string, params: unknown[], client?: string) {
      return runAs<T>(db, 'anon', sql, params, { keep: true, request: from(client) })
    }
    async function value<T>(sql: string, params: unknown[], client?: string): Promise<T | null> {
      const result = await anon<{ value: T | null }>(sql, params, client)
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      return result.rows[0]?.value ?? null
    }
    const signUp = (email: string, { name = 'Ada', project = 'Acme', ref = null as string | null, client = undefined as string | undefined } = {}) =>
      anon('insert into public.waitlist (name, email, project, ref) values ($1, $2, $3, $4)', [name, email, project, ref], client)
    const requestLink = (email: string, client?: string) => anon('select public.waitlist_request_link($1)', [email], client)
    const confirm = (token: string) => value<string>('select public.waitlist_confirm($1) as value', [token])
    const mailsTo = (address: string) => mail.sent.filter((email) => email.to.address === address)

    /** Signs up, receives the confirmation e-mail from the real dispatcher and confirms with its link. */
    async function joined(email: string, ref: string | null = null, name = 'Ada') {
      expect(await signUp(email, { ref, name })).toMatchObject({ ok: true })
      await dispatch()
      const token = linkToken(mailsTo(email).at(-1)!)
      expect(await confirm(token)).toBe('confirmed')
      return token
    }
    const entry = async (email: string) =>
      (
        await db.query<{ id: string; referral_code: string; referral_credits: number; confirm_by: Date }>(
          'select id, referral_code, referral_credits, confirm_by from public.waitlist where email = $1',
          [email],
        )
      ).rows[0]

    describe('1. no spam relay through the confirmation e-mail', () => {
      it('names and companies are plain text: line breaks, controls, bidi and invisible characters are refused by the database', async () => {
        const refused = [
          'Jane Doe\n\n*E-mail*\nceo@bigcorp.example',
          'Jane\rDoe',
          'Jane\tDoe',
          'Jane\u2028Doe',
          'Eve\u202Eexe.pdf',
          'Eve\u2066x\u2069',
          'a\u200Bb',
          'Bell\u0007',
          'Jane\u0085Doe',
          'x\uFEFFy',
        ]
        for (const name of refused) {
          expect(await signUp(`plain${refused.indexOf(name)}@abuse.test`, { name }), JSON.stringify(name)).toMatchObject({ ok: false, code: '23514' })
          expect(await signUp(`company${refused.indexOf(name)}@abuse.test`, { project: name }), JSON.stringify(name)).toMatchObject({
            ok: false,
            code: '23514',
          })
        }
        // Names in every script stay welcome, joiners included (Persian uses ZWNJ, emoji sequences ZWJ).
        for (const name of ['Zoë Ågren-Ñúñez', 'محمد‌رضا', '李小龍', 'Ana 👩‍💻', "O'Brien & Co. (Ltd)"]) {
          expect(await signUp(`welcome${name.length}@abuse.test`, { name, project: name }), name).toMatchObject({ ok: true })
        }
      })

      it('a name of invisible characters alone is blank and refused; a company of them is stored as none', async () => {
        for (const [index, [label, text]] of BLANK_TEXTS.entries()) {
          expect(await signUp(`blank${index}@abuse.test`, { name: text }), label).toMatchObject({
            ok: false,
            code: '23514',
            constraint: 'waitlist_name_not_blank',
          })
          expect(await signUp(`blank-company${index}@abuse.test`, { project: text }), label).toMatchObject({ ok: true })
        }
        const { rows } = await db.query<{ project: string; count: number }>(
          `select project, count(*)::integer as count from public.waitlist where email like 'blank-company%' group by project`,
        )
        expect(rows).toEqual([{ project: '', count: BLANK_TEXTS.length }])
      })

      it('an entry stored with a blank name under the older rules keeps it, and still confirms', async () => {
        // As the trigger stored it then: trimmed only. No check refuses it now on its way (confirming, inviting).
        await db.exec(`alter table public.waitlist disable trigger waitlist_clean`)
        try {
          await db.query(`insert into public.waitlist (name, email, project) values ($1, 'older@abuse.test', $1)`, ['\u3164'])
        } finally {
          await db.exec(`alter table public.waitlist enable trigger waitlist_clean`)
        }
        expect(await requestLink('older@abuse.test')).toMatchObject({ ok: true })
        await dispatch()
        expect(await confirm(linkToken(mailsTo('older@abuse.test').at(-1)!))).toBe('confirmed')
        const { rows } = await db.query<{ name: string; status: string }>(`select name, status from public.waitlist where email = 'older@abuse.test'`)
        expect(rows).toEqual([{ name: '\u3164', status: 'confirmed' }])
      })

      it('the confirmation e-mail carries nothing the visitor typed: no name, no company, no display name', async () => {
        const name = 'Jane Doe https://evil.example/x'
        expect(await signUp('victim1@abuse.test', { name, project: 'BigCorp https://evil.example/y' })).toMatchObject({ ok: true })
        await dispatch()
        const [email] = mailsTo('victim1@abuse.test')
        expect(email).toBeDefined()
        expect(email!.to.name).toBe('')
        for (const part of [email!.subject, email!.html, email!.text]) {
          expect(part).not.toMatch(/evil\.example|Jane|BigCorp/)
        }
      })

      it('one mailbox that has not confirmed gets at most 3 e-mails a day, however many networks ask', async () => {
        expect(await signUp('victim2@abuse.test')).toMatchObject({ ok: true })
        for (let i = 0; i < 20; i++) {
          expect(await requestLink('victim2@abuse.test')).toMatchObject({ ok: true })
          await dispatch()
        }
        expect(mailsTo('victim2@abuse.test')).toHaveLength(3)
        // Tomorrow the mailbox can be sent one again (its owner may really have lost the e-mail).
        await db.exec(`update private.waitlist_mail_log set created_at = created_at - interval '1 day'`)
        await requestLink('victim2@abuse.test')
        await dispatch()
        expect(mailsTo('victim2@abuse.test')).toHaveLength(4)
      })

      it('the cap counts the mailbox, not the spelling: plus-tags, dots and googlemail are one Gmail inbox', async () => {
        for (const address of [
          'victim.three@gmail.com',
          'victimthree+1@gmail.com',
          'v.i.c.t.i.m.three@googlemail.com',
          'VictimThree+x@gmail.com',
          'victim.three+2@gmail.com',
        ]) {
          expect(await signUp(address)).toMatchObject({ ok: true })
        }
        await dispatch()
        expect(mail.sent).toHaveLength(3)
      })

      it('a total cap on e-mails per hour holds the rest back: none is lost, they go out in the next hour', async () => {
        await db.exec('update private.waitlist_mail_caps set emails_per_hour = 5')
        for (let i = 0; i < 8; i++) expect(await signUp(`burst${i}@abuse.test`)).toMatchObject({ ok: true })
        await dispatch()
        expect(mail.sent).toHaveLength(5)
        expect((await db.query(`select count(*)::int as n from public.waitlist_outbox where status = 'pending'`)).rows[0]).toEqual({ n: 3 })
        await db.exec(`update private.waitlist_mail_log set created_at = created_at - interval '1 hour'`)
        await dispatch()
        expect(mail.sent).toHaveLength(8)
        expect(new Set(mail.sent.map((email) => email.to.address)).size).toBe(8)
      })
    })

    describe('2. a third party cannot cancel a link or keep an unconfirmed entry alive', () => {
      it('a new link leaves the one already sent working', async () => {
        expect(await signUp('victim4@abuse.test')).toMatchObject({ ok: true })
        await dispatch()
        const first = linkToken(mailsTo('victim4@abuse.test')[0]!)
        await requestLink('victim4@abuse.test')
        await dispatch()
        expect(mailsTo('victim4@abuse.test')).toHaveLength(2)
        expect(await confirm(first)).toBe('confirmed')
      })

      it('asking for new links does not move the date an unconfirmed entry is deleted', async () => {
        expect(await signUp('victim5@abuse.test')).toMatchObject({ ok: true })
        await dispatch()
        const before = (await entry('victim5@abuse.test'))!.confirm_by
        await db.exec(
          `update public.waitlist set created_at = created_at - interval '3 days', confirm_by = confirm_by - interval '3 days' where email = 'victim5@abuse.test'`,
        )
        const moved = (await entry('victim5@abuse.test'))!.confirm_by
        expect(moved.getTime()).toBeLessThan(before.getTime())
        await requestLink('victim5@abuse.test')
        await dispatch()
        expect((await entry('victim5@abuse.test'))!.confirm_by).toEqual(moved)
        // The new link expires with the entry, not seven days after it was asked for.
        const newest = linkToken(mailsTo('victim5@abuse.test').at(-1)!)
        await db.exec(`update public.waitlist set confirm_by = now() - interval '1 second' where email = 'victim5@abuse.test'`)
        expect(await confirm(newest)).toBe('expired')
        expect(await db.query(`select public.waitlist_purge_pending()`)).toBeTruthy()
        expect(await entry('victim5@abuse.test')).toBeUndefined()
      })
    })

    describe('3. no referral farming', () => {
      it('plus-tags, dots and provider aliases of the referrer’s own mailbox earn nothing', async () => {
        // Mallory can read each link (they are all her inbox): the mailbox cap is not what stops her here.
        await db.exec('update private.waitlist_mail_caps set unproven_per_recipient = 100')
        await joined('mallory@gmail.com')
        const code = (await entry('mallory@gmail.com'))!.referral_code
        for (const address of ['mallory+1@gmail.com', 'm.allory@gmail.com', 'mallory+2@googlemail.com']) await joined(address, code)
        expect((await entry('mallory@gmail.com'))!.referral_credits).toBe(0)
      })

      it('sign up, confirm, delete, come back: one credit per mailbox, and the credit stays traceable without the erased person’s data', async () => {
        await joined('referrer@abuse.test')
        const code = (await entry('referrer@abuse.test'))!.referral_code
        for (let round = 0; round < 3; round++) {
          const token = await joined('friend.returning@example.org', code, 'Friend Returning')
          expect(await value<boolean>('select public.waitlist_delete_me($1) as value', [token])).toBe(true)
          await dispatch()
        }
        expect((await entry('referrer@abuse.test'))!.referral_credits).toBe(1)
        const ledger = await db.query<{ referred_id: string | null; credited_at: Date }>(
          `select l.referred_id, l.credited_at from private.waitlist_referral_ledger l join public.waitlist w on w.id = l.referrer_id where w.email = 'referrer@abuse.test'`,
        )
        expect(ledger.rows).toEqual([{ referred_id: null, credited_at: expect.any(Date) }])
        expect(await rowsHolding(db, ['friend.returning', 'Friend Returning'])).toEqual([])
      })
    })

    describe('6. one party with a large IPv6 range', () => {
      it('sign-ups are counted per /48 and per /32 as well as per /64', async () => {
        await db.exec('update private.waitlist_limits set per_client = 2')
        let accepted = 0
        for (let i = 0; i < 20; i++) {
          const result = await signUp(`v6-${i}@abuse.test`, { client: `2001:db8:1:${i.toString(16)}::1` })
          if (result.ok) accepted++
          else expect(result).toMatchObject({ code: 'PGRST' })
        }
        expect(accepted).toBe(2 * 4)
        // Another /48 of the same /32 gets its own share, up to the /32's.
        let more = 0
        for (let site = 2; site < 12; site++) {
          for (let i = 0; i < 4; i++) if ((await signUp(`v6-${site}-${i}@abuse.test`, { client: `2001:db8:${site.toString(16)}:${i}::1` })).ok) more++
        }
        expect(accepted + more).toBe(2 * 16)
      })

      it('so are the confirm, new-link and own-data calls', async () => {
        await db.exec(
          'update private.waitlist_confirmation_settings set confirm_per_client = 2, link_requests_per_client = 2; update private.waitlist_referral_settings set own_data_per_client = 2',
        )
        for (const [sql, arg] of [
          ['select public.waitlist_confirm($1)', 'A'.repeat(43)],
          ['select public.waitlist_request_link($1)', 'nobody@abuse.test'],
          ['select public.waitlist_export_me($1)', 'B'.repeat(43)],
        ] as const) {
          let answered = 0
          for (let i = 0; i < 20; i++) if ((await anon(sql, [arg], `2001:db8:77:${i.toString(16)}::5`)).ok) answered++
          expect(answered, sql).toBe(2 * 4)
        }
      })
    })

    describe('7. no address or name in a stored error or the report', () => {
      it('an SMTP rejection quoting the recipient is stored without the address or the name, for every kind', async () => {
        const names: Record<string, string> = { 'private.person@example.org': 'Private Person', 'pending.person@example.org': 'Pending Person' }
        const token = await joined('private.person@example.org', null, names['private.person@example.org'])
        await requestLink('private.person@example.org')
        expect(await signUp('pending.person@example.org', { name: 'Pending Person' })).toMatchObject({ ok: true })
        const refusing: EmailChannel = async (email) => {
          // A server that quotes the address and the account's name, as some do.
          throw Object.assign(new Error(`550 5.1.1 <${email.to.address}>: Recipient address rejected: User unknown (${names[email.to.address]})`), {
            code: 'EENVELOPE',
          })
        }
        const stored = async () =>
          (await db.query<{ kind: string; last_error: string }>(`select kind, last_error from public.waitlist_outbox where last_error is not null`)).rows
        const report = await dispatch(refusing)
        expect(report.failed).toBe(2)
        const errors = await stored()
        // The erasure takes the person's other messages with it: its own error is read after.
        expect(await value<boolean>('select public.waitlist_delete_me($1) as value', [token])).toBe(true)
        const erasureReport = await dispatch(refusing)
        expect(erasureReport.failed).toBe(1)
        errors.push(...(await stored()).filter((row) => row.kind === 'erasure_email'))
        expect(errors.map((row) => row.kind).sort()).toEqual(['access_email', 'confirmation_email', 'erasure_email'])
        for (const text of [...errors.map((row) => row.last_error), ...report.errors, ...erasureReport.errors]) {
          expect(text).not.toMatch(/@|private\.person|pending\.person|Private Person|Pending Person/i)
          expect(text).toMatch(/EENVELOPE/)
        }
      })
    })

    describe('8. access links expire, and a confirmed person can ask for a fresh one', () => {
      it('a confirmed person’s link opens nothing once it is older than the access lifetime', async () => {
        const token = await joined('old.link@abuse.test')
        expect(await value<{ status: string }>('select public.waitlist_me($1) as value', [token])).toMatchObject({ status: 'confirmed' })
        await db.exec(`update private.waitlist_tokens set created_at = created_at - interval '31 days', expires_at = expires_at - interval '31 days'`)
        expect(await value('select public.waitlist_me($1) as value', [token])).toEqual({ status: 'expired' })
        expect(await value('select public.waitlist_export_me($1) as value', [token])).toBeNull()
        expect(await value('select public.waitlist_delete_me($1) as value', [token])).toBe(false)
      })

      it('asks for a new link by address and gets one by e-mail; any other address gets the same answer and nothing', async () => {
        await joined('lost.link@abuse.test')
        const answers = [await requestLink('lost.link@abuse.test'), await requestLink('never.listed@abuse.test')]
        expect(answers[0]).toEqual(answers[1])
        await dispatch()
        expect(mailsTo('never.listed@abuse.test')).toEqual([])
        const fresh = mailsTo('lost.link@abuse.test').at(-1)!
        expect(fresh.subject).toBe(copy.accessSubject)
        expect(fresh.to.name).toBe('')
        expect(await value('select public.waitlist_me($1) as value', [linkToken(fresh)])).toMatchObject({ status: 'confirmed', place: 1 })
      })
    })

    describe('10. the place is the database’s arithmetic, not the caller’s', () => {
      it('waitlist_me takes only the token: the places per referral are a setting', async () => {
        const token = await joined('places@abuse.test')
        expect(await anon('select public.waitlist_me($1, 1000) as value', [token])).toMatchObject({ ok: false, code: '42883' })
        expect(await value('select public.waitlist_me($1) as value', [token])).toMatchObject({ places_per_referral: 5 })
      })
    })

    describe('one mailbox, one key', () => {
      it.each([
        ['Mallory.Smith+news@GoogleMail.com', 'mallorysmith@gmail.com'],
        ['m.a.l.l.o.r.y@gmail.com', 'mallory@gmail.com'],
        ['ada+x@outlook.com', 'ada@outlook.com'],
        ['ada+x@hotmail.co.uk', 'ada@hotmail.co.uk'],
        ['ada+waitlist@pm.me', 'ada@proton.me'],
        ['ada@protonmail.ch', 'ada@proton.me'],
        ['ada@me.com', 'ada@icloud.com'],
        ['ada+tag@fastmail.com', 'ada@fastmail.com'],
        // Where the provider documents no such rule, the address is its own mailbox.
        ['ada.l+tag@example.com', 'ada.l+tag@example.com'],
        ['ada.lovelace@outlook.com', 'ada.lovelace@outlook.com'],
        ['ada-tag@yahoo.com', 'ada-tag@yahoo.com'],
      ])('%s is the mailbox %s', async (address, mailbox) => {
        expect((await db.query<{ key: string }>('select waitlist_rules.mailbox_key($1) as key', [address])).rows[0]?.key).toBe(mailbox)
      })
    })

    describe('10. retries', () => {
      it("the founders' guide states the real retry schedule: the last attempt’s delay after the first, from the settings", async () => {
        const { rows } = await db.query<{ max_attempts: number; retry_base_seconds: number; retry_max_seconds: number }>(
          'select max_attempts, retry_base_seconds, retry_max_seconds from private.waitlist_confirmation_settings',
        )
        const { max_attempts: attempts, retry_base_seconds: base, retry_max_seconds: cap } = rows[0]!
        // public.waitlist_outbox_fail: after attempt k the message waits min(cap, base * 2^(k - 1)).
        let seconds = 0
        for (let k = 1; k < attempts; k++) seconds += Math.min(cap, base * 2 ** (k - 1))
        const said = `${attempts} attempts, the last about ${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min after the first`
        expect(readFileSync('docs/founders.md', 'utf8').replace(/\s+/g, ' ')).toContain(said)
      })
    })

    afterEach(() => {
      network = 0
    })
  },
)
