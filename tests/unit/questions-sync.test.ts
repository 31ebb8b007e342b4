/**
 * The copy of the questions at sign-up into the database (components/waitlist/questions-sync.ts) and
 * its call on every publish webhook (app/api/revalidate/route.ts) and scheduled outbox run: the
 * query reads the published document only, the set is replaced with what Sanity says, and a failed
 * read or store keeps the last set (never an empty one) and answers the questions' own publish
 * with 500, for Sanity's retry. The database side: tests/integration/questions-db.test.ts.
 */
import type { NextRequest } from 'next/server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { evaluateQuery } from '@/sanity/seed/dataset'
import { publishedQuestionsQuery } from '@/sanity/queries'
import { syncPublishedQuestions } from '@/components/waitlist/questions-sync'
import type { PublishedQuestion } from '@/sanity/questions/rules'
import { sendWebhook, WEBHOOK_TEST_SECRET } from '../helpers/revalidate-webhook'

const revalidateTag = vi.hoisted(() => vi.fn())
const fake = vi.hoisted(() => ({
  questions: null as unknown as () => Promise<unknown>,
  rpc: null as unknown as (fn: string, args: unknown) => Promise<{ data: unknown; error: { message: string; code?: string } | null; status: number }>,
}))
vi.mock('next/cache', () => ({ revalidateTag }))
vi.mock('@/components/waitlist/updates-configured', () => ({ configuredBroadcast: () => ({ readPost: async () => null, broadcast: null }) }))
// The experiments' read answers none; the questions' read answers what the test says.
vi.mock('@/sanity/content/published', async () => {
  const { publishedQuestionsQuery: questionsQuery } = await import('@/sanity/queries')
  return { readPublished: (query: string) => (query === questionsQuery ? fake.questions() : Promise.resolve([])) }
})
vi.mock('@/lib/supabase/configured', () => ({ configuredServiceClient: () => ({ rpc: (fn: string, args: unknown) => fake.rpc(fn, args) }) }))
vi.mock('@/components/waitlist/outbox/configured', () => ({ configuredDispatch: () => ({ ok: false, missing: ['SMTP_URL'] }) }))

const { POST } = await import('@/app/api/revalidate/route')
const dispatch = await import('@/app/api/outbox/dispatch/route')

const ROLE = {
  key: 'role',
  kind: 'one',
  required: true,
  label: [{ language: 'en', text: 'Your role?' }],
  options: [
    { key: 'pm', label: [{ language: 'en', text: 'Product manager' }] },
    { key: 'founder', label: [{ language: 'en', text: 'Founder' }] },
  ],
}
const STORED: PublishedQuestion = {
  key: 'role',
  kind: 'one',
  required: true,
  labels: { en: 'Your role?' },
  options: [
    { key: 'pm', labels: { en: 'Product manager' } },
    { key: 'founder', labels: { en: 'Founder' } },
  ],
}

describe('the published questions query', () => {
  it('reads the published document’s questions, never its draft, and answers a list when there is none', async () => {
    const question = { _key: 'q1', _type: 'waitlistQuestion', ...ROLE, label: ROLE.label.map((text, i) => ({ _key: `l${i}`, ...text })) }
    expect(await evaluateQuery([], publishedQuestionsQuery)).toEqual([])
    const documents = [
      { _id: 'waitlistQuestions', _type: 'waitlistQuestions', questions: [question] },
      { _id: 'drafts.waitlistQuestions', _type: 'waitlistQuestions', questions: [{ ...question, key: 'draft-only' }] },
    ]
    const answer = (await evaluateQuery(documents, publishedQuestionsQuery)) as { key: string }[]
    expect(answer.map((item) => item.key)).toEqual(['role'])
    expect(answer[0]).toEqual({ key: 'role', kind: 'one', required: true, label: ROLE.label, options: ROLE.options })
  })
})

describe('syncPublishedQuestions', () => {
  it('replaces the set with what Sanity says, leaving out and naming what breaks the rules', async () => {
    const replaced: PublishedQuestion[][] = []
    const replace = async (questions: PublishedQuestion[]) => (replaced.push(questions), questions.length)
    expect(await syncPublishedQuestions({ read: async () => [ROLE, { ...ROLE, key: 'Bad' }], replace })).toEqual({
      kind: 'synced',
      questions: 1,
      skipped: [expect.stringContaining('question "Bad"')],
    })
    expect(replaced).toEqual([[STORED]])
  })

  it('keeps the last set, never wiping it, when Sanity cannot be read, answers something else, or the store fails', async () => {
    const replace = vi.fn(async () => 0)
    expect(await syncPublishedQuestions({ read: () => Promise.reject(new Error('ENOTFOUND')), replace })).toEqual({
      kind: 'kept',
      reason: "could not read the waitlist page's questions: ENOTFOUND",
    })
    for (const answer of [null, undefined, { questions: [] }, 'error']) {
      expect(await syncPublishedQuestions({ read: async () => answer, replace })).toMatchObject({ kind: 'kept' })
    }
    expect(replace).not.toHaveBeenCalled()
    expect(await syncPublishedQuestions({ read: async () => [], replace: () => Promise.reject(new Error('HTTP 503')) })).toEqual({
      kind: 'kept',
      reason: "could not store the waitlist page's questions: HTTP 503",
    })
  })
})

describe('on every publish webhook', () => {
  beforeAll(() => vi.stubEnv('SANITY_REVALIDATE_SECRET', WEBHOOK_TEST_SECRET))
  afterAll(() => vi.unstubAllEnvs())
  const webhook = (change: { _type: string; _id: string }) => sendWebhook(POST, change)

  it('copies the questions through the service-role function before the pages change', async () => {
    const calls: [string, unknown][] = []
    fake.questions = async () => [ROLE]
    fake.rpc = async (fn, args) => (calls.push([fn, args]), { data: 1, error: null, status: 200 })
    revalidateTag.mockClear()
    expect(await webhook({ _type: 'waitlistQuestions', _id: 'waitlistQuestions' })).toMatchObject({
      status: 200,
      body: { questions: { kind: 'synced', questions: 1 } },
    })
    expect(calls).toContainEqual(['waitlist_replace_questions', { questions: [STORED] }])
    // The waitlist page in every language reads the questions: its tag is the document type's.
    expect(revalidateTag).toHaveBeenCalledWith('waitlistQuestions', { expire: 0 })
  })

  it('a failed copy answers 500 for the questions’ own publish (Sanity retries), and never wipes the set', async () => {
    const rpc = vi.fn(async () => ({ data: null, error: { message: 'permission denied', code: '42501' }, status: 403 }))
    fake.questions = async () => [ROLE]
    fake.rpc = rpc
    expect(await webhook({ _type: 'waitlistQuestions', _id: 'waitlistQuestions' })).toMatchObject({
      status: 500,
      body: { questions: { kind: 'kept', reason: expect.stringContaining('HTTP 403 42501') } },
    })
    fake.questions = () => Promise.reject(new Error('fetch failed'))
    expect(await webhook({ _type: 'waitlistQuestions', _id: 'waitlistQuestions' })).toMatchObject({ status: 500 })
    expect(await webhook({ _type: 'post', _id: 'post-1' })).toMatchObject({ status: 200, body: { questions: { kind: 'kept' } } })
  })

  it('the scheduler’s outbox run copies them too, as a safety net', async () => {
    const secret = 'a-test-only-outbox-dispatch-secret-0123'
    vi.stubEnv('OUTBOX_DISPATCH_SECRET', secret)
    const rpc = vi.fn(async () => ({ data: 1, error: null, status: 200 }))
    fake.questions = async () => [ROLE]
    fake.rpc = rpc
    const call = (method: 'GET' | 'POST') =>
      dispatch[method](new Request('http://localhost/api/outbox/dispatch', { method, headers: { authorization: `Bearer ${secret}` } }) as NextRequest)
    await call('POST')
    expect(rpc).not.toHaveBeenCalledWith('waitlist_replace_questions', expect.anything())
    await call('GET')
    expect(rpc).toHaveBeenCalledWith('waitlist_replace_questions', { questions: [STORED] })
  })
})
