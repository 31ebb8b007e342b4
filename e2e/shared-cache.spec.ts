import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { expect, test, type APIRequestContext } from '@playwright/test'
import { parseNdjson } from '../sanity/seed/dataset'
import { startRedis, type LocalRedis } from '../tools/local/redis'
import { freePort, waitForUrl } from '../tools/local/run'
import { E2E, e2eEnv } from '../tools/test/e2e-env'

// Two servers of the suite's build share one Redis (REDIS_URL, lib/cache) and one dataset, as
// `npm run preview -- --instances 2` runs them: what is published to the first is served by the
// second within 2 s, and when Redis stops both keep answering and say why in their logs.

const [firstPort, secondPort] = E2E.sharedCachePorts
const first = `http://127.0.0.1:${firstPort}`
const second = `http://127.0.0.1:${secondPort}`
// Their own copy of the content, beside the suite's (its images are there), so other specs' pages stay as they are.
const seedPath = path.join(path.dirname(E2E.seedPath), 'shared-cache.ndjson')
const stamp = Date.now()
let redis: LocalRedis
let redisDir: string
const servers: { process: ChildProcess; log: string }[] = []

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  await copyFile('sanity/seed/production.ndjson', seedPath)
  redisDir = await mkdtemp(path.join(tmpdir(), 'redis-e2e-'))
  redis = await startRedis(await freePort(), redisDir)
  for (const port of [firstPort, secondPort]) {
    const server = { process: spawn('next', ['start', '--port', String(port)], { env: instanceEnv(), stdio: ['ignore', 'pipe', 'pipe'] }), log: '' }
    server.process.stdout!.on('data', (chunk: Buffer) => (server.log += chunk.toString()))
    server.process.stderr!.on('data', (chunk: Buffer) => (server.log += chunk.toString()))
    servers.push(server)
  }
  await Promise.all([waitForUrl(`${first}/about`), waitForUrl(`${second}/about`)])
})

test.afterAll(async () => {
  for (const server of servers) server.process.kill('SIGTERM')
  await redis?.stop()
  await rm(redisDir, { recursive: true, force: true })
})

const instanceEnv = () => ({ ...e2eEnv(), CONTENT_SEED_PATH: seedPath, REDIS_URL: redis.url })

async function publishToFirst(documents: object[]): Promise<void> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'publish-')), 'change.json')
  await writeFile(file, JSON.stringify(documents))
  const { stdout } = await promisify(execFile)('tsx', ['tools/content/content-publish.ts', file, '--site', first], { env: instanceEnv() })
  expect(stdout).toMatch(/Revalidated /)
}

async function documentNamed<T = Record<string, unknown>>(id: string): Promise<T> {
  return parseNdjson(await readFile(seedPath, 'utf8')).find((doc) => doc._id === id) as unknown as T
}

/** Publishes to the first server, then asks the second every 50 ms until `served`; the time from the webhook's answer. */
async function propagation(what: string, documents: object[], served: () => Promise<boolean>): Promise<number> {
  await publishToFirst(documents)
  const answered = performance.now()
  await expect.poll(served, { timeout: 10_000, intervals: [50] }).toBe(true)
  const ms = Math.round(performance.now() - answered)
  console.log(`shared cache: ${what} published to the first instance, served by the second ${ms} ms after the webhook's answer`)
  test.info().annotations.push({ type: 'propagation', description: `${what}: ${ms} ms` })
  return ms
}

const page = (request: APIRequestContext, address: string) => request.get(`${second}${address}`, { maxRedirects: 0 })

test('a new page published to the first instance is served by the second within 2 s', async ({ request }) => {
  const slug = `launch-${stamp}`
  // The second instance has its list of addresses in hand, without the page.
  expect((await page(request, `/${slug}`)).status()).toBe(404)
  const careers = await documentNamed('page-careers')
  const ms = await propagation(
    'a new page',
    [{ ...careers, _id: `page-${slug}`, slug: { _type: 'slug', current: slug } }],
    async () => (await page(request, `/${slug}`)).status() === 200,
  )
  expect(ms).toBeLessThan(2_000)
})

test('a changed word published to the first instance is on the second within 2 s', async ({ request }) => {
  type Sectioned = { sections: ({ _type: string } & Record<string, unknown>)[] } & Record<string, unknown>
  const landing = await documentNamed<Sectioned>('landingPage')
  const fresh = `Heard on every server ${stamp}`
  // Both render and cache the landing page first: the second's copy is what must not outlive the publish.
  for (const site of [first, second]) expect(await (await request.get(`${site}/`)).text()).not.toContain(fresh)
  const changed = { ...landing, sections: landing.sections.map((section) => (section._type === 'heroSection' ? { ...section, title: fresh } : section)) }
  const ms = await propagation('a changed word', [changed], async () => (await (await page(request, '/')).text()).includes(fresh))
  expect(ms).toBeLessThan(2_000)
})

test('a new redirect published to the first instance is answered by the second within 2 s', async ({ request }) => {
  const source = `/old-${stamp}`
  expect((await page(request, source)).status()).toBe(404)
  const redirect = {
    _id: `redirect-old-${stamp}`,
    _type: 'redirect',
    source,
    destination: { kind: 'page', page: { _type: 'reference', _ref: 'page-privacy' } },
    permanent: false,
  }
  const ms = await propagation('a new redirect', [redirect], async () => {
    const response = await page(request, source)
    return response.status() === 307 && response.headers().location?.endsWith('/privacy') === true
  })
  expect(ms).toBeLessThan(2_000)
})

test('a page moved on the first instance: its old address answers 308 on the second within 2 s', async ({ request }) => {
  const [before, after] = [`before-${stamp}`, `after-${stamp}`]
  const careers = await documentNamed('page-careers')
  const moving = { ...careers, _id: `page-moving-${stamp}`, slug: { _type: 'slug', current: before } }
  await propagation('a new page to move', [moving], async () => (await page(request, `/${before}`)).status() === 200)
  const ms = await propagation('a moved page', [{ ...moving, slug: { _type: 'slug', current: after } }], async () => {
    const response = await page(request, `/${before}`)
    return response.status() === 308 && response.headers().location === `/${after}`
  })
  expect(ms).toBeLessThan(2_000)
})

test('with Redis stopped mid-run, both instances still answer 200 and their logs say why', async ({ request }) => {
  await redis.stop()
  for (const site of [first, second]) {
    // Pages each has served, one it has not (rendered afresh), and the page published above.
    for (const address of ['/', '/about', '/privacy', '/de/karriere', `/launch-${stamp}`]) {
      const response = await request.get(`${site}${address}`)
      expect(response.status(), `${site}${address}`).toBe(200)
    }
  }
  for (const server of servers) {
    await expect.poll(() => server.log).toMatch(/\[cache\] Redis at 127\.0\.0\.1:\d+ is unreachable .*served from this server's memory/)
    // Once per outage, not once per request.
    expect(server.log.match(/is unreachable/g)).toHaveLength(1)
  }
})
