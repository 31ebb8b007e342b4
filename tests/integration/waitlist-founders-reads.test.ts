/**
 * The founders' reads (supabase/schemas/13_founders.sql): on random lists, what the database counts
 * for the console and waitlist:stats (waitlist_funnel, waitlist_figures) equals a plain computation
 * over the same rows, and the keyset pages of waitlist:list and waitlist:export
 * (waitlist_export_page, between the ends waitlist_export_bounds names) give every entry once, in (created_at, id) order, with its referrer’s
 * e-mail, whatever the page size and however many entries share a sign-up time. On PGlite and on
 * PostgreSQL; only service_role may call them.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { describeWaitlistSource } from '@/components/waitlist/source'
import { listedEntry, type Funnel, type ListedEntry, type SourceCount, type SourceTable, type WaitlistFigures } from '@/tools/owner/owner'
import { onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'

const targets = await waitlistDbTargets('waitlist-founders-reads')

const STATUSES = ['pending', 'confirmed', 'invited', 'joined'] as const
// Labels that sort differently by locale rules and by code point (case, '-' and '_', accents).
const SOURCES = [null, 'news', 'News', 'a-b', 'a_b', 'é'] as const
const MEDIUMS = [null, 'email', 'cpc'] as const
const CAMPAIGNS = [null, 'launch', 'x.y'] as const
const HOSTS = [null, 'a.example', 'b-c.example', 'b_c.example', 'z.example'] as const

const person = fc.record({
  status: fc.constantFrom(...STATUSES),
  // Minutes before now; a few values only, so several entries share a sign-up time (keyset ties).
  createdAgo: fc.constantFrom(0, 1, 90, 1440, 1441, 4000, 20000, 60000),
  confirmedAfter: fc.option(fc.integer({ min: 0, max: 3000 }), { nil: null }),
  utm: fc.tuple(fc.constantFrom(...SOURCES), fc.constantFrom(...MEDIUMS), fc.constantFrom(...CAMPAIGNS)),
  host: fc.constantFrom(...HOSTS),
  credits: fc.constantFrom(0, 0, 1, 2, 5),
  referrer: fc.option(fc.nat(), { nil: null }),
})

type Person = typeof person extends fc.Arbitrary<infer P> ? P : never

/** Inserts the people as stored rows (no triggers: the figures read the table, not how rows got there). */
async function store(db: WaitlistDb, people: readonly Person[]): Promise<void> {
  await db.exec('truncate public.waitlist cascade')
  const rows = people.map((p, index) => {
    const id = `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`
    const referredBy = p.referrer === null || index === 0 ? null : `00000000-0000-4000-8000-${String((p.referrer % index) + 1).padStart(12, '0')}`
    return {
      id,
      name: `Person ${index}`,
      email: `p${index}@figures.test`,
      referral_code: `c${String(index).padStart(21, '0')}`,
      status: p.status,
      created_ago: p.createdAgo,
      confirmed_after: p.status === 'pending' ? null : p.confirmedAfter,
      utm_source: p.utm[0],
      utm_medium: p.utm[1],
      utm_campaign: p.utm[2],
      referrer_host: p.host,
      referral_credits: p.credits,
      referred_by: referredBy,
    }
  })
  await db.exec('set session_replication_role = replica')
  await db.query(
    `insert into public.waitlist (id, name, email, referral_code, status, created_at, confirmed_at, invited_at, joined_at,
                                  utm_source, utm_medium, utm_campaign, referrer_host, referral_credits, referred_by)
     select r.id, r.name, r.email, r.referral_code, r.status,
            now() - make_interval(mins => r.created_ago),
            now() - make_interval(mins => r.created_ago) + make_interval(mins => r.confirmed_after),
            case when r.status in ('invited', 'joined') then now() - make_interval(mins => r.created_ago % 7) end,
            case when r.status = 'joined' then now() end,
            r.utm_source, r.utm_medium, r.utm_campaign, r.referrer_host, r.referral_credits, r.referred_by
       from jsonb_to_recordset($1::jsonb) as r(id uuid, name text, email text, referral_code text, status text, created_ago int, confirmed_after int,
                                               utm_source text, utm_medium text, utm_campaign text, referrer_host text, referral_credits int, referred_by uuid)`,
    [JSON.stringify(rows)],
  )
  await db.exec('set session_replication_role = origin')
}

type Row = {
  id: string
  name: string
  email: string
  status: string
  created_at: Date
  confirmed_at: Date | null
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  referrer_host: string | null
  referral_credits: number
  referred_by: string | null
}

const day = (date: Date) => date.toISOString().slice(0, 10)
/** Code-point order, as the database's `collate "C"` (UTF-8 bytes) sorts. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const NONE = { utm_source: null, utm_medium: null, utm_campaign: null, referrer_host: null, landing_path: null }

/** The source table, plainly: group, sort (most sign-ups, then label), the top ones, the rest summed, the unrecorded. */
function sourceTable(rows: readonly Row[], label: (row: Row) => string | null, top: number): SourceTable {
  const groups = new Map<string | null, SourceCount>()
  for (const row of rows) {
    const key = label(row)
    const group = groups.get(key) ?? { label: key, signedUp: 0, confirmed: 0 }
    group.signedUp++
    if (row.status !== 'pending') group.confirmed++
    groups.set(key, group)
  }
  const labelled = [...groups.values()].filter((group) => group.label !== null).sort((a, b) => b.signedUp - a.signedUp || byCodePoint(a.label!, b.label!))
  const rest = labelled.slice(top)
  return {
    top: labelled.slice(0, top),
    others: rest.length
      ? { groups: rest.length, signedUp: rest.reduce((sum, g) => sum + g.signedUp, 0), confirmed: rest.reduce((sum, g) => sum + g.confirmed, 0) }
      : null,
    unrecorded: groups.get(null) ?? null,
  }
}

function plainFunnel(rows: readonly Row[]): Funnel {
  return {
    signedUp: rows.length,
    confirmed: rows.filter((row) => row.status !== 'pending').length,
    invited: rows.filter((row) => row.status === 'invited' || row.status === 'joined').length,
    joined: rows.filter((row) => row.status === 'joined').length,
  }
}

function plainFigures(rows: readonly Row[], topSources: number, topReferrers: number): WaitlistFigures {
  const count = <K extends string>(keys: readonly (K | null)[]) => {
    const counts = new Map<K, number>()
    for (const key of keys) if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1)
    return [...counts].sort(([a], [b]) => byCodePoint(a, b))
  }
  const confirmedBySignupDay = new Map(count(rows.filter((row) => row.status !== 'pending').map((row) => day(row.created_at))))
  return {
    funnel: plainFunnel(rows),
    campaigns: sourceTable(
      rows,
      (row) => describeWaitlistSource({ ...NONE, utm_source: row.utm_source, utm_medium: row.utm_medium, utm_campaign: row.utm_campaign }),
      topSources,
    ),
    sites: sourceTable(rows, (row) => describeWaitlistSource({ ...NONE, referrer_host: row.referrer_host }), topSources),
    signupDays: count(rows.map((row) => day(row.created_at))).map(([d, signedUp]) => ({ day: d, signedUp, confirmed: confirmedBySignupDay.get(d) ?? 0 })),
    confirmationDays: count(rows.map((row) => (row.confirmed_at ? day(row.confirmed_at) : null))).map(([d, confirmed]) => ({ day: d, confirmed })),
    referrers: rows
      .filter((row) => row.referral_credits > 0)
      .sort((a, b) => b.referral_credits - a.referral_credits || a.created_at.getTime() - b.created_at.getTime() || byCodePoint(a.id, b.id))
      .slice(0, topReferrers)
      .map((row) => ({ name: row.name, email: row.email, referral_credits: row.referral_credits })),
  }
}

/** Calls a founders' function as the owner's key does (service_role, under its statement timeout). */
async function call<T>(db: WaitlistDb, sql: string, params: unknown[] = []): Promise<T> {
  const attempt = await runAs<{ value: T }>(db, 'service_role', `select ${sql} as value`, params)
  if (!attempt.ok) throw new Error(`${sql}: ${attempt.message}`)
  return attempt.rows[0]!.value
}

let db: WaitlistDb

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    it('the funnel and the figures equal a plain count of the same rows', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(person, { maxLength: 40 }),
          fc.integer({ min: 1, max: 6 }),
          fc.integer({ min: 1, max: 4 }),
          async (people, topSources, topReferrers) => {
            await store(db, people)
            const { rows } = await db.query<Row>('select * from public.waitlist order by created_at, id')
            expect(await call(db, 'public.waitlist_funnel()')).toEqual(plainFunnel(rows))
            const figures = await call<Partial<WaitlistFigures>>(db, 'public.waitlist_figures($1, $2)', [topSources, topReferrers])
            const empty: SourceTable = { top: [], others: null, unrecorded: null }
            expect({ ...figures, campaigns: figures.campaigns ?? empty, sites: figures.sites ?? empty }).toEqual(plainFigures(rows, topSources, topReferrers))
          },
        ),
        { numRuns: 25 },
      )
    }, 300_000)

    it('keyset pages give every entry once, oldest first, with its referrer’s e-mail, at any page size', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(person, { maxLength: 30 }), fc.integer({ min: 1, max: 7 }), async (people, pageSize) => {
          await store(db, people)
          const { rows } = await db.query<{ id: string; referrer_email: string | null }>(
            `select w.id, r.email as referrer_email from public.waitlist w left join public.waitlist r on r.id = w.referred_by order by w.created_at, w.id`,
          )
          const read: ListedEntry[] = []
          let after: ListedEntry | undefined
          for (;;) {
            const page = (await call<unknown[][]>(db, 'public.waitlist_export_page($1, $2, $3)', [after?.created_at ?? null, after?.id ?? null, pageSize])).map(
              listedEntry,
            )
            expect(page.length).toBeLessThanOrEqual(pageSize)
            read.push(...page)
            if (page.length < pageSize) break
            after = page.at(-1)
          }
          expect(read.map((entry) => ({ id: entry.id, referrer_email: entry.referrer_email }))).toEqual(rows)
        }),
        { numRuns: 25 },
      )
    }, 300_000)

    it('page ends name every page_size-th key, and the pages between two of them are the entries between them', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(person, { maxLength: 30 }),
          fc.integer({ min: 1, max: 7 }),
          fc.integer({ min: 1, max: 5 }),
          fc.nat({ max: 30 }),
          async (people, pageSize, pages, skip) => {
            await store(db, people)
            const { rows } = await db.query<{ created_at: string; id: string }>(
              `select pg_catalog.to_json(created_at) #>> '{}' as created_at, id from public.waitlist order by created_at, id`,
            )
            // Ends after the start, or after an entry (the last one included: then there is none).
            const start = Math.min(skip, rows.length)
            const after = rows[start - 1]
            const expected = rows
              .slice(start)
              .filter((_, index) => (index + 1) % pageSize === 0)
              .slice(0, pages)
            const ends = await call<[string, string][]>(db, 'public.waitlist_export_bounds($1, $2, $3, $4)', [
              after?.created_at ?? null,
              after?.id ?? null,
              pageSize,
              pages,
            ])
            expect(ends.map(([, id]) => id)).toEqual(expected.map((row) => row.id))
            // Each page between one end and the next (the first from `after`, the last to the list's
            // end) holds exactly the entries between them: none twice, none missed, none past its end.
            const edges = [after, ...ends.map(([created_at, id]) => ({ created_at, id })), undefined]
            const read: string[] = []
            for (let i = 0; i + 1 < edges.length; i++) {
              const [from, to] = [edges[i], edges[i + 1]]
              const page = await call<unknown[][]>(db, 'public.waitlist_export_page($1, $2, $3, $4, $5)', [
                from?.created_at ?? null,
                from?.id ?? null,
                50,
                to?.created_at ?? null,
                to?.id ?? null,
              ])
              if (to) expect(page.at(-1)?.[0], `the page up to end ${i + 1}`).toBe(to.id)
              read.push(...page.map((values) => values[0] as string))
            }
            expect(read).toEqual(rows.slice(start).map((row) => row.id))
          },
        ),
        { numRuns: 25 },
      )
    }, 300_000)

    it('page ends and pages refuse what they cannot mean', async () => {
      for (const [sql, params] of [
        ['public.waitlist_export_bounds(null, null, 0, 1)', []],
        ['public.waitlist_export_bounds(null, null, 50001, 1)', []],
        ['public.waitlist_export_bounds(null, null, 5, 0)', []],
        ['public.waitlist_export_bounds(null, null, 5, 1001)', []],
        ['public.waitlist_export_bounds(now(), null, 5, 1)', []],
        ['public.waitlist_export_page(null, null, 5, now(), null)', []],
        ['public.waitlist_export_page(null, null, 5, null, gen_random_uuid())', []],
      ] as const) {
        expect(await runAs(db, 'service_role', `select ${sql}`, [...params]), sql).toMatchObject({ ok: false, code: '22023' })
      }
    })

    it('the scans of the whole list run without JIT, whose compiling cost more than the scan at a million entries', async () => {
      // The console's first byte waits for both (supabase/schemas/12_experiments.sql: 1.5 s with JIT,
      // 0.5 s without, at a million entries).
      const { rows } = await db.query<{ name: string; config: string[] | null }>(
        `select p.proname as name, p.proconfig as config from pg_catalog.pg_proc p
          where p.pronamespace = 'public'::regnamespace and p.proname in ('waitlist_figures', 'waitlist_experiment_results') order by 1`,
      )
      expect(rows.map((row) => [row.name, row.config?.includes('jit=off') ?? false])).toEqual([
        ['waitlist_experiment_results', true],
        ['waitlist_figures', true],
      ])
    })

    it('only service_role may call them', async () => {
      for (const sql of [
        'public.waitlist_funnel()',
        'public.waitlist_figures()',
        'public.waitlist_export_page()',
        'public.waitlist_export_bounds()',
        'public.waitlist_recent_invitations()',
        'public.waitlist_outbox_backlog()',
      ]) {
        for (const role of ['anon', 'authenticated']) {
          expect(await runAs(db, role, `select ${sql}`), `${role}: ${sql}`).toMatchObject({ ok: false, code: '42501' })
        }
        expect(await runAs(db, 'service_role', `select ${sql}`), sql).toMatchObject({ ok: true })
      }
    })

    it('the outbox backlog counts the e-mails waiting and how long the oldest due one has', async () => {
      await db.exec('truncate public.waitlist cascade; truncate public.waitlist_outbox')
      expect(await call(db, 'public.waitlist_outbox_backlog()')).toEqual({ queued: 0, due: 0, oldest_due_at: null, waited_seconds: null })
      // Each sign-up queues its confirmation e-mail; then each is made due at a different time.
      await db.exec(`insert into public.waitlist (name, email) select 'Q' || i, 'q' || i || '@backlog.test' from generate_series(1, 4) as i`)
      await db.exec(`update public.waitlist_outbox o set available_at = now() + t.shift
                       from public.waitlist w, (values ('q1@backlog.test', interval '-125 minutes'), ('q2@backlog.test', interval '-3 minutes'),
                                                       ('q3@backlog.test', interval '1 hour'), ('q4@backlog.test', interval '-9 hours')) as t(email, shift)
                      where w.id = o.entry_id and w.email = t.email`)
      // A message no longer waiting is not counted, however old.
      await db.exec(`update public.waitlist_outbox o set status = 'skipped' from public.waitlist w where w.id = o.entry_id and w.email = 'q4@backlog.test'`)
      const backlog = await call<{ queued: number; due: number; oldest_due_at: string; waited_seconds: number }>(db, 'public.waitlist_outbox_backlog()')
      expect({ queued: backlog.queued, due: backlog.due }).toEqual({ queued: 3, due: 2 })
      expect(backlog.waited_seconds).toBeGreaterThanOrEqual(2 * 3600 + 5 * 60)
      expect(backlog.waited_seconds).toBeLessThan(2 * 3600 + 6 * 60)
    })
  },
)

describe('the suites ran', () => {
  it('on PGlite at least', () => {
    expect(targets.length).toBeGreaterThan(0)
  })
})
