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
    const { api, call, joined, signUp } = waitlistPeople(() => db, 'import-db.test')

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
    const commit = async (id: string, maxEntries = 1000) =>
      (await asService<{ value: number }>('select public.waitlist_import_commit($1, 20000, $2) as value', [id, maxEntries]))[0]!.value
    const abort = async (id: string, { maxEntries = 5000, onlyQuiet = false } = {}) =>
      (await asService<{ value: number }>('select public.waitlist_import_abort($1, $2, $3) as value', [id, maxEntries, onlyQuiet]))[0]!.value
    type Claimed = { id: string; kind: string; lease_id: string; payload: { type?: string }; entry: { email: string } }
    const claim = async (n: number) => (await asService<{ value: Claimed[] }>('select public.waitlist_outbox_claim($1) as value', [n]))[0]!.value
    const leftWebhooks = async () =>
      (await db.query(`select 1 from public.waitlist_outbox where kind = 'webhook' and payload ->> 'type' = 'entry.left'`)).rows.length
    const line = async () =>
      (
        await db.query<{ email: string }>(
          `select w.email from private.waitlist_line l join public.waitlist w on w.id = l.entry_id where l.line_key is not null order by l.line_key, l.arrival`,
        )
      ).rows.map((row) => row.email)

    /** As if the import's run had written nothing for `interval` (it died then). */
    const quietFor = (id: string, interval: string) =>
      db.exec(`update private.waitlist_imports set started_at = now() - interval '${interval}' where id = '${id}';
               update private.waitlist_imported set written_at = now() - interval '${interval}' where import_id = '${id}';`)

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
      const committed = randomUUID()
      await begin(committed, 0)
      await commit(committed)
      const open = randomUUID()
      await begin(open, 0)
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
      const held = randomUUID()
      await begin(held, 0, 'Opted in elsewhere')
      await chunk(held, [{ line: 2, name: 'Held', email: 'held@import-db.test' }])
      // A commit whose work after it stopped: committed, its person not yet confirmed.
      await db.exec(`update private.waitlist_imports set committed_at = now() where id = '${held}'`)
      const stale = randomUUID()
      await begin(stale, 0, 'Opted in elsewhere')
      await chunk(stale, [{ line: 2, name: 'Stale', email: 'stale@import-db.test' }])
      await quietFor(stale, '2 hours')
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
      expect((await db.query(`select status from public.waitlist`)).rows).toEqual([{ status: 'confirmed' }])
      expect((await db.query(`select released_at is not null as released from private.waitlist_imports`)).rows).toEqual([{ released: true }])
    })

    it('one import is open at a time; each later import goes ahead of the one before, its arrivals in the order of its times', async () => {
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
      await begin(a, 3, 'consented')
      // Two at once would each believe the other's people are not on the list yet.
      await expect(begin(b, 3, 'consented')).rejects.toThrow(/^55006: import .* is still open/)
      await chunk(a, rows('a'))
      await commit(a)
      await begin(b, 3, 'consented')
      await chunk(b, rows('b'))
      await commit(b)
      expect(await line()).toEqual([
        ...[1, 2, 3].map((rank) => `b${rank}@import-db.test`),
        ...[1, 2, 3].map((rank) => `a${rank}@import-db.test`),
        'here@import-db.test',
      ])
    })

    it('the people of an import not committed are on nobody\'s list: not in line, never invited, no link, not another list\'s "already on it", and a visitor with their address takes their place', async () => {
      await db.exec(`update private.waitlist_webhook_settings set enabled = true`)
      const here = await joined()
      const id = randomUUID()
      await begin(id, 2, 'Opted in elsewhere')
      await chunk(id, [
        { line: 2, name: 'Early One', email: 'early1@import-db.test', signed_up_at: '2024-01-01T00:00:00Z', rank: 1 },
        { line: 3, name: 'Early Two', email: 'early2@import-db.test', signed_up_at: '2024-02-01T00:00:00Z', rank: 2 },
        { line: 4, name: 'Taken', email: 'taken@import-db.test' },
      ])
      // Consented and from 2024, they would stand at places 1 and 2 once committed; not before.
      expect(await line()).toEqual([here.email])
      await asService('select public.waitlist_invite_next(2, false)')
      expect((await db.query(`select email from public.waitlist where status = 'invited'`)).rows).toEqual([{ email: here.email }])
      const check = await asService<{ value: { listed: number[] } }>('select public.waitlist_import_check($1::jsonb) as value', [
        JSON.stringify([{ line: 2, email: 'Early1@import-db.test' }]),
      ])
      expect(check[0]!.value.listed).toEqual([])
      await call('select public.waitlist_request_link($1) as value', ['early2@import-db.test'])
      expect(await signUp('taken@import-db.test')).toEqual({ ok: true, rows: [] })
      // Nothing about them is due: what they caused waits for a commit that never comes.
      const due = await db.query<{ email: string }>(
        `select w.email from public.waitlist_outbox o join public.waitlist w on w.id = o.entry_id
          where o.status = 'pending' and o.available_at <= now() and w.email like 'early%'`,
      )
      expect(due.rows).toEqual([])

      await quietFor(id, '2 minutes')
      expect(await abort(id, { onlyQuiet: true })).toBe(0)
      expect((await db.query(`select email, utm_medium from public.waitlist order by email`)).rows).toEqual([
        { email: here.email, utm_medium: null },
        { email: 'taken@import-db.test', utm_medium: null },
      ])
      expect(await leftWebhooks()).toBe(0)
    })

    it("a consented import's people are confirmed after the commit, a batch a call, each once when calls run side by side", async () => {
      await db.exec(`update private.waitlist_webhook_settings set enabled = true`)
      const id = randomUUID()
      await begin(id, 0, 'Opted in elsewhere')
      const people = Array.from({ length: 7 }, (_, i) => ({ line: i + 2, name: `Consented ${i}`, email: `consented${i}@import-db.test` }))
      await chunk(id, people)
      expect((await db.query(`select distinct status from public.waitlist`)).rows).toEqual([{ status: 'pending' }])
      expect(await commit(id, 2)).toBeGreaterThan(0)
      expect((await db.query(`select count(*)::int as n from public.waitlist where status = 'confirmed'`)).rows).toEqual([{ n: 2 }])
      // Those still to be confirmed have no link waiting to leave, released or not.
      expect((await db.query(`select count(*)::int as n from public.waitlist_outbox where kind = 'confirmation_email'`)).rows).toEqual([{ n: 0 }])
      const follow = async () => {
        while ((await commit(id, 2)) > 0);
      }
      await Promise.all([follow(), follow()])
      expect((await db.query(`select distinct status from public.waitlist`)).rows).toEqual([{ status: 'confirmed' }])
      // Each in line once (two calls side by side draw arrivals in turn: rows without a time have no order of their own).
      expect((await line()).sort()).toEqual(people.map((person) => person.email).sort())
      const messages = await db.query<{ kind: string; type: string | null; bulk: boolean; n: number }>(
        `select kind, payload ->> 'type' as type, payload ? 'import' as bulk, count(*)::int as n
           from public.waitlist_outbox where status = 'pending' and available_at <= now() group by 1, 2, 3`,
      )
      // One entry.confirmed each, bulk; no Slack post per person and no confirmation e-mail.
      expect(messages.rows).toEqual([{ kind: 'webhook', type: 'entry.confirmed', bulk: true, n: 7 }])
      expect((await db.query(`select released_at is not null as released from private.waitlist_imports`)).rows).toEqual([{ released: true }])
    })

    it('a run that died is taken out by the next only once it is quiet, and its late chunk or commit is refused from then on', async () => {
      const id = randomUUID()
      await begin(id, 0)
      await chunk(id, [
        { line: 2, name: 'One', email: 'dead1@import-db.test' },
        { line: 3, name: 'Two', email: 'dead2@import-db.test' },
      ])
      await expect(abort(id, { onlyQuiet: true })).rejects.toThrow(/^55006: import .* is still writing/)
      await quietFor(id, '2 minutes')
      expect(await abort(id, { maxEntries: 1, onlyQuiet: true })).toBe(1)
      // The run wakes up half-way through its taking out: nothing it sends counts.
      await expect(chunk(id, [{ line: 4, name: 'Three', email: 'dead3@import-db.test' }])).rejects.toThrow(/^22023: no open import/)
      await expect(commit(id)).rejects.toThrow(/^22023: no import .* to commit/)
      expect(await abort(id)).toBe(0)
      expect((await db.query(`select email from public.waitlist`)).rows).toEqual([])
      expect((await db.query(`select id from private.waitlist_imports`)).rows).toEqual([])
      expect(await leftWebhooks()).toBe(0)
    })

    it("urgent messages (e-mails, Slack, invitations' webhooks) never wait behind an import's bulk ones", async () => {
      await db.exec(`update private.waitlist_webhook_settings set enabled = true`)
      const id = randomUUID()
      await begin(id, 0, 'Opted in elsewhere')
      await chunk(
        id,
        Array.from({ length: 30 }, (_, i) => ({ line: i + 2, name: `Bulk ${i}`, email: `bulk${i}@import-db.test` })),
      )
      expect(await commit(id)).toBe(0)
      // The import's webhooks have waited longest.
      await db.exec(`update public.waitlist_outbox set available_at = now() - interval '1 hour', created_at = now() - interval '1 hour'`)
      const invited = await joined()
      await asService('select public.waitlist_invite_email($1)', [invited.email])
      const confirmed = await joined()
      expect(await signUp('new@import-db.test')).toEqual({ ok: true, rows: [] })

      const claimed = (await claim(6)).map((message) => [message.kind, message.payload.type ?? null, message.entry.email])
      expect(claimed).toEqual([
        ['invitation_email', null, invited.email],
        ['confirmation_email', null, 'new@import-db.test'],
        ['slack_confirmed', null, invited.email],
        ['webhook', 'entry.invited', invited.email],
        ['slack_confirmed', null, confirmed.email],
        ['webhook', 'entry.confirmed', invited.email],
      ])
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
