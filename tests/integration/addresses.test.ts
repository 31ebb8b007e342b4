import { mkdtemp, readFile, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ADDRESS_TYPES, addresses, answerFor, forgetAddresses, type Addresses } from '@/sanity/content/addresses'
import { seedCopy } from '../helpers/seed-copy'

// What the proxy asks of every address (proxy.ts): read over the seed, kept in memory, read
// afresh after a publish or after the revalidation period.

afterEach(() => vi.unstubAllEnvs())

const book: Addresses = {
  languages: new Set(['de']),
  pages: new Set(['/privacy', '/careers']),
  redirects: new Map([
    ['/old-pricing', { destination: '/#pricing', permanent: true }],
    ['/über-uns', { destination: '/about', permanent: false }],
  ]),
  twins: new Set(),
  campaigns: new Map(),
}

describe('the answer for an address', () => {
  it.each([
    ['/privacy', { kind: 'page' }],
    ['/privacy/', { kind: 'page' }],
    ['/old-pricing', { kind: 'redirect', destination: '/#pricing', permanent: true }],
    ['/old-pricing/', { kind: 'redirect', destination: '/#pricing', permanent: true }],
    // Requests carry the path percent-encoded; sources are written as people read them.
    ['/%C3%BCber-uns', { kind: 'redirect', destination: '/about', permanent: false }],
    ['/Privacy', { kind: 'missing' }],
    ['/privacy/extra', { kind: 'missing' }],
    ['/no-such-page', { kind: 'missing' }],
    ['/%E0%A4%A', { kind: 'missing' }],
  ])('%s', (pathname, answer) => {
    expect(answerFor(book, pathname)).toEqual(answer)
  })
})

describe('the published addresses', () => {
  it('are read once, then afresh after a publish or after the revalidation period', async () => {
    const { seedPath, seed } = await seedCopy('addresses')
    vi.stubEnv('CONTENT_SEED_PATH', seedPath)
    vi.stubEnv('CONTENT_REVALIDATE_SECONDS', '60')
    forgetAddresses()
    const now = Date.now()

    const first = await addresses(now)
    // In each language: its fixed pages, its pages, and what its blog publishes (posts, lists and
    // feeds; the seed's samples are shown locally). English without a prefix, German under /de.
    const english = [
      '/',
      '/about',
      '/blog',
      '/blog/category/product',
      '/blog/category/user-research',
      '/blog/feed.xml',
      '/blog/good-interview-questions',
      '/blog/slack-threads-and-webhooks',
      '/blog/why-ai-interviews',
      '/careers',
      '/changelog',
      '/changelog/feed.xml',
      '/cookies',
      '/gdpr',
      '/llms.txt',
      '/privacy',
      '/search',
      '/terms',
      '/waitlist',
      '/waitlist/confirm',
      '/waitlist/unsubscribe',
      '/waitlist/leaderboard',
    ]
    const german = [
      '/de',
      '/de/about',
      '/de/agb',
      '/de/blog',
      '/de/blog/category/nutzerforschung',
      '/de/blog/category/produkt',
      '/de/blog/feed.xml',
      '/de/blog/gute-interviewfragen',
      '/de/blog/slack-threads-und-webhooks',
      '/de/blog/warum-ki-interviews',
      '/de/changelog',
      '/de/changelog/feed.xml',
      '/de/cookies',
      '/de/datenschutz',
      '/de/dsgvo',
      '/de/karriere',
      '/de/llms.txt',
      '/de/search',
      '/de/waitlist',
      '/de/waitlist/confirm',
      '/de/waitlist/unsubscribe',
      '/de/waitlist/leaderboard',
    ]
    expect([...first.pages].sort()).toEqual([...english, ...german].sort())
    // A Markdown twin for every page and post (not the lists, feeds, search, waitlist links or llms.txt).
    const twin = (path: string) => !/\/(blog|changelog)(\/(category|feed)|$)|waitlist|llms|feed|search/.test(path)
    expect([...first.twins].sort()).toEqual([...english, ...german].filter(twin).sort())
    expect([...first.languages]).toEqual(['de'])
    expect(first.redirects.size).toBe(0)

    const redirect = { _id: 'redirect-old', _type: 'redirect', source: '/old', destination: { kind: 'path', path: '/privacy' }, permanent: true }
    await writeFile(seedPath, `${seed.trimEnd()}\n${JSON.stringify(redirect)}\n`)
    // Kept in memory: a random address costs no read of its own.
    expect(await addresses(now + 1_000)).toBe(first)
    // The publish webhook forgets it: the next request reads the redirect.
    forgetAddresses()
    const published = await addresses(now + 2_000)
    expect(answerFor(published, '/old')).toEqual({ kind: 'redirect', destination: '/privacy', permanent: true })

    // A post's publish is heard the same way (the webhook forgets the list for post and category changes too).
    const post = {
      _id: 'post-new',
      _type: 'post',
      title: 'New',
      slug: { _type: 'slug', current: 'new' },
      publishedAt: '2026-11-24T10:00:00Z',
      excerpt: 'New.',
      body: [],
    }
    await writeFile(seedPath, `${seed.trimEnd()}\n${JSON.stringify(post)}\n`)
    expect(answerFor(await addresses(now + 3_000), '/blog/new')).toEqual({ kind: 'missing' })
    forgetAddresses()
    expect(answerFor(await addresses(now + 4_000), '/blog/new')).toEqual({ kind: 'page', negotiated: true })
    expect(answerFor(await addresses(now + 4_000), '/blog/new.md')).toEqual({ kind: 'markdown', path: '/blog/new' })
    expect(ADDRESS_TYPES.has('post') && ADDRESS_TYPES.has('category')).toBe(true)

    // Without a webhook, the revalidation period is the safety net: a redirect published while the
    // webhook was lost is heard after it. Past the period, the list in hand answers at once (no
    // request waits for the read) while the list is read again behind the requests.
    const heard = await addresses(now + 4_000)
    await writeFile(seedPath, `${seed.trimEnd()}\n${JSON.stringify(redirect)}\n`)
    expect(await addresses(now + 63_000)).toBe(heard)
    const late = await addresses(now + 64_001)
    expect(late).toBe(heard)
    expect(answerFor(late, '/old')).toEqual({ kind: 'missing' })
    await vi.waitFor(async () =>
      expect(answerFor(await addresses(now + 64_002), '/old')).toEqual({ kind: 'redirect', destination: '/privacy', permanent: true }),
    )
  })

  it('go on answering when a read behind the requests fails, and try again on the next request', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'addresses-'))
    const seedPath = path.join(dir, 'production.ndjson')
    await writeFile(seedPath, await readFile('sanity/seed/production.ndjson', 'utf8'))
    vi.stubEnv('CONTENT_SEED_PATH', seedPath)
    vi.stubEnv('CONTENT_REVALIDATE_SECONDS', '60')
    forgetAddresses()
    const now = Date.now()
    const held = await addresses(now)
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      await writeFile(seedPath, '{ not json')
      expect(await addresses(now + 61_000)).toBe(held)
      await vi.waitFor(() => expect(error).toHaveBeenCalledWith(expect.stringContaining('Could not reload the published addresses')))
      expect(await addresses(now + 62_000)).toBe(held)
      await writeFile(seedPath, await readFile('sanity/seed/production.ndjson', 'utf8'))
      await vi.waitFor(async () => expect(await addresses(now + 63_000)).not.toBe(held), { timeout: 5_000 })
      expect(answerFor(await addresses(now + 63_001), '/privacy')).toEqual({ kind: 'page', negotiated: true })
    } finally {
      error.mockRestore()
    }
  })

  it('answer with the last list read when the content cannot be read after a publish, and pick the publish up by themselves once it can', async () => {
    const { seedPath, seed } = await seedCopy('addresses-outage')
    vi.stubEnv('CONTENT_SEED_PATH', seedPath)
    vi.stubEnv('CONTENT_REVALIDATE_SECONDS', '3600')
    forgetAddresses()
    const now = Date.now()
    const held = await addresses(now)
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      // A redirect is published, and the content API fails as the webhook arrives.
      const redirect = { _id: 'redirect-old', _type: 'redirect', source: '/old', destination: { kind: 'path', path: '/privacy' }, permanent: true }
      await writeFile(seedPath, '{ not json')
      forgetAddresses()
      // The proxy still knows every page it knew (no pass-through to a route that cannot read either).
      const during = await addresses(now + 1_000)
      expect(during).toBe(held)
      expect(answerFor(during, '/privacy')).toEqual({ kind: 'page', negotiated: true })
      expect(error).toHaveBeenCalledWith(expect.stringContaining('the last ones read answer until they can be'))
      expect(await addresses(now + 2_000)).toBe(held)
      // The API is back: the publish is heard without another webhook, and no request waited for it.
      // Swapped in whole, as the API answers: a read behind the requests may be under way.
      await writeFile(`${seedPath}.next`, `${seed.trimEnd()}\n${JSON.stringify(redirect)}\n`)
      await rename(`${seedPath}.next`, seedPath)
      await vi.waitFor(
        async () => expect(answerFor(await addresses(now + 3_000), '/old')).toEqual({ kind: 'redirect', destination: '/privacy', permanent: true }),
        { timeout: 5_000 },
      )
    } finally {
      error.mockRestore()
    }
  })
})
