/**
 * The questions' attacker test through the public REST interface, as someone with curl and the
 * public key would send it (raw HTTP, not the site's client), against the local PostgREST double:
 * forged keys are dropped, forged options, oversized and control-laden answers are refused with a
 * clear error (400) and store nothing at all; the public key can neither read nor replace the
 * questions. Then the site's own client path: joinWaitlist sends the form's answers, and a refusal
 * by the database reads as "the questions changed" (the form's message for a stale page). The same
 * guards on PGlite and real PostgreSQL: tests/integration/questions-db.test.ts.
 */
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { joinWaitlist } from '@/components/waitlist/join'
import { loopbackAddress, loopbackFetch } from '@/tools/supabase-local/loopback-fetch'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'
import type { PublishedQuestion } from '@/sanity/questions/rules'

let local: LocalSupabase
let clients = Math.floor(Math.random() * 50_000)
let people = 0

const QUESTIONS: PublishedQuestion[] = [
  {
    key: 'role',
    kind: 'one',
    required: true,
    labels: { en: 'What is your role?' },
    options: [
      { key: 'product-manager', labels: { en: 'Product manager' } },
      { key: 'founder', labels: { en: 'Founder' } },
    ],
  },
  { key: 'goal', kind: 'text', required: false, labels: { en: 'What would you ask?' }, options: [] },
]

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
  const service = createClient(local.url, local.serviceRoleKey, { auth: { persistSession: false } })
  const { data, error } = await service.rpc('waitlist_replace_questions', { questions: QUESTIONS })
  expect(error).toBeNull()
  expect(data).toBe(2)
}, 120_000)

afterAll(async () => {
  await local?.close()
})

/** curl -X POST $URL/rest/v1/<path> -H "apikey: $ANON" … from a machine of its own. */
function curl(path: string, body: string) {
  return loopbackFetch(loopbackAddress(++clients))(`${local.url}/rest/v1/${path}`, {
    method: 'POST',
    headers: { apikey: local.anonKey, Authorization: `Bearer ${local.anonKey}`, 'Content-Type': 'application/json', Prefer: 'return=minimal' },
    body,
  })
}

const rowsFor = async (email: string) =>
  (await local.db.query<{ answers: unknown }>('select answers from public.waitlist where email_key = lower($1)', [email])).rows

it.each([
  ['a forged key beside a good answer', `{"role":"founder","is-admin":"yes","ROLE":"x"}`, { role: ['founder'] }],
  ['a short answer in Japanese', `{"role":"founder","goal":"ユーザーに何を聞く？"}`, { role: ['founder'], goal: 'ユーザーに何を聞く？' }],
])('a sign-up with %s is stored (201) with only the published questions’ answers', async (_, answers, expected) => {
  const email = `person${++people}@rest.example`
  const response = await curl('waitlist', `{"name":"Eve","email":"${email}","answers":${answers}}`)
  expect(response.status, await response.text()).toBe(201)
  const [row] = await rowsFor(email)
  const kept = Object.fromEntries(
    Object.entries(row!.answers as Record<string, { options?: string[]; text?: string }>).map(([key, value]) => [key, value.options ?? value.text]),
  )
  expect(kept).toEqual(expected)
})

it.each([
  ['no answer to a required question', `{}`, 'WLA01', 'an answer to "role" is required'],
  ['a forged option', `{"role":"ceo"}`, 'WLA02', 'an answer to "role" is not one of its options'],
  ['an option’s label instead of its key', `{"role":"Founder"}`, 'WLA02', 'an answer to "role" is not one of its options'],
  ['a query operator', `{"role":{"$ne":null}}`, 'WLA02', 'the answer to "role" must be one of its options'],
  ['two options for one choice', `{"role":["founder","product-manager"]}`, 'WLA02', 'the answer to "role" must be one of its options'],
  ['an oversized short answer', JSON.stringify({ role: 'founder', goal: 'x'.repeat(100_000) }), 'WLA03', 'the answer to "goal" is over 200 characters'],
  [
    'a short answer that forges a line',
    JSON.stringify({ role: 'founder', goal: 'ok\r\nBcc: all@example.com' }),
    'WLA04',
    'the answer to "goal" contains control or text-direction characters',
  ],
  ['an array of answers', `[["role","founder"]]`, 'WLA02', 'answers must be an object of question keys and answers'],
])('a sign-up with %s is refused (400) with a clear error, and nothing is stored', async (_, answers, code, message) => {
  const email = `person${++people}@rest.example`
  const response = await curl('waitlist', `{"name":"Eve","email":"${email}","answers":${answers}}`)
  expect(response.status).toBe(400)
  expect(await response.json()).toMatchObject({ code, message })
  expect(await rowsFor(email)).toEqual([])
})

it('the public key can neither read nor replace the questions', async () => {
  const replace = await curl('rpc/waitlist_replace_questions', JSON.stringify({ questions: [] }))
  expect(replace.status).toBe(401)
  const read = await curl('rpc/waitlist_questions', '{}')
  expect(read.status).toBe(401)
  const { rows } = await local.db.query<{ key: string }>('select key from private.waitlist_questions order by position')
  expect(rows.map((row) => row.key)).toEqual(['role', 'goal'])
})

it('the site’s client sends the form’s answers, and reads a refusal as "the questions changed"', async () => {
  const client = createClient(local.url, local.anonKey, { auth: { persistSession: false }, global: { fetch: loopbackFetch(loopbackAddress(++clients)) } })
  const email = `person${++people}@rest.example`
  expect(await joinWaitlist(client, { name: 'Ada', email }, {}, { answers: { role: 'product-manager', goal: 'Churn' } })).toEqual({ status: 'saved' })
  expect(await rowsFor(email)).toEqual([
    {
      answers: {
        role: { question: 'What is your role?', kind: 'one', options: ['product-manager'], labels: ['Product manager'] },
        goal: { question: 'What would you ask?', kind: 'text', text: 'Churn' },
      },
    },
  ])
  // A page drawn before "role" was published sends no answer to it.
  const stale = `person${++people}@rest.example`
  expect(await joinWaitlist(client, { name: 'Bea', email: stale })).toEqual({ status: 'questions_changed', message: 'an answer to "role" is required' })
  expect(await rowsFor(stale)).toEqual([])
})
