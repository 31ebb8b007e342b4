import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { evaluateQuery, parseNdjson } from '@/lib/content/seed-dataset'

// A stand-in for Sanity's query API (GET /v<apiVersion>/data/query/<dataset>?query=…),
// answering from the seed with groq-js, or with an error when told to.
const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'))
let failWith: number | null = null
const requests: URL[] = []
let server: Server
let apiHost = ''

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    requests.push(url)
    res.setHeader('content-type', 'application/json')
    if (failWith) {
      res.statusCode = failWith
      res.end(JSON.stringify({ error: { description: 'Dataset not found', type: 'httpNotFound' } }))
      return
    }
    const match = url.pathname.match(/^\/v([\d-]+)\/data\/query\/([\w-]+)$/)
    if (!match) {
      res.statusCode = 404
      res.end('{}')
      return
    }
    const query = url.searchParams.get('query') ?? ''
    const result = await evaluateQuery(seed, query)
    res.end(JSON.stringify({ result, ms: 1, query }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  apiHost = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function loadFetchHelper() {
  vi.resetModules()
  vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'abc123')
  vi.stubEnv('NEXT_PUBLIC_SANITY_DATASET', 'production')
  vi.stubEnv('NEXT_PUBLIC_SANITY_API_VERSION', '2026-11-01')
  vi.stubEnv('SANITY_API_HOST', apiHost)
  vi.stubEnv('CONTENT_REVALIDATE_SECONDS', '120')
  const [{ sanityFetch, ContentFetchError }, { siteSettingsQuery }] = await Promise.all([import('@/lib/content/fetch'), import('@/sanity/queries')])
  return { sanityFetch, ContentFetchError, siteSettingsQuery }
}

describe('sanityFetch with a Sanity project configured', () => {
  const fetchCalls: { url: string; init: RequestInit & { next?: unknown } }[] = []
  const realFetch = globalThis.fetch

  beforeEach(() => {
    failWith = null
    requests.length = 0
    fetchCalls.length = 0
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      fetchCalls.push({ url: String(input), init: init ?? {} })
      return realFetch(input, init)
    }) as typeof fetch
    return () => {
      globalThis.fetch = realFetch
      vi.unstubAllEnvs()
    }
  })

  it('queries the configured project and dataset and returns the result', async () => {
    const { sanityFetch, siteSettingsQuery } = await loadFetchHelper()
    const settings = await sanityFetch({ query: siteSettingsQuery, tags: ['siteSettings'], label: 'site settings' })
    expect(settings.siteName).toBe('Heardly')
    expect(requests).toHaveLength(1)
    expect(requests[0]?.pathname).toBe('/v2026-11-01/data/query/production')
    expect(requests[0]?.searchParams.get('query')).toBe(siteSettingsQuery)
    // Published content only: drafts never reach the site.
    expect(requests[0]?.searchParams.get('perspective')).toBe('published')
  })

  it('hands Next the cache tags and revalidation period', async () => {
    const { sanityFetch, siteSettingsQuery } = await loadFetchHelper()
    await sanityFetch({ query: siteSettingsQuery, tags: ['siteSettings'], label: 'site settings' })
    expect(fetchCalls).toHaveLength(1)
    expect(fetchCalls[0]?.init.next).toEqual({ revalidate: 120, tags: ['siteSettings'] })
  })

  it('throws a clear error when Sanity answers with an error, instead of returning empty content', async () => {
    const { sanityFetch, ContentFetchError, siteSettingsQuery } = await loadFetchHelper()
    failWith = 404
    const attempt = sanityFetch({ query: siteSettingsQuery, tags: ['siteSettings'], label: 'site settings' })
    await expect(attempt).rejects.toBeInstanceOf(ContentFetchError)
    await expect(attempt).rejects.toThrow(/Could not load the site settings from Sanity \(project "abc123", dataset "production"\)/)
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
    const { sanityFetch } = await import('@/lib/content/fetch')
    const { siteSettingsQuery } = await import('@/sanity/queries')
    await expect(sanityFetch({ query: siteSettingsQuery, tags: [], label: 'site settings' })).rejects.toThrow(/NEXT_PUBLIC_SANITY_PROJECT_ID/)
    vi.unstubAllEnvs()
  })
})
