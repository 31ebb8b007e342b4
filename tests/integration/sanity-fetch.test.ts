import { copyFile, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSanityStandIn, type SanityStandIn } from '@/tools/sanity-standin/sanity-standin'

// The content layer's Sanity path against a stand-in for Sanity's query API.
let standIn: SanityStandIn
const requests: URL[] = []
const realFetch = globalThis.fetch
const fetchCalls: { url: string; init: RequestInit & { next?: unknown } }[] = []
const logged: string[] = []

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'standin-'))
  const datasetPath = path.join(dir, 'dataset.ndjson')
  await copyFile('sanity/seed/production.ndjson', datasetPath)
  standIn = await startSanityStandIn({ datasetPath })
})
afterAll(() => standIn.close())

beforeEach(() => {
  standIn.setFailing(false)
  // The content layer's last good answers live as long as the process (sanity/content/fetch.ts): each test starts without them.
  ;(globalThis as { [key: symbol]: Map<string, unknown> | undefined })[Symbol.for('heardly.content.last-good')]?.clear()
  requests.length = 0
  fetchCalls.length = 0
  logged.length = 0
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')))
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    fetchCalls.push({ url: String(input), init: init ?? {} })
    requests.push(new URL(String(input)))
    return realFetch(input, init)
  }) as typeof fetch
  return () => {
    globalThis.fetch = realFetch
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
  }
})

async function loadFetchHelper() {
  vi.resetModules()
  vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'abc123')
  vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', 'production')
  vi.stubEnv('NEXT_PUBLIC_SANITY_API_VERSION', '2026-11-01')
  vi.stubEnv('SANITY_API_HOST', standIn.url)
  vi.stubEnv('CONTENT_REVALIDATE_SECONDS', '120')
  const [{ sanityFetch, ContentFetchError }, { siteSettingsQuery }] = await Promise.all([import('@/sanity/content/fetch'), import('@/sanity/queries')])
  return { sanityFetch, ContentFetchError, siteSettingsQuery }
}

describe('sanityFetch with a Sanity project configured', () => {
  it('queries the configured project and dataset, published content only, and returns the result', async () => {
    const { sanityFetch, siteSettingsQuery } = await loadFetchHelper()
    const settings = await sanityFetch({ query: siteSettingsQuery, params: { language: 'en' }, tags: ['siteSettings'], label: 'site settings' })
    expect(settings.siteName).toBe('Heardly')
    expect(requests).toHaveLength(1)
    expect(requests[0]?.pathname).toBe('/v2026-11-01/data/query/production')
    expect(requests[0]?.searchParams.get('query')).toBe(siteSettingsQuery)
    expect(requests[0]?.searchParams.get('perspective')).toBe('published')
  })

  it('hands Next the cache tags and revalidation period', async () => {
    const { sanityFetch, siteSettingsQuery } = await loadFetchHelper()
    await sanityFetch({ query: siteSettingsQuery, params: { language: 'en' }, tags: ['siteSettings'], label: 'site settings' })
    expect(fetchCalls).toHaveLength(1)
    expect(fetchCalls[0]?.init.next).toEqual({ revalidate: 120, tags: ['siteSettings'] })
  })

  it('throws a clear error (and logs it) when Sanity fails, instead of returning empty content', async () => {
    const { sanityFetch, ContentFetchError, siteSettingsQuery } = await loadFetchHelper()
    standIn.setFailing(true)
    const attempt = sanityFetch({ query: siteSettingsQuery, params: { language: 'en' }, tags: ['siteSettings'], label: 'site settings' })
    await expect(attempt).rejects.toBeInstanceOf(ContentFetchError)
    await expect(attempt).rejects.toThrow(/Could not load the site settings from Sanity \(project "abc123", dataset "production"\)/)
    expect(logged.join('\n')).toContain('[content] Could not load the site settings')
  })

  it('draws the last good answer of this process when Sanity fails after it answered once (a publish during an outage), and only that', async () => {
    const { sanityFetch, ContentFetchError, siteSettingsQuery } = await loadFetchHelper()
    const read = (language: string) => sanityFetch({ query: siteSettingsQuery, params: { language }, tags: ['siteSettings'], label: 'site settings' })
    const english = await read('en')
    standIn.setFailing(true)
    expect(await read('en')).toEqual(english)
    expect(logged.join('\n')).toContain('[content] Sanity did not answer (Service unavailable (stand-in outage)): the last good answer drawn instead')
    // Another question has no last answer: it fails as before, never with someone else's answer.
    await expect(read('de')).rejects.toBeInstanceOf(ContentFetchError)
    // It asked Sanity first (the client's own retries included): the memory answers only a failure.
    expect(requests.filter((url) => url.searchParams.get('$language') === '"en"').length).toBeGreaterThan(1)
  })

  it('throws when the document is not published', async () => {
    const { sanityFetch } = await loadFetchHelper()
    const attempt = sanityFetch({ query: '*[_id == "nothing"][0]' as never, tags: [], label: 'landing page' })
    await expect(attempt).rejects.toThrow(/The landing page has no published content/)
  })
})

describe('a production build without embedded defaults', () => {
  it('refuses to fall back to the seed when no Sanity project is configured', async () => {
    vi.resetModules()
    vi.stubEnv('NODE_ENV', 'production')
    vi.stubEnv('EMBEDDED_DEFAULTS', '')
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', '')
    const { sanityFetch } = await import('@/sanity/content/fetch')
    const { siteSettingsQuery } = await import('@/sanity/queries')
    await expect(sanityFetch({ query: siteSettingsQuery, tags: [], label: 'site settings' })).rejects.toThrow(/NEXT_PUBLIC_SANITY_PROJECT_ID/)
  })
})
