/**
 * Choosing whom to let in by their answers, as the founders do it, against the local PostgREST
 * double: the console shows how the line answers each question; "Invite next N" with answers
 * ticked previews exactly who (in place order within the segment) and invites them, keeping the
 * stale-tab guarantee; `npm run waitlist:invite -- --next N --where key=option` does the same and
 * names what it cannot read; `npm run waitlist:export` writes a column per question. The
 * database's own rules: tests/integration/questions-db.test.ts.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startConsole, type RunningConsole } from '@/tools/owner/console/server'
import { ownerClient, writeWaitlistCsv, type Sink } from '@/tools/owner/owner'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'
import type { PublishedQuestion } from '@/sanity/questions/rules'
import { tableRows, text } from '../helpers/console-page'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))

const QUESTIONS: PublishedQuestion[] = [
  {
    key: 'role',
    kind: 'one',
    required: false,
    labels: { en: 'What is your role?', de: 'Was ist Ihre Rolle?' },
    options: [
      { key: 'product-manager', labels: { en: 'Product manager', de: 'Produktmanagerin' } },
      { key: 'founder', labels: { en: 'Founder', de: 'Gründerin' } },
      { key: 'designer', labels: { en: 'Designer', de: 'Designerin' } },
    ],
  },
  { key: 'goal', kind: 'text', required: false, labels: { en: 'What would you ask?' }, options: [] },
]

// In line in this order (confirmed an hour apart), with their answers.
const LINE = [
  { name: 'Ann Founder', answers: { role: 'founder' } },
  { name: 'Ben PM', answers: { role: 'product-manager', goal: '=1+1' } },
  { name: 'Cat Designer', answers: { role: 'designer' } },
  { name: 'Dan PM', answers: { role: 'product-manager' } },
  { name: 'Eve Unanswered', answers: {} },
  { name: 'Fay PM', answers: { role: 'product-manager' } },
]
const email = (name: string) => `${name.split(' ')[0]!.toLowerCase()}@segment.test`

let local: LocalSupabase
let console_: RunningConsole

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
  await local.db.query('select public.waitlist_replace_questions($1::jsonb)', [JSON.stringify(QUESTIONS)])
  for (const [index, person] of LINE.entries()) {
    await local.db.query(
      `insert into public.waitlist (name, email, status, confirmed_at, language, answers) values ($1, $2, 'confirmed', now() - make_interval(hours => $3), $4, $5::jsonb)`,
      [person.name, email(person.name), LINE.length - index, index === 3 ? 'de' : 'en', JSON.stringify(person.answers)],
    )
  }
  console_ = await startConsole({ port: 0, env: { NEXT_PUBLIC_SUPABASE_URL: local.url, SUPABASE_SERVICE_ROLE_KEY: local.serviceRoleKey }, campaigns: null })
}, 120_000)

afterAll(async () => {
  await console_?.close()
  await local?.close()
})

const origin = () => `http://127.0.0.1:${console_.port}`
const page = async (query: [string, string][] = []) => {
  const response = await fetch(`${origin()}/?${new URLSearchParams([['token', console_.token], ...query])}`)
  return { status: response.status, body: await response.text() }
}
const postInvite = (body: string) =>
  fetch(`${origin()}/invite`, { method: 'POST', body, redirect: 'manual', headers: { origin: origin(), 'content-type': 'application/x-www-form-urlencoded' } })
/** The Invite form's hidden fields, as the browser posts them. */
const inviteForm = (body: string) => {
  const form = /<form method="post" action="\/invite">([\s\S]*?)<\/form>/.exec(body)?.[1] ?? ''
  return new URLSearchParams(
    [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map(([, name, value]) => [name!, text(value!)]),
  ).toString()
}
const statuses = async () =>
  Object.fromEntries(
    (await local.db.query<{ name: string; status: string }>('select name, status from public.waitlist order by name')).rows.map((row) => [
      row.name,
      row.status,
    ]),
  )

describe('the console', () => {
  it('shows how the line answers each question: every option’s count and share, and how many gave a short answer', async () => {
    const { body } = await page()
    expect(tableRows(body, 'Answers to role')).toEqual([
      ['Product manager', 'product-manager', '3', '50.0 %'],
      ['Founder', 'founder', '1', '16.7 %'],
      ['Designer', 'designer', '1', '16.7 %'],
    ])
    expect(text(body)).toContain('1 person in line answered it (16.7 %).')
    // One box per option, to tick for the preview.
    expect(body).toContain('<input id="where-role-product-manager" type="checkbox" name="where" value="role=product-manager">')
  })

  it('previews the next of those who answered so, in place order, and invites exactly them; a second press invites nobody', async () => {
    const preview = await page([
      ['n', '2'],
      ['where', 'role=product-manager'],
    ])
    expect(preview.status).toBe(200)
    expect(text(preview.body)).toContain('Would be invited among those who answered role: Product manager')
    expect(tableRows(preview.body, 'Would be invited')).toEqual([
      ['2', 'Ben PM', 'ben@segment.test'],
      ['4', 'Dan PM', 'dan@segment.test'],
    ])
    expect(preview.body).toContain('<input id="where-role-product-manager" type="checkbox" name="where" value="role=product-manager" checked>')
    const form = inviteForm(preview.body)
    expect(new URLSearchParams(form).getAll('where')).toEqual(['role=product-manager'])
    const invited = await postInvite(form)
    expect(invited.status).toBe(303)
    expect(await statuses()).toMatchObject({ 'Ben PM': 'invited', 'Dan PM': 'invited', 'Ann Founder': 'confirmed', 'Fay PM': 'confirmed' })
    const result = await page([...new URLSearchParams(invited.headers.get('location')!.split('?')[1]!.split('#')[0])].filter(([key]) => key !== 'token'))
    expect(tableRows(result.body, 'Invited').map(([, name]) => name)).toEqual(['Ben PM', 'Dan PM'])
    // The back button: the same form again invites nobody, and shows who would be invited now.
    const again = await postInvite(form)
    expect(again.headers.get('location')).toContain('where=role%3Dproduct-manager')
    expect(again.headers.get('location')).toContain('changed=1')
    expect(await statuses()).toMatchObject({ 'Fay PM': 'confirmed' })
  })

  it('refuses an answer no published question offers, inviting nobody', async () => {
    const before = await statuses()
    for (const where of ['role=ceo', 'team=small', 'goal=x', 'role']) {
      const response = await page([
        ['n', '1'],
        ['where', where],
      ])
      expect(response.status, where).toBe(400)
    }
    const forged = new URLSearchParams({ token: console_.token, n: '1', expect: 'x', where: 'role=ceo' })
    expect((await postInvite(forged.toString())).status).toBe(400)
    expect(await statuses()).toEqual(before)
  })
})

describe('npm run waitlist:invite -- --where', () => {
  const invite = (...args: string[]) => {
    const { NEXT_PUBLIC_SUPABASE_URL: _url, SUPABASE_SERVICE_ROLE_KEY: _key, ...inherited } = process.env
    return run(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'tools/owner/waitlist-invite.ts'), ...args], {
      cwd: root,
      env: { ...inherited, NEXT_PUBLIC_SUPABASE_URL: local.url },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error)
  }

  it('names what it cannot read, and invites nobody', async () => {
    const before = await statuses()
    for (const [args, message] of [
      [['--next', '1', '--where', 'team=small'], 'No published question with options has the key "team"; they are: role'],
      [['--next', '1', '--where', 'role=ceo'], '"role" has no option "ceo"; its options are: product-manager, founder, designer'],
      [['--next', '1', '--where', 'goal=x'], 'No published question with options has the key "goal"'],
      [['--email', 'ann@segment.test', '--where', 'role=founder'], '--where chooses among the next in line'],
    ] as const) {
      const result = (await invite(...args)) as { code?: number; stderr: string }
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toContain(message)
    }
    expect(await statuses()).toEqual(before)
  })

  it('--next 5 --where role=founder --where role=designer: either answer, in place order', async () => {
    const dry = (await invite('--next', '5', '--where', 'role=founder', '--where', 'role=designer', '--dry-run')) as { stdout: string; stderr: string }
    expect(dry.stderr).toContain('Among those who answered role: Founder or Designer')
    expect(dry.stdout).toMatch(
      /^Place\s+Name\s+Email\n-+ +-+ +-+\n1\s+Ann Founder\s+ann@segment\.test\n2\s+Cat Designer\s+cat@segment\.test\nWould invite 2 \(dry run/,
    )
    const all = (await invite('--next', '5', '--where', 'role=product-manager,designer', '--where', 'role=founder')) as { stdout: string }
    expect(all.stdout).toMatch(/Invited 3\./)
    expect(await statuses()).toMatchObject({ 'Ann Founder': 'invited', 'Cat Designer': 'invited', 'Fay PM': 'invited', 'Eve Unanswered': 'confirmed' })
    const empty = (await invite('--next', '5', '--where', 'role=founder')) as { stdout: string }
    expect(empty.stdout).toBe('Nobody in line answered so: nobody to invite.\n')
  })
})

describe('npm run waitlist:export', () => {
  it('writes a column per published question, formula-safe, in each person’s answer', async () => {
    let csv = ''
    const sink: Sink = { write: async (chunk: string) => void (csv += chunk), end: async () => {} }
    await writeWaitlistCsv(ownerClient({ NEXT_PUBLIC_SUPABASE_URL: local.url, SUPABASE_SERVICE_ROLE_KEY: local.serviceRoleKey }).client, sink)
    const [header, ...lines] = csv.trim().split('\r\n')
    expect(header!.endsWith(',language,answer_role,answer_goal,earlier_answers')).toBe(true)
    expect(lines.find((line) => line.includes('ben@segment.test'))).toMatch(/,en,product-manager,'=1\+1,$/)
    expect(lines.find((line) => line.includes('eve@segment.test'))).toMatch(/,en,,,$/)
  })
})
