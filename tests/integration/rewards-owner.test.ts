/**
 * The rewards ladder as the founders see it, against the local PostgREST double: the console's
 * Rewards section (how many reached each rung, the held perks with Approve and Refuse, once, with
 * the console's guarantees, the last perks granted); `npm run waitlist:export`'s rewards column
 * while a ladder is in use; `npm run waitlist:invite -- --where rung=<key>`. The database's own
 * rules: tests/integration/rewards-db.test.ts.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startConsole, type RunningConsole } from '@/tools/owner/console/server'
import { ownerClient, writeWaitlistCsv, type Sink } from '@/tools/owner/owner'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'
import { tableRows, text } from '../helpers/console-page'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))

const LADDER = [
  { key: 'skip-ahead', threshold: 1, kind: 'places', places: 50 },
  { key: 'badge', threshold: 2, kind: 'perk', approval: 'instant' },
  { key: 'founding-call', threshold: 3, kind: 'perk', approval: 'held' },
]

let local: LocalSupabase
let console_: RunningConsole
let otherRun: RunningConsole
const ids: Record<string, string> = {}

/** A confirmed person with `friends` confirmed referrals (each credited through the trigger, as in production). */
async function referrer(name: string, friends: number) {
  const email = `${name.toLowerCase()}@rewards-owner.test`
  await local.db.query(`insert into public.waitlist (name, email, status, confirmed_at) values ($1, $2, 'confirmed', now())`, [name, email])
  for (let i = 0; i < friends; i++) {
    await local.db.query(`insert into public.waitlist (name, email, ref) select 'Friend', $1, referral_code from public.waitlist where email = $2`, [
      `friend${i}.${name.toLowerCase()}@rewards-owner.test`,
      email,
    ])
    await local.db.query(`update public.waitlist set status = 'confirmed' where email = $1`, [`friend${i}.${name.toLowerCase()}@rewards-owner.test`])
  }
  ids[name] = (await local.db.query<{ id: string }>('select id from public.waitlist where email = $1', [email])).rows[0]!.id
}

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
  await local.db.exec(`update private.waitlist_referral_settings set hold_velocity = false, hold_same_network = false`)
  await local.db.query('select public.waitlist_replace_rewards($1::jsonb)', [JSON.stringify(LADDER)])
  await referrer('Ann', 3)
  await referrer('Ben', 3)
  await referrer('Cat', 2)
  await referrer('Dan', 0)
  const env = { NEXT_PUBLIC_SUPABASE_URL: local.url, SUPABASE_SERVICE_ROLE_KEY: local.serviceRoleKey }
  console_ = await startConsole({ port: 0, env, campaigns: null })
  otherRun = await startConsole({ port: 0, env, campaigns: null })
}, 120_000)

afterAll(async () => {
  await console_?.close()
  await otherRun?.close()
  await local?.close()
})

const origin = () => `http://127.0.0.1:${console_.port}`
const page = async (query = '') => (await fetch(`${origin()}/?token=${console_.token}${query}`)).text()
const postPerk = (body: string, headers: Record<string, string> = { origin: origin() }) =>
  fetch(`${origin()}/perk`, { method: 'POST', body, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } })
/** The Approve/Refuse form of `name`'s held perk on `body`, as the browser posts it with the button pressed. */
function perkForm(body: string, name: string, decision: 'grant' | 'refuse'): string {
  const forms = [...body.matchAll(/<form method="post" action="\/perk">([\s\S]*?)<\/form>/g)].map(([, form]) => form!)
  const form = forms.find((candidate) => candidate.includes(`value="${ids[name]}"`))
  expect(form, `the decision form of ${name}'s perk`).toBeDefined()
  const fields = [...form!.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map(
    ([, field, value]) => [field!, text(value!)] as [string, string],
  )
  return new URLSearchParams([...fields, ['decision', decision]]).toString()
}
const status = async (name: string) =>
  (await local.db.query<{ status: string }>(`select status from private.waitlist_rewards_earned where entry_id = $1 and rung = 'founding-call'`, [ids[name]]))
    .rows[0]?.status
const mails = async (name: string) =>
  (
    await local.db.query<{ rung: string }>(`select payload ->> 'rung' as rung from public.waitlist_outbox where kind = 'reward_email' and entry_id = $1`, [
      ids[name],
    ])
  ).rows
    .map((row) => row.rung)
    .sort()

describe("the console's Rewards", () => {
  it('counts who reached each rung, lists the held perks oldest first, and the perks granted newest first', async () => {
    const body = await page()
    expect(tableRows(body, 'People who reached each rung')).toEqual([
      ['skip-ahead', '1', '50 places', '3', '3', '0', '0'],
      ['badge', '2', 'perk, granted at once', '3', '3', '0', '0'],
      ['founding-call', '3', 'perk, held for your approval', '2', '0', '2', '0'],
    ])
    expect(tableRows(body, 'Perks awaiting your approval').map((row) => row.slice(1, 5))).toEqual([
      ['founding-call', 'Ann', 'ann@rewards-owner.test', '3'],
      ['founding-call', 'Ben', 'ben@rewards-owner.test', '3'],
    ])
    expect(tableRows(body, 'Perks granted last').map((row) => [row[1], row[2], row[4]])).toEqual([
      ['badge', 'Cat', 'at once'],
      ['badge', 'Ben', 'at once'],
      ['badge', 'Ann', 'at once'],
    ])
  })

  it('refuses a decision without Origin, from a foreign Origin, without the token, or naming nothing it knows; decides nothing', async () => {
    const form = perkForm(await page(), 'Ann', 'grant')
    const cases: [string, Response][] = [
      ['no Origin', await postPerk(form, {})],
      ['foreign Origin', await postPerk(form, { origin: 'http://evil.example' })],
      ['no token', await postPerk(form.replace(/token=[^&]*&?/, ''))],
      ['another run’s token', await postPerk(form.replace(/token=[^&]*/, `token=${otherRun.token}`))],
      ['no decision', await postPerk(form.replace(/&?decision=grant/, ''))],
      ['another decision', await postPerk(form.replace('decision=grant', 'decision=approve'))],
      ['a bad entry', await postPerk(form.replace(/entry=[^&]*/, 'entry=1%3Bdrop'))],
      ['a bad rung', await postPerk(form.replace(/rung=[^&]*/, 'rung=Founding%20Call'))],
      ['JSON', await postPerk(form, { origin: origin(), 'content-type': 'application/json' })],
    ]
    for (const [what, answer] of cases) {
      expect(answer.status, what).toBeGreaterThanOrEqual(400)
      expect(answer.headers.get('location'), what).toBeNull()
    }
    expect((await fetch(`${origin()}/perk`)).status).toBe(405)
    expect(await status('Ann')).toBe('held')
    expect(await mails('Ann')).toEqual(['badge', 'skip-ahead'])
  })

  it('Approve grants the perk and queues its e-mail (Post/Redirect/Get); a second press changes nothing; Refuse sends nothing', async () => {
    const body = await page()
    const approve = perkForm(body, 'Ann', 'grant')
    const approved = await postPerk(approve)
    expect(approved.status).toBe(303)
    expect(approved.headers.get('location')).toBe(`/?token=${console_.token}&perk=${ids.Ann}&rung=founding-call&outcome=granted#rewards`)
    expect(await status('Ann')).toBe('granted')
    expect(await mails('Ann')).toEqual(['badge', 'founding-call', 'skip-ahead'])
    const after = await page(approved.headers.get('location')!.slice(`/?token=${console_.token}`.length).split('#')[0])
    expect(text(after)).toContain('Approved “founding-call”: its e-mail is in the outbox.')
    expect(tableRows(after, 'Perks awaiting your approval').map((row) => row[2])).toEqual(['Ben'])
    expect(tableRows(after, 'Perks granted last')[0]!.slice(1, 5)).toEqual(['founding-call', 'Ann', 'ann@rewards-owner.test', 'approved by you'])

    const again = await postPerk(approve)
    expect(again.headers.get('location')).toBe(`/?token=${console_.token}&perk=${ids.Ann}&rung=founding-call&outcome=already-granted#rewards`)
    expect(await mails('Ann')).toEqual(['badge', 'founding-call', 'skip-ahead'])

    const refused = await postPerk(perkForm(after, 'Ben', 'refuse'))
    expect(refused.headers.get('location')).toBe(`/?token=${console_.token}&perk=${ids.Ben}&rung=founding-call&outcome=refused#rewards`)
    expect(await status('Ben')).toBe('refused')
    expect(await mails('Ben')).toEqual(['badge', 'skip-ahead'])
    const last = await page(refused.headers.get('location')!.slice(`/?token=${console_.token}`.length).split('#')[0])
    expect(text(last)).toContain('Refused “founding-call”: nothing is sent, and their page no longer shows it.')
    expect(text(last)).toContain('No perk is waiting for your approval.')
    expect(tableRows(last, 'People who reached each rung')[2]).toEqual(['founding-call', '3', 'perk, held for your approval', '2', '1', '0', '1'])
  })
})

describe('npm run waitlist:export', () => {
  it('ends each record with the rungs earned, "rung:status;…", while a ladder is in use', async () => {
    let csv = ''
    const sink: Sink = { write: async (chunk: string) => void (csv += chunk), end: async () => {} }
    await writeWaitlistCsv(ownerClient({ NEXT_PUBLIC_SUPABASE_URL: local.url, SUPABASE_SERVICE_ROLE_KEY: local.serviceRoleKey }).client, sink)
    const [header, ...lines] = csv.trim().split('\r\n')
    expect(header!.endsWith(',language,earlier_answers,rewards')).toBe(true)
    const record = (name: string) => lines.find((line) => line.includes(`,${name.toLowerCase()}@rewards-owner.test,`))
    expect(record('Ann')).toMatch(/,en,,skip-ahead:granted;badge:granted;founding-call:granted$/)
    expect(record('Ben')).toMatch(/,en,,skip-ahead:granted;badge:granted;founding-call:refused$/)
    expect(record('Cat')).toMatch(/,en,,skip-ahead:granted;badge:granted$/)
    expect(record('Dan')).toMatch(/,en,,$/)
  })
})

describe('npm run waitlist:invite -- --where rung=<key>', () => {
  const invite = (...args: string[]) => {
    const { NEXT_PUBLIC_SUPABASE_URL: _url, SUPABASE_SERVICE_ROLE_KEY: _key, ...inherited } = process.env
    return run(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'tools/owner/waitlist-invite.ts'), ...args], {
      cwd: root,
      env: { ...inherited, NEXT_PUBLIC_SUPABASE_URL: local.url },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error)
  }

  it('names a rung it does not know, and invites nobody', async () => {
    const result = (await invite('--next', '5', '--where', 'rung=gold')) as { code?: number; stderr: string }
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('No rung "gold"; the rungs are: skip-ahead, badge, founding-call')
  })

  it('takes only those granted the rung, in place order', async () => {
    const dry = (await invite('--next', '5', '--where', 'rung=founding-call', '--dry-run')) as { stdout: string; stderr: string }
    expect(dry.stderr).toContain('Among those who answered rung: founding-call (granted)')
    expect(dry.stdout).toMatch(/ann@rewards-owner\.test/)
    expect(dry.stdout).not.toMatch(/ben@rewards-owner\.test/)
    expect(dry.stdout).toMatch(/Would invite 1 /)
    const wide = (await invite('--next', '5', '--where', 'rung=badge', '--dry-run')) as { stdout: string }
    expect(wide.stdout).toMatch(/Would invite 3 /)
  })
})
