/**
 * An import's guarantees in the database (supabase/schemas/16_imports.sql), on PGlite and on a real
 * PostgreSQL server, attacked and raced: a forged import setting does not let a visitor skip a
 * required question; an imported list's confirmations go after a new sign-up's link, and its
 * people are kept until theirs is sent, their link lasting its whole time from the send; an import
 * a command left open is taken out by the dispatcher's purge, a committed one's held messages
 * released by it; two imports running at once reserve arrivals that never collide, each in the
 * order of its times, ahead of everyone already in line; and a visitor signing up during an import
 * is not imported twice; and the command's mailbox key is the database's. The command's side:
 * tests/integration/waitlist-import.test.ts.
 */
import { randomUUID } from 'node:crypto'
import { beforeEach, expect, it } from 'vitest'
import { mailboxKey, normalizeWaitlistEmail } from '@/components/waitlist/email'
import { trimWaitlistText, UNSTORABLE } from '@/components/waitlist/rules'
import { EMAIL_CASES, LOOK_ALIKES } from '../helpers/email-cases'
import { ROLE_QUESTION } from '../helpers/questions'
import { emptyList, onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { sha256, waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb

const targets = await waitlistDbTargets('waitlist-import-db')

const REQUIRED_ROLE = [{ ...ROLE_QUESTION, required: true }]

type Row = { line: number; name: string; email: string; signed_up_at?: string; rank?: number; answers?: Record<string, string> }

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    const { api, signUp } = waitlistPeople(() => db, 'import-db.test')

    async function asService<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
      const result = await runAs<T>(db, 'service_role', sql, params, { keep: true, request: api() })
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      return result.rows
    }
    const begin = (id: string, timed: number, consent = '') =>
      asService('select public.waitlist_import_begin($1, $2, $3, $4)', [id, sha256(id), consent, timed])
    const chunk = async (id: string, rows: Row[]) =>
      (
        await asService<{ value: { written: number; listed: number[] } }>('select public.waitlist_import_chunk($1, $2::jsonb) as value', [
          id,
          JSON.stringify(rows),
        ])
      )[0]!.value
    const commit = async (id: string) => (await asService<{ value: number }>('select public.waitlist_import_commit($1) as value', [id]))[0]!.value
    const line = async () =>
      (
        await db.query<{ email: string }>(
          `select w.email from private.waitlist_line l join public.waitlist w on w.id = l.entry_id where l.line_key is not null order by l.line_key, l.arrival`,
        )
      ).rows.map((row) => row.email)

    beforeEach(async () => {
      await emptyList(db, 'private.waitlist_questions')
      await db.exec(`delete from private.waitlist_imports; update private.waitlist_mail_caps set emails_per_hour = 1000, unproven_per_recipient = 100;`)
    })

    it('the command\'s mailbox key (a bad row\'s "same mailbox as line N") is the database\'s ("already on the list")', async () => {
      const spellings = [
        ...LOOK_ALIKES,
        ...EMAIL_CASES.map((item) => item.input),
        'Ann.Lee+old@GoogleMail.com',
        'ann.lee@gmail.com',
        'a.b+c@outlook.com',
        'a.b+c@example.com',
        'me+x@pm.me',
        'me@protonmail.ch',
        'Me@Mac.com',
        '+only@gmail.com',
        'no-at-sign',
      ]
      // Postgres text holds neither a NUL nor a lone surrogate: the checks refuse those rows first.
      for (const spelling of spellings.filter((text) => !UNSTORABLE.test(text))) {
        const normalized = normalizeWaitlistEmail(spelling, trimWaitlistText)
        const sql = (await db.query<{ key: string }>('select waitlist_rules.mailbox_key($1) as key', [normalized])).rows[0]!.key
        expect({ spelling, key: mailboxKey(normalized) }).toEqual({ spelling, key: sql })
      }
    })

    it('a visitor who names an import in their own session still answers the required question', async () => {
      await asService('select public.waitlist_replace_questions($1::jsonb)', [JSON.stringify(REQUIRED_ROLE)])
      const open = randomUUID()
      await begin(open, 0)
      const committed = randomUUID()
      await begin(committed, 0)
      await commit(committed)
      for (const named of [randomUUID(), committed, 'not a uuid']) {
        const attempt = await runAs(
          db,
          'anon',
          `with forged as (select set_config('waitlist.import', $3, true) as value)
           insert into public.waitlist (name, email) select $1, $2 from forged`,
          ['Mallory', `mallory-${Math.random().toString(36).slice(2)}@import-db.test`, named],
          { request: api() },
        )
        expect(attempt).toMatchObject({ ok: false, code: 'WLA01' })
      }
      // The import's own chunk, which only the service role may call, is what lets it through.
      expect(await chunk(open, [{ line: 2, name: 'Imported', email: 'imported@import-db.test' }])).toMatchObject({ written: 1 })
      const anonChunk = await runAs(db, 'anon', 'select public.waitlist_import_chunk($1, $2::jsonb)', [open, '[]'], { request: api() })
      expect(anonChunk).toMatchObject({ ok: false, code: '42501' })
    })

    it("an imported list's confirmations wait behind a new sign-up's link; the link lasts its whole time from the send, and the entry is kept until then", async () => {
      const id = randomUUID()
      await begin(id, 0)
      await chunk(id, [
        { line: 2, name: 'Old One', email: 'old1@import-db.test' },
        { line: 3, name: 'Old Two', email: 'old2@import-db.test' },
      ])
      expect(await commit(id)).toBe(0)
      expect(await signUp('new@import-db.test')).toEqual({ ok: true, rows: [] })

      type Claimed = { id: string; lease_id: string; entry: { email: string } }
      const claim = async (n: number) => (await asService<{ value: Claimed[] }>('select public.waitlist_outbox_claim($1) as value', [n]))[0]!.value
      const first = await claim(1)
      expect(first.map((message) => message.entry.email)).toEqual(['new@import-db.test'])

      // Days later, past the week an entry normally waits: the purge keeps them, their e-mail unsent.
      await db.exec(`update public.waitlist set confirm_by = now() - interval '30 days' where email like 'old%'`)
      await asService('select public.waitlist_purge_pending()')
      expect((await db.query(`select email from public.waitlist where email like 'old%' order by email`)).rows).toEqual([
        { email: 'old1@import-db.test' },
        { email: 'old2@import-db.test' },
      ])
      const [old] = await claim(1)
      expect(['old1@import-db.test', 'old2@import-db.test']).toContain(old!.entry.email)
      const expires = await asService<{ value: string }>('select public.waitlist_outbox_attach_token($1, $2, $3) as value', [
        old!.id,
        old!.lease_id,
        sha256(randomUUID()),
      ])
      const ttl = (await db.query<{ days: number }>(`select extract(day from token_ttl)::int as days from private.waitlist_confirmation_settings`)).rows[0]!
        .days
      const lasts = (new Date(expires[0]!.value).getTime() - Date.now()) / 86_400_000
      expect(lasts).toBeGreaterThan(ttl - 0.01)
      expect(
        (await db.query<{ later: boolean }>(`select confirm_by > now() + interval '1 day' as later from public.waitlist where email = $1`, [old!.entry.email]))
          .rows,
      ).toEqual([{ later: true }])
    })

    it('the purge takes out an import left open for an hour, with no entry.left webhook, and releases what a committed one still holds', async () => {
      await db.exec(`update private.waitlist_webhook_settings set enabled = true`)
      const stale = randomUUID()
      await begin(stale, 0, 'Opted in elsewhere')
      await chunk(stale, [{ line: 2, name: 'Stale', email: 'stale@import-db.test' }])
      const held = randomUUID()
      await begin(held, 0, 'Opted in elsewhere')
      await chunk(held, [{ line: 2, name: 'Held', email: 'held@import-db.test' }])
      // A commit whose release stopped: committed, its entry.confirmed still held.
      await db.exec(`update private.waitlist_imports set committed_at = now() where id = '${held}'`)
      await db.exec(`update private.waitlist_imports set started_at = now() - interval '2 hours' where id = '${stale}'`)
      await asService('select public.waitlist_purge_pending()')

      expect((await db.query(`select email from public.waitlist order by email`)).rows).toEqual([{ email: 'held@import-db.test' }])
      expect((await db.query(`select id from private.waitlist_imports`)).rows).toEqual([{ id: held }])
      expect((await db.query(`select payload ->> 'type' as type from public.waitlist_outbox where kind = 'webhook' and entry_id is null`)).rows).toEqual([])
      expect(
        (
          await db.query(
            `select o.payload ->> 'type' as type, o.available_at <= now() as due from public.waitlist_outbox o join public.waitlist w on w.id = o.entry_id`,
          )
        ).rows,
      ).toEqual([{ type: 'entry.confirmed', due: true }])
      expect((await db.query(`select released_at is not null as released from private.waitlist_imports`)).rows).toEqual([{ released: true }])
    })

    it('two imports at once reserve arrivals that never collide, each in the order of its times, ahead of the line', async () => {
      expect(await signUp('here@import-db.test')).toEqual({ ok: true, rows: [] })
      await db.exec(`update public.waitlist set status = 'confirmed' where email = 'here@import-db.test'`)
      const [a, b] = [randomUUID(), randomUUID()]
      const rows = (prefix: string): Row[] =>
        [3, 1, 2].map((rank, index) => ({
          line: index + 2,
          name: `${prefix} ${rank}`,
          email: `${prefix}${rank}@import-db.test`,
          signed_up_at: `2025-0${rank}-01T00:00:00Z`,
          rank,
        }))
      await Promise.all([begin(a, 3, 'consented'), begin(b, 3, 'consented')])
      await Promise.all([chunk(a, rows('a')), chunk(b, rows('b'))])
      await Promise.all([commit(a), commit(b)])
      const order = await line()
      expect(order).toHaveLength(7)
      expect(order.at(-1)).toBe('here@import-db.test')
      for (const prefix of ['a', 'b'])
        expect(order.filter((email) => email.startsWith(prefix))).toEqual([1, 2, 3].map((rank) => `${prefix}${rank}@import-db.test`))
      // The import opened later is ahead of the one before it, as a whole: the ranges never interleave.
      const firstA = order.indexOf('a1@import-db.test')
      const firstB = order.indexOf('b1@import-db.test')
      const later = firstA < firstB ? 'a' : 'b'
      expect(order.slice(0, 3).every((email) => email.startsWith(later))).toBe(true)
    })

    it('a visitor signing up while their address is being imported is on the list once', async () => {
      const id = randomUUID()
      await begin(id, 0)
      const racing = Array.from({ length: 20 }, (_, i) => `race${i}@import-db.test`)
      const [outcome] = await Promise.all([
        chunk(
          id,
          racing.map((email, i) => ({ line: i + 2, name: 'Imported', email })),
        ).then(
          (value) => ({ ok: true as const, value }),
          (error: Error) => ({ ok: false as const, error }),
        ),
        ...racing.map((email) => signUp(email)),
      ])
      await (outcome.ok ? commit(id) : asService('select public.waitlist_import_abort($1)', [id]))
      const counts = (await db.query<{ email: string; n: number }>(`select email, count(*)::int as n from public.waitlist group by email`)).rows
      expect(counts).toHaveLength(20)
      expect(counts.every((row) => row.n === 1)).toBe(true)
    })
  },
)
