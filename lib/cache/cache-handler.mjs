// Next's cache handler (next.config.ts sets it when REDIS_URL is set, validated by lib/env there):
// the pages, data and tags every instance shares, through @fortedigital/nextjs-cache-handler.
import { CacheHandler } from '@fortedigital/nextjs-cache-handler'
import createLruHandler from '@fortedigital/nextjs-cache-handler/local-lru'
import createRedisHandler from '@fortedigital/nextjs-cache-handler/redis-strings'
import { COMMAND_DEADLINE_MS, KEY_PREFIX, owe, sharedRedis } from './redis.mjs'

/**
 * Redis first; this server's memory behind it. Every write goes to both, and a read goes to memory
 * only when Redis fails (down, or hung: every command of the shared connection gives up after
 * COMMAND_DEADLINE_MS, lib/cache/redis.mjs, its own calls included): a page that exists is still served,
 * from memory or rendered afresh, never a 500. A miss in Redis is a miss: memory may hold what a
 * publish on another instance has since replaced.
 */
CacheHandler.onCreation(() => {
  const url = process.env.REDIS_URL
  if (!url) throw new Error('lib/cache/cache-handler.mjs is set in next.config.ts only when REDIS_URL is set')
  const redis = createRedisHandler({ client: sharedRedis(url), keyPrefix: `${KEY_PREFIX}next:`, timeoutMs: COMMAND_DEADLINE_MS, keyExpirationStrategy: 'EXAT' })
  /** @type {typeof redis} */
  const shared = {
    ...redis,
    // A publish while Redis is down revalidates this server's memory only: Redis's entries for the
    // tag would be served again, by every instance, once it is back. So the tag is revalidated there then.
    revalidateTag: (tag) =>
      redis.revalidateTag(tag).catch((error) => {
        owe(url, `tag:${tag}`, () => shared.revalidateTag(tag))
        throw error
      }),
  }
  return {
    handlers: [
      shared,
      // As Next's own memory cache: 50 MB.
      createLruHandler({ maxItemSizeBytes: 50 * 1024 * 1024 }),
    ],
  }
})

export default CacheHandler
