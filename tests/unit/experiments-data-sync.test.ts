/**
 * The sync of running experiments into the database (components/variants/sync.ts) and its call
 * on every publish webhook (app/api/revalidate/route.ts): the query picks published running
 * experiments only, the set is replaced with what Sanity says, and a failed read or store keeps
 * the last set (never an empty one). The database side: tests/integration/experiments-data-db.test.ts.
 */
import type { NextRequest } from 'next/server'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { evaluateQuery, type SeedDocument } from '@/sanity/seed/dataset'
import { runningExperimentsQuery } from '@/sanity/queries'
import { recordableExperiments, syncRunningExperiments, type RunningExperiment } from '@/components/variants/sync'
import { sendWebhook, WEBHOOK_TEST_SECRET } from '../helpers/revalidate-webhook'

const revalidateTag = vi.hoisted(() => vi.fn())
const fake = vi.hoisted(() => ({
  read: null as unknown as () => Promise<unknown>,
  rpc: null as unknown as (fn: string, args: unknown) => Promise<{ data: unknown; error: { message: string; code?: string } | null; status: number }>,
}))
vi.mock('next/cache', () => ({ revalidateTag }))
vi.mock('@/components/waitlist/updates-configured', () => ({ configuredBroadcast: () => ({ readPost: async () => null, broadcast: null }) }))
vi.mock('@/sanity/content/published', () => ({ readPublished: () => fake.read() }))
vi.mock('@/lib/supabase/configured', () => ({ configuredServiceClient: () => ({ rpc: (fn: string, args: unknown) => fake.rpc(fn, args) }) }))
vi.mock('@/components/waitlist/outbox/configured', () => ({
  configuredDispatch: () => ({ ok: false, missing: ['SMTP_URL'] }),
}))

const { POST } = await import('@/app/api/revalidate/route')
const dispatch = await import('@/app/api/outbox/dispatch/route')

const experiment = (id: string, fields: Record<string, unknown>): SeedDocument => ({
  _id: id,
  _type: 'experiment',
  title: id,
  goal: 'waitlist_join',
  ...fields,
})
const variant = (key: string) => ({ _key: `v-${key}`, key, share: 10, sections: [] })
/** Variants as the running experiments query answers them: objects with their key. */
const keyed = (...keys: (string | null)[]) => keys.map((key) => ({ key }))

describe('the running experiments query', () => {
  it('answers the published running experiments, one per document whatever its languages, and no draft, stopped or draft-state one', async () => {
    const documents = [
      experiment('exp-hero', { key: { current: 'hero-words' }, state: 'running', variants: [variant('b'), variant('c')] }),
      experiment('drafts.exp-hero', { key: { current: 'hero-words' }, state: 'running', variants: [variant('z')] }),
      experiment('drafts.exp-new', { key: { current: 'not-yet' }, state: 'running', variants: [variant('b')] }),
      experiment('exp-old', { key: { current: 'old-test' }, state: 'stopped', variants: [variant('b')] }),
      experiment('exp-plan', { key: { current: 'planned' }, state: 'draft', variants: [variant('b')] }),
      experiment('exp-bare', { key: { current: 'no-variants' }, state: 'running' }),
      { _id: 'landing', _type: 'landingPage', state: 'running', key: { current: 'nope' } },
    ]
    const answer = (await evaluateQuery(documents, runningExperimentsQuery)) as { key: string; variants: { key: string }[] | null }[]
    expect(answer.map(({ key, variants }) => ({ key, variants: variants?.map((item) => item.key) ?? null }))).toEqual([
      { key: 'hero-words', variants: ['b', 'c'] },
      { key: 'no-variants', variants: null },
    ])
  })
})

describe('syncRunningExperiments', () => {
  const replaced: RunningExperiment[][] = []
  const replace = async (running: RunningExperiment[]) => {
    replaced.push(running)
    return running.reduce((pairs, item) => pairs + 1 + item.variants.length, 0)
  }
  beforeEach(() => {
    replaced.length = 0
  })

  it('replaces the set with what Sanity says, leaving out and naming what the database could not take', async () => {
    const answer = [
      { key: 'hero-words', variants: keyed('b', 'c', 'b', 'control', 'Bad', null) },
      { key: 'no-variants', variants: null },
      { key: 'Bad_Key', variants: keyed('b') },
      { key: 'hero-words', variants: keyed('d') },
      null,
    ]
    expect(await syncRunningExperiments({ read: async () => answer, replace })).toEqual({
      kind: 'synced',
      experiments: 2,
      pairs: 4,
      skipped: [
        'variant "b" of hero-words',
        'variant "control" of hero-words',
        'variant "Bad" of hero-words',
        'variant null of hero-words',
        'experiment "Bad_Key"',
        'experiment "hero-words"',
        'experiment null',
      ],
    })
    expect(replaced).toEqual([
      [
        { key: 'hero-words', variants: ['b', 'c'] },
        { key: 'no-variants', variants: [] },
      ],
    ])
  })

  it('an empty answer (every experiment stopped) empties the set', async () => {
    expect(await syncRunningExperiments({ read: async () => [], replace })).toMatchObject({ kind: 'synced', experiments: 0, pairs: 0 })
    expect(replaced).toEqual([[]])
  })

  it('keeps the last set, never wiping it, when Sanity cannot be read or answers something else', async () => {
    expect(await syncRunningExperiments({ read: async () => Promise.reject(new Error('getaddrinfo ENOTFOUND api.sanity.io')), replace })).toEqual({
      kind: 'kept',
      reason: 'could not read the running experiments: getaddrinfo ENOTFOUND api.sanity.io',
    })
    for (const answer of [null, undefined, { key: 'hero-words' }, 'error']) {
      expect(await syncRunningExperiments({ read: async () => answer, replace })).toMatchObject({ kind: 'kept' })
    }
    expect(replaced).toEqual([])
  })

  it('reports a store that failed', async () => {
    expect(await syncRunningExperiments({ read: async () => [], replace: () => Promise.reject(new Error('HTTP 503')) })).toEqual({
      kind: 'kept',
      reason: 'could not store the running experiments: HTTP 503',
    })
  })

  it('takes only the keys the cookie format allows', () => {
    expect(
      recordableExperiments([
        { key: 'a', variants: [] },
        { key: 'x'.repeat(41), variants: [] },
        { key: 'ok-key', variants: keyed('v'.repeat(21), 'fine') },
      ]).running,
    ).toEqual([{ key: 'ok-key', variants: ['fine'] }])
  })
})

describe('the publish webhook syncs the running experiments', () => {
  beforeAll(() => vi.stubEnv('SANITY_REVALIDATE_SECRET', WEBHOOK_TEST_SECRET))
  afterAll(() => vi.unstubAllEnvs())
  const webhook = (change: { _type: string; _id: string }) => sendWebhook(POST, change)

  it('on any publish, through the service-role function', async () => {
    const calls: unknown[] = []
    fake.read = async () => [{ key: 'hero-words', variants: keyed('b') }]
    fake.rpc = async (fn, args) => {
      calls.push([fn, args])
      return { data: 2, error: null, status: 200 }
    }
    expect(await webhook({ _type: 'experiment', _id: 'exp-hero' })).toMatchObject({
      status: 200,
      body: { experiments: { kind: 'synced', experiments: 1, pairs: 2 } },
    })
    expect(await webhook({ _type: 'landingPage', _id: 'landing' })).toMatchObject({ status: 200 })
    // The questions at sign-up are synced beside them (tests/unit/questions-sync.test.ts).
    expect(calls.filter((call) => (call as [string])[0] === 'waitlist_replace_experiments')).toEqual([
      ['waitlist_replace_experiments', { running: [{ key: 'hero-words', variants: ['b'] }] }],
      ['waitlist_replace_experiments', { running: [{ key: 'hero-words', variants: ['b'] }] }],
    ])
  })

  it('Sanity unreachable: nothing replaced, the pages still revalidated, and an experiment’s publish answers 500 so Sanity retries', async () => {
    const rpc = vi.fn()
    fake.read = () => Promise.reject(new Error('fetch failed'))
    fake.rpc = rpc
    revalidateTag.mockClear()
    const failed = await webhook({ _type: 'experiment', _id: 'exp-hero' })
    expect(failed).toMatchObject({ status: 500, body: { revalidated: true, experiments: { kind: 'kept' } } })
    expect(revalidateTag).toHaveBeenCalled()
    expect(await webhook({ _type: 'page', _id: 'page-about' })).toMatchObject({ status: 200, body: { experiments: { kind: 'kept' } } })
    expect(rpc).not.toHaveBeenCalled()
  })

  it('a database that refuses the set answers 500 for an experiment’s publish', async () => {
    fake.read = async () => [{ key: 'hero-words', variants: keyed('b') }]
    fake.rpc = async () => ({ data: null, error: { message: 'permission denied', code: '42501' }, status: 403 })
    expect(await webhook({ _type: 'experiment', _id: 'exp-hero' })).toMatchObject({
      status: 500,
      body: { experiments: { kind: 'kept', reason: expect.stringContaining('HTTP 403 42501') } },
    })
  })
})

describe('the scheduled outbox run syncs them too, as a safety net', () => {
  const OUTBOX_SECRET = 'a-test-only-outbox-dispatch-secret-0123'
  beforeAll(() => vi.stubEnv('OUTBOX_DISPATCH_SECRET', OUTBOX_SECRET))
  afterAll(() => vi.unstubAllEnvs())
  const call = (method: 'GET' | 'POST', secret = OUTBOX_SECRET) =>
    dispatch[method](new Request('http://localhost/api/outbox/dispatch', { method, headers: { authorization: `Bearer ${secret}` } }) as NextRequest)

  it('on the scheduler’s GET, not on the per-message POST, and never for a caller without the secret', async () => {
    const rpc = vi.fn(async () => ({ data: 2, error: null, status: 200 }))
    fake.read = async () => [{ key: 'hero-words', variants: keyed('b') }]
    fake.rpc = rpc
    expect((await call('POST')).status).toBe(503)
    expect(rpc).not.toHaveBeenCalled()
    expect((await call('GET', 'wrong-secret-wrong-secret-wrong')).status).toBe(401)
    expect(rpc).not.toHaveBeenCalled()
    expect((await call('GET')).status).toBe(503)
    expect(rpc).toHaveBeenCalledWith('waitlist_replace_experiments', { running: [{ key: 'hero-words', variants: ['b'] }] })
  })
})
