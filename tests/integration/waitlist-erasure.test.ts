/**
 * The e-mail confirming "Delete me" (supabase/migrations/*_waitlist_erasure_email.sql and
 * components/waitlist/outbox), on PGlite and on a real PostgreSQL server, delivered by the real dispatcher over
 * real SMTP into maildev: written in the same transaction as the erasure, claimed although its
 * entry is gone, its address and name cleared once it is done (sent, failed, in doubt, given up),
 * retried through an SMTP outage, never shown to the public key, and the own-data rate limit as it
 * was.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { dispatchOutbox, type DispatchOptions, type OutboxStore } from '@/components/waitlist/outbox/dispatch'
import { smtpEmailChannel } from '@/components/waitlist/outbox/email'
import { startTestMail } from '../helpers/maildev'
import { databaseStore as storeOver } from '../helpers/outbox-store'
import { onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { newToken, rowsHolding, waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb
let mail: Awaited<ReturnType<typeof startTestMail>>

const targets = await waitlistDbTargets('waitlist-erasure')
const copy = seedEmailCopy()

beforeAll(async () => {
  mail = await startTestMail()
})
afterAll(async () => {
  await mail?.stop()
})

const databaseStore = () => storeOver(() => db)

type OutboxRow = {
  kind: string
  entry_id: string | null
  status: string
  attempts: number
  payload: Record<string, unknown>
  last_error: string | null
  note: string | null
}

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    beforeEach(async () => {
      await db.exec(`
      update private.waitlist_confirmation_settings
         set token_ttl = interval '7 days', window_seconds = 3600, confirm_per_client = 1000, lease = interval '2 minutes',
             max_attempts = 8, retry_base_seconds = 30, retry_max_seconds = 21600, erasure_email_lifetime = interval '7 days';
      update private.waitlist_referral_settings set own_data_per_client = 60;
      delete from private.waitlist_api_attempts;
      delete from private.waitlist_recent_signups;
      delete from public.waitlist;
      delete from public.waitlist_outbox;
    `)
      await mail.start()
      await mail.clear()
    })

    const { address, joined, deleteMe, api } = waitlistPeople(() => db, 'erasure.test')
    const slackPosts: unknown[] = []
    const options = (overrides: Partial<DispatchOptions> = {}): DispatchOptions => ({
      store: databaseStore(),
      email: smtpEmailChannel(mail.smtpUrl, 'waitlist@example.com'),
      slack: async (body) => void slackPosts.push(body),
      slackIncludeEmail: true,
      copy: async () => copy,
      appUrl: async () => 'https://app.heardly.example',
      siteUrl: 'https://heardly.example',
      ...overrides,
    })
    /** The outbox's erasure messages, as the owner sees them. */
    const erasures = async () =>
      (
        await db.query<OutboxRow>(
          `select kind, entry_id, status, attempts, payload, last_error, note from public.waitlist_outbox where kind = 'erasure_email' order by created_at`,
        )
      ).rows

    /** A confirmed person whose confirmation and Slack messages have been sent already. */
    async function person(name = `Person ${Math.random().toString(36).slice(2, 8)}`) {
      const joinedPerson = await joined(address(), null, name)
      await db.exec(`update public.waitlist_outbox set status = 'sent', sent_at = now() where status = 'pending'`)
      return { ...joinedPerson, name }
    }

    describe('"Delete me"', () => {
      it('writes the erasure e-mail in the same transaction as the delete: the address, the name and the language only, no entry', async () => {
        const { email, token, name } = await person('Ada Erasure')
        expect(await deleteMe(token)).toBe(true)
        expect((await db.query('select 1 from public.waitlist where email = $1', [email])).rows).toEqual([])
        expect(await erasures()).toEqual([
          { kind: 'erasure_email', entry_id: null, status: 'pending', attempts: 0, payload: { email, name, language: 'en' }, last_error: null, note: null },
        ])
        // Their own confirmation and Slack messages went with the entry.
        expect((await db.query(`select kind from public.waitlist_outbox where kind <> 'erasure_email'`)).rows).toEqual([])
      })

      it('writes no message when the erasure does not happen, and erases nothing when the message cannot be written', async () => {
        const { email, token } = await person()
        // Rolled back (runAs without keep): neither the delete nor the message stays.
        const rolledBack = await runAs(db, 'anon', 'select public.waitlist_delete_me($1)', [token], { request: api() })
        expect(rolledBack).toMatchObject({ ok: true })
        expect((await db.query('select 1 from public.waitlist where email = $1', [email])).rows).toHaveLength(1)
        expect(await erasures()).toEqual([])
        // The delete fails: no message.
        await db.exec(`
        create function private.test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$;
        create trigger test_refuse before delete on public.waitlist for each row execute function private.test_refuse();`)
        try {
          await expect(deleteMe(token)).rejects.toThrow(/refused by the test/)
        } finally {
          await db.exec('drop trigger test_refuse on public.waitlist; drop function private.test_refuse();')
        }
        expect(await erasures()).toEqual([])
        // The message cannot be written: the entry stays.
        await db.exec(`
        create function private.test_refuse() returns trigger language plpgsql as $$ begin raise exception 'outbox refused by the test'; end $$;
        create trigger test_refuse before insert on public.waitlist_outbox for each row execute function private.test_refuse();`)
        try {
          await expect(deleteMe(token)).rejects.toThrow(/outbox refused by the test/)
        } finally {
          await db.exec('drop trigger test_refuse on public.waitlist_outbox; drop function private.test_refuse();')
        }
        expect((await db.query('select 1 from public.waitlist where email = $1', [email])).rows).toHaveLength(1)
        expect(await deleteMe(token)).toBe(true)
      })

      it('keeps the own-data rate limit: guesses count against it, and a guess writes nothing', async () => {
        await db.exec('update private.waitlist_referral_settings set own_data_per_client = 3')
        const { token } = await person()
        const client = '198.51.100.9'
        for (let i = 0; i < 3; i++) expect(await deleteMe(newToken(), client)).toBe(false)
        await expect(deleteMe(token, client)).rejects.toThrow(/Too many attempts/)
        expect(await erasures()).toEqual([])
        // From another network the holder still can.
        expect(await deleteMe(token, '198.51.100.10')).toBe(true)
        expect(await erasures()).toHaveLength(1)
      })
    })

    describe('the erasure e-mail', () => {
      it('is claimed although its entry is gone, sent to the deleted address with the words from Sanity, and then no table holds the address or name', async () => {
        const { email, token, name } = await person('Ada Erasure')
        expect(await deleteMe(token)).toBe(true)
        slackPosts.length = 0
        expect(await dispatchOutbox(options())).toMatchObject({ claimed: 1, sent: 1, failed: 0 })
        const inbox = await mail.inbox()
        expect(inbox).toHaveLength(1)
        const [message] = inbox
        expect(message?.to).toEqual([{ address: email, name }])
        expect(message?.from).toEqual([{ address: 'waitlist@example.com', name: copy.senderName }])
        expect(message?.subject).toBe(copy.erasureSubject)
        expect(message?.text).toContain(`Hi ${name},`)
        for (const paragraph of copy.erasureBody.split('\n')) expect(message?.text).toContain(paragraph)
        expect(message?.text).toContain(copy.erasureFooter)
        expect(message?.html).not.toMatch(/<img/i)
        expect(message?.headers['message-id']).toMatch(/^<[0-9a-f-]{36}@example\.com>$/)
        // Slack hears nothing of it, even with addresses allowed.
        expect(slackPosts).toEqual([])
        // Done: a bare record, no entry, no address, no name.
        expect(await erasures()).toEqual([{ kind: 'erasure_email', entry_id: null, status: 'sent', attempts: 1, payload: {}, last_error: null, note: null }])
        expect(await rowsHolding(db, [email, name])).toEqual([])
        // Sent once.
        expect(await dispatchOutbox(options())).toMatchObject({ claimed: 0 })
        expect(await mail.inbox()).toHaveLength(1)
      })

      it('is retried after the SMTP server was down and arrives once it is back; the address stays only while it waits', async () => {
        const { email, token, name } = await person()
        expect(await deleteMe(token)).toBe(true)
        await mail.stop()
        const down = await dispatchOutbox(options())
        expect(down).toMatchObject({ claimed: 1, sent: 0, failed: 1 })
        expect(await erasures()).toEqual([
          expect.objectContaining({
            status: 'pending',
            attempts: 1,
            payload: { email, name, language: 'en' },
            last_error: expect.stringMatching(/ECONNREFUSED/),
          }),
        ])

        await mail.start()
        expect(await dispatchOutbox(options())).toMatchObject({ claimed: 0 })
        await db.exec(`update public.waitlist_outbox set available_at = now() where status = 'pending'`)
        expect(await dispatchOutbox(options())).toMatchObject({ claimed: 1, sent: 1 })
        expect((await mail.inbox()).map((message) => message.to[0]?.address)).toEqual([email])
        expect(await erasures()).toEqual([expect.objectContaining({ status: 'sent', attempts: 2, payload: {}, last_error: null })])
        expect(await rowsHolding(db, [email, name])).toEqual([])
      })

      it('forgets the address when it finally fails, keeping only the error code', async () => {
        await db.exec('update private.waitlist_confirmation_settings set max_attempts = 1')
        const { email, token, name } = await person()
        expect(await deleteMe(token)).toBe(true)
        const failing = options({
          email: async () => {
            throw Object.assign(new Error(`550 5.1.1 <${email}>: Recipient address rejected (${name})`), { code: 'EENVELOPE' })
          },
        })
        const report = await dispatchOutbox(failing)
        expect(report).toMatchObject({ failed: 1 })
        // What the route logs names nobody either.
        expect(report.errors).toEqual([
          expect.stringMatching(/^erasure_email [0-9a-f-]{36}: EENVELOPE: 550 5\.1\.1 <\[address\]>: Recipient address rejected \(\[name\]\)$/),
        ])
        expect(await erasures()).toEqual([
          expect.objectContaining({ status: 'failed', attempts: 1, payload: {}, last_error: 'EENVELOPE (details removed with the address)' }),
        ])
        expect(await rowsHolding(db, [email, name])).toEqual([])
      })

      it('forgets the address when the dispatcher died between sending and marking (in doubt, not sent again)', async () => {
        const { email, token, name } = await person()
        expect(await deleteMe(token)).toBe(true)
        const crashing: OutboxStore = {
          ...databaseStore(),
          complete: async () => {
            throw new Error('simulated crash before marking')
          },
        }
        await expect(dispatchOutbox(options({ store: crashing }))).rejects.toThrow(/simulated crash/)
        expect(await mail.inbox()).toHaveLength(1)
        await db.exec(`update public.waitlist_outbox set lease_until = now() - interval '1 second' where status = 'sending'`)
        expect(await dispatchOutbox(options())).toMatchObject({ claimed: 0 })
        expect(await erasures()).toEqual([expect.objectContaining({ status: 'in_doubt', payload: {} })])
        expect(await rowsHolding(db, [email, name])).toEqual([])
        expect(await mail.inbox()).toHaveLength(1)
      })

      it('is given up, and the address forgotten, when it could not be sent within its lifetime (7 days)', async () => {
        const { email, token, name } = await person()
        expect(await deleteMe(token)).toBe(true)
        // Not yet: the purge leaves a fresh one alone.
        await runAs(db, 'service_role', 'select public.waitlist_purge_pending()', [], { keep: true, request: { headers: {} } })
        expect(await erasures()).toEqual([expect.objectContaining({ status: 'pending', payload: { email, name, language: 'en' } })])
        await db.exec(`update public.waitlist_outbox set created_at = now() - interval '7 days 1 second' where kind = 'erasure_email'`)
        await runAs(db, 'service_role', 'select public.waitlist_purge_pending()', [], { keep: true, request: { headers: {} } })
        expect(await erasures()).toEqual([
          expect.objectContaining({ status: 'failed', attempts: 0, payload: {}, note: expect.stringMatching(/^Not sent within 7 days/) }),
        ])
        expect(await rowsHolding(db, [email, name])).toEqual([])
        expect(await dispatchOutbox(options())).toMatchObject({ claimed: 0 })
        expect(await mail.inbox()).toEqual([])
      })
    })

    describe('the outbox rules', () => {
      it('refuse an erasure message with an entry, with more than address and name, or keeping them once done; and other messages without an entry', async () => {
        const { email } = await person()
        const entryId = (await db.query<{ id: string }>('select id from public.waitlist where email = $1', [email])).rows[0]!.id
        const attempts = [
          [`insert into public.waitlist_outbox (entry_id, kind, payload) values ($1, 'erasure_email', '{"email": "a@b.test", "name": "A"}')`, [entryId]],
          [`insert into public.waitlist_outbox (kind, payload) values ('erasure_email', '{"email": "a@b.test", "name": "A", "project": "Acme"}')`, []],
          [`insert into public.waitlist_outbox (kind, payload) values ('erasure_email', '{"email": "a@b.test"}')`, []],
          [`insert into public.waitlist_outbox (kind) values ('confirmation_email')`, []],
          [`insert into public.waitlist_outbox (kind) values ('slack_confirmed')`, []],
          [`insert into public.waitlist_outbox (entry_id, kind) values ($1, 'something_else')`, [entryId]],
        ] as const
        for (const [sql, params] of attempts) {
          await expect(db.query(sql, [...params]), sql).rejects.toMatchObject({ code: '23514' })
        }
        // Marked done by any means, it keeps nothing: the trigger empties it, the check holds.
        await db.query(`insert into public.waitlist_outbox (kind, payload) values ('erasure_email', '{"email": "a@b.test", "name": "A"}')`)
        await db.exec(`update public.waitlist_outbox set status = 'skipped' where kind = 'erasure_email'`)
        expect(await erasures()).toEqual([expect.objectContaining({ status: 'skipped', payload: {} })])
        await expect(
          db.query(`update public.waitlist_outbox set payload = '{"email": "a@b.test", "name": "A"}' where kind = 'erasure_email'`),
        ).resolves.toBeDefined()
        expect(await erasures()).toEqual([expect.objectContaining({ payload: {} })])
      })

      it('keep it from the public key: anon can neither read the outbox nor claim from it', async () => {
        const { token } = await person()
        expect(await deleteMe(token)).toBe(true)
        for (const sql of [
          'select * from public.waitlist_outbox',
          `select payload from public.waitlist_outbox where kind = 'erasure_email'`,
          'update public.waitlist_outbox set status = $$pending$$',
          'delete from public.waitlist_outbox',
          'select public.waitlist_outbox_claim(10)',
          'select public.waitlist_purge_pending()',
        ]) {
          expect(await runAs(db, 'anon', sql, [], { request: api() }), sql).toMatchObject({ ok: false, code: '42501' })
        }
        expect(await erasures()).toEqual([expect.objectContaining({ status: 'pending' })])
      })
    })
  },
)
