/**
 * The campaign versions' results from a visitor's sign-up to the founders' console, against the
 * local PostgREST double: visitors sign up through the public key as the site's form does (their
 * tags and first page recorded), the editors' guide's campaign example is published (the seed
 * with it, read by the same GROQ through groq-js), and the console's table counts for the version
 * exactly those it was shown to, with the 95 % interval. The public key cannot ask for the counts.
 * The database's own guards on PGlite and real PostgreSQL: tests/integration/campaign-results-db.test.ts.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatRate, wilsonInterval } from '@/components/variants/results'
import { startConsole } from '@/tools/owner/console/server'
import { configuredCampaigns, type CampaignsSource } from '@/tools/owner/campaigns'
import { editorsCampaignExample } from '@/tools/content/experiment-example'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { liveCampaignsQuery } from '@/sanity/queries'
import type { LiveCampaignsQueryResult } from '@/sanity/types.generated'
import { loopbackAddress, loopbackFetch } from '@/tools/supabase-local/loopback-fetch'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'
import { tableRows, text } from '../helpers/console-page'

let local: LocalSupabase
let clients = Math.floor(Math.random() * 50_000)
let people = 0

const example = editorsCampaignExample()
const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'))
const published: CampaignsSource = {
  read: async () => (await evaluateQuery([...seed, example as unknown as SeedDocument], liveCampaignsQuery)) as LiveCampaignsQueryResult,
  from: 'the test’s content',
}

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
}, 120_000)

afterAll(async () => {
  await local?.close()
})

/** curl -X POST $URL/rest/v1/… -H "apikey: $ANON" from a machine of its own. */
function curl(path: string, body: unknown) {
  return loopbackFetch(loopbackAddress(++clients))(`${local.url}/rest/v1/${path}`, {
    method: 'POST',
    headers: { apikey: local.anonKey, Authorization: `Bearer ${local.anonKey}`, 'Content-Type': 'application/json', Prefer: 'return=minimal' },
    body: JSON.stringify(body),
  })
}

async function consolePage(campaigns?: CampaignsSource | null): Promise<string> {
  const env = { NEXT_PUBLIC_SUPABASE_URL: local.url, SUPABASE_SERVICE_ROLE_KEY: local.serviceRoleKey }
  const running = await startConsole({ port: 0, log: () => {}, env, ...(campaigns === undefined ? {} : { campaigns }) })
  try {
    const response = await fetch(running.url)
    expect(response.status).toBe(200)
    return await response.text()
  } finally {
    await running.close()
  }
}

const rate = (successes: number, trials: number) => formatRate({ rate: successes / trials, interval: wilsonInterval(successes, trials)! })

describe('sign-ups from the campaign', () => {
  beforeAll(async () => {
    // Shown the version: its tags, on its pages (/ and /de), a source or none. Not shown: another
    // case, the next page of the visit, or no tags.
    const visits = [
      { utm_campaign: 'pm-linkedin', utm_source: 'linkedin', landing_path: '/', confirmed: true },
      { utm_campaign: 'pm-linkedin', landing_path: '/', confirmed: true },
      { utm_campaign: 'pm-linkedin', landing_path: '/de', confirmed: false },
      { utm_campaign: 'PM-LinkedIn', landing_path: '/', confirmed: true },
      { utm_campaign: 'pm-linkedin', landing_path: '/about', confirmed: false },
      { landing_path: '/', confirmed: true },
    ]
    for (const { confirmed, ...source } of visits) {
      const email = `campaign${++people}@rest.example`
      const response = await curl('waitlist', { name: 'Ann', email, ...source })
      expect(response.status, await response.text()).toBe(201)
      if (confirmed) await local.db.query(`update public.waitlist set status = 'confirmed', confirmed_at = now() where email = $1`, [email])
    }
  })

  it('the public key cannot ask for the counts, nor read the tags', async () => {
    for (const path of ['rpc/waitlist_campaign_results', 'rpc/waitlist_campaign_results?audiences=[]']) {
      const response = await curl(path, { audiences: [] })
      expect(response.status, await response.text()).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
    }
    const read = await loopbackFetch(loopbackAddress(++clients))(`${local.url}/rest/v1/waitlist?select=utm_campaign,landing_path`, {
      headers: { apikey: local.anonKey, Authorization: `Bearer ${local.anonKey}` },
    })
    expect(read.status).toBeGreaterThanOrEqual(400)
  })

  it('the console counts for the version the three it was shown to, and everyone else apart, with the 95 % interval', async () => {
    const page = await consolePage(published)
    const { rows } = await local.db.query<{ n: number; confirmed: number }>(
      `select count(*)::int as n, (count(*) filter (where status <> 'pending'))::int as confirmed from public.waitlist`,
    )
    const everyone = rows[0]!
    expect(tableRows(page, 'Sign-ups per campaign version')).toEqual([
      ['pm-linkedin-hero', 'utm_campaign=pm-linkedin from any utm_source, landing on /, /de', '3', '2', rate(2, 3)],
      ['No campaign version', 'everyone else', String(everyone.n - 3), String(everyone.confirmed - 2), rate(everyone.confirmed - 2, everyone.n - 3)],
    ])
    expect(text(page)).toContain('The versions as published now in the test’s content.')
  })

  it('in npm run waitlist:stats, read from the content the local site shows', async () => {
    const dataset = path.join(mkdtempSync(path.join(tmpdir(), 'campaign-stats-')), 'seed.ndjson')
    writeFileSync(dataset, [...seed, example].map((doc) => JSON.stringify(doc)).join('\n'))
    const { NEXT_PUBLIC_SANITY_PROJECT_ID: _project, ...inherited } = process.env
    const { stdout } = await promisify(execFile)(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'tools/owner/waitlist-stats.ts'], {
      env: { ...inherited, NEXT_PUBLIC_SUPABASE_URL: local.url, SUPABASE_SERVICE_ROLE_KEY: local.serviceRoleKey, CONTENT_SEED_PATH: dataset },
    })
    expect(stdout).toContain(`\nCampaign versions (as published in the local seed, ${dataset})\n`)
    expect(stdout).toMatch(/\npm-linkedin-hero\s+utm_campaign=pm-linkedin from any utm_source, landing on \/, \/de\s+3\s+2\s+66\.7 % \(/)
    expect(stdout).toMatch(/\nNo campaign version\s+everyone else\s+\d+\s+\d+\s+[\d.]+ % \(/)
  }, 60_000)

  it('a read that fails costs the console only this table, and says why (escaped)', async () => {
    const page = await consolePage({
      read: () => Promise.reject(new Error('Sanity answered <script>alert(1)</script>')),
      from: 'nowhere',
    })
    expect(page).toContain('The campaign versions could not be counted (Sanity answered &lt;script&gt;')
    expect(page).not.toContain('<script>alert')
    expect(page).toContain('<h2 id="experiments">Experiment results</h2>')
  })

  it('beside the local waitlist the console reads the seed the local site shows; beside a hosted one without a Sanity project, nothing', async () => {
    expect(text(await consolePage())).toContain('No campaign version is published in the local seed, sanity/seed/production.ndjson.')
    expect(configuredCampaigns(false)).toBeNull()
    expect(text(await consolePage(null))).toContain('the published campaign versions cannot be read, so they are not counted')
  })
})
