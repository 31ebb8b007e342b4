import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { addresses, answerFor, forgetAddresses, type Addresses } from '@/lib/content/addresses'

// What the proxy asks of every address (proxy.ts): read over the seed, kept in memory, read
// afresh after a publish or after the revalidation period.

afterEach(() => vi.unstubAllEnvs())

const book: Addresses = {
  pages: new Set(['/privacy', '/careers']),
  redirects: new Map([
    ['/old-pricing', { destination: '/#pricing', permanent: true }],
    ['/über-uns', { destination: '/about', permanent: false }],
  ]),
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
    const dir = await mkdtemp(path.join(tmpdir(), 'addresses-'))
    const seedPath = path.join(dir, 'production.ndjson')
    const seed = await readFile('sanity/seed/production.ndjson', 'utf8')
    await writeFile(seedPath, seed)
    vi.stubEnv('CONTENT_SEED_PATH', seedPath)
    vi.stubEnv('CONTENT_REVALIDATE_SECONDS', '60')
    forgetAddresses()
    const now = Date.now()

    const first = await addresses(now)
    expect([...first.pages].sort()).toEqual(['/careers', '/cookies', '/gdpr', '/privacy', '/terms'])
    expect(first.redirects.size).toBe(0)

    const redirect = { _id: 'redirect-old', _type: 'redirect', source: '/old', destination: { kind: 'path', path: '/privacy' }, permanent: true }
    await writeFile(seedPath, `${seed.trimEnd()}\n${JSON.stringify(redirect)}\n`)
    // Kept in memory: a random address costs no read of its own.
    expect(await addresses(now + 1_000)).toBe(first)
    // The publish webhook forgets it: the next request reads the redirect.
    forgetAddresses()
    const published = await addresses(now + 2_000)
    expect(answerFor(published, '/old')).toEqual({ kind: 'redirect', destination: '/privacy', permanent: true })

    // Without a webhook, the revalidation period is the safety net.
    await writeFile(seedPath, seed)
    expect(await addresses(now + 61_000)).toBe(published)
    expect(answerFor(await addresses(now + 62_001), '/old')).toEqual({ kind: 'missing' })
  })
})
