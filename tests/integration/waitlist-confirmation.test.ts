/**
 * Double opt-in and the outbox in the database (supabase/migrations/*_waitlist_confirmation.sql),
 * on PGlite and on a real PostgreSQL server: what the public key can and cannot do, hashed
 * tokens (private.waitlist_tokens since *_waitlist_abuse.sql), expiry, the purge, new links, the
 * outbox's lease and backoff. Calls run as the
 * API roles with request headers set the way PostgREST sets them.
 */
import { createHash, randomBytes } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { INSERT_WAITLIST, onEachDatabase, runAs, waitlistDbTargets, type Attempt, type WaitlistDb } from '../helpers/waitlist-db'

let db: WaitlistDb

const targets = await waitlistDbTargets('waitlist-confirmation')

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex')
const newToken = () => randomBytes(32).toString('base64url')

type Message = { id: string; kind: string; lease_id: string; attempts: number; payload: { total?: number }; entry: { id: string; email: string; name: string } }

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    beforeEach(async () => {
      await db.exec(`
      update private.waitlist_confirmation_settings
         set token_ttl = interval '7 days', purge_pending_after = interval '0', window_seconds = 3600, confirm_per_client = 30,
             link_requests_per_client = 10, link_request_interval_seconds = 0, lease = interval '2 minutes', max_attempts = 12,
             retry_base_seconds = 30, retry_max_seconds = 21600, access_ttl = interval '30 days';
      update private.waitlist_mail_caps set unproven_per_recipient = 3, emails_per_hour = 500;
      delete from private.waitlist_mail_log;
      delete from private.waitlist_api_attempts;
      delete from private.waitlist_recent_signups;
      delete from public.waitlist;
    `)
    })

    let counter = 0
    const address = () => `person${++counter}@confirm.test`
    let ip = 0
    // A different client per call unless a test says otherwise, so limits only bite where tested.
    const api = (client = `198.51.100.${(ip++ % 250) + 1}`) => ({ headers: { 'x-forwarded-for': client } })

    const signUp = (email = address(), client?: string) => runAs(db, 'anon', INSERT_WAITLIST, ['Ada', email, 'Acme'], { keep: true, request: api(client) })
    const confirm = async (token: string, client?: string) => {
      const result = await runAs<{ answer: string }>(db, 'anon', 'select public.waitlist_confirm($1) as answer', [token], { keep: true, request: api(client) })
      return result.ok ? result.rows[0]?.answer : result
    }
    const requestLink = (email: string, client?: string) =>
      runAs(db, 'anon', 'select public.waitlist_request_link($1)', [email], { keep: true, request: api(client) })
    const asService = <Row>(sql: string, params: unknown[] = []) => runAs<Row>(db, 'service_role', sql, params, { keep: true, request: { headers: {} } })

    async function claim(max = 20): Promise<Message[]> {
      const result = await asService<{ claimed: Message[] }>('select public.waitlist_outbox_claim($1) as claimed', [max])
      if (!result.ok) throw new Error(result.message)
      return result.rows[0]?.claimed ?? []
    }
    async function attach(message: Message, token: string) {
      const result = await asService<{ expires: string | null }>('select public.waitlist_outbox_attach_token($1, $2, $3) as expires', [
        message.id,
        message.lease_id,
        sha256(token),
      ])
      if (!result.ok) throw new Error(result.message)
      return result.rows[0]?.expires ?? null
    }
    /** As the dispatcher sends: the last check (the hand-over), then the mark. */
    const beginSend = async (message: Message) => {
      const result = await asService<{ value: unknown }>('select public.waitlist_outbox_begin_send($1, $2) as value', [message.id, message.lease_id])
      if (!result.ok) throw new Error(result.message)
      return result.rows[0]?.value
    }
    const expireLeases = () => db.exec("update public.waitlist_outbox set lease_until = now() - interval '1 second' where status = 'sending'")
    const mailLog = async () => Number((await db.query<{ count: string }>('select count(*) from private.waitlist_mail_log')).rows[0]?.count)
    const complete = (message: Message) =>
      asService('select public.waitlist_outbox_begin_send($1, $2) is not null as handed, public.waitlist_outbox_complete($1, $2) as waitlist_outbox_complete', [
        message.id,
        message.lease_id,
      ])
    const outbox = async (email?: string) =>
      (
        await db.query<{
          kind: string
          status: string
          attempts: number
          payload: { total?: number }
          last_error: string | null
          available_at: Date
          note: string | null
        }>(
          `select o.kind, o.status, o.attempts, o.payload, o.last_error, o.available_at, o.note from public.waitlist_outbox o join public.waitlist w on w.id = o.entry_id
          where $1::text is null or w.email = $1 order by o.created_at`,
          [email ?? null],
        )
      ).rows
    const entry = async (email: string) =>
      (
        await db.query<{ status: string; confirmed_at: Date | null; confirm_by: Date }>(
          'select status, confirmed_at, confirm_by from public.waitlist where email = $1',
          [email],
        )
      ).rows[0]
    /** The hashes of the links sent to `email`, oldest first. */
    const tokens = async (email: string) =>
      (
        await db.query<{ token_hash: string; created_at: Date; expires_at: Date }>(
          'select k.token_hash, k.created_at, k.expires_at from private.waitlist_tokens k join public.waitlist w on w.id = k.entry_id where w.email = $1 order by k.created_at',
          [email],
        )
      ).rows

    /** A pending sign-up whose link was "sent": returns the token the e-mail would carry. */
    async function signedUpWithLink(email = address()): Promise<{ email: string; token: string }> {
      expect(await signUp(email)).toEqual({ ok: true, rows: [] })
      const token = newToken()
      const message = (await claim()).find((m) => m.entry.email === email)
      if (!message) throw new Error('no message claimed')
      expect(await attach(message, token)).not.toBeNull()
      expect(await complete(message)).toMatchObject({ ok: true })
      return { email, token }
    }

    describe('a sign-up', () => {
      it('is stored pending, with exactly one confirmation e-mail queued in the same transaction', async () => {
        const email = address()
        expect(await signUp(email)).toEqual({ ok: true, rows: [] })
        expect(await entry(email)).toMatchObject({ status: 'pending', confirmed_at: null })
        expect(await tokens(email)).toEqual([])
        expect(await outbox(email)).toMatchObject([{ kind: 'confirmation_email', status: 'pending', attempts: 0 }])
      })

      it('queues nothing when it is refused (the message and the fact commit together)', async () => {
        const email = address()
        await signUp(email)
        expect(await signUp(email.toUpperCase())).toMatchObject({ ok: false, code: '23505' })
        expect(await outbox(email)).toHaveLength(1)
      })

      it('cannot set its own status, confirmation, expiry or credits (anon has no grant for them)', async () => {
        for (const column of ['status', 'confirmed_at', 'confirm_by', 'referral_credits']) {
          const value = column === 'status' ? 'confirmed' : column === 'referral_credits' ? 99 : new Date().toISOString()
          const result = await runAs(db, 'anon', `insert into public.waitlist (name, email, ${column}) values ('Eve', $1, $2)`, [address(), value], {
            request: api(),
          })
          expect(result, column).toMatchObject({ ok: false, code: '42501' })
        }
      })
    })

    describe('the public key', () => {
      it('cannot read the waitlist or the outbox, nor call the dispatcher functions', async () => {
        await signedUpWithLink()
        for (const sql of [
          'select * from public.waitlist',
          'select * from public.waitlist_outbox',
          'select token_hash from private.waitlist_tokens',
          "insert into private.waitlist_tokens (token_hash, entry_id, expires_at) select repeat('a', 64), id, now() + interval '1 day' from public.waitlist",
          'select public.waitlist_outbox_claim(5)',
          "select public.waitlist_outbox_attach_token(gen_random_uuid(), gen_random_uuid(), repeat('a', 64))",
          'select public.waitlist_outbox_begin_send(gen_random_uuid(), gen_random_uuid())',
          'select public.waitlist_outbox_complete(gen_random_uuid(), gen_random_uuid())',
          'select public.waitlist_outbox_release(gen_random_uuid(), gen_random_uuid())',
          "select public.waitlist_outbox_fail(gen_random_uuid(), gen_random_uuid(), 'x')",
          'select public.waitlist_purge_pending()',
          "update public.waitlist set status = 'confirmed'",
          'delete from public.waitlist_outbox',
        ]) {
          expect(await runAs(db, 'anon', sql, [], { request: api() }), sql).toMatchObject({ ok: false, code: '42501' })
        }
      })

      it('cannot confirm without the token: wrong, malformed, empty or another entry\'s hash all answer "invalid"', async () => {
        const { email, token } = await signedUpWithLink()
        const stored = (await tokens(email))[0]!.token_hash
        for (const attempt of [
          newToken(),
          token.slice(0, -1),
          `${token}x`,
          '',
          ' '.repeat(43),
          stored,
          token.toUpperCase() === token ? `${token.slice(0, -1)}a` : token.toUpperCase(),
          "' or 1=1 --",
        ]) {
          expect(await confirm(attempt), attempt).toBe('invalid')
        }
        expect(await entry(email)).toMatchObject({ status: 'pending' })
      })
    })

    describe('the token', () => {
      it('is stored only as its SHA-256: no column of the entry, the outbox or the token table holds the token', async () => {
        const { email, token } = await signedUpWithLink()
        expect((await tokens(email)).map((row) => row.token_hash)).toEqual([sha256(token)])
        const { rows } = await db.query<{ dump: string }>(
          `select (select string_agg(w::text, ' ') from public.waitlist w) || (select coalesce(string_agg(o::text, ' '), '') from public.waitlist_outbox o)
                || (select string_agg(k::text, ' ') from private.waitlist_tokens k) as dump`,
        )
        expect(rows[0]?.dump).not.toContain(token)
      })

      it('confirms once: "confirmed", then "already_confirmed"; the confirmation queues one Slack message with the running total', async () => {
        const first = await signedUpWithLink()
        const second = await signedUpWithLink()
        expect(await confirm(first.token)).toBe('confirmed')
        expect(await confirm(first.token)).toBe('already_confirmed')
        expect(await confirm(second.token)).toBe('confirmed')
        expect(await entry(first.email)).toMatchObject({ status: 'confirmed' })
        expect((await entry(first.email))?.confirmed_at).toBeInstanceOf(Date)
        expect((await outbox(first.email)).filter((m) => m.kind === 'slack_confirmed')).toMatchObject([{ status: 'pending', payload: { total: 1 } }])
        expect((await outbox(second.email)).filter((m) => m.kind === 'slack_confirmed')).toMatchObject([{ payload: { total: 2 } }])
      })

      it('expires: once the entry’s week is over it answers "expired" and the entry stays pending (until the purge)', async () => {
        const { email, token } = await signedUpWithLink()
        await db.query(`update public.waitlist set confirm_by = now() - interval '1 second' where email = $1`, [email])
        expect(await confirm(token)).toBe('expired')
        expect(await entry(email)).toMatchObject({ status: 'pending', confirmed_at: null })
      })

      it('confirms within the entry’s week (7 days by default), and opens the person’s page for 30 days from when it was sent', async () => {
        const { email } = await signedUpWithLink()
        const confirmBy = await db.query<{ days: number }>(
          `select extract(epoch from confirm_by - now()) / 86400 as days from public.waitlist where email = $1`,
          [email],
        )
        expect(Number(confirmBy.rows[0]?.days)).toBeGreaterThan(6.99)
        expect(Number(confirmBy.rows[0]?.days)).toBeLessThanOrEqual(7)
        const [link] = await tokens(email)
        expect((link!.expires_at.getTime() - link!.created_at.getTime()) / 86_400_000).toBeCloseTo(30, 3)
      })

      it('is not cancelled by a newer link: both work, and either confirms', async () => {
        const { email, token } = await signedUpWithLink()
        expect(await requestLink(email)).toMatchObject({ ok: true })
        const [message] = await claim()
        const newer = newToken()
        await attach(message as Message, newer)
        expect(await tokens(email)).toHaveLength(2)
        expect(await confirm(token)).toBe('confirmed')
        expect(await confirm(newer)).toBe('already_confirmed')
      })

      it('is rate limited per network: the 4th attempt within the window answers 429 (WL429)', async () => {
        await db.exec('update private.waitlist_confirmation_settings set confirm_per_client = 3')
        for (let i = 0; i < 3; i++) expect(await confirm(newToken(), '203.0.113.9')).toBe('invalid')
        const refused = (await confirm(newToken(), '203.0.113.9')) as Attempt<unknown>
        expect(refused).toMatchObject({ ok: false, code: 'PGRST' })
        if (refused.ok) throw new Error('unreachable')
        expect(JSON.parse(refused.message)).toMatchObject({ code: 'WL429' })
        expect(JSON.parse(refused.detail ?? '{}')).toMatchObject({ status: 429 })
        // A forged X-Forwarded-For first hop is not a new client: the last hop counts.
        const forged = (await runAs(db, 'anon', 'select public.waitlist_confirm($1)', [newToken()], {
          request: { headers: { 'x-forwarded-for': '10.9.9.9, 203.0.113.9' } },
        })) as Attempt<unknown>
        expect(forged).toMatchObject({ ok: false, code: 'PGRST' })
      })
    })

    describe('an unconfirmed entry', () => {
      it('blocks its address while its link is valid, and gives way to a new sign-up once expired', async () => {
        const { email } = await signedUpWithLink()
        expect(await signUp(email)).toMatchObject({ ok: false, code: '23505' })
        await db.query(`update public.waitlist set confirm_by = now() - interval '1 second' where email = $1`, [email])
        expect(await signUp(email.toUpperCase())).toEqual({ ok: true, rows: [] })
        const { rows } = await db.query<{ status: string }>('select status from public.waitlist where email_key = $1', [email])
        expect(rows).toEqual([{ status: 'pending' }])
        expect(await outbox()).toMatchObject([{ kind: 'confirmation_email', status: 'pending' }])
      })

      it('is deleted by the purge once past its expiry; confirmed and still-valid entries stay', async () => {
        const expired = await signedUpWithLink()
        const valid = await signedUpWithLink()
        const confirmed = await signedUpWithLink()
        expect(await confirm(confirmed.token)).toBe('confirmed')
        await db.query(`update public.waitlist set confirm_by = now() - interval '1 second' where email in ($1, $2)`, [expired.email, confirmed.email])
        const purged = await asService<{ n: number }>('select public.waitlist_purge_pending() as n')
        expect(purged).toMatchObject({ ok: true, rows: [{ n: 1 }] })
        expect(await entry(expired.email)).toBeUndefined()
        expect(await entry(valid.email)).toMatchObject({ status: 'pending' })
        expect(await entry(confirmed.email)).toMatchObject({ status: 'confirmed' })
        expect(await outbox(expired.email)).toEqual([])
      })

      it('is kept for purge_pending_after beyond its expiry when the owner configures a grace period', async () => {
        const expired = await signedUpWithLink()
        await db.exec("update private.waitlist_confirmation_settings set purge_pending_after = interval '30 days'")
        await db.query(`update public.waitlist set confirm_by = now() - interval '1 day' where email = $1`, [expired.email])
        expect(await asService('select public.waitlist_purge_pending() as n')).toMatchObject({ ok: true, rows: [{ n: 0 }] })
      })
    })

    describe('a request for a new link', () => {
      it('answers the same for a pending, a confirmed and an unknown address; a confirmation link for the pending one, a link to their page for the confirmed one', async () => {
        const pending = await signedUpWithLink()
        const confirmed = await signedUpWithLink()
        await confirm(confirmed.token)
        const before = (await outbox()).length
        const answers = [
          await requestLink(pending.email.toUpperCase()),
          await requestLink(confirmed.email),
          await requestLink('nobody@confirm.test'),
          await requestLink('not an address'),
        ]
        for (const answer of answers) expect(answer).toEqual({ ok: true, rows: [{ waitlist_request_link: '' }] })
        const after = await outbox()
        expect(after.length).toBe(before + 2)
        expect((await outbox(pending.email)).filter((m) => m.status === 'pending')).toMatchObject([{ kind: 'confirmation_email' }])
        expect((await outbox(confirmed.email)).filter((m) => m.status === 'pending' && m.kind !== 'slack_confirmed')).toMatchObject([{ kind: 'access_email' }])
      })

      it('queues at most one link per address per interval, and none while one is on its way', async () => {
        const { email } = await signedUpWithLink()
        // On its way: the sign-up's own link was just sent, and one more is queued below.
        await db.exec("update public.waitlist_outbox set created_at = now() - interval '2 minutes'")
        await db.exec('update private.waitlist_confirmation_settings set link_request_interval_seconds = 60')
        await requestLink(email)
        await requestLink(email)
        const [message] = await claim()
        await attach(message as Message, newToken())
        await complete(message as Message)
        await requestLink(email)
        expect((await outbox(email)).filter((m) => m.kind === 'confirmation_email')).toHaveLength(2)
      })

      it('does not revive an expired pending entry: nothing is sent, and signing up again starts afresh', async () => {
        const { email, token } = await signedUpWithLink()
        await db.query(`update public.waitlist set confirm_by = now() - interval '1 second' where email = $1`, [email])
        await requestLink(email)
        expect(await claim()).toEqual([])
        expect(await confirm(token)).toBe('expired')
        expect(await signUp(email)).toEqual({ ok: true, rows: [] })
      })

      it('is rate limited per network', async () => {
        await db.exec('update private.waitlist_confirmation_settings set link_requests_per_client = 2')
        expect(await requestLink('a@confirm.test', '203.0.113.50')).toMatchObject({ ok: true })
        expect(await requestLink('b@confirm.test', '203.0.113.50')).toMatchObject({ ok: true })
        expect(await requestLink('c@confirm.test', '203.0.113.50')).toMatchObject({ ok: false, code: 'PGRST' })
      })
    })

    describe('the outbox', () => {
      it('claims each message once: a second claim while the lease holds gets nothing', async () => {
        await signUp()
        await signUp()
        const first = await claim()
        expect(first).toHaveLength(2)
        expect(first.every((m) => m.attempts === 1)).toBe(true)
        expect(await claim()).toEqual([])
      })

      it('marks a message whose lease ran out while sending as in doubt, and never hands it out again', async () => {
        const email = address()
        await signUp(email)
        const [message] = await claim()
        await attach(message as Message, newToken())
        expect(await beginSend(message as Message)).toEqual({ entry: expect.objectContaining({ email }) })
        // The dispatcher "crashed" here (after sending, before marking); the lease runs out.
        await expireLeases()
        expect(await claim()).toEqual([])
        expect(await outbox(email)).toMatchObject([{ status: 'in_doubt' }])
        expect(await complete(message as Message)).toMatchObject({ ok: true, rows: [{ waitlist_outbox_complete: false }] })
      })

      it('puts a message whose lease ran out before it was handed over back in line, uncounted, and counts its e-mail once against the caps', async () => {
        const email = address()
        await signUp(email)
        const [message] = await claim()
        await attach(message as Message, newToken())
        // The run stopped (its database gone, its budget spent) before the last check: nothing left.
        await expireLeases()
        const [again] = await claim()
        expect(again).toMatchObject({ id: message?.id, attempts: 1 })
        expect(again?.lease_id).not.toBe(message?.lease_id)
        expect(await mailLog()).toBe(1)
      })

      it('changes nothing when a run completes or fails a message whose lease ran out, or that another run took (the issue #50 loss)', async () => {
        const email = address()
        await signUp(email)
        const [message] = await claim()
        await expireLeases()
        // The old lease, not yet taken by another claim: neither mark is accepted.
        for (const sql of [
          "select public.waitlist_outbox_complete($1, $2, 'skipped', 'The lease was lost.') as value",
          "select public.waitlist_outbox_fail($1, $2, 'ETIMEDOUT') as value",
          'select public.waitlist_outbox_begin_send($1, $2) as value',
          "select public.waitlist_outbox_attach_unsubscribe($1, $2, repeat('b', 64)) as value",
        ]) {
          expect(await asService(sql, [message?.id, message?.lease_id]), sql).toMatchObject({ ok: true, rows: [{ value: expect.toBeOneOf([false, null]) }] })
        }
        expect(await outbox(email)).toMatchObject([{ status: 'sending', attempts: 1 }])
        // Another run takes it: the first run's lease is no claim on it any more, even put back.
        const [taken] = await claim()
        expect(taken?.id).toBe(message?.id)
        expect(await asService('select public.waitlist_outbox_release($1, $2) as value', [message?.id, message?.lease_id])).toMatchObject({
          rows: [{ value: false }],
        })
        expect(await complete(message as Message)).toMatchObject({ rows: [{ handed: false, waitlist_outbox_complete: false }] })
        await attach(taken as Message, newToken())
        expect(await complete(taken as Message)).toMatchObject({ rows: [{ handed: true, waitlist_outbox_complete: true }] })
        expect(await outbox(email)).toMatchObject([{ status: 'sent', attempts: 1 }])
      })

      it('hands a message over once per lease, marks it sent only after the hand-over, and puts back only one never handed over', async () => {
        await signUp()
        await signUp()
        const [first, second] = await claim()
        expect(await asService("select public.waitlist_outbox_complete($1, $2, 'sent')", [first?.id, first?.lease_id])).toMatchObject({
          ok: false,
          code: '55000',
        })
        expect(await beginSend(first as Message)).not.toBeNull()
        expect(await beginSend(first as Message)).toBeNull()
        expect(await beginSend({ ...(first as Message), lease_id: second!.lease_id })).toBeNull()
        expect(await asService('select public.waitlist_outbox_release($1, $2) as value', [first?.id, first?.lease_id])).toMatchObject({
          rows: [{ value: false }],
        })
        expect(await asService('select public.waitlist_outbox_release($1, $2) as value', [second?.id, second?.lease_id])).toMatchObject({
          rows: [{ value: true }],
        })
        const { rows } = await db.query<{ status: string; attempts: number; due: boolean }>(
          'select status, attempts, available_at <= now() as due from public.waitlist_outbox where id = $1',
          [second?.id],
        )
        expect(rows).toEqual([{ status: 'pending', attempts: 0, due: true }])
        expect(await claim()).toMatchObject([{ id: second?.id, attempts: 1 }])
        expect(await mailLog()).toBe(2)
      })

      it('records a failure and retries with exponential backoff, then gives up after max_attempts', async () => {
        await db.exec('update private.waitlist_confirmation_settings set max_attempts = 3')
        const email = address()
        await signUp(email)
        const backoffs: number[] = []
        for (let attempt = 1; attempt <= 3; attempt++) {
          const [message] = await claim()
          expect(message?.attempts).toBe(attempt)
          const failed = await asService<{ status: string }>('select public.waitlist_outbox_fail($1, $2, $3) as status', [
            message?.id,
            message?.lease_id,
            'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1',
          ])
          expect(failed).toMatchObject({ ok: true, rows: [{ status: attempt < 3 ? 'pending' : 'failed' }] })
          const { rows } = await db.query<{ wait: number }>('select extract(epoch from available_at - now()) as wait from public.waitlist_outbox o')
          backoffs.push(Math.round(Number(rows[0]?.wait)))
          expect(await claim()).toEqual([])
          await db.exec("update public.waitlist_outbox set available_at = now() where status = 'pending'")
        }
        expect(backoffs.slice(0, 2)).toEqual([30, 60])
        expect(await outbox(email)).toMatchObject([{ status: 'failed', attempts: 3, last_error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1' }])
      })

      it('skips a confirmation e-mail whose entry was confirmed meanwhile', async () => {
        const { email, token } = await signedUpWithLink()
        await requestLink(email)
        await confirm(token)
        const claimed = await claim()
        expect(claimed.map((m) => m.kind)).toEqual(['slack_confirmed'])
        expect((await outbox(email)).map((m) => m.status)).toEqual(['sent', 'skipped', 'sending'])
      })
    })

    describe('where they came from', () => {
      const insertSource = (columns: Record<string, string>) =>
        runAs(
          db,
          'anon',
          `insert into public.waitlist (name, email, ${Object.keys(columns).join(', ')}) values ('Ada', $1, ${Object.keys(columns)
            .map((_, i) => `$${i + 2}`)
            .join(', ')})`,
          [address(), ...Object.values(columns)],
          { request: api() },
        )

      it('stores campaign tags, the referring host and the landing path', async () => {
        expect(
          await insertSource({
            utm_source: 'newsletter',
            utm_medium: 'email',
            utm_campaign: 'launch week',
            referrer_host: 'news.ycombinator.com',
            landing_path: '/pricing',
          }),
        ).toMatchObject({ ok: true })
        expect(await insertSource({ referrer_host: 'xn--bcher-kva.example', landing_path: '/' })).toMatchObject({ ok: true })
      })

      it.each([
        ['utm_source', 'x'.repeat(101)],
        ['utm_source', ''],
        ['utm_medium', 'a\u0000b'],
        ['utm_campaign', 'spring\u202Esale'],
        ['referrer_host', 'https://evil.example/path'],
        ['referrer_host', 'Evil.Example'],
        ['referrer_host', `${'a'.repeat(250)}.com`],
        ['landing_path', 'pricing'],
        ['landing_path', '/waitlist?email=ada@example.com'],
        ['landing_path', '/a#b'],
        ['landing_path', `/${'a'.repeat(200)}`],
        ['landing_path', '/a b'],
      ])('refuses %s = %j (HTTP 400)', async (column, value) => {
        const result = await insertSource({ [column]: value })
        expect(result).toMatchObject({ ok: false, code: expect.stringMatching(/^(23514|22021)$/) })
      })
    })
  },
)
