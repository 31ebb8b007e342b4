import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { createClient } from 'redis'
import { varyTokens } from '../lib/http/vary'
import { editorsCampaignExample, editorsExample, variantSection, type ExperimentDocument } from '../tools/content/experiment-example'
import { startRedis, type LocalRedis } from '../tools/local/redis'
import { waitForUrl } from '../tools/local/run'
import { startVarnish, type LocalVarnish } from '../tools/local/varnish'
import { E2E, e2eEnv } from '../tools/test/e2e-env'
import { publishLocally } from './local-publish'
import { copy } from './seed-copy'

// Faults a shared cache brings (issue #50): a real one, Varnish, in front of a server of the
// suite's build, caching as a CDN would (tools/local/varnish.ts: requests with cookies are cached
// too, only the site's Vary and Cache-Control keep answers apart or out). Through it a
// participant's variant never reaches another visitor or a crawler, nor a campaign's version a
// crawler (or a crawler's page the campaign's visitors), a Markdown twin never reaches
// a browser, nor HTML an assistant. And forged draft-mode cookies on random addresses, straight to
// the server, add nothing to its cache (Redis, counted) and answer the one static 404.

const ports = E2E.varnishFaultPorts
const site = `http://127.0.0.1:${ports.site}`
const seedPath = path.join(path.dirname(E2E.seedPath), 'faults-shared-cache.ndjson')
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0'
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
const NEXT_VARY = ['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch', 'Accept-Encoding']

const example = editorsExample()
const allB: ExperimentDocument = { ...example, variants: example.variants.map((variant) => ({ ...variant, share: 100 })) }
const variantTitle = variantSection(example, 'en').title
const controlTitle = copy.section(copy.landing, 'heroSection').title
const campaign = editorsCampaignExample()
const campaignTitle = campaign.sections.find((section) => section.language === 'en')!.sections[0]!.title

let redis: LocalRedis
let varnish: LocalVarnish
let server: { process: ChildProcess; log: string }
let dir: string
const env = () => ({ ...e2eEnv(), CONTENT_SEED_PATH: seedPath, REDIS_URL: redis.url })

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  await copyFile(E2E.seedPath, seedPath)
  dir = await mkdtemp(path.join(tmpdir(), 'faults-shared-cache-'))
  redis = await startRedis(ports.redis, path.join(dir, 'redis'))
  server = { process: spawn('next', ['start', '--port', String(ports.site)], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] }), log: '' }
  for (const stream of [server.process.stdout!, server.process.stderr!]) stream.on('data', (chunk: Buffer) => (server.log += chunk.toString()))
  await waitForUrl(`${site}/about`)
  varnish = await startVarnish(ports.cache, ports.site)
  // Every participant gets variant b (its share at 100 %), so nothing is left to chance.
  expect(await publishLocally([allB], site, env())).toMatch(/Revalidated experiment/)
})

test.afterAll(async () => {
  test.setTimeout(30_000)
  await varnish?.stop()
  server?.process.kill('SIGTERM')
  await redis?.stop()
  await rm(dir, { recursive: true, force: true })
})

type Answer = { status: number; text: string; type: string; vary: string[]; cacheControl: string; cache: string | null }

/** One request with exactly these headers (no cookie jar, so nothing carries over), bounded at 10 s. */
async function get(base: string, address: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${base}${address}`, { headers, redirect: 'manual', signal: AbortSignal.timeout(10_000) })
  return {
    status: response.status,
    text: await response.text(),
    type: response.headers.get('content-type') ?? '',
    vary: varyTokens(response.headers.get('vary')),
    cacheControl: response.headers.get('cache-control') ?? '',
    cache: response.headers.get('x-cache'),
  }
}
const viaCache = (address: string, headers: Record<string, string>) => get(varnish.url, address, headers)

test('a participant’s variant never reaches another visitor or a crawler through a shared cache', async () => {
  const participant = { 'user-agent': CHROME, accept: BROWSER_ACCEPT, cookie: 'consent=granted; experiments=hero-headline=b' }
  const newcomer = { 'user-agent': CHROME, accept: BROWSER_ACCEPT, cookie: 'consent=granted' }
  const visitor = { 'user-agent': CHROME, accept: BROWSER_ACCEPT }
  const crawler = { 'user-agent': GOOGLEBOT, accept: BROWSER_ACCEPT }
  /** Which hero the home page shows through the cache (a failure names it, not the whole page). */
  const shown = async (headers: Record<string, string>) => {
    const { text } = await viaCache('/', headers)
    return text.includes(variantTitle) ? (text.includes(controlTitle) ? 'both' : 'variant') : text.includes(controlTitle) ? 'control' : 'neither'
  }
  // Participants first, twice each: whatever the cache kept of them, the others must not get.
  for (const headers of [participant, newcomer, participant, newcomer]) expect(await shown(headers), JSON.stringify(headers)).toBe('variant')
  for (const headers of [crawler, visitor, crawler, visitor, { ...visitor, cookie: 'consent=denied' }])
    expect(await shown(headers), JSON.stringify(headers)).toBe('control')
  // And the control the cache now holds never reaches a participant.
  expect(await shown(participant)).toBe('variant')
  // What the site sends, the whole header as tokens: Next's own and what the answer depends on.
  const variant = await get(site, '/', participant)
  expect(variant.vary.sort()).toEqual(['Accept', 'Cookie', ...NEXT_VARY].sort())
  expect(variant.cacheControl).toBe('private, no-store')
  const control = await get(site, '/', crawler)
  expect(control.vary.sort()).toEqual(['Accept', 'Cookie', ...NEXT_VARY].sort())
  // Control is the same for everyone who does not take part: a shared cache may keep it.
  expect(control.cacheControl).toMatch(/^s-maxage=\d+/)
  expect((await viaCache('/', crawler)).cache).toBe('HIT')
})

test('a campaign’s version never reaches a crawler through a shared cache, nor a crawler’s page the campaign’s visitors', async () => {
  expect(await publishLocally([campaign], site, env())).toMatch(/Revalidated campaign/)
  const address = `/?utm_campaign=${campaign.utmCampaign}`
  const visitor = { 'user-agent': CHROME, accept: BROWSER_ACCEPT }
  const otherBrowser = { 'user-agent': FIREFOX, accept: BROWSER_ACCEPT }
  const crawler = { 'user-agent': GOOGLEBOT, accept: BROWSER_ACCEPT }
  const shown = async (headers: Record<string, string>) => {
    const { text } = await viaCache(address, headers)
    return text.includes(campaignTitle) ? (text.includes(controlTitle) ? 'both' : 'campaign') : text.includes(controlTitle) ? 'control' : 'neither'
  }
  // The crawler first, so the cache holds the page as published for the campaign's address.
  for (const [headers, expected] of [
    [crawler, 'control'],
    [visitor, 'campaign'],
    [crawler, 'control'],
    [otherBrowser, 'campaign'],
    [visitor, 'campaign'],
  ] as const)
    expect(await shown(headers), headers['user-agent']).toBe(expected)
  // Both answers may be kept by a shared cache, apart by the user agent; the address without the
  // tags never varies by it.
  const version = await get(site, address, visitor)
  expect(version.vary).toContain('User-Agent')
  expect(version.cacheControl).toMatch(/^s-maxage=\d+/)
  expect((await get(site, address, crawler)).vary).toContain('User-Agent')
  expect((await viaCache(address, visitor)).cache).toBe('HIT')
  expect((await get(site, '/', visitor)).vary).not.toContain('User-Agent')
})

test('a first visit served without the proxy, cached first, never reaches a participant nor an assistant', async () => {
  // A browser's first navigation skips the proxy (docs/engineers.md, "Requests the proxy skips"):
  // what next.config.ts says in its place must set it apart in the cache. An address of its own,
  // so the cache holds nothing of the tests above for it.
  const address = '/?first-visit'
  const firstVisit = { 'user-agent': CHROME, accept: BROWSER_ACCEPT, 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'none' }
  const skipped = await viaCache(address, firstVisit)
  expect(skipped.status).toBe(200)
  expect(skipped.text).toContain(controlTitle)
  expect(skipped.vary).toEqual(expect.arrayContaining(['Accept', 'Cookie']))
  expect(skipped.cacheControl).toMatch(/^s-maxage=\d+/)
  expect((await viaCache(address, firstVisit)).cache).toBe('HIT')
  const participant = { ...firstVisit, cookie: 'consent=granted; experiments=hero-headline=b' }
  const variant = await viaCache(address, participant)
  expect(variant.text).toContain(variantTitle)
  expect(variant.text).not.toContain(controlTitle)
  expect((await viaCache(address, { accept: 'text/markdown' })).type).toMatch(/^text\/markdown/)
  expect((await viaCache(address, { ...firstVisit, accept: 'text/markdown' })).type).toMatch(/^text\/markdown/)
})

test('a Markdown twin never reaches a browser through a shared cache, nor HTML an assistant', async () => {
  const assistant = { accept: 'text/markdown' }
  const browser = { accept: BROWSER_ACCEPT, 'user-agent': CHROME }
  // The assistant first at one address, the browser first at the other.
  for (const [address, first, second] of [
    ['/about', assistant, browser],
    ['/privacy', browser, assistant],
    ['/de/about', assistant, browser],
  ] as const) {
    for (const headers of [first, second, first, second]) {
      const answer = await viaCache(address, headers)
      expect(answer.status, `${address} ${headers.accept}`).toBe(200)
      expect(answer.type, `${address} ${headers.accept}`).toMatch(headers === assistant ? /^text\/markdown/ : /^text\/html/)
    }
  }
  const twin = await get(site, '/about', assistant)
  expect(twin.vary).toContain('Accept')
  expect(twin.cacheControl).toBe('private, no-store')
  const page = await get(site, '/about', browser)
  expect(page.vary.sort()).toEqual(['Accept', ...NEXT_VARY].sort())
  // The twin's own address answers the same to everyone: a shared cache keeps it.
  for (const headers of [assistant, browser]) expect((await viaCache('/about.md', headers)).type).toMatch(/^text\/markdown/)
  expect((await viaCache('/about.md', assistant)).cache).toBe('HIT')
  expect((await get(site, '/about.md', assistant)).cacheControl).toMatch(/^s-maxage=\d+/)
})

test('forged draft-mode cookies on random addresses add nothing to the cache and answer the static 404', async () => {
  test.setTimeout(60_000)
  const keys = async () => {
    const client = createClient({ url: redis.url, socket: { connectTimeout: 2_000 } })
    await client.connect()
    try {
      return await client.dbSize()
    } finally {
      await client.close()
    }
  }
  const random = () => `/${randomBytes(6).toString('hex')}`
  // The static 404 of each language rendered once, as any visitor's unknown address would.
  for (const address of [random(), `/de${random()}`]) expect((await get(site, address, {})).status).toBe(404)
  const before = await keys()
  const values = ['', 'x', randomBytes(16).toString('hex'), 'a'.repeat(3_000), Buffer.from('ｐｒｅｖｉｅｗ\u202e', 'utf8').toString('latin1'), '%00%0d%0a']
  const timings: number[] = []
  for (let i = 0; i < 60; i++) {
    const address = i % 2 ? `/de${random()}` : random()
    const started = performance.now()
    const answer = await get(site, address, { cookie: `__prerender_bypass=${values[i % values.length]}`, accept: BROWSER_ACCEPT })
    timings.push(performance.now() - started)
    expect(answer.status, address).toBe(404)
    expect(answer.type).toMatch(/^text\/html/)
  }
  expect(await keys()).toBe(before)
  // Beside the same number of random addresses without the cookie, for the note (not asserted: a shared machine's timing).
  const plain: number[] = []
  for (let i = 0; i < 60; i++) {
    const started = performance.now()
    expect((await get(site, random(), { accept: BROWSER_ACCEPT })).status).toBe(404)
    plain.push(performance.now() - started)
  }
  const median = (list: number[]) => Math.round(list.sort((a, b) => a - b)[list.length >> 1]!)
  const note = `60 random addresses with forged cookies: Redis keys ${before} before and after, median ${median(timings)} ms (without the cookie: ${median(plain)} ms)`
  console.log(`forged draft cookies: ${note}`)
  test.info().annotations.push({ type: 'forged draft cookies', description: note })
  // The service is as it was: a published page answers.
  expect((await get(site, '/about', { accept: BROWSER_ACCEPT })).status).toBe(200)
})
