import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest'
import { startRedis, type LocalRedis } from '@/tools/local/redis'
import { freePort } from '@/tools/local/run'
import { fetched, nextLikeConsumer, withTags, type CacheConsumer } from '../helpers/next-cache-consumer'

// The fault suite's Redis rows, against a real redis-server: hung (SIGSTOP) mid-run, killed
// (SIGKILL) and started again, and hung before the server's first request. Every Redis call on a
// request's path (Next's cache handler, the proxy's look at the publish mark, the webhook's
// revalidation and mark) settles within BOUND_MS; the outage is logged once at its start and once
// at its end; and the cache is shared again by itself once Redis answers. e2e/faults-redis.spec.ts
// shows the same through two built instances. Each test spawns tsx twice (publishElsewhere): 60 s
// on a loaded machine.

/** What a visitor may wait on a Redis call while Redis hangs: the connection's deadline (500 ms, lib/cache/redis.mjs) and room for a busy machine. */
const BOUND_MS = 1_000
/** The webhook's calls: its publish mark waits up to 1 s for a connection still being made (sanity/content/addresses.ts). */
const WEBHOOK_BOUND_MS = 1_500
/** How soon the cache must be shared again once Redis answers: the reconnection's longest pause is 3 s. */
const RESUME_MS = 6_000

let redis: LocalRedis
let port: number
let dir: string
let raw: ReturnType<typeof createClient>
let errors: MockInstance<typeof console.error>

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'redis-faults-'))
  port = await freePort()
  redis = await startRedis(port, dir)
  vi.stubEnv('REDIS_URL', redis.url)
  // The seed's addresses, read from the file as the local runs do.
  vi.stubEnv('CONTENT_SEED_PATH', path.resolve('sanity/seed/production.ndjson'))
  vi.stubEnv('CONTENT_REVALIDATE_SECONDS', '3600')
  // Another instance, as far as Redis can tell.
  raw = createClient({ url: redis.url })
  raw.on('error', () => {})
  await raw.connect()
  errors = vi.spyOn(console, 'error').mockImplementation(() => {})
})

afterAll(async () => {
  errors?.mockRestore()
  raw?.destroy()
  vi.unstubAllEnvs()
  redis?.process.kill('SIGCONT')
  await redis?.stop()
  await rm(dir, { recursive: true, force: true })
})

const logged = (pattern: RegExp) => errors.mock.calls.filter(([message]) => pattern.test(String(message))).length
const OUTAGE = /\[cache\] Redis at 127\.0\.0\.1:\d+ is unreachable .*served from this server's memory/
const BACK = /\[cache\] Redis at 127\.0\.0\.1:\d+ is back/

/** How long `run` took to settle (resolved or rejected); fails, without waiting on, a call still pending after `boundMs`. */
async function settles(what: string, run: () => Promise<unknown>, boundMs = BOUND_MS): Promise<number> {
  const started = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still pending after ${boundMs} ms: a request would hang on Redis`)), boundMs)
  })
  try {
    await Promise.race([run().catch(() => {}), late])
  } finally {
    clearTimeout(timer)
  }
  return Math.round(performance.now() - started)
}

/**
 * Every Redis call a request or the webhook makes, over and over for `forMs` of the fault: each
 * settles within the bound, and what the handler had is still served (from memory). The slowest,
 * for the report.
 */
async function everyCallSettles(consumer: CacheConsumer, forMs: number): Promise<number> {
  const { addresses, forgetAddresses } = await import('@/sanity/content/addresses')
  const times: number[] = []
  const until = Date.now() + forMs
  let round = 0
  while (Date.now() < until) {
    round++
    times.push(await settles('the cache handler get', () => consumer.get('pricing')))
    expect((await consumer.get('pricing'))?.value.data?.body).toBe('Pricing')
    times.push(await settles('the cache handler set', () => consumer.set(`later-${round}`, fetched('Later'), withTags(['landingPage']))))
    times.push(await settles("the proxy's look at the publish mark", () => addresses()))
    times.push(await settles("the webhook's revalidateTag", () => consumer.revalidateTag(['aboutPage']), WEBHOOK_BOUND_MS))
    times.push(await settles("the webhook's publish mark", () => forgetAddresses(), WEBHOOK_BOUND_MS))
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return Math.max(...times)
}

/** Another instance receives a publish that changes addresses: its webhook marks it in Redis. */
async function publishElsewhere(): Promise<void> {
  await promisify(execFile)('tsx', ['tests/helpers/publish-apart.ts'], { env: process.env, timeout: 20_000 })
}

/** Publishes elsewhere, and waits (bounded) until this process's proxy has seen it. */
async function publishSeenHere(): Promise<void> {
  const { addresses, addressesGeneration } = await import('@/sanity/content/addresses')
  const before = addressesGeneration()
  await publishElsewhere()
  await vi.waitFor(
    async () => {
      await addresses()
      expect(addressesGeneration()).toBeGreaterThan(before)
    },
    { timeout: RESUME_MS, interval: 100 },
  )
}

/**
 * The cache is shared again: what another instance writes to Redis is what this one reads, and
 * this one's proxy sees a publish received by another. Milliseconds from `since` (the fault's end)
 * until the first, for the report.
 */
async function sharedAgain(consumer: CacheConsumer, since: number): Promise<number> {
  await vi.waitFor(
    async () => {
      const key = 'heardly:next:pricing'
      const stored = await raw.get(key)
      // A Redis restarted empty has the entry again with this server's next write.
      if (!stored) await consumer.set('pricing', fetched('Pricing'), withTags(['landingPage']))
      // A page the other instance rendered afresh after a publish: this one must read it from Redis.
      else await raw.set(key, stored.replace(/"body":"[^"]*"/, '"body":"Pricing, republished"'))
      expect((await consumer.get('pricing'))?.value.data?.body).toBe('Pricing, republished')
    },
    { timeout: RESUME_MS, interval: 50 },
  )
  const ms = Math.round(performance.now() - since)
  await publishSeenHere()
  return ms
}

/** A page entry written before the fault, in Redis and in this server's memory. */
async function primed(): Promise<CacheConsumer> {
  const consumer = await nextLikeConsumer()
  await raw.flushAll()
  await vi.waitFor(async () => {
    await consumer.set('pricing', fetched('Pricing'), withTags(['landingPage']))
    // What the webhook revalidates during the fault (everyCallSettles).
    await consumer.set('about', fetched('About us'), withTags(['aboutPage']))
    expect(await raw.exists(['heardly:next:pricing', 'heardly:next:about'])).toBe(2)
  })
  // This process's proxy has its list, and has seen the last publish: after the fault it must see the next one.
  const { addresses } = await import('@/sanity/content/addresses')
  await addresses()
  await publishSeenHere()
  return consumer
}

describe('Redis faults', () => {
  it('Redis hung (SIGSTOP) mid-run: every call settles within the bound, the outage is logged once, and the cache is shared again by itself after SIGCONT', async () => {
    const consumer = await primed()
    errors.mockClear()
    redis.process.kill('SIGSTOP')
    let slowest: number
    try {
      // Longer than the connection takes to close a silent socket (2.5 s): it reconnects meanwhile.
      slowest = await everyCallSettles(consumer, 6_000)
    } finally {
      redis.process.kill('SIGCONT')
    }
    const resumedAt = performance.now()
    expect(logged(OUTAGE)).toBe(1)
    const markBefore = await raw.get('heardly:addresses:published')
    // What was published during the fault reaches Redis once it answers: the entries of the tag go,
    // and the other instances' proxies see the publish.
    await vi.waitFor(async () => expect(await raw.exists('heardly:next:about')).toBe(0), { timeout: RESUME_MS, interval: 50 })
    await vi.waitFor(async () => expect(await raw.get('heardly:addresses:published')).not.toBe(markBefore), { timeout: RESUME_MS, interval: 50 })
    const resumed = await sharedAgain(consumer, resumedAt)
    console.log(`faults/redis hung: slowest call ${slowest} ms while stopped; shared again ${resumed} ms after SIGCONT`)
    expect(logged(BACK)).toBe(1)
    expect(logged(OUTAGE)).toBe(1)
  }, 60_000)

  it('Redis killed (SIGKILL) and started again: the same', async () => {
    const consumer = await primed()
    errors.mockClear()
    redis.process.kill('SIGKILL')
    await new Promise((resolve) => redis.process.once('exit', resolve))
    const slowest = await everyCallSettles(consumer, 2_000)
    expect(logged(OUTAGE)).toBe(1)
    redis = await startRedis(port, dir)
    const resumed = await sharedAgain(consumer, performance.now())
    console.log(`faults/redis killed: slowest call ${slowest} ms while down; shared again ${resumed} ms after the restart`)
    expect(logged(BACK)).toBe(1)
    expect(logged(OUTAGE)).toBe(1)
  }, 60_000)

  it('Redis hung before the first request: the first calls of a fresh server settle within the bound too', async () => {
    // A new server process: no connection yet, and a handler not yet prepared.
    const held = globalThis as unknown as Record<symbol, { client?: { destroy(): void } } | undefined>
    held[Symbol.for('heardly.redis')]?.client?.destroy()
    delete held[Symbol.for('heardly.redis')]
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('heardly.content.addresses')]
    redis.process.kill('SIGSTOP')
    try {
      const consumer = await nextLikeConsumer()
      const slowest = await everyCallSettlesFresh(consumer)
      console.log(`faults/redis hung at start: slowest call ${slowest} ms`)
    } finally {
      redis.process.kill('SIGCONT')
    }
  }, 60_000)
})

/** As everyCallSettles, with nothing in memory yet: what a server just started meets. */
async function everyCallSettlesFresh(consumer: CacheConsumer): Promise<number> {
  const { addresses, forgetAddresses } = await import('@/sanity/content/addresses')
  const times = [
    await settles("the cache handler's first get", () => consumer.get('pricing')),
    await settles("the proxy's first look at the publish mark", () => addresses()),
    await settles("the webhook's revalidateTag", () => consumer.revalidateTag(['aboutPage']), WEBHOOK_BOUND_MS),
    await settles("the webhook's publish mark", () => forgetAddresses(), WEBHOOK_BOUND_MS),
    await settles('the cache handler set', () => consumer.set('fresh', fetched('Fresh'), withTags([]))),
  ]
  expect((await consumer.get('fresh'))?.value.data?.body).toBe('Fresh')
  return Math.max(...times)
}
