/**
 * The sign-up rate limit of supabase/migrations/*_waitlist_rate_limit.sql as changed by
 * *_waitlist_trust.sql (client address from cf-connecting-ip or the last X-Forwarded-For hop,
 * 50 per hour, domain bursts flagged instead of refused, one row per request), on PGlite and
 * on a real PostgreSQL server (when one can be had) with every migration applied. Inserts run
 * as anon with request.headers and request.jwt.claims set the way PostgREST sets them, so the
 * trigger sees what it sees behind the real API.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { INSERT_WAITLIST, onEachDatabase, runAs, waitlistDbTargets, type Attempt, type WaitlistDb } from '../helpers/waitlist-db'

let db: WaitlistDb

const targets = await waitlistDbTargets('waitlist-rate-limit')

// The production numbers, as seeded by the migration (and documented in docs/waitlist.md).
const PRODUCTION = { window_seconds: 3600, per_client: 50, domain_burst: 20 }

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    // Every case starts from production limits and no recorded sign-ups; cases that need
    // smaller numbers lower them, as the owner would in a later migration.
    beforeEach(async () => {
      await db.exec(`
      update private.waitlist_limits set window_seconds = 3600, per_client = 50, domain_burst = 20;
      delete from private.waitlist_recent_signups;
      delete from private.waitlist_api_attempts;
      delete from public.waitlist;
    `)
    })

    let counter = 0
    /** A fresh, valid address at `domain`, never used before in this file. */
    const email = (domain = 'acme.test') => `person${++counter}@${domain}`

    /** A committed sign-up through the API as anon from a client with these headers. */
    function signUp(headers: Record<string, string>, address = email()): Promise<Attempt<Record<string, unknown>>> {
      return runAs(db, 'anon', INSERT_WAITLIST, ['Someone', address, ''], { keep: true, request: { headers } })
    }
    // As the gateway passes it: the client's own X-Forwarded-For first, the hop it appended last.
    const from = (ip: string) => ({ 'x-forwarded-for': ip })

    /** What PostgREST would answer for a refused insert: the parsed RAISE SQLSTATE 'PGRST' payload. */
    function refusal(result: Attempt<Record<string, unknown>>) {
      expect(result).toMatchObject({ ok: false, code: 'PGRST' })
      if (result.ok) throw new Error('unreachable')
      return { body: JSON.parse(result.message) as unknown, detail: JSON.parse(result.detail ?? 'null') as { status: number; headers: Record<string, string> } }
    }

    async function expectSignups(n: number, headers: () => Record<string, string>, domain?: string) {
      for (let i = 0; i < n; i++) expect(await signUp(headers(), email(domain))).toEqual({ ok: true, rows: [] })
    }

    describe('the migration', () => {
      it('seeds the documented limits and a random salt, and exempts common free-mail domains', async () => {
        const { rows: limits } = await db.query('select window_seconds, per_client, domain_burst from private.waitlist_limits')
        expect(limits).toEqual([PRODUCTION])
        const { rows: salts } = await db.query<{ salt: string }>('select salt from private.waitlist_salt')
        expect(salts).toHaveLength(1)
        expect(salts[0]?.salt).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        const { rows: domains } = await db.query<{ domain: string }>('select domain from private.waitlist_free_mail_domains')
        expect(domains.map((row) => row.domain)).toEqual(
          expect.arrayContaining(['gmail.com', 'outlook.com', 'hotmail.com', 'yahoo.com', 'icloud.com', 'proton.me']),
        )
      })

      it('runs the rate-limit trigger after the trimming trigger, as a security definer with an empty search_path', async () => {
        const { rows } = await db.query<{ name: string }>(
          `select tgname as name from pg_trigger where tgrelid = 'public.waitlist'::regclass and not tgisinternal order by tgname`,
        )
        // Same timing (BEFORE INSERT, row): Postgres fires them in name order. The confirmation
        // migration's waitlist_replace_expired must come after the rate limit (it relies on the
        // address lock the limit takes); the referrals migration's waitlist_referral must come after
        // waitlist_clean (it compares the normalised address); waitlist_enqueue_messages and
        // waitlist_referral_credit fire AFTER the insert; waitlist_status_transition BEFORE an update
        // of status (the invitations migration); waitlist_updates_times stamps the updates consent's
        // times last, and waitlist_updates_stopped fires AFTER updates are turned off (the updates
        // migration); waitlist_experiments keeps only running experiments' variants, on its own
        // column; waitlist_webhook_events and waitlist_webhook_left write the webhooks' outbox rows
        // AFTER the fact; waitlist_arrival keeps the line's row (05_line.sql) AFTER the fact and
        // before the triggers that read places and totals; waitlist_invited writes a statement's
        // invitations, their e-mails and webhooks once, AFTER it; waitlist_answers (15_questions.sql)
        // checks the answers first, on its own column, so a refused one costs nothing else;
        // waitlist_language_published (17_languages.sql) refuses a language the site does not
        // publish before the limits count the sign-up; waitlist_rewards (18_rewards.sql) records the
        // rungs a counted credit crosses, BEFORE the update of referral_credits that counts it.
        expect(rows.map((row) => row.name)).toEqual([
          'waitlist_answers',
          'waitlist_arrival',
          'waitlist_clean',
          'waitlist_enqueue_messages',
          'waitlist_experiments',
          'waitlist_invited',
          'waitlist_language_published',
          'waitlist_pending_defaults',
          'waitlist_rate_limit',
          'waitlist_referral',
          'waitlist_referral_credit',
          'waitlist_replace_expired',
          'waitlist_rewards',
          'waitlist_statement_start',
          'waitlist_status_transition',
          'waitlist_updates_stopped',
          'waitlist_updates_times',
          'waitlist_webhook_events',
          'waitlist_webhook_left',
        ])
        const { rows: fn } = await db.query<{ definer: boolean; config: string[] }>(
          `select prosecdef as definer, proconfig as config from pg_proc where oid = 'private.waitlist_rate_limit()'::regprocedure`,
        )
        expect(fn[0]).toEqual({ definer: true, config: ['search_path=""'] })
      })
    })

    describe('per client, at production numbers', () => {
      it('lets 50 colleagues behind one office address join within the hour and refuses the 51st sign-up', async () => {
        await expectSignups(50, () => from('203.0.113.9'), 'office.test')
        const { body, detail } = refusal(await signUp(from('203.0.113.9')))
        expect(body).toEqual({
          code: 'WL429',
          message: 'Too many sign-ups from this network. Please wait a few minutes and try again.',
          details: 'At most 50 sign-ups per hour from one network.',
          hint: null,
        })
        expect(detail.status).toBe(429)
        const retryAfter = Number(detail.headers['Retry-After'])
        expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600).toBe(true)
      })
    })

    describe('per client', () => {
      // Smaller numbers keep these cases quick; the rule is the same.
      beforeEach(async () => {
        await db.exec('update private.waitlist_limits set per_client = 5')
      })

      it('accepts 5 sign-ups in the window and refuses the 6th with a PostgREST 429 payload', async () => {
        await expectSignups(5, () => from('203.0.113.10'))
        const { body, detail } = refusal(await signUp(from('203.0.113.10')))
        expect(body).toMatchObject({ code: 'WL429', details: 'At most 5 sign-ups per hour from one network.' })
        expect(detail.status).toBe(429)
        expect(Object.keys(detail.headers)).toEqual(['Retry-After'])
        const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.waitlist')
        expect(rows[0]?.n).toBe(5)
      })

      it('does not affect another client', async () => {
        await expectSignups(5, () => from('203.0.113.11'))
        expect(await signUp(from('203.0.113.11'))).toMatchObject({ ok: false, code: 'PGRST' })
        expect(await signUp(from('203.0.113.12'))).toEqual({ ok: true, rows: [] })
      })

      it('takes the LAST X-Forwarded-For address (the hop the gateway appended): a forged first address changes nothing', async () => {
        // Every request forges a new first address, as a script rotating X-Forwarded-For would.
        let forged = 0
        await expectSignups(5, () => from(`10.9.${++forged}.1, 198.51.100.7`))
        expect(await signUp(from(`10.9.${++forged}.1,198.51.100.7`))).toMatchObject({ ok: false, code: 'PGRST' })
        expect(await signUp(from(' 198.51.100.7 '))).toMatchObject({ ok: false, code: 'PGRST' })
        // Forging the victim's address as the first one does not lock the victim out.
        expect(await signUp(from('198.51.100.7, 192.0.2.77'))).toEqual({ ok: true, rows: [] })
      })

      it('prefers cf-connecting-ip (set by the edge) over X-Forwarded-For, and ignores X-Real-IP', async () => {
        await expectSignups(5, () => ({ 'cf-connecting-ip': '192.0.2.33', 'x-forwarded-for': `203.0.113.${++counter % 250}` }))
        expect(await signUp({ 'cf-connecting-ip': '192.0.2.33', 'x-forwarded-for': '192.0.2.34' })).toMatchObject({ ok: false, code: 'PGRST' })
        expect(await signUp({ 'x-forwarded-for': '192.0.2.33' })).toMatchObject({ ok: false, code: 'PGRST' })
        // X-Real-IP is client-writable behind some gateways: it names no client.
        await expectSignups(7, () => ({ 'x-real-ip': '192.0.2.40' }))
      })

      it('counts IPv6 clients per /64 and IPv4-mapped IPv6 as the IPv4 address', async () => {
        let host = 0
        await expectSignups(5, () => from(`2001:db8:aa:1::${++host}`))
        expect(await signUp(from('2001:DB8:AA:1:ffff::1'))).toMatchObject({ ok: false, code: 'PGRST' })
        expect(await signUp({ 'cf-connecting-ip': '2001:db8:aa:1:abcd::9' })).toMatchObject({ ok: false, code: 'PGRST' })
        expect(await signUp(from('2001:db8:aa:2::1'))).toEqual({ ok: true, rows: [] })

        await expectSignups(5, () => from('::ffff:192.0.2.50'))
        expect(await signUp(from('192.0.2.50'))).toMatchObject({ ok: false, code: 'PGRST' })
      })

      it('serves the limit again once the oldest sign-up leaves the window, with a Retry-After to match', async () => {
        await db.exec('update private.waitlist_limits set window_seconds = 60')
        // Five sign-ups 50 s ago, recorded as the trigger would: the next slot frees in about 10 s.
        await db.query(
          `insert into private.waitlist_api_attempts (action, client_hash, created_at)
         select 'sign_up', encode(sha256(convert_to(s.salt || '203.0.113.20', 'UTF8')), 'hex'), now() - interval '50 seconds'
           from private.waitlist_salt s, generate_series(1, 5)`,
        )
        const { body, detail } = refusal(await signUp(from('203.0.113.20')))
        expect(body).toMatchObject({ details: 'At most 5 sign-ups per 1 minutes from one network.' })
        expect(Number(detail.headers['Retry-After'])).toBeGreaterThanOrEqual(9)
        expect(Number(detail.headers['Retry-After'])).toBeLessThanOrEqual(11)

        await db.exec(`update private.waitlist_api_attempts set created_at = created_at - interval '11 seconds'`)
        expect(await signUp(from('203.0.113.20'))).toEqual({ ok: true, rows: [] })
        // The expired rows were pruned by that sign-up; only its own record is left.
        const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from private.waitlist_api_attempts where action = 'sign_up'`)
        expect(rows[0]?.n).toBe(1)
      })

      it('does not count refused, duplicate or invalid attempts', async () => {
        const headers = () => from('203.0.113.30')
        const first = email()
        expect(await signUp(headers(), first)).toEqual({ ok: true, rows: [] })
        await expectSignups(3, headers)
        // Four counted. None of these may use up the fifth slot:
        expect(await signUp(headers(), ` ${first.toUpperCase()} `)).toMatchObject({ ok: false, code: '23505' })
        expect(await signUp(headers(), 'not an e-mail')).toMatchObject({ ok: false, code: '23514' })
        expect(await runAs(db, 'anon', INSERT_WAITLIST, ['   ', email(), ''], { keep: true, request: { headers: headers() } })).toMatchObject({
          ok: false,
          code: '23514',
        })
        expect(await signUp(headers())).toEqual({ ok: true, rows: [] })
        // And a flood of refusals leaves nothing behind.
        for (let i = 0; i < 10; i++) expect(await signUp(headers())).toMatchObject({ ok: false, code: 'PGRST' })
        const { rows } = await db.query<{ n: number }>('select count(*)::int as n from private.waitlist_recent_signups')
        expect(rows[0]?.n).toBe(5)
      })

      it('answers a duplicate from a client under its limit with 23505 (HTTP 409), not 429', async () => {
        const address = email()
        expect(await signUp(from('203.0.113.40'), address)).toEqual({ ok: true, rows: [] })
        expect(await signUp(from('203.0.113.40'), address.toUpperCase())).toMatchObject({
          ok: false,
          code: '23505',
          constraint: 'waitlist_email_unique',
        })
      })
    })

    describe('per e-mail domain: flagged, never refused', () => {
      beforeEach(async () => {
        await db.exec('update private.waitlist_limits set domain_burst = 3')
      })

      const flags = async (domain: string) =>
        (await db.query<{ flag: string | null }>(`select flag from public.waitlist where email like '%@' || $1 order by created_at, id`, [domain])).rows.map(
          (row) => row.flag,
        )

      it('lets a real person from a fresh network join however many sign-ups the domain has had, and flags the burst for the owner', async () => {
        // 50 sign-ups @acme.example from 50 networks (the lock-out attempt of the issue).
        let host = 0
        await expectSignups(50, () => from(`198.51.100.${++host}`), 'acme.example')
        // A real Acme employee from a network that has not been abusive.
        expect(await signUp(from('192.0.2.200'), 'jane.doe@ACME.example')).toEqual({ ok: true, rows: [] })
        const stored = await flags('acme.example')
        expect(stored).toHaveLength(51)
        expect(stored.slice(0, 3)).toEqual([null, null, null])
        expect(stored.slice(3).every((flag) => flag === 'domain_burst')).toBe(true)
        // Another domain is unaffected.
        expect(await signUp(from('198.51.100.99'), email('other.test'))).toEqual({ ok: true, rows: [] })
        expect(await flags('other.test')).toEqual([null])
      })

      it('exempts free-mail domains from the flag; they still count per client', async () => {
        await db.exec('update private.waitlist_limits set per_client = 5')
        let host = 0
        await expectSignups(8, () => from(`192.0.2.${++host}`), 'gmail.com')
        await expectSignups(4, () => from('192.0.2.201'), 'proton.me')
        expect(await signUp(from('192.0.2.201'), email('icloud.com'))).toEqual({ ok: true, rows: [] })
        expect(await signUp(from('192.0.2.201'), email('yahoo.com'))).toMatchObject({ ok: false, code: 'PGRST' })
        expect(await flags('gmail.com')).toEqual(Array(8).fill(null))
        const { rows } = await db.query<{ n: number }>('select count(*)::int as n from private.waitlist_recent_signups where email_domain is not null')
        expect(rows[0]?.n).toBe(0)
      })

      it('without a client address there is no per-client limit, and the domain is still watched', async () => {
        await db.exec('update private.waitlist_limits set per_client = 5')
        await expectSignups(7, () => ({ 'user-agent': 'test' }), 'nohdr.test')
        expect(await flags('nohdr.test')).toEqual([null, null, null, 'domain_burst', 'domain_burst', 'domain_burst', 'domain_burst'])
      })

      it('the flag cannot be written through the API', async () => {
        const result = await runAs(db, 'anon', `insert into public.waitlist (name, email, flag) values ('A', $1, null)`, [email()], {
          keep: true,
          request: { headers: from('192.0.2.9') },
        })
        expect(result).toMatchObject({ ok: false, code: '42501' })
      })
    })

    describe('one row per request, one answer per fact', () => {
      const multi = (rows: [string, string][]) =>
        runAs(
          db,
          'anon',
          `insert into public.waitlist (name, email, project) select n, e, '' from unnest($1::text[], $2::text[]) as t(n, e)`,
          [rows.map((row) => row[0]), rows.map((row) => row[1])],
          { keep: true, request: { headers: from('192.0.2.150') } },
        )

      it('refuses a second row in one API insert (400 WL400), whatever the rows are', async () => {
        const { body, detail } = refusal(
          await multi([
            ['A', email()],
            ['B', email()],
          ]),
        )
        expect(body).toMatchObject({ code: 'WL400', message: 'One sign-up per request.' })
        expect(detail).toEqual({ status: 400, headers: {} })
        const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.waitlist')
        expect(rows[0]?.n).toBe(0)
      })

      it('[candidate, invalid row] answers the same whether or not the candidate is listed (no membership oracle)', async () => {
        const listed = email()
        expect(await signUp(from('192.0.2.151'), listed)).toEqual({ ok: true, rows: [] })
        const answer = async (candidate: string) => {
          const result = await multi([
            ['Probe', candidate],
            ['Bad', 'not an e-mail'],
          ])
          return result.ok ? 'stored' : `${result.code} ${result.message}`
        }
        const forListed = await answer(listed.toUpperCase())
        const forUnlisted = await answer(email())
        expect(forListed).toBe(forUnlisted)
        expect(forListed).toMatch(/WL400/)
        // And the other order: the broken row answers first, 400 either way.
        const reversed = async (candidate: string) => {
          const result = await multi([
            ['Bad', 'not an e-mail'],
            ['Probe', candidate],
          ])
          return result.ok ? 'stored' : result.code
        }
        expect(await reversed(listed)).toBe(await reversed(email()))
      })

      it('the owner (no request) may still insert many rows in one statement', async () => {
        await db.query(`insert into public.waitlist (name, email) select 'Bulk', 'bulk' || i || '@bulk.test' from generate_series(1, 3) i`)
        const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from public.waitlist where email like '%@bulk.test'`)
        expect(rows[0]?.n).toBe(3)
      })
    })

    describe('who is not limited', () => {
      it('the owner: SQL outside the API (no request.headers) is never limited', async () => {
        for (let i = 0; i < 8; i++) {
          expect(await runAs(db, 'anon', INSERT_WAITLIST, ['Import', email('import.test'), ''], { keep: true })).toEqual({ ok: true, rows: [] })
        }
        await db.query(`insert into public.waitlist (name, email) select 'Bulk', 'bulk' || i || '@bulk.test' from generate_series(1, 60) i`)
        const { rows } = await db.query<{ n: number }>('select count(*)::int as n from private.waitlist_recent_signups')
        expect(rows[0]?.n).toBe(0)
      })

      it('the service_role key through the API', async () => {
        await db.exec('grant insert on public.waitlist to service_role')
        try {
          for (let i = 0; i < 7; i++) {
            const result = await runAs(db, 'service_role', INSERT_WAITLIST, ['Server', email(), ''], {
              keep: true,
              request: { headers: from('203.0.113.60') },
            })
            expect(result).toEqual({ ok: true, rows: [] })
          }
        } finally {
          await db.exec('revoke insert on public.waitlist from service_role')
        }
      })
    })

    describe('what is stored, and who can see it', () => {
      it('keeps only a salted hash of the address: not the address, not its plain SHA-256', async () => {
        const ip = '203.0.113.77'
        expect(await signUp(from(ip))).toEqual({ ok: true, rows: [] })
        const { rows } = await db.query<{ client_hash: string; row: string; plain: string; salted: string }>(
          `select r.client_hash, row_to_json(r)::text as row,
                encode(sha256(convert_to($1, 'UTF8')), 'hex') as plain,
                encode(sha256(convert_to(s.salt || $1, 'UTF8')), 'hex') as salted
           from private.waitlist_api_attempts r, private.waitlist_salt s where r.action = 'sign_up'`,
          [ip],
        )
        expect(rows).toHaveLength(1)
        const [row] = rows as [(typeof rows)[number]]
        expect(row.client_hash).toMatch(/^[0-9a-f]{64}$/)
        expect(row.client_hash).not.toBe(row.plain)
        expect(row.client_hash).toBe(row.salted)
        expect(row.row).not.toContain(ip)
        // Nor anywhere else in the database's tables.
        const { rows: anywhere } = await db.query<{ n: number }>(
          `select count(*)::int as n from (
           select row_to_json(w)::text as t from public.waitlist w
           union all select row_to_json(r)::text from private.waitlist_recent_signups r
           union all select row_to_json(a)::text from private.waitlist_api_attempts a) x
         where t like '%' || $1 || '%'`,
          [ip],
        )
        expect(anywhere[0]?.n).toBe(0)
      })

      it.each(['anon', 'authenticated', 'service_role'])('%s cannot read or change any of it (42501)', async (role) => {
        for (const sql of [
          'select * from private.waitlist_recent_signups',
          'select * from private.waitlist_limits',
          'select * from private.waitlist_salt',
          'select * from private.waitlist_free_mail_domains',
          'update private.waitlist_limits set per_client = 1000',
          'delete from private.waitlist_recent_signups',
          `select private.waitlist_client_key('1.2.3.4')`,
          `select private.waitlist_refuse('x', 'y', 1)`,
        ]) {
          expect(await runAs(db, role, sql), `${role}: ${sql}`).toMatchObject({ ok: false, code: '42501' })
        }
      })

      it('grants the API roles nothing in the private schema', async () => {
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from information_schema.role_table_grants
          where table_schema = 'private' and grantee in ('anon', 'authenticated', 'service_role', 'PUBLIC')`,
        )
        expect(rows[0]?.n).toBe(0)
        const { rows: usage } = await db.query<{ role: string; usage: boolean }>(
          `select r as role, has_schema_privilege(r, 'private', 'usage') as usage from unnest(array['anon', 'authenticated', 'service_role']) r`,
        )
        expect(usage.every((row) => !row.usage)).toBe(true)
      })
    })
  },
)
