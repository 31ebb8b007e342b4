/**
 * The campaign versions' counts (public.waitlist_campaign_results, supabase/schemas/14_campaigns.sql)
 * on PGlite and on a real PostgreSQL server: each version counts exactly the sign-ups the site
 * showed it to (sanity/variants/live-campaigns.ts campaignVersionsFor, judged per sign-up from the tags and
 * first page it recorded), whatever the tags hold; the public key can neither call it nor read the
 * tags; a malformed request is refused whole; and a version's count is an index lookup, not a
 * scan of the list.
 */
import { beforeEach, expect, it } from 'vitest'
import { campaignAudiences, campaignVersionsFor, type CampaignAudience, type LiveCampaign, type LiveCampaigns } from '@/sanity/variants/live-campaigns'
import type { CampaignCounts } from '@/components/variants/results'
import { onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'

let db: WaitlistDb

const targets = await waitlistDbTargets('campaign-results-db')

const version = (key: string, utmCampaign: string, utmSource: string | null, sectionKey = 'hero'): LiveCampaign => ({ key, utmCampaign, utmSource, sectionKey })
const LIVE: LiveCampaigns = new Map([
  [
    '/',
    [
      version('pm-any', 'pm-launch', null),
      version('pm-linkedin', 'pm-launch', 'linkedin'),
      version('founders', 'Founders Weekly', null),
      version('founders-faq', 'Founders Weekly', null, 'faq'),
      version('odd-tags', `'); drop table public.waitlist; --`, 'Ünïcødé 🚀'),
    ],
  ],
  ['/de', [version('pm-any', 'pm-launch', null)]],
  ['/careers', [version('pm-linkedin', 'pm-launch', 'linkedin', 'features')]],
])
const AUDIENCES = campaignAudiences(LIVE)

type SignUp = { path: string | null; campaign: string | null; source: string | null; status: 'pending' | 'confirmed' | 'invited' }

/** Every combination of first page, tags (near misses in case, source and odd characters included) and status. */
function everyKindOfSignUp(): SignUp[] {
  const paths = ['/', '/de', '/careers', '/about', null]
  const campaigns = ['pm-launch', 'PM-Launch', 'Founders Weekly', `'); drop table public.waitlist; --`, 'other', null]
  const sources = [null, 'linkedin', 'LinkedIn', 'newsletter', 'Ünïcødé 🚀', 'Unicode 🚀']
  const statuses = ['pending', 'confirmed', 'invited'] as const
  let n = 0
  return paths.flatMap((path) =>
    campaigns.flatMap((campaign) => sources.map((source) => ({ path, campaign, source, status: statuses[n++ % statuses.length]! }))),
  )
}

/** What the site showed each sign-up, counted as the console should count it. */
function expectedCounts(signUps: readonly SignUp[]): CampaignCounts[] {
  const counts = new Map<string | null, { signups: number; confirmations: number }>(
    [...new Set(AUDIENCES.map((a) => a.campaign))].map((key) => [key, { signups: 0, confirmations: 0 }]),
  )
  counts.set(null, { signups: 0, confirmations: 0 })
  for (const signUp of signUps) {
    const query = new URLSearchParams()
    if (signUp.campaign !== null) query.set('utm_campaign', signUp.campaign)
    if (signUp.source !== null) query.set('utm_source', signUp.source)
    const shown = signUp.path === null ? [] : campaignVersionsFor(LIVE.get(signUp.path), query).map((shownVersion) => shownVersion.key)
    for (const key of shown.length ? shown : [null]) {
      const count = counts.get(key)!
      count.signups += 1
      if (signUp.status !== 'pending') count.confirmations += 1
    }
  }
  return [...counts].map(([campaign, count]) => ({ campaign, ...count }))
}

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    const results = (audiences: unknown, role = 'service_role') =>
      runAs<CampaignCounts>(db, role, 'select * from public.waitlist_campaign_results($1::jsonb)', [JSON.stringify(audiences)])

    async function insert(signUps: readonly SignUp[]): Promise<void> {
      await db.query(
        `insert into public.waitlist (name, email, landing_path, utm_campaign, utm_source, status, confirmed_at, invited_at)
         select 'Ann', 'person' || n || '@campaigns.test', x ->> 'path', x ->> 'campaign', x ->> 'source', x ->> 'status',
                case when x ->> 'status' = 'pending' then null else now() end, case when x ->> 'status' = 'invited' then now() end
           from jsonb_array_elements($1::jsonb) with ordinality as t(x, n)`,
        [JSON.stringify(signUps)],
      )
    }

    beforeEach(async () => {
      await db.exec(`delete from public.waitlist; delete from public.waitlist_outbox;`)
    })

    it('counts for each version exactly the sign-ups it was shown to, and the rest apart', async () => {
      const signUps = everyKindOfSignUp()
      await insert(signUps)
      const expected = expectedCounts(signUps)
      const outcome = await results(AUDIENCES)
      expect(outcome.ok).toBe(true)
      const rows = outcome.ok ? outcome.rows : []
      const byKey = (a: CampaignCounts, b: CampaignCounts) => String(a.campaign).localeCompare(String(b.campaign))
      expect([...rows].sort(byKey)).toEqual([...expected].sort(byKey))
      // The case is part of the tag: PM-Launch was shown the page as published, so it is not counted for pm-any.
      expect(rows.find((row) => row.campaign === 'pm-any')!.signups).toBeGreaterThan(0)
      expect(rows.reduce((sum, row) => sum + (row.campaign === null ? row.signups : 0), 0)).toBeLessThan(signUps.length)
    })

    it('a version nobody was shown yet has its row, and with no version published every sign-up is the rest', async () => {
      await insert([{ path: '/', campaign: null, source: null, status: 'confirmed' }])
      expect(await results(AUDIENCES.filter((a) => a.campaign === 'pm-any'))).toEqual({
        ok: true,
        rows: [
          { campaign: 'pm-any', signups: 0, confirmations: 0 },
          { campaign: null, signups: 1, confirmations: 1 },
        ],
      })
      expect(await results([])).toEqual({ ok: true, rows: [{ campaign: null, signups: 1, confirmations: 1 }] })
    })

    it('the public key and a signed-in user can neither count nor read the tags', async () => {
      await insert([{ path: '/', campaign: 'pm-launch', source: null, status: 'pending' }])
      for (const role of ['anon', 'authenticated']) {
        expect(await results(AUDIENCES, role)).toMatchObject({ ok: false, code: '42501' })
        expect(await runAs(db, role, 'select utm_campaign, landing_path from public.waitlist')).toMatchObject({ ok: false, code: '42501' })
      }
    })

    it.each<[string, unknown]>([
      ['not a list', { campaign: 'pm-any', utmCampaign: 'pm-launch', path: '/' }],
      ['null', null],
      ['more than 1,000 audiences', Array.from({ length: 1001 }, () => AUDIENCES[0])],
      ['a malformed key', [{ ...AUDIENCES[0], campaign: 'PM Any<script>' }]],
      ['no utm_campaign', [{ campaign: 'pm-any', path: '/' }]],
      ['a number for a source', [{ ...AUDIENCES[0], utmSource: 7 }]],
      ['no path', [{ campaign: 'pm-any', utmCampaign: 'pm-launch' }]],
      ['other sources that are not strings', [{ ...AUDIENCES[0], otherSources: [{ $ne: null }] }]],
      ['other sources that are not a list', [{ ...AUDIENCES[0], otherSources: 'linkedin' }]],
    ])('refuses %s whole (22023)', async (_, audiences) => {
      expect(await results(audiences)).toMatchObject({ ok: false, code: '22023' })
    })

    it('counts a version through its index, not by reading the list', async () => {
      // A list of mostly untagged sign-ups, as a real one is, and a few from the campaign.
      // The triggers off while they go in (as tools/bench/db/bulk.ts does): only their tags matter here.
      await db.exec(`
        begin;
        set local session_replication_role = replica;
        insert into public.waitlist (name, email, landing_path, referral_code)
        select 'Ann', 'bulk' || n || '@campaigns.test', '/', lpad(n::text, 22, 'b') from generate_series(1, 20000) n;
        commit;
      `)
      await insert(everyKindOfSignUp())
      await db.exec('analyze public.waitlist')
      const scans = await db.transaction(async (tx) => {
        const audiences: CampaignAudience[] = AUDIENCES.filter((a) => a.campaign === 'pm-linkedin')
        await tx.query(`select set_config('role', 'service_role', true)`)
        await tx.query('select * from public.waitlist_campaign_results($1::jsonb)', [JSON.stringify(audiences)])
        const { rows } = await tx.query<{ n: string }>(`select pg_stat_get_xact_numscans('public.waitlist_campaign_landing'::regclass) as n`)
        return Number(rows[0]!.n)
      })
      expect(scans).toBeGreaterThanOrEqual(1)
    }, 120_000)
  },
)
