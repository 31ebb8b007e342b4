/**
 * The fault suite's Sanity row, the webhook's side (the visitor's side is
 * e2e/faults-sanity.sanity.spec.ts): Sanity's API fails while a post marked "E-mail it to
 * subscribers" is published. The pages are revalidated all the same; the webhook answers 500, so
 * Sanity delivers it again, and the delivery after the outage e-mails the post, once: nothing is
 * lost and nothing is sent twice, however many deliveries the outage costs.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
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

describe('Sanity failing while a post to e-mail is published', () => {
  beforeAll(() => vi.stubEnv('SANITY_REVALIDATE_SECRET', WEBHOOK_TEST_SECRET))
  afterAll(() => vi.unstubAllEnvs())

  it('answers 500 for every delivery during the outage, then e-mails the post once, on the first delivery after it', async () => {
    let sanityUp = false
    // The database records a post's broadcast once (09_updates.sql): a second call answers already sent.
    const recorded = new Set<string>()
    const broadcast = vi.fn<NonNullable<BroadcastDeps['broadcast']>>(async (change) => {
      const first = !recorded.has(change.postId)
      recorded.add(change.postId)
      return first ? { broadcast: true, recipients: 3 } : { broadcast: false, recipients: 0 }
    })
    deps.current = {
      readPost: async () => {
        if (!sanityUp) throw new Error('Service unavailable (503)')
        return post
      },
      broadcast,
    }
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      for (let delivery = 0; delivery < 3; delivery++) {
        const answer = await sendWebhook(POST, { _type: 'post', _id: 'post-launch' })
        expect(answer).toMatchObject({ status: 500, body: { revalidated: true, broadcast: { kind: 'failed' } } })
      }
      expect(revalidateTag).toHaveBeenCalledWith('post', { expire: 0 })
      expect(broadcast).not.toHaveBeenCalled()
      sanityUp = true
      expect(await sendWebhook(POST, { _type: 'post', _id: 'post-launch' })).toMatchObject({
        status: 200,
        body: { broadcast: { kind: 'sent', recipients: 3 } },
      })
      // Sanity may deliver once more (its answer lost on the way back): nothing is sent again.
      expect(await sendWebhook(POST, { _type: 'post', _id: 'post-launch' })).toMatchObject({ status: 200, body: { broadcast: { kind: 'already_sent' } } })
      expect(recorded.size).toBe(1)
    } finally {
      error.mockRestore()
    }
  })
})
