// Plain JavaScript: Next loads the cache handler (./cache-handler.mjs) with Node's own import(),
// outside its bundler, and the handler shares this connection with the bundled proxy and webhook.
import { createClient } from 'redis'

const SHARED = Symbol.for('heardly.redis')

/** Every key this site writes starts with it, so a Redis shared with other apps stays readable. */
export const KEY_PREFIX = 'heardly:'

/**
 * Past this a command counts as hung, and Redis as down until it answers again: Redis is local to
 * the servers and answers in a millisecond. It bounds every call on a request's path, Next's cache
 * handler included (node-redis ignores an abort signal once a command is on the wire).
 */
export const COMMAND_DEADLINE_MS = 500
/** node-redis pings an idle connection this often, so a silent socket means a silent server. */
const PING_MS = 1_000
/** A socket silent this long (a Redis stopped mid-command, or mid-handshake) is closed and opened again. */
const SILENT_SOCKET_MS = 2_500

/**
 * The one connection of this process to the shared Redis at `url`, made on first use and kept,
 * seen through `commands`: every command fails at once while Redis is down, and past
 * COMMAND_DEADLINE_MS otherwise. The caller falls back to its own memory instead of making a
 * visitor wait. The outage is logged once when it starts and once when it ends, however many
 * requests meet it meanwhile.
 *
 * @param {string} url
 * @returns {import('redis').RedisClientType}
 */
export function sharedRedis(url) {
  return connection(url).commands
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
  if (held.client.isReady && !held.down) return held.commands
  if (held.down) throw new Error('Redis is unreachable')
  const { client } = held
  /** @type {() => void} */
  let ready = () => {}
  await within(new Promise((resolve) => client.once('ready', (ready = () => resolve(undefined)))), waitMs).finally(() => client.off('ready', ready))
  return held.commands
}

/**
 * `promise`, or a rejection after `ms`: for a caller that gives up sooner than the connection's
 * own deadline. An answer that arrived while the server was busy elsewhere (a render holding the
 * event loop past `ms`) still counts: timers run before the I/O that came in meanwhile, so the
 * verdict waits one turn (setImmediate runs after it).
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
    timer = setTimeout(() => setImmediate(() => reject(new Late(`Redis did not answer within ${ms} ms`))), ms)
  })
  return /** @type {Promise<T>} */ (Promise.race([promise, late])).finally(() => clearTimeout(timer))
}

/** A command given up on: a hung Redis, unlike one that refuses a command. */
class Late extends Error {}

/** @typedef {{ url: string, client: import('redis').RedisClientType, commands: import('redis').RedisClientType, down: boolean, owed: Map<string, () => Promise<unknown>> }} Held */

/**
 * @param {string} url
 * @returns {Held}
 */
function connection(url) {
  /** @type {Held | undefined} */
  const existing = /** @type {any} */ (globalThis)[SHARED]
  if (existing?.url === url) return existing
  // Another address (a test's second server): the old connection would only retry forever.
  if (existing) existing.client.destroy()
  /** @type {import('redis').RedisClientType} */
  const client = createClient({
    url,
    disableOfflineQueue: true,
    pingInterval: PING_MS,
    // Reconnect soon, then every few seconds at most: the cache is back as soon as Redis is. A
    // stopped Redis still accepts connections (the kernel does), so only the silence tells.
    socket: { connectTimeout: 2_000, socketTimeout: SILENT_SOCKET_MS, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 3_000) },
  })
  /** @type {Held} */
  const held = { url, client, commands: client, down: false, owed: new Map() }
  held.commands = deadlined(held)
  // Failures arrive as 'error' events; the client keeps retrying by itself.
  client.on('error', (/** @type {Error} */ error) => wentDown(held, error.message || error.name))
  // A new connection's handshake was answered, or a ping on the old one (a Redis stopped, then resumed).
  client.on('ready', () => cameBack(held))
  client.on('ping-interval', () => cameBack(held))
  client.connect().catch(() => {})
  ;/** @type {any} */ (globalThis)[SHARED] = held
  return held
}

/**
 * The client's commands, each refused at once while Redis is down (or not yet connected), and
 * given up on past COMMAND_DEADLINE_MS, which marks Redis down: the next ping or handshake it
 * answers marks it back. The command itself cannot be cancelled; node-redis fails it when its
 * silent socket is closed. An abort signal (the cache handler passes one) adds nothing: the
 * deadline already bounds every command.
 *
 * @param {Held} held
 * @returns {import('redis').RedisClientType}
 */
function deadlined(held) {
  const commands = /** @type {import('redis').RedisClientType} */ (
    new Proxy(held.client, {
      get(client, name) {
        if (name === 'isReady') return client.isReady && !held.down
        if (name === 'withAbortSignal') return () => commands
        const command = Reflect.get(client, name, client)
        if (typeof command !== 'function') return command
        return (/** @type {unknown[]} */ ...args) => {
          if (held.down || !client.isReady) return Promise.reject(new Error('Redis is unreachable'))
          return within(command.apply(client, args), COMMAND_DEADLINE_MS).catch((/** @type {Error} */ error) => {
            if (error instanceof Late) wentDown(held, error.message)
            throw error
          })
        }
      },
    })
  )
  return commands
}

/** @param {Held} held @param {string} why */
function wentDown(held, why) {
  if (held.down) return
  held.down = true
  console.error(
    `[cache] Redis at ${where(held.url)} is unreachable (${why}): pages are served from this server's memory, and a publish reaches the other instances once it is back.`,
  )
}

/**
 * What a publish could not write to Redis (`owe`), written once it answers again: otherwise the
 * other instances, and this one, would go on reading the entries it replaced until they expire.
 *
 * @param {string} url
 * @param {string} key one write per key is owed, the latest
 * @param {() => Promise<unknown>} write
 */
export function owe(url, key, write) {
  connection(url).owed.set(key, write)
}

/** @param {Held} held */
function cameBack(held) {
  if (held.down) {
    held.down = false
    console.error(
      `[cache] Redis at ${where(held.url)} is back: the cache is shared again${held.owed.size ? ', and what was published meanwhile is written to it now' : ''}.`,
    )
  }
  // A write that fails again owes itself again.
  for (const [key, write] of held.owed) {
    held.owed.delete(key)
    write().catch(() => {})
  }
}

/** The address without its password, for the log. */
function where(/** @type {string} */ url) {
  const { host } = new URL(url)
  return host
}
