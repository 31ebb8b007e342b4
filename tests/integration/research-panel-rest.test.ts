/**
 * The research panel's attacker tests through the public REST interface, as someone with curl and
 * the public key sends them (raw HTTP), against the local PostgREST double: a task answered with a
 * guessed token opens nothing; forged, oversized and control-laden answers are refused (400) and
 * move nobody; a nickname with markup or control characters is refused; the founders' functions
 * (revoke, the board's read, the share image's name, the counts) answer nothing to the public key;
 * and the public key cannot write a place or a name into the table. The same guards on PGlite and
 * real PostgreSQL: tests/integration/research-panel-db.test.ts.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { loopbackAddress, loopbackFetch } from '@/tools/supabase-local/loopback-fetch'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'

let local: LocalSupabase
let clients = Math.floor(Math.random() * 50_000)
let token = ''
let email = ''

const labels = { en: 'Words' }
const TASK = {
  key: 'learning',
  places: 10,
  titles: labels,
  questions: [
    {
      key: 'method',
      kind: 'one',
      labels,
      options: [
        { key: 'interviews', labels },
        { key: 'surveys', labels },
      ],
    },
    { key: 'hardest', kind: 'text', labels, options: [] },
  ],
}

/** curl -X POST $URL/rest/v1/<path> -H "apikey: $ANON" … from a machine of its own. */
function curl(path: string, body: string, method = 'POST') {
  return loopbackFetch(loopbackAddress(++clients))(`${local.url}/rest/v1/${path}`, {
    method,
    headers: { apikey: local.anonKey, Authorization: `Bearer ${local.anonKey}`, 'Content-Type': 'application/json', Prefer: 'return=minimal' },
    ...(method === 'GET' ? {} : { body }),
  })
}
const complete = (answers: string, withToken = token) => curl('rpc/waitlist_complete_task', `{"token":"${withToken}","task":"learning","answers":${answers}}`)
const places = async () => (await local.db.query<{ p: number }>('select reward_places as p from public.waitlist where email = $1', [email])).rows[0]!.p

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
  const service = createClient(local.url, local.serviceRoleKey, { auth: { persistSession: false } })
  expect((await service.rpc('waitlist_replace_tasks', { tasks: [TASK] })).error).toBeNull()
  email = `panel${randomBytes(4).toString('hex')}@rest.example`
  expect((await curl('waitlist', `{"name":"Eve Example","email":"${email}"}`)).status).toBe(201)
  token = randomBytes(32).toString('base64url')
  await local.db.query(
    `insert into private.waitlist_tokens (token_hash, entry_id, expires_at) select $2, id, now() + interval '30 days' from public.waitlist where email = $1`,
    [email, createHash('sha256').update(token).digest('hex')],
  )
  expect(await (await curl('rpc/waitlist_confirm', `{"token":"${token}"}`)).json()).toBe('confirmed')
}, 120_000)

afterAll(async () => {
  await local?.close()
})

it.each([
  ['a forged option', `{"method":"focus-groups","hardest":"finding the right people"}`, 'WLA02'],
  ['a query operator', `{"method":{"$ne":null},"hardest":"finding the right people"}`, 'WLA02'],
  ['an answer missing', `{"method":"surveys"}`, 'WLA01'],
  ['an oversized short answer', JSON.stringify({ method: 'surveys', hardest: 'word '.repeat(20_000) }), 'WLA03'],
  ['a short answer with a direction override', JSON.stringify({ method: 'surveys', hardest: 'three good words\u202e' }), 'WLA04'],
  ['a short answer of two words', `{"method":"surveys","hardest":"ok ok"}`, 'WLA05'],
  ['answers that are not an object', `"surveys"`, 'WLA02'],
])('a task answered with %s is refused (400) and moves nobody', async (_, answers, code) => {
  const response = await complete(answers)
  expect(response.status).toBe(400)
  expect(((await response.json()) as { code: string }).code).toBe(code)
  expect(await places()).toBe(0)
})

it('a guessed token opens nothing; the holder’s answer counts once', async () => {
  expect(await (await complete(`{"method":"surveys","hardest":"finding the right people"}`, randomBytes(32).toString('base64url'))).json()).toBeNull()
  expect(await places()).toBe(0)
  expect(await (await complete(`{"method":"surveys","hardest":"finding the right people"}`)).json()).toMatchObject({ status: 'completed', places: 10 })
  expect(await (await complete(`{"method":"interviews","hardest":"another try at it"}`)).json()).toEqual({ status: 'done' })
  expect(await places()).toBe(10)
})

it.each([
  ['markup', '<img src=x onerror=alert(1)>'],
  ['a control character', 'Eve\u0000'],
  ['a bell', 'Eve\u0007the great'],
  ['an address', 'eve@example.com'],
])('a nickname with %s is refused (400)', async (_, nickname) => {
  const response = await curl('rpc/waitlist_leaderboard_me', JSON.stringify({ token, choice: 'join', nickname }))
  expect(response.status).toBe(400)
  expect((await local.db.query('select board_name from public.waitlist where email = $1', [email])).rows).toEqual([{ board_name: null }])
})

it('the founders’ functions and the table’s places and names are out of the public key’s reach', async () => {
  await curl('rpc/waitlist_leaderboard_me', JSON.stringify({ token, choice: 'join', nickname: null }))
  const id = (await local.db.query<{ id: string }>('select id from public.waitlist where email = $1', [email])).rows[0]!.id
  for (const [path, body] of [
    ['rpc/waitlist_leaderboard', '{"max_rows":20}'],
    ['rpc/waitlist_leaderboard_entries', '{}'],
    ['rpc/waitlist_share_name', '{"code":"x"}'],
    ['rpc/waitlist_revoke_task', `{"entry":"${id}","task":"learning"}`],
    ['rpc/waitlist_task_counts', '{}'],
    ['rpc/waitlist_task_recent', '{}'],
    ['rpc/waitlist_replace_tasks', '{"tasks":[]}'],
    ['rpc/waitlist_leaderboard_hide', `{"entry":"${id}","hide":false}`],
  ]) {
    const response = await curl(path!, body!)
    expect([401, 403, 404], `${path}: ${response.status}`).toContain(response.status)
  }
  const scraped = await curl('waitlist?select=email,board_name', '', 'GET')
  expect(scraped.status).toBe(401)
  // The insert grant names its columns: a place or a name cannot ride in with a sign-up.
  const forged = await curl('waitlist', `{"name":"Mallory","email":"mallory@rest.example","reward_places":100000,"board_name":"Top","board_at":"2026-01-01"}`)
  expect(forged.status).toBe(401)
  expect(await places()).toBe(10)
})
