/**
 * `npm run waitlist:console` (tools/owner/console/), started in-process against the local double:
 * its figures against expectations worked out here from the rows inserted, what a hostile name
 * becomes, that the service-role key is in no answer, every refusal (Host, Origin, token), and
 * "Invite next N" from the page: exactly the previewed people, and a stale page invites nobody.
 * The browser's view (chart, axe, reflow) is e2e/console.spec.ts.
 */
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startConsole, type RunningConsole } from '@/tools/owner/console/server'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'
import { tableRows, text } from '../helpers/console-page'

const root = fileURLToPath(new URL('../..', import.meta.url))
const tsxCli = path.join(root, 'node_modules/tsx/dist/cli.mjs')
const HOSTILE = '<img src=x onerror=alert(1)>'

let local: LocalSupabase
let consoleServer: RunningConsole
let otherRun: RunningConsole
let dbNow: Date

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string }
/** Every answer any test got, for the check that none carries the key. */
const answers: Answer[] = []

/** A request with exactly the headers given (Host included: Node's fetch would not let us forge it). */
function send(options: { method?: string; path?: string; headers?: Record<string, string>; body?: string; port?: number }): Promise<Answer> {
  const { method = 'GET', path: target = '/', body, port = consoleServer.port } = options
  const headers = { host: `127.0.0.1:${port}`, ...options.headers }
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path: target, headers, setHost: false }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => {
        const answer = { status: response.statusCode!, headers: response.headers, body: text }
        answers.push(answer)
        resolve(answer)
      })
    })
    request.on('error', reject)
    request.end(body)
  })
}

/** Bytes exactly as written, for what Node's client will not send (HTTP/1.0 without Host, two Hosts). */
function sendRaw(text: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(consoleServer.port, '127.0.0.1', () => socket.end(text))
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (received += chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const answer = { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1]), headers: {}, body: received }
      answers.push(answer)
      resolve(answer)
    })
  })
}

const pagePath = (query: Record<string, string> = {}) => `/?${new URLSearchParams({ token: consoleServer.token, ...query })}`
const origin = () => `http://127.0.0.1:${consoleServer.port}`

/** A form's hidden fields, as the browser would post them. */
const hiddenFields = (form: string): [string, string][] =>
  [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map(([, name, value]) => [name!, text(value!)])

/** The hidden fields of the Invite form, as the browser would post them. */
function inviteForm(page: string): string {
  const form = /<form method="post" action="\/invite">([\s\S]*?)<\/form>/.exec(page)?.[1]
  expect(form, 'the Invite form').toBeDefined()
  return new URLSearchParams(hiddenFields(form!)).toString()
}

const postInvite = (body: string, headers: Record<string, string> = { origin: origin() }) =>
  send({ method: 'POST', path: '/invite', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } })

const statuses = async () =>
  Object.fromEntries(
    (await local.db.query<{ email: string; status: string }>('select email, status from public.waitlist order by email')).rows.map((row) => [
      row.email,
      row.status,
    ]),
  )

// The rows, with how many days ago each signed up and confirmed (null: never). Every one confirmed
// on a different day from the others, so each day's count below is 0 or 1 unless two share it.
const PEOPLE = [
  { name: 'Ada Line', email: 'ada@console.test', created: 10, confirmed: 9, credits: 0, utm: ['newsletter', 'email', 'launch'], host: null },
  { name: 'Bob Line', email: 'bob@console.test', created: 6, confirmed: 6, credits: 0, utm: null, host: 'news.example' },
  { name: HOSTILE, email: 'cy@console.test', created: 3, confirmed: 2, credits: 1, utm: null, host: 'news.example' },
  { name: 'Di Invited', email: 'di@console.test', created: 20, confirmed: 19, credits: 3, utm: ['newsletter', 'email', 'launch'], host: null },
  { name: 'Ed Joined', email: 'ed@console.test', created: 40, confirmed: 39, credits: 0, utm: null, host: null },
  { name: 'Flo Pending', email: 'flo@console.test', created: 1, confirmed: null, credits: 0, utm: null, host: null },
  { name: 'Gus Pending', email: 'gus@console.test', created: 0, confirmed: null, credits: 0, utm: ['ads', 'cpc', 'spring'], host: null },
] as const

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
  dbNow = (await local.db.query<{ now: Date }>('select now()')).rows[0]!.now
  const sql = (value: string | null) => (value === null ? 'null' : `'${value.replace(/'/g, "''")}'`)
  for (const person of PEOPLE) {
    const ago = (days: number | null) => (days === null ? 'null' : `now() - interval '${days} days'`)
    await local.db
      .exec(`insert into public.waitlist (name, email, project, created_at, status, confirmed_at, referral_credits, utm_source, utm_medium, utm_campaign, referrer_host)
      values (${sql(person.name)}, ${sql(person.email)}, '', ${ago(person.created)}, '${person.confirmed === null ? 'pending' : 'confirmed'}', ${ago(person.confirmed)}, ${person.credits},
              ${sql(person.utm?.[0] ?? null)}, ${sql(person.utm?.[1] ?? null)}, ${sql(person.utm?.[2] ?? null)}, ${sql(person.host)})`)
  }
  // Invited, then joined, through the status transitions (one statement each: each its own time).
  await local.db.exec(`update public.waitlist set status = 'invited' where email = 'di@console.test'`)
  await local.db.exec(`update public.waitlist set status = 'invited' where email = 'ed@console.test'`)
  await local.db.exec(`update public.waitlist set status = 'joined' where email = 'ed@console.test'`)
  const env = { NEXT_PUBLIC_SUPABASE_URL: local.url, SUPABASE_SERVICE_ROLE_KEY: local.serviceRoleKey }
  consoleServer = await startConsole({ port: 0, env, now: () => dbNow })
  otherRun = await startConsole({ port: 0, env })
})

afterAll(async () => {
  await consoleServer?.close()
  await otherRun?.close()
  await local?.close()
})

describe('the page', () => {
  let page: string
  beforeAll(async () => {
    const answer = await send({ path: pagePath() })
    expect(answer.status).toBe(200)
    page = answer.body
  })

  it('shows the funnel: signed up 7, confirmed 5 (71.4 %), invited 2 (40.0 %), joined 1 (50.0 %)', () => {
    expect(tableRows(page, 'Funnel figures')).toEqual([
      ['Signed up', '7', ''],
      ['Confirmed', '5', '71.4 % of signed up'],
      ['Invited', '2', '40.0 % of confirmed'],
      ['Joined', '1', '50.0 % of invited'],
    ])
  })

  it('counts sign-ups by the day they signed up and confirmations by the day they confirmed, for the last 30 days', () => {
    const day = (ago: number) => new Date(dbNow.getTime() - ago * 86_400_000).toISOString().slice(0, 10)
    const expected = Array.from({ length: 30 }, (_, index) => {
      const ago = 29 - index
      return [day(ago), String(PEOPLE.filter((p) => p.created === ago).length), String(PEOPLE.filter((p) => p.confirmed === ago).length)]
    })
    expect(tableRows(page, 'Sign-ups and confirmations per day')).toEqual(expected)
    // Ed signed up 40 days ago: before the window, so in no day of it.
    expect(expected.reduce((sum, [, signUps]) => sum + Number(signUps), 0)).toBe(6)
    expect(page).toMatch(
      /<svg viewBox="[^"]+" role="img" aria-labelledby="chart-title chart-desc">\s*<title id="chart-title">Sign-ups and confirmations per day<\/title>\s*<desc id="chart-desc">30 days from /,
    )
    // One bar per series and day.
    expect(page.match(/<rect class="signups"/g)).toHaveLength(30)
    expect(page.match(/<rect class="confirmations"/g)).toHaveLength(30)
  })

  it('shows sources: campaign tags and referring sites, with how many confirmed; and the top referrers', () => {
    expect(tableRows(page, 'Campaign tags')).toEqual([
      ['campaign newsletter / email / launch', '2', '2'],
      ['campaign ads / cpc / spring', '1', '0'],
      ['No campaign tags', '4', '3'],
    ])
    expect(tableRows(page, 'Referring sites')).toEqual([
      ['from news.example', '2', '2'],
      ['None recorded (typed in, or no referrer sent)', '5', '3'],
    ])
    expect(tableRows(page, 'Top referrers')).toEqual([
      ['Di Invited', 'di@console.test', '3'],
      [HOSTILE, 'cy@console.test', '1'],
    ])
  })

  it('shows the head of the line: confirmed people by confirmation, a referral moving Cy 5 places up', () => {
    // Arrival: Ada 1, Bob 2, Cy 3; Cy's one referral makes 3 − 5 = −2, ahead of both.
    const rows = tableRows(page, 'Next in line').map(([place, status, name, email]) => [place, status, name, email])
    expect(rows).toEqual([
      ['1', 'confirmed', HOSTILE, 'cy@console.test'],
      ['2', 'confirmed', 'Ada Line', 'ada@console.test'],
      ['3', 'confirmed', 'Bob Line', 'bob@console.test'],
    ])
    // Invited and joined people have left the line; the newest invitation first.
    expect(tableRows(page, 'Invited and joined').map(([status, name]) => [status, name])).toEqual([
      ['joined', 'Ed Joined'],
      ['invited', 'Di Invited'],
    ])
  })

  it('shows a name like <img src=x onerror=alert(1)> as text', () => {
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(page).not.toMatch(/<img/i)
  })

  it('is one document with one h1, no script, and labelled inputs', () => {
    expect(page.match(/<h1[ >]/g)).toHaveLength(1)
    expect(page).not.toMatch(/<script/i)
    expect(page).toContain('<label for="invite-n">How many</label><input id="invite-n"')
  })

  it('sends its security headers: no caching, no framing, no referrer, a policy allowing only its own style', async () => {
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!
    const policy = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`
    // On the page and on a refusal alike.
    for (const answer of [await send({ path: pagePath() }), await send({ path: '/' })]) {
      expect(answer.headers).toMatchObject({
        'cache-control': 'no-store',
        'content-security-policy': policy,
        'x-frame-options': 'DENY',
        'referrer-policy': 'same-origin',
        'x-content-type-options': 'nosniff',
      })
    }
  })
})

describe('refusals', () => {
  const noData = (answer: Answer) => {
    expect(answer.status).toBeGreaterThanOrEqual(400)
    expect(answer.body).not.toContain('@console.test')
    for (const person of PEOPLE) expect(answer.body).not.toContain(person.name)
  }

  it('answers its own Host, as 127.0.0.1 or localhost (the control for the refusals below)', async () => {
    for (const host of [`127.0.0.1:${consoleServer.port}`, `localhost:${consoleServer.port}`, `LOCALHOST:${consoleServer.port}`]) {
      expect((await send({ path: pagePath(), headers: { host } })).status, host).toBe(200)
    }
    expect((await send({ path: pagePath(), headers: { origin: origin() } })).status).toBe(200)
  })

  it('refuses a foreign Host (DNS rebinding), even with the token: 421', async () => {
    const port = consoleServer.port
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `[::1]:${port}`,
      `127.0.0.2:${port}`,
    ]) {
      const answer = await send({ path: pagePath(), headers: { host } })
      expect(answer.status, host).toBe(421)
      noData(answer)
    }
  })

  it('refuses a missing Host, and a second Host line', async () => {
    const token = consoleServer.token
    const withoutHost = await sendRaw(`GET /?token=${token} HTTP/1.0\r\n\r\n`)
    expect(withoutHost.status).toBe(421)
    noData(withoutHost)
    // HTTP/1.1 requires a Host: Node answers 400 before the console sees the request.
    const withoutHost11 = await sendRaw(`GET /?token=${token} HTTP/1.1\r\nConnection: close\r\n\r\n`)
    expect(withoutHost11.status).toBe(400)
    noData(withoutHost11)
    const twoHosts = await sendRaw(`GET /?token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${consoleServer.port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`)
    expect([400, 421]).toContain(twoHosts.status)
    noData(twoHosts)
  })

  it('refuses a request target naming another host', async () => {
    const answer = await sendRaw(
      `GET http://evil.example/?token=${consoleServer.token} HTTP/1.1\r\nHost: 127.0.0.1:${consoleServer.port}\r\nConnection: close\r\n\r\n`,
    )
    expect(answer.status).toBe(400)
    noData(answer)
  })

  it('refuses a foreign Origin, even with the token: 403', async () => {
    for (const foreign of [
      'http://evil.example',
      'null',
      `http://127.0.0.1:${consoleServer.port + 1}`,
      `https://127.0.0.1:${consoleServer.port}`,
      `http://127.0.0.1.evil.example:${consoleServer.port}`,
    ]) {
      const answer = await send({ path: pagePath(), headers: { origin: foreign } })
      expect(answer.status, foreign).toBe(403)
      noData(answer)
    }
  })

  it('refuses the page without this run’s token: missing, wrong, or another run’s', async () => {
    const wrong = consoleServer.token.replace(/^./, (char) => (char === 'A' ? 'B' : 'A'))
    for (const query of ['/', '/?token=', `/?token=${wrong}`, `/?token=${otherRun.token}`, `/?token=${consoleServer.token}x`, `/?n=2`]) {
      const answer = await send({ path: query })
      expect(answer.status, query).toBe(403)
      noData(answer)
    }
    expect(otherRun.token).not.toBe(consoleServer.token)
    expect(consoleServer.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('refuses an invitation without Origin, from a foreign Origin, or without the token, and invites nobody', async () => {
    const before = await statuses()
    const page = (await send({ path: pagePath({ n: '1' }) })).body
    const form = inviteForm(page)
    const withToken = (token: string) => form.replace(/token=[^&]*/, `token=${token}`)
    const cases: [string, Answer][] = [
      ['no Origin', await postInvite(form, {})],
      ['foreign Origin', await postInvite(form, { origin: 'http://evil.example' })],
      ['Origin null', await postInvite(form, { origin: 'null' })],
      ['foreign Host', await postInvite(form, { origin: origin(), host: `evil.example:${consoleServer.port}` })],
      ['no token', await postInvite(form.replace(/token=[^&]*&?/, ''))],
      ['wrong token', await postInvite(withToken('x'.repeat(43)))],
      ['another run’s token', await postInvite(withToken(otherRun.token))],
    ]
    for (const [what, answer] of cases) {
      expect(answer.status, what).toBeGreaterThanOrEqual(400)
      expect(answer.headers.location, what).toBeUndefined()
      noData(answer)
    }
    expect(await statuses()).toEqual(before)
  })

  it('listens on 127.0.0.1 only', async () => {
    const attempt = new Promise<string>((resolve) => {
      const socket = connect(consoleServer.port, '127.0.0.2')
      socket.on('connect', () => (socket.destroy(), resolve('connected')))
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    })
    expect(await attempt).toBe('ECONNREFUSED')
  })
})

describe('Invite next N', () => {
  it('previews the next N, invites exactly them, and shows who was invited (Post/Redirect/Get)', async () => {
    // Who the database would invite, asked directly, before the console is used.
    const expected = (
      await local.db.query<{ people: { place: number; name: string; email: string }[] }>('select public.waitlist_invite_next(2, true) as people')
    ).rows[0]!.people
    expect(expected.map((person) => person.email)).toEqual(['cy@console.test', 'ada@console.test'])

    const preview = (await send({ path: pagePath({ n: '2' }) })).body
    expect(tableRows(preview, 'Would be invited')).toEqual(expected.map((person) => [String(person.place), person.name, person.email]))
    expect(await statuses()).toMatchObject({ 'cy@console.test': 'confirmed', 'ada@console.test': 'confirmed' })

    const invited = await postInvite(inviteForm(preview))
    expect(invited.status).toBe(303)
    expect(invited.headers.location).toMatch(new RegExp(`^/\\?token=${consoleServer.token}&run=[A-Za-z0-9_-]+#invite$`))
    expect(await statuses()).toMatchObject({ 'cy@console.test': 'invited', 'ada@console.test': 'invited', 'bob@console.test': 'confirmed' })
    const queued = await local.db.query<{ n: number }>(`select count(*)::int as n from public.waitlist_outbox where kind = 'invitation_email'`)
    // Di and Ed's invitations at the start, and these two.
    expect(queued.rows[0]!.n).toBe(4)

    const result = (await send({ path: invited.headers.location as string })).body
    expect(result).toContain('Invited 2 people.')
    expect(tableRows(result, 'Invited')).toEqual(tableRows(preview, 'Would be invited'))
    expect(tableRows(result, 'Next in line').map(([place, , name]) => [place, name])).toEqual([['1', 'Bob Line']])
    expect(tableRows(result, 'Invited and joined').map(([status, name]) => [status, name])).toEqual(
      expect.arrayContaining([
        ['invited', HOSTILE],
        ['invited', 'Ada Line'],
      ]),
    )
  })

  it('a second press of the same (now stale) page invites nobody and shows who would be invited now', async () => {
    const stale = (await send({ path: pagePath({ n: '1' }) })).body
    const form = inviteForm(stale)
    expect((await postInvite(form)).status).toBe(303)
    expect(await statuses()).toMatchObject({ 'bob@console.test': 'invited' })

    // Someone is next now: the database alone would invite them on the second press.
    await local.db.exec(
      `insert into public.waitlist (name, email, project, status, confirmed_at) values ('Hal Next', 'hal@console.test', '', 'confirmed', now())`,
    )
    const before = await statuses()
    const again = await postInvite(form)
    expect(again.status).toBe(303)
    expect(again.headers.location).toBe(`/?token=${consoleServer.token}&n=1&changed=1#invite`)
    expect(await statuses()).toEqual(before)
    const page = (await send({ path: again.headers.location as string })).body
    expect(page).toContain('Nobody was invited: the next people in line are no longer the ones you previewed')
    expect(tableRows(page, 'Would be invited').map(([, name]) => name)).toEqual(['Hal Next'])
  })

  it('two presses at once invite the previewed people once', async () => {
    await local.db.exec(
      `insert into public.waitlist (name, email, project, status, confirmed_at) values ('Ivy After', 'ivy@console.test', '', 'confirmed', now())`,
    )
    const form = inviteForm((await send({ path: pagePath({ n: '1' }) })).body)
    const answers = await Promise.all([postInvite(form), postInvite(form)])
    expect(answers.map((answer) => /[?&](run|changed)=/.exec(answer.headers.location as string)?.[1]).sort()).toEqual(['changed', 'run'])
    expect(await statuses()).toMatchObject({ 'hal@console.test': 'invited', 'ivy@console.test': 'confirmed' })
  })

  it('refuses a count it cannot take, and an invitation without a preview', async () => {
    const before = await statuses()
    for (const n of ['0', '10001', '100000', 'two', '-1', '1.5']) expect((await send({ path: pagePath({ n }) })).status, n).toBe(400)
    const form = new URLSearchParams({ token: consoleServer.token, n: '1' })
    expect((await postInvite(form.toString())).status).toBe(400)
    form.set('expect', 'x')
    form.set('n', '0')
    expect((await postInvite(form.toString())).status).toBe(400)
    expect((await postInvite(`token=${consoleServer.token}&n=1&expect=x`, { origin: origin(), 'content-type': 'application/json' })).status).toBe(415)
    expect((await postInvite(`token=${consoleServer.token}&n=1&expect=${'x'.repeat(5000)}`)).status).toBe(413)
    expect(await statuses()).toEqual(before)
  })
})

describe('Held referral credits', () => {
  /** The Grant/Refuse form of held credit `id` on `page`, as the browser posts it with the button pressed. */
  function decisionForm(page: string, id: string, decision: 'grant' | 'refuse'): string {
    const forms = [...page.matchAll(/<form method="post" action="\/credit">([\s\S]*?)<\/form>/g)].map(([, form]) => form!)
    const form = forms.find((candidate) => candidate.includes(`name="id" value="${id}"`))
    expect(form, `the decision form of credit ${id}`).toBeDefined()
    expect(form).toContain(`<button type="submit" name="decision" value="${decision}"`)
    return new URLSearchParams([...hiddenFields(form!), ['decision', decision]]).toString()
  }
  const postCredit = (body: string, headers: Record<string, string> = { origin: origin() }) =>
    send({ method: 'POST', path: '/credit', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } })
  const creditsOf = async (email: string) =>
    (await local.db.query<{ referral_credits: number }>('select referral_credits from public.waitlist where email = $1', [email])).rows[0]!.referral_credits

  let id: string
  beforeAll(async () => {
    // Jo's referral link, and two people confirming through it with disposable addresses: both held.
    await local.db.exec(
      `insert into public.waitlist (name, email, project, status, confirmed_at) values ('Jo Referrer', 'jo@console.test', '', 'confirmed', now())`,
    )
    for (const cheat of ['kim@mailinator.com', 'lu@yopmail.com']) {
      await local.db.exec(
        `insert into public.waitlist (name, email, project, ref) select 'Cheat', '${cheat}', '', referral_code from public.waitlist where email = 'jo@console.test'`,
      )
      await local.db.exec(`update public.waitlist set status = 'confirmed' where email = '${cheat}'`)
    }
    id = String((await local.db.query<{ id: number }>(`select min(id)::int as id from private.waitlist_referral_holds`)).rows[0]!.id)
  })

  it('lists each held credit with why, who would gain it and whose confirmation earned it', async () => {
    const page = (await send({ path: pagePath() })).body
    expect(
      tableRows(page, 'Credits awaiting your decision').map((row) => row.slice(0, 6).map((cell, column) => (column === 1 ? cell.replace(/\d/g, '9') : cell))),
    ).toEqual([
      [id, '9999-99-99 99:99', 'disposable e-mail domain', 'Jo Referrer', 'jo@console.test', 'kim@mailinator.com'],
      [String(Number(id) + 1), '9999-99-99 99:99', 'disposable e-mail domain', 'Jo Referrer', 'jo@console.test', 'lu@yopmail.com'],
    ])
    expect(await creditsOf('jo@console.test')).toBe(0)
  })

  it('refuses a decision without Origin, from a foreign Origin, without the token, or that names nothing it knows; decides nothing', async () => {
    const form = decisionForm((await send({ path: pagePath() })).body, id, 'grant')
    const cases: [string, Answer][] = [
      ['no Origin', await postCredit(form, {})],
      ['foreign Origin', await postCredit(form, { origin: 'http://evil.example' })],
      ['no token', await postCredit(form.replace(/token=[^&]*&?/, ''))],
      ['another run’s token', await postCredit(form.replace(/token=[^&]*/, `token=${otherRun.token}`))],
      ['no decision', await postCredit(form.replace(/&?decision=grant/, ''))],
      ['another decision', await postCredit(form.replace('decision=grant', 'decision=approve'))],
      ['a bad id', await postCredit(form.replace(/id=\d+/, 'id=1%3Bdrop'))],
      ['JSON', await postCredit(form, { origin: origin(), 'content-type': 'application/json' })],
    ]
    for (const [what, answer] of cases) {
      expect(answer.status, what).toBeGreaterThanOrEqual(400)
      expect(answer.headers.location, what).toBeUndefined()
    }
    expect((await send({ path: '/credit' })).status).toBe(405)
    expect(await creditsOf('jo@console.test')).toBe(0)
    expect((await local.db.query(`select 1 from private.waitlist_referral_holds where decision is not null`)).rows).toEqual([])
  })

  it('Grant counts the credit and says so (Post/Redirect/Get); a second press changes nothing; Refuse leaves the other uncounted', async () => {
    const page = (await send({ path: pagePath() })).body
    const grant = decisionForm(page, id, 'grant')
    const granted = await postCredit(grant)
    expect(granted.status).toBe(303)
    expect(granted.headers.location).toBe(`/?token=${consoleServer.token}&credit=${id}&outcome=granted#credits`)
    expect(await creditsOf('jo@console.test')).toBe(1)
    const after = (await send({ path: granted.headers.location as string })).body
    expect(after).toContain(`Granted credit ${id}: it now counts, and moves the referrer up like any other.`)
    expect(tableRows(after, 'Credits awaiting your decision').map(([credit]) => credit)).toEqual([String(Number(id) + 1)])

    const again = await postCredit(grant)
    expect(again.headers.location).toBe(`/?token=${consoleServer.token}&credit=${id}&outcome=already-granted#credits`)
    expect((await send({ path: again.headers.location as string })).body).toContain(`Credit ${id} was already granted: nothing changed.`)
    expect(await creditsOf('jo@console.test')).toBe(1)

    const other = String(Number(id) + 1)
    const refused = await postCredit(decisionForm(after, other, 'refuse'))
    expect(refused.headers.location).toBe(`/?token=${consoleServer.token}&credit=${other}&outcome=refused#credits`)
    const last = (await send({ path: refused.headers.location as string })).body
    expect(last).toContain(`Refused credit ${other}: it stays uncounted.`)
    expect(last).toContain('No referral credit is held.')
    expect(await creditsOf('jo@console.test')).toBe(1)
  })
})

describe('npm run waitlist:console', () => {
  it('prints the address with a fresh token, serves it, and stops on SIGTERM', async () => {
    const { NEXT_PUBLIC_SUPABASE_URL: _url, SUPABASE_SERVICE_ROLE_KEY: _key, ...inherited } = process.env
    const child = spawn(process.execPath, [tsxCli, path.join(root, 'tools/owner/console/main.ts'), '--port', '0'], {
      cwd: root,
      env: { ...inherited, NEXT_PUBLIC_SUPABASE_URL: local.url },
    })
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        let out = ''
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk
          const match = /^Founders' console: (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43})$/m.exec(out)
          if (match) resolve(new URL(match[1]!))
        })
        void exited.then((code) => reject(new Error(`exited ${code}: ${out}`)))
      })
      expect(url.searchParams.get('token')).not.toBe(consoleServer.token)
      const answer = await send({ path: `${url.pathname}${url.search}`, port: Number(url.port) })
      expect(answer.status).toBe(200)
      expect(answer.body).toContain('<h1>Waitlist console</h1>')
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
  })

  it('refuses a port that is not one (exit 2)', async () => {
    await expect(
      promisify(execFile)(process.execPath, [tsxCli, path.join(root, 'tools/owner/console/main.ts'), '--port', 'http'], { cwd: root }),
    ).rejects.toMatchObject({ code: 2 })
  })
})

describe('the service-role key', () => {
  it('is in no answer the console gave, page, refusal or redirect', () => {
    expect(answers.length).toBeGreaterThan(40)
    const signature = local.serviceRoleKey.split('.')[2]!
    for (const answer of answers) {
      const whole = JSON.stringify(answer)
      expect(whole).not.toContain(local.serviceRoleKey)
      expect(whole).not.toContain(signature)
    }
  })
})
