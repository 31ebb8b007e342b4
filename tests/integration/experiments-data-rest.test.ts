/**
 * The experiments' attacker test through the public REST interface, as someone with curl and the
 * public key would send it (raw HTTP, not the site's client), against the local PostgREST double:
 * whatever `experiments` a sign-up carries, the row is stored (201) and keeps only variants of
 * running experiments; the public key can neither read the set nor replace it. The site's own
 * client path (joinWaitlist with the cookie's assignments) is checked at the end. The same guards
 * on real PostgreSQL: tests/integration/experiments-data-db.test.ts.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { formatRate, wilsonInterval } from '@/components/variants/results'
import { startConsole } from '@/tools/owner/console/server'
import { tableRows } from '../helpers/console-page'
import { assignmentsFromCookies, joinWaitlist } from '@/components/waitlist/join'
import { loopbackAddress, loopbackFetch } from '@/tools/supabase-local/loopback-fetch'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'

const root = fileURLToPath(new URL('../..', import.meta.url))
let local: LocalSupabase
let clients = Math.floor(Math.random() * 50_000)
let people = 0

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
  const service = createClient(local.url, local.serviceRoleKey, { auth: { persistSession: false } })
  const { data, error } = await service.rpc('waitlist_replace_experiments', { running: [{ key: 'hero-words', variants: ['b'] }] })
  expect(error).toBeNull()
  expect(data).toBe(2)
  // Stopped: it ran, then the next sync left it out.
  await local.db.query(`insert into public.waitlist (name, email, experiments) values ('Before', 'before@rest.example', '{}')`)
}, 120_000)

afterAll(async () => {
  await local?.close()
})

/** curl -X POST $URL/rest/v1/waitlist -H "apikey: $ANON" -H "Authorization: Bearer $ANON" -d … from a machine of its own. */
function curl(path: string, body: string, method = 'POST') {
  return loopbackFetch(loopbackAddress(++clients))(`${local.url}/rest/v1/${path}`, {
    method,
    headers: { apikey: local.anonKey, Authorization: `Bearer ${local.anonKey}`, 'Content-Type': 'application/json', Prefer: 'return=minimal' },
    ...(method === 'GET' ? {} : { body }),
  })
}

async function stored(email: string): Promise<unknown> {
  const { rows } = await local.db.query<{ experiments: unknown }>('select experiments from public.waitlist where email = $1', [email])
  expect(rows, email).toHaveLength(1)
  return rows[0]!.experiments
}

it.each([
  ['a running experiment’s variant', `{"hero-words":"b"}`, { 'hero-words': 'b' }],
  ['control of a running experiment', `{"hero-words":"control"}`, { 'hero-words': 'control' }],
  ['an unknown experiment', `{"made-up":"b"}`, {}],
  ['a stopped experiment', `{"pricing-label":"annual"}`, {}],
  ['an unknown variant', `{"hero-words":"evil"}`, {}],
  ['a malformed key', `{"Hero Words<script>":"b","hero-words":"B"}`, {}],
  ['nested junk', `{"hero-words":{"$ne":"b"},"x":[1,{"y":null}]}`, {}],
  ['an array', `[["hero-words","b"]]`, {}],
  ['a string', `"hero-words=b"`, {}],
  ['null', `null`, {}],
  [
    'a huge object around one real pair',
    JSON.stringify({ ...Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`k${i}`, 'b'])), 'hero-words': 'b' }),
    { 'hero-words': 'b' },
  ],
])('a sign-up with %s is stored (201) and keeps only running variants', async (_, experiments, expected) => {
  const email = `person${++people}@rest.example`
  const response = await curl('waitlist', `{"name":"Eve","email":"${email}","experiments":${experiments}}`)
  expect(response.status, await response.text()).toBe(201)
  expect(await stored(email)).toEqual(expected)
})

it('the public key cannot read the set or the variants, replace the set, or read the counts', async () => {
  for (const [path, body, method] of [
    ['rpc/waitlist_replace_experiments', `{"running":[{"key":"evil","variants":["x"]}]}`, 'POST'],
    ['rpc/waitlist_experiment_results', '{}', 'POST'],
    ['waitlist?select=experiments', '', 'GET'],
    ['waitlist_experiment_variants?select=*', '', 'GET'],
  ] as const) {
    const response = await curl(path, body, method)
    expect(response.status, `${method} ${path}: ${await response.text()}`).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
  }
  const { rows } = await local.db.query<{ variant: string }>(
    "select experiment || '=' || variant as variant from private.waitlist_experiment_variants order by 1",
  )
  expect(rows.map((row) => row.variant)).toEqual(['hero-words=b', 'hero-words=control'])
})

it('the site’s join form sends the cookie’s assignments, and nothing without the cookie', async () => {
  // The site's client (components/waitlist/client.ts) with this visitor's own source address.
  const client = () => createClient(local.url, local.anonKey, { auth: { persistSession: false }, global: { fetch: loopbackFetch(loopbackAddress(++clients)) } })
  const withCookie = `person${++people}@rest.example`
  const cookies = 'ph_x=1; experiments=hero-words=b&pricing-label=annual&Bad=x; consent=granted'
  expect(await joinWaitlist(client(), { name: 'Ada', email: withCookie, company: '' }, {}, { experiments: assignmentsFromCookies(cookies) })).toEqual({
    status: 'saved',
  })
  expect(await stored(withCookie)).toEqual({ 'hero-words': 'b' })
  const without = `person${++people}@rest.example`
  expect(await joinWaitlist(client(), { name: 'Ada', email: without, company: '' }, {}, { experiments: assignmentsFromCookies('consent=denied') })).toEqual({
    status: 'saved',
  })
  expect(await stored(without)).toEqual({})
})

describe('the founders see a sign-up from variant B counted for B', () => {
  const env = () => ({ NEXT_PUBLIC_SUPABASE_URL: local.url, SUPABASE_SERVICE_ROLE_KEY: local.serviceRoleKey })

  beforeAll(async () => {
    // Two sign-ups from B, one confirmed; one from control (all through the public key, as above).
    for (const variant of ['b', 'b', 'control']) {
      const email = `counted-${variant}-${++people}@rest.example`
      expect((await curl('waitlist', `{"name":"Ann","email":"${email}","experiments":{"hero-words":"${variant}"}}`)).status).toBe(201)
      if (people % 2) await local.db.query(`update public.waitlist set status = 'confirmed', confirmed_at = now() where email = $1`, [email])
    }
  })

  async function consolePage(options: { env: Record<string, string>; fetcher?: typeof fetch }): Promise<string> {
    const running = await startConsole({ port: 0, log: () => {}, ...options })
    try {
      const response = await fetch(running.url)
      expect(response.status).toBe(200)
      return await response.text()
    } finally {
      await running.close()
    }
  }

  const counted = async () =>
    (
      await local.db.query<{ variant: string; n: number; confirmed: number }>(
        `select experiments->>'hero-words' as variant, count(*)::int as n, count(*) filter (where status <> 'pending')::int as confirmed
         from public.waitlist where experiments ? 'hero-words' group by 1 order by 1`,
      )
    ).rows

  it('in the console, without PostHog: sign-ups and confirmations per variant, and it says participants need PostHog', async () => {
    const rows = await counted()
    const b = rows.find((row) => row.variant === 'b')!
    const control = rows.find((row) => row.variant === 'control')!
    const page = await consolePage({ env: env() })
    expect(page).toContain('not configured')
    expect(tableRows(page, 'Experiment hero-words')).toEqual([
      [
        'control',
        String(control.n),
        String(control.confirmed),
        formatRate({ rate: control.confirmed / control.n, interval: wilsonInterval(control.confirmed, control.n)! }),
      ],
      ['b', String(b.n), String(b.confirmed), formatRate({ rate: b.confirmed / b.n, interval: wilsonInterval(b.confirmed, b.n)! })],
    ])
  })

  it("in the console, with PostHog: its participants beside the sign-ups, and real visitors' speed per route", async () => {
    // PostHog's query API: the web vitals' HogQL, or the participants'.
    const fetcher = vi.fn<typeof fetch>(async (_url, init) =>
      String(init?.body).includes('web_vital')
        ? Response.json({
            results: [
              ['/', 'LCP', 1834.2, 120],
              ['/', 'CLS', 0.031, 118],
              ['/blog/[slug]', 'INP', 96, 40],
            ],
          })
        : Response.json({
            results: [
              ['hero-words', 'b', 40],
              ['hero-words', 'control', 50],
            ],
          }),
    )
    const page = await consolePage({ env: { ...env(), POSTHOG_PERSONAL_API_KEY: 'phx_abcdefghijklmnopqrstuvwxyz', POSTHOG_PROJECT_ID: '7' }, fetcher })
    const b = (await counted()).find((row) => row.variant === 'b')!
    expect(tableRows(page, 'Experiment hero-words')[1]!.slice(0, 4)).toEqual([
      'b',
      '40',
      String(b.n),
      formatRate({ rate: b.n / 40, interval: wilsonInterval(b.n, 40)! }),
    ])
    expect(tableRows(page, 'Real visitors’ Web Vitals, p75 per route')).toEqual([
      ['/', '1,834 ms', '–', '0.03', '–', '–', '120'],
      ['/blog/[slug]', '–', '96 ms', '–', '–', '–', '40'],
    ])
    expect(fetcher).toHaveBeenCalledTimes(2)
  })

  it('in npm run waitlist:stats', async () => {
    const { NEXT_PUBLIC_SUPABASE_URL: _url, SUPABASE_SERVICE_ROLE_KEY: _key, ...inherited } = process.env
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'tools/owner/waitlist-stats.ts')],
      {
        cwd: root,
        env: { ...inherited, ...env() },
      },
    )
    const b = (await counted()).find((row) => row.variant === 'b')!
    expect(stdout).toMatch(
      /\nExperiments \(sign-ups as recorded; participants: npm run waitlist:console\)\nExperiment\s+Variant\s+Signed up\s+Confirmed\s+Confirmation rate \(95 % interval\)\n/,
    )
    expect(stdout).toMatch(new RegExp(`\\nhero-words\\s+b\\s+${b.n}\\s+${b.confirmed}\\s+[\\d.]+ % \\(`))
  }, 60_000)
})
