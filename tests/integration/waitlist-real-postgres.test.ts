/**
 * The migrations and the waitlist's guards on a real PostgreSQL server (Debian's), with many
 * concurrent clients, as a non-superuser API role: what PGlite, one connection, cannot show.
 * Skipped with a message when no PostgreSQL can be had (not root, no binaries); CI runs as root
 * and installs it (tools/local/postgres.ts).
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { isPlausibleWaitlistEmail, normalizeWaitlistEmail } from '@/components/waitlist/email'
import { trimWaitlistText } from '@/components/waitlist/rules'
import { EMAIL_CASES, LOOK_ALIKES } from '../helpers/email-cases'
import { asApiRequest, startRealPostgres, type ApiOutcome, type RealPostgres } from '../helpers/real-postgres'

const start = await startRealPostgres()
if (!start.ok) console.info(`[waitlist-real-postgres] skipped: ${start.reason}`)
const postgres = start.ok ? start.postgres : (undefined as unknown as RealPostgres)

afterAll(async () => {
  await postgres?.close()
})

const INSERT_ONE = 'insert into public.waitlist (name, email, project) values ($1, $2, $3)'
const INSERT_TWO = `insert into public.waitlist (name, email, project) values ($1, $2, ''), ($3, $4, '')`
const from = (address: string) => ({ 'cf-connecting-ip': address })

const summary = (outcomes: ApiOutcome[]) => {
  const counts: Record<string, number> = {}
  for (const outcome of outcomes) {
    const key = outcome.ok ? 'ok' : outcome.code === 'PGRST' ? (JSON.parse(outcome.message) as { code: string }).code : outcome.code
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

describe.skipIf(!start.ok)('the waitlist on real PostgreSQL', () => {
  beforeEach(async () => {
    await postgres.owner.query(`
      update private.waitlist_limits set window_seconds = 3600, per_client = 50, domain_burst = 20;
      delete from private.waitlist_recent_signups;
      delete from private.waitlist_api_attempts;
      delete from public.waitlist;
    `)
  })

  it('runs the same migrations, and requests run as a role that is not a superuser', async () => {
    const { rows } = await postgres.api.query<{ superuser: boolean }>(`select rolsuper as superuser from pg_roles where rolname = current_user`)
    expect(rows).toEqual([{ superuser: false }])
    const { rows: applied } = await postgres.owner.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by 1')
    expect(applied.map((row) => row.version)).toContain('20261123120000')
    expect(await asApiRequest(postgres.api, from('192.0.2.1'), 'select * from public.waitlist')).toMatchObject({ ok: false, code: '42501' })
  })

  it('250 concurrent crossed two-row inserts: no deadlock, no server error, every one refused as multi-row, nothing stored', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 250 }, (_, i) => {
        const [a, b] = i % 2 ? ['x.example', 'y.example'] : ['y.example', 'x.example']
        return asApiRequest(postgres.api, from(`198.51.100.${(i % 5) + 1}`), INSERT_TWO, [`P${i}`, `p${i}@${a}`, `Q${i}`, `q${i}@${b}`])
      }),
    )
    expect(summary(outcomes)).toEqual({ WL400: 250 })
    const { rows } = await postgres.owner.query<{ n: number }>('select count(*)::int as n from public.waitlist')
    expect(rows[0]?.n).toBe(0)
  })

  it('80 simultaneous sign-ups from one address: exactly 50 stored, 30 refused with 429, no deadlock', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 80 }, (_, i) => asApiRequest(postgres.api, from('203.0.113.7'), INSERT_ONE, [`Colleague ${i}`, `c${i}@office.example`, ''])),
    )
    expect(summary(outcomes)).toEqual({ ok: 50, WL429: 30 })
    const { rows } = await postgres.owner.query<{ n: number; flagged: number }>(`select count(*)::int as n, count(flag)::int as flagged from public.waitlist`)
    // One domain 50 times within the hour: flagged past 20, never refused.
    expect(rows[0]).toEqual({ n: 50, flagged: 30 })
  })

  it('a flood forging a new X-Forwarded-For each time behind one edge address is cut at 50', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 70 }, (_, i) =>
        asApiRequest(postgres.api, { 'x-forwarded-for': `10.${i}.0.1, 203.0.113.8` }, INSERT_ONE, [`Spoof ${i}`, `s${i}@gmail.com`, '']),
      ),
    )
    expect(summary(outcomes)).toEqual({ ok: 50, WL429: 20 })
  })

  it('the same address from 60 clients at once (look-alike spellings): one row, the rest 23505, no deadlock', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) => asApiRequest(postgres.api, from(`192.0.2.${i + 10}`), INSERT_ONE, ['Ada', LOOK_ALIKES[i % LOOK_ALIKES.length], ''])),
    )
    expect(summary(outcomes)).toEqual({ ok: 1, '23505': 59 })
  })

  it('[candidate, invalid row] answers the same whether or not the candidate is listed', async () => {
    expect(await asApiRequest(postgres.api, from('192.0.2.99'), INSERT_ONE, ['Listed', 'listed@example.org', ''])).toEqual({ ok: true })
    const probe = (candidate: string) => asApiRequest(postgres.api, from('192.0.2.98'), INSERT_TWO, ['Probe', candidate, 'Bad', 'not an e-mail'])
    const listed = await probe('LISTED@example.org')
    const unlisted = await probe('unlisted@example.org')
    expect(listed).toEqual(unlisted)
    expect(summary([listed])).toEqual({ WL400: 1 })
  })

  it('normalises and judges e-mails exactly as the browser does', async () => {
    for (const c of EMAIL_CASES.filter((item) => !item.input.includes('\u0000'))) {
      const { rows } = await postgres.owner.query<{ normalized: string; plausible: boolean }>(
        'select n as normalized, waitlist_rules.email_plausible(n) as plausible from waitlist_rules.normalize_email($1) as n',
        [c.input],
      )
      const js = normalizeWaitlistEmail(c.input, trimWaitlistText)
      expect(rows[0], c.label).toEqual({ normalized: js, plausible: isPlausibleWaitlistEmail(js) })
    }
  })
})
