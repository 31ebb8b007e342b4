import { NextRequest } from 'next/server'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Addresses } from '@/sanity/content/addresses'

// proxy.ts as a request meets it, in each language: which route renders an address (English's
// unprefixed addresses rewritten to /en/…, a German one passed on as it is), which 404 answers an
// address the content does not have (the language of its prefix), and what it does when the
// content cannot be read. The published addresses are given here; their reading is
// tests/integration/addresses.test.ts.

const known = vi.hoisted(() => ({ current: null as Addresses | null }))
vi.mock('@/sanity/content/addresses', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/sanity/content/addresses')>()),
  addresses: async () => {
    if (!known.current) throw new Error('Sanity is down')
    return known.current
  },
}))

const { proxy } = await import('@/proxy')

const SITE = 'https://heardly.example'
// As Next makes it at build time: 16 random bytes in hex.
const PREVIEW_MODE_ID = '3f1c0e6b9a2d4c7e8f0a1b2c3d4e5f60'
/** Text as the bytes of its UTF-8 on the wire: what Node hands the proxy for a header (fetch's Headers take bytes only). */
const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1')
const book: Addresses = {
  languages: new Set(['de']),
  pages: new Set(['/', '/about', '/privacy', '/waitlist/confirm', '/de', '/de/about', '/de/datenschutz', '/de/waitlist/confirm']),
  redirects: new Map([
    ['/old', { destination: '/about', permanent: true }],
    ['/de/alt', { destination: '/de/about', permanent: false }],
  ]),
  // The pages with a Markdown twin: not /waitlist/confirm (a link from an e-mail, no words to read).
  twins: new Set(['/', '/about', '/privacy', '/de', '/de/about', '/de/datenschutz']),
  campaigns: new Map(),
}

/** What the proxy does with an address: the rewritten route, a redirect's target, or passing it on. */
async function answer(path: string, init: { cookie?: string; accept?: string } = {}) {
  const headers = { ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.accept ? { accept: init.accept } : {}) }
  const response = await proxy(new NextRequest(new URL(path, SITE), { headers }))
  const rewrite = response.headers.get('x-middleware-rewrite')
  const location = response.headers.get('location')
  return {
    status: response.status,
    ...(rewrite ? { rewrite: new URL(rewrite).pathname + new URL(rewrite).search } : {}),
    ...(location ? { location: new URL(location, SITE).pathname + new URL(location, SITE).search } : {}),
    next: response.headers.get('x-middleware-next') === '1',
    vary: response.headers.get('vary'),
    cacheControl: response.headers.get('cache-control'),
  }
}

describe('the proxy, in each language', () => {
  beforeEach(() => {
    known.current = book
  })

  it('renders English addresses from the /en route, and German ones where they are', async () => {
    expect(await answer('/')).toMatchObject({ status: 200, rewrite: '/en', next: false })
    expect(await answer('/about')).toMatchObject({ status: 200, rewrite: '/en/about' })
    expect(await answer('/privacy')).toMatchObject({ status: 200, rewrite: '/en/privacy' })
    expect(await answer('/de')).toMatchObject({ status: 200, next: true })
    expect(await answer('/de/datenschutz')).toMatchObject({ status: 200, next: true })
  })

  it('keeps the query through the rewrite (a referral code, a token in a GET)', async () => {
    expect(await answer('/waitlist/confirm?ref=abc')).toMatchObject({ rewrite: '/en/waitlist/confirm?ref=abc' })
  })

  it('answers an address the content does not have with the 404 of its prefix’s language', async () => {
    expect(await answer('/nope')).toMatchObject({ status: 404, rewrite: '/en/not-found/site' })
    expect(await answer('/de/nope')).toMatchObject({ status: 404, rewrite: '/de/not-found/site' })
    // English's page under the German prefix is not German's: the German 404.
    expect(await answer('/de/privacy')).toMatchObject({ status: 404, rewrite: '/de/not-found/site' })
    // A language the site does not speak is no prefix: English's 404.
    expect(await answer('/fr/about')).toMatchObject({ status: 404, rewrite: '/en/not-found/site' })
    // The 404 routes are not addresses of their own.
    expect(await answer('/not-found/site')).toMatchObject({ status: 404, rewrite: '/en/not-found/site' })
    expect(await answer('/de/not-found/site')).toMatchObject({ status: 404, rewrite: '/de/not-found/site' })
  })

  it('says English once: /en/… is a permanent redirect to the unprefixed address', async () => {
    expect(await answer('/en')).toMatchObject({ status: 308, location: '/' })
    expect(await answer('/en/about')).toMatchObject({ status: 308, location: '/about' })
  })

  it('answers redirects in either language before anything renders', async () => {
    expect(await answer('/old')).toMatchObject({ status: 308, location: '/about' })
    expect(await answer('/de/alt')).toMatchObject({ status: 307, location: '/de/about' })
  })

  it('keeps the query through a redirect (a campaign’s tags, a referral code)', async () => {
    expect(await answer('/en/about?utm_campaign=spring&ref=abc')).toMatchObject({ status: 308, location: '/about?utm_campaign=spring&ref=abc' })
    expect(await answer('/en?utm_source=newsletter')).toMatchObject({ status: 308, location: '/?utm_source=newsletter' })
    expect(await answer('/old?utm_campaign=spring')).toMatchObject({ status: 308, location: '/about?utm_campaign=spring' })
    expect(await answer('/de/alt?utm_campaign=fruehling')).toMatchObject({ status: 307, location: '/de/about?utm_campaign=fruehling' })
  })

  it('never redirects on Accept-Language: an address answers the same for every visitor', async () => {
    const german = await proxy(new NextRequest(new URL('/about', SITE), { headers: { 'accept-language': 'de-DE,de;q=0.9' } }))
    expect(german.status).toBe(200)
    expect(new URL(german.headers.get('x-middleware-rewrite')!).pathname).toBe('/en/about')
  })

  it('leaves the Studio, share images and metadata files alone', async () => {
    for (const path of ['/studio', '/og/de/home', '/sitemap.xml', '/robots.txt']) expect(await answer(path)).toMatchObject({ status: 200, next: true })
  })

  it('lets a draft preview through to its route, in its language, kept out of shared caches', async () => {
    vi.stubEnv('__NEXT_PREVIEW_MODE_ID', PREVIEW_MODE_ID)
    const cookie = `__prerender_bypass=${PREVIEW_MODE_ID}`
    expect(await answer('/unpublished', { cookie })).toMatchObject({ status: 200, rewrite: '/en/unpublished', cacheControl: 'private, no-store' })
    expect(await answer('/de/unveroeffentlicht', { cookie })).toMatchObject({ status: 200, next: true, cacheControl: 'private, no-store' })
    expect(await answer('/about', { cookie })).toMatchObject({ status: 200, rewrite: '/en/about', cacheControl: 'private, no-store' })
    vi.unstubAllEnvs()
  })

  it('answers the one static 404 to a forged draft cookie: only the preview mode id of the build opens the route', async () => {
    vi.stubEnv('__NEXT_PREVIEW_MODE_ID', PREVIEW_MODE_ID)
    const forged = [
      '',
      'preview',
      PREVIEW_MODE_ID.slice(0, -1),
      `${PREVIEW_MODE_ID}x`,
      PREVIEW_MODE_ID.toUpperCase(),
      'a'.repeat(4000),
      '%F0%9F%98%80',
      utf8Bytes('ｐｒｅｖｉｅｗ'),
      utf8Bytes('\u202e\u0301'),
    ]
    for (const value of forged) {
      const cookie = `__prerender_bypass=${value}`
      expect(await answer(`/random-${value.length}`, { cookie }), value).toMatchObject({ status: 404, rewrite: '/en/not-found/site' })
      expect(await answer(`/de/zufall-${value.length}`, { cookie }), value).toMatchObject({ status: 404, rewrite: '/de/not-found/site' })
    }
    // A build without a preview mode id (none given to the proxy) has no draft session at all.
    vi.stubEnv('__NEXT_PREVIEW_MODE_ID', '')
    expect(await answer('/unpublished', { cookie: '__prerender_bypass=' })).toMatchObject({ status: 404 })
    vi.unstubAllEnvs()
  })

  it('falls back to the routes when the content cannot be read: English rewritten, a prefix passed on', async () => {
    known.current = null
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await answer('/about')).toMatchObject({ status: 200, rewrite: '/en/about' })
    expect(await answer('/de/about')).toMatchObject({ status: 200, next: true })
  })

  it('answers a page’s Markdown twin at <path>.md, /index.md for a home page, in each language', async () => {
    expect(await answer('/about.md')).toMatchObject({ status: 200, rewrite: '/en/md/about' })
    expect(await answer('/index.md')).toMatchObject({ status: 200, rewrite: '/en/md' })
    expect(await answer('/privacy.md')).toMatchObject({ status: 200, rewrite: '/en/md/privacy' })
    expect(await answer('/de/about.md')).toMatchObject({ status: 200, rewrite: '/de/md/about' })
    expect(await answer('/de/index.md')).toMatchObject({ status: 200, rewrite: '/de/md' })
    expect(await answer('/de/datenschutz.md')).toMatchObject({ status: 200, rewrite: '/de/md/datenschutz' })
  })

  it('answers 404, as the page does, for the twin of a page that is not published or has none', async () => {
    // A language's home has its twin at /<code>/index.md only: /de.md is not the German home's, nor the English one's.
    for (const path of [
      '/nope.md',
      '/de/nope.md',
      '/de/privacy.md',
      '/waitlist/confirm.md',
      '/old.md',
      '/.md',
      '/about/.md',
      '/about.md.md',
      '/md/about',
      '/de/md/about',
      '/en/md',
      '/de.md',
      '/de.md/',
      '/DE.md',
      '/de/.md',
      '/fr.md',
    ]) {
      const { status, rewrite } = await answer(path)
      if (path === '/en/md') expect(status, path).toBe(308)
      else
        expect({ path, status, rewrite: rewrite?.replace(/\/site\/?$/, '') }).toEqual({
          path,
          status: 404,
          rewrite: `/${path.startsWith('/de/') ? 'de' : 'en'}/not-found`,
        })
    }
  })

  it('answers a page’s own address with its twin when the request prefers Markdown, with Vary: Accept on both answers', async () => {
    // The twin at the page's own address is kept out of shared caches: a CDN that ignores Vary would give it to browsers.
    expect(await answer('/about', { accept: 'text/markdown' })).toMatchObject({
      status: 200,
      rewrite: '/en/md/about',
      vary: 'Accept',
      cacheControl: 'private, no-store',
    })
    expect(await answer('/about.md', { accept: 'text/markdown' })).toMatchObject({ status: 200, rewrite: '/en/md/about', vary: null, cacheControl: null })
    expect(await answer('/', { accept: 'text/markdown, text/html;q=0.5' })).toMatchObject({ rewrite: '/en/md', vary: 'Accept' })
    expect(await answer('/de/datenschutz', { accept: 'text/markdown' })).toMatchObject({ rewrite: '/de/md/datenschutz', vary: 'Accept' })
    // A browser, a wildcard, HTML preferred, or no Accept at all: the page, still saying it varies.
    for (const accept of [
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      '*/*',
      'text/html, text/markdown;q=0.9',
      'text/markdown;q=0',
      undefined,
    ]) {
      expect(await answer('/about', { accept }), String(accept)).toMatchObject({ status: 200, rewrite: '/en/about', vary: 'Accept', cacheControl: null })
    }
    expect(await answer('/de/about', { accept: 'text/html' })).toMatchObject({ status: 200, next: true, vary: 'Accept' })
    // An address without a twin answers the same whatever Accept says: nothing to vary.
    expect(await answer('/waitlist/confirm', { accept: 'text/markdown' })).toMatchObject({ status: 200, rewrite: '/en/waitlist/confirm', vary: null })
    expect(await answer('/nope', { accept: 'text/markdown' })).toMatchObject({ status: 404, rewrite: '/en/not-found/site' })
  })
})
