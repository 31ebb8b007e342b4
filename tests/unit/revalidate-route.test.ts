/**
 * The publish webhook's route with a post to e-mail (app/api/revalidate/route.ts): the cache is
 * revalidated whatever happens to the e-mail, and a broadcast that could not be recorded answers
 * 500, so Sanity (or `npm run content:publish`) delivers it again; the retry is then answered 200.
 * The content read and the database call are replaced here; their own tests are
 * tests/unit/waitlist-updates.test.ts and tests/integration/waitlist-updates.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BroadcastDeps } from '@/components/waitlist/updates'
import { sendWebhook, WEBHOOK_TEST_SECRET } from '../helpers/revalidate-webhook'

const revalidateTag = vi.hoisted(() => vi.fn())
const deps = vi.hoisted(() => ({ current: null as unknown as BroadcastDeps }))
vi.mock('next/cache', () => ({ revalidateTag }))
vi.mock('@/components/waitlist/updates-configured', () => ({ configuredBroadcast: () => deps.current }))

const { POST } = await import('@/app/api/revalidate/route')

const post = {
  _id: 'post-launch',
  language: 'en',
  title: 'We launched',
  slug: 'we-launched',
  excerpt: 'Open to all.',
  emailToSubscribers: true,
  isSample: false,
}

const webhook = (change: { _type: string; _id: string }) => sendWebhook(POST, change)

describe('the publish webhook, for a post to e-mail', () => {
  beforeAll(() => vi.stubEnv('SANITY_REVALIDATE_SECRET', WEBHOOK_TEST_SECRET))
  afterAll(() => vi.unstubAllEnvs())
  beforeEach(() => revalidateTag.mockClear())

  it('revalidates, then answers 500 when the broadcast could not be recorded; the retry records it once', async () => {
    const broadcast = vi
      .fn<NonNullable<BroadcastDeps['broadcast']>>()
      .mockRejectedValueOnce(new Error('HTTP 503'))
      .mockResolvedValueOnce({ broadcast: true, recipients: 2 })
    deps.current = { readPost: async () => post, broadcast }
    const failed = await webhook({ _type: 'post', _id: 'post-launch' })
    expect(failed.status).toBe(500)
    expect(failed.body).toMatchObject({ revalidated: true, broadcast: { kind: 'failed' } })
    expect(revalidateTag).toHaveBeenCalledWith('post', { expire: 0 })
    const retried = await webhook({ _type: 'post', _id: 'post-launch' })
    expect(retried).toMatchObject({ status: 200, body: { revalidated: true, broadcast: { kind: 'sent', recipients: 2 } } })
    expect(broadcast).toHaveBeenCalledTimes(2)
  })

  it('answers 200 and sends nothing for a post that is not to be e-mailed, or any other document', async () => {
    const broadcast = vi.fn<NonNullable<BroadcastDeps['broadcast']>>()
    deps.current = { readPost: async () => null, broadcast }
    expect(await webhook({ _type: 'post', _id: 'post-gone' })).toMatchObject({ status: 200, body: { broadcast: { kind: 'not_sent' } } })
    expect(await webhook({ _type: 'page', _id: 'page-about' })).toMatchObject({ status: 200, body: { broadcast: { kind: 'not_a_post' } } })
    expect(broadcast).not.toHaveBeenCalled()
  })

  it('answers 200 for a post titled with spaces, every time: Sanity would otherwise retry for ever a webhook that can never succeed', async () => {
    const broadcast = vi.fn<NonNullable<BroadcastDeps['broadcast']>>()
    deps.current = { readPost: async () => ({ ...post, title: '   ' }), broadcast }
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await webhook({ _type: 'post', _id: 'post-launch' })).toMatchObject({ status: 200, body: { revalidated: true, broadcast: { kind: 'refused' } } })
    }
    expect(broadcast).not.toHaveBeenCalled()
    expect(error).toHaveBeenCalledWith(expect.stringContaining('fix the post in the Studio'))
    error.mockRestore()
  })
})
