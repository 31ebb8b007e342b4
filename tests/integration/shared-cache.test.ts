import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LocalRedis } from '@/tools/local/redis'
import { startTestRedis } from '../helpers/real-redis'
import { fetched, nextLikeConsumer, withTags } from '../helpers/next-cache-consumer'
import { seedCopy } from '../helpers/seed-copy'

// Several instances share one Redis (lib/cache): Next's cache handler and the proxy's published
// addresses, against a real redis-server.

let redis: LocalRedis
beforeAll(async () => {
  redis = await startTestRedis()
  vi.stubEnv('REDIS_URL', redis.url)
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await redis?.stop()
})

describe("Next's cache on a shared Redis", () => {
  it('shares entries, and a tag revalidated through one instance is a miss for the other', async () => {
    const [first, second] = [await nextLikeConsumer(), await nextLikeConsumer()]
    await first.set('landing', fetched('Hear every user'), withTags(['landingPage']))
    await first.set('about', fetched('About us'), withTags(['aboutPage']))
    expect((await second.get('landing'))?.value.data?.body).toBe('Hear every user')

    await first.revalidateTag(['landingPage'])
    expect(await second.get('landing')).toBeNull()
    expect((await second.get('about'))?.value.data?.body).toBe('About us')
  })

  it('when Redis stops, reads fall back to memory without throwing, and the outage is logged once', async () => {
    const consumer = await nextLikeConsumer()
    await consumer.set('pricing', fetched('Pricing'), withTags(['landingPage']))
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    await redis.stop()
    try {
      await vi.waitFor(() => expect(errors).toHaveBeenCalled())
      for (let i = 0; i < 20; i++) expect((await consumer.get('pricing'))?.value.data?.body).toBe('Pricing')
      expect(await consumer.get('never-set')).toBeNull()
      await consumer.set('later', fetched('Later'), withTags([]))
      expect((await consumer.get('later'))?.value.data?.body).toBe('Later')
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      const outage = errors.mock.calls.filter(([message]) => String(message).includes('is unreachable'))
      expect(outage).toHaveLength(1)
      expect(String(outage[0]![0])).toMatch(/Redis at 127\.0\.0\.1:\d+ is unreachable .*served from this server's memory/)
    } finally {
      errors.mockRestore()
      redis = await startTestRedis()
      vi.stubEnv('REDIS_URL', redis.url)
    }
  })
})

describe('the published addresses, in a process that never receives the webhook', () => {
  it('serve a page published elsewhere within 2 s', async () => {
    const { seedPath, seed } = await seedCopy('addresses-apart')
    vi.stubEnv('CONTENT_SEED_PATH', seedPath)
    const slug = `launch-${Date.now()}`
    const apart = spawn('tsx', ['tests/helpers/addresses-apart.ts', `/${slug}`], {
      env: { ...process.env, CONTENT_SEED_PATH: seedPath, REDIS_URL: redis.url, CONTENT_REVALIDATE_SECONDS: '3600' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const lines = createInterface({ input: apart.stdout! })[Symbol.asyncIterator]()
    try {
      expect(JSON.parse((await lines.next()).value as string)).toEqual({ ready: true })
      // Past its first look at Redis: what it learns now, it learns from the publish.
      await new Promise((resolve) => setTimeout(resolve, 1_200))
      const careers = seed.split('\n').find((line) => line.includes('"_id":"page-careers"'))!
      await writeFile(
        seedPath,
        `${seed.trimEnd()}\n${JSON.stringify({ ...JSON.parse(careers), _id: `page-${slug}`, slug: { _type: 'slug', current: slug } })}\n`,
      )
      // What the webhook does in the server that receives it.
      const { forgetAddresses } = await import('@/sanity/content/addresses')
      await forgetAddresses()
      const published = Date.now()
      const notServed = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the process apart did not serve the new page within 5 s')), 5_000))
      const { servedAt } = JSON.parse((await Promise.race([lines.next(), notServed])).value as string) as { servedAt: number }
      const elapsed = servedAt - published
      console.log(`proxy apart: a new page answered ${elapsed} ms after the webhook`)
      expect(elapsed).toBeLessThan(2_000)
    } finally {
      apart.kill()
    }
  })
})
