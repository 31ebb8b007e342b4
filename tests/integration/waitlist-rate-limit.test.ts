/**
 * The sign-up rate limit of supabase/migrations/*_waitlist_rate_limit.sql, on
 * PGlite with every migration applied. Inserts run as anon with
 * request.headers and request.jwt.claims set the way PostgREST sets them, so
 * the trigger sees what it sees behind the real API.
 */
import type { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createWaitlistDb, INSERT_WAITLIST, runAs, type Attempt } from '../helpers/waitlist-db'

let db: PGlite

beforeAll(async () => {
  db = await createWaitlistDb()
})
afterAll(async () => {
  await db.close()
})

// The production numbers, as seeded by the migration (and documented in supabase/README.md).
const PRODUCTION = { window_seconds: 600, per_client: 5, per_domain: 50 }

// Every case starts from production limits and no recorded sign-ups; cases that need
// smaller numbers lower them, as the owner would in a later migration.
beforeEach(async () => {
  await db.exec(`
    update private.waitlist_limits set window_seconds = 600, per_client = 5, per_domain = 50;
    delete from private.waitlist_recent_signups;
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
    const { rows: limits } = await db.query('select window_seconds, per_client, per_domain from private.waitlist_limits')
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
    // Same timing (BEFORE INSERT, row): Postgres fires them in name order.
    expect(rows.map((row) => row.name)).toEqual(['waitlist_clean', 'waitlist_rate_limit'])
    const { rows: fn } = await db.query<{ definer: boolean; config: string[] }>(
      `select prosecdef as definer, proconfig as config from pg_proc where oid = 'private.waitlist_rate_limit()'::regprocedure`,
    )
    expect(fn[0]).toEqual({ definer: true, config: ['search_path=""'] })
  })
})

describe('per client', () => {
  it('accepts 5 sign-ups in the window and refuses the 6th with a PostgREST 429 payload', async () => {
    await expectSignups(5, () => from('203.0.113.10'))
    const { body, detail } = refusal(await signUp(from('203.0.113.10')))
    expect(body).toEqual({
      code: 'WL429',
      message: 'Too many sign-ups from this network. Please wait a few minutes and try again.',
      details: 'At most 5 sign-ups per 10 minutes from one network.',
      hint: null,
    })
    expect(detail.status).toBe(429)
    expect(Object.keys(detail.headers)).toEqual(['Retry-After'])
    const retryAfter = Number(detail.headers['Retry-After'])
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 600).toBe(true)
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.waitlist')
    expect(rows[0]?.n).toBe(5)
  })

  it('does not affect another client', async () => {
    await expectSignups(5, () => from('203.0.113.11'))
    expect(await signUp(from('203.0.113.11'))).toMatchObject({ ok: false, code: 'PGRST' })
    expect(await signUp(from('203.0.113.12'))).toEqual({ ok: true, rows: [] })
  })

  it('takes the first X-Forwarded-For address (the proxies behind it do not make another client)', async () => {
    await expectSignups(3, () => from('198.51.100.7, 10.0.0.1'))
    await expectSignups(2, () => from('198.51.100.7,10.0.0.2, 10.9.9.9'))
    expect(await signUp(from(' 198.51.100.7 '))).toMatchObject({ ok: false, code: 'PGRST' })
    // The proxy address alone is a different client.
    expect(await signUp(from('10.0.0.1'))).toEqual({ ok: true, rows: [] })
  })

  it('falls back to X-Real-IP without X-Forwarded-For', async () => {
    await expectSignups(5, () => ({ 'x-real-ip': '192.0.2.33' }))
    expect(await signUp({ 'x-real-ip': '192.0.2.33' })).toMatchObject({ ok: false, code: 'PGRST' })
    expect(await signUp(from('192.0.2.33'))).toMatchObject({ ok: false, code: 'PGRST' })
  })

  it('counts IPv6 clients per /64 and IPv4-mapped IPv6 as the IPv4 address', async () => {
    let host = 0
    await expectSignups(5, () => from(`2001:db8:aa:1::${++host}`))
    expect(await signUp(from('2001:DB8:AA:1:ffff::1'))).toMatchObject({ ok: false, code: 'PGRST' })
    expect(await signUp(from('2001:db8:aa:2::1'))).toEqual({ ok: true, rows: [] })

    await expectSignups(5, () => from('::ffff:192.0.2.50'))
    expect(await signUp(from('192.0.2.50'))).toMatchObject({ ok: false, code: 'PGRST' })
  })

  it('serves the limit again once the oldest sign-up leaves the window, with a Retry-After to match', async () => {
    await db.exec('update private.waitlist_limits set window_seconds = 60')
    // Five sign-ups 50 s ago, recorded as the trigger would: the next slot frees in about 10 s.
    await db.query(
      `insert into private.waitlist_recent_signups (client_hash, created_at)
       select encode(sha256(convert_to(s.salt || '203.0.113.20', 'UTF8')), 'hex'), now() - interval '50 seconds'
         from private.waitlist_salt s, generate_series(1, 5)`,
    )
    const { body, detail } = refusal(await signUp(from('203.0.113.20')))
    expect(body).toMatchObject({ details: 'At most 5 sign-ups per 1 minutes from one network.' })
    expect(Number(detail.headers['Retry-After'])).toBeGreaterThanOrEqual(9)
    expect(Number(detail.headers['Retry-After'])).toBeLessThanOrEqual(11)

    await db.exec(`update private.waitlist_recent_signups set created_at = created_at - interval '11 seconds'`)
    expect(await signUp(from('203.0.113.20'))).toEqual({ ok: true, rows: [] })
    // The expired rows were pruned by that sign-up; only its own record is left.
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from private.waitlist_recent_signups')
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

describe('per e-mail domain', () => {
  beforeEach(async () => {
    await db.exec('update private.waitlist_limits set per_domain = 3')
  })

  it('refuses the sign-up past the limit from any client, case-insensitively', async () => {
    let host = 0
    await expectSignups(2, () => from(`198.51.100.${++host}`), 'acme.test')
    await expectSignups(1, () => from(`198.51.100.${++host}`), 'ACME.test')
    const { body, detail } = refusal(await signUp(from('198.51.100.99'), email('Acme.Test')))
    expect(body).toEqual({
      code: 'WL429',
      message: 'Too many sign-ups with this e-mail domain. Please wait a few minutes and try again.',
      details: 'At most 3 sign-ups per 10 minutes with one e-mail domain.',
      hint: null,
    })
    expect(detail.status).toBe(429)
    // Another domain, and a sub-domain (a different domain for this count), are unaffected.
    expect(await signUp(from('198.51.100.99'), email('other.test'))).toEqual({ ok: true, rows: [] })
    expect(await signUp(from('198.51.100.98'), email('eu.acme.test'))).toEqual({ ok: true, rows: [] })
  })

  it('exempts free-mail domains, which still count per client', async () => {
    let host = 0
    await expectSignups(8, () => from(`192.0.2.${++host}`), 'gmail.com')
    await expectSignups(8, () => from(`192.0.2.${++host}`), 'Outlook.com')
    await expectSignups(4, () => from('192.0.2.200'), 'proton.me')
    expect(await signUp(from('192.0.2.200'), email('icloud.com'))).toEqual({ ok: true, rows: [] })
    expect(await signUp(from('192.0.2.200'), email('yahoo.com'))).toMatchObject({ ok: false, code: 'PGRST' })
    // Exempt sign-ups record no domain at all.
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from private.waitlist_recent_signups where email_domain is not null')
    expect(rows[0]?.n).toBe(0)
  })

  it('applies without a client address; only the per-client limit needs one', async () => {
    await db.exec('update private.waitlist_limits set per_domain = 50')
    // No forwarding header at all: no per-client limit, so more than 5 go through...
    await expectSignups(7, () => ({ 'user-agent': 'test' }), 'nohdr.test')
    // ...but the domain still counts.
    await db.exec('update private.waitlist_limits set per_domain = 7')
    expect(await signUp({}, email('nohdr.test'))).toMatchObject({ ok: false, code: 'PGRST' })
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
         from private.waitlist_recent_signups r, private.waitlist_salt s`,
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
         union all select row_to_json(r)::text from private.waitlist_recent_signups r) x
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
