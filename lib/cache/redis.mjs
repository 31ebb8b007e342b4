// Plain JavaScript: Next loads the cache handler (./cache-handler.mjs) with Node's own import(),
// outside its bundler, and the handler shares this connection with the bundled proxy and webhook.
import { createClient } from 'redis'

const SHARED = Symbol.for('heardly.redis')

/** Every key this site writes starts with it, so a Redis shared with other apps stays readable. */
export const KEY_PREFIX = 'heardly:'

/**
 * The one connection of this process to the shared Redis at `url`, made on first use and kept.
 * Commands fail at once while the connection is down (no offline queue): the caller falls back to
 * its own memory instead of making a visitor wait for a reconnect. The outage is logged once when
 * it starts and once when it ends, however many requests meet it meanwhile.
 *
 * @param {string} url
 * @returns {import('redis').RedisClientType}
 */
export function sharedRedis(url) {
  return connection(url).client
}

/**
 * The shared connection once it is ready. On the first connection of a process (a server's first
 * requests, a platform's proxy on a cold start) it waits up to `waitMs` for it; once Redis has
 * failed it refuses at once, so an outage costs no request a wait.
 *
 * @param {string} url
 * @param {number} waitMs
 * @returns {Promise<import('redis').RedisClientType>}
 */
export async function readyRedis(url, waitMs) {
  const held = connection(url)
  if (held.client.isReady) return held.client
  if (held.down) throw new Error('Redis is unreachable')
  const { client } = held
  /** @type {() => void} */
  let ready = () => {}
  await within(new Promise((resolve) => client.once('ready', (ready = () => resolve(undefined)))), waitMs).finally(() => client.off('ready', ready))
  return client
}

/**
 * `promise`, or a rejection after `ms`: node-redis stops honouring an abort signal once a command is
 * on the wire, so a Redis that accepts connections but hangs would otherwise hold the request.
 *
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @returns {Promise<T>}
 */
export function within(promise, ms) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms)
  })
  return /** @type {Promise<T>} */ (Promise.race([promise, late])).finally(() => clearTimeout(timer))
}

/**
 * @param {string} url
 * @returns {{ url: string, client: import('redis').RedisClientType, down: boolean }}
 */
function connection(url) {
  /** @type {{ url: string, client: import('redis').RedisClientType, down: boolean } | undefined} */
  const existing = /** @type {any} */ (globalThis)[SHARED]
  if (existing?.url === url) return existing
  // Another address (a test's second server): the old connection would only retry forever.
  if (existing) existing.client.destroy()
  /** @type {import('redis').RedisClientType} */
  const client = createClient({
    url,
    disableOfflineQueue: true,
    // Reconnect soon, then every few seconds at most: the cache is back as soon as Redis is.
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 3_000) },
  })
  const held = { url, client, down: false }
  client.on('error', (/** @type {Error} */ error) => {
    if (held.down) return
    held.down = true
    console.error(`[cache] Redis at ${where(url)} is unreachable (${error.message || error.name}): pages are served from this server's memory, and a publish reaches the other instances only after CONTENT_REVALIDATE_SECONDS, until it is back.`)
  })
  client.on('ready', () => {
    if (!held.down) return
    held.down = false
    console.error(`[cache] Redis at ${where(url)} is back: the cache is shared again.`)
  })
  // Failures arrive as 'error' events above; the client keeps retrying by itself.
  client.connect().catch(() => {})
  ;/** @type {any} */ (globalThis)[SHARED] = held
  return held
}

/** The address without its password, for the log. */
function where(/** @type {string} */ url) {
  const { host } = new URL(url)
  return host
}
