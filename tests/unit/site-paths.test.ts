import fc from 'fast-check'
import { NextRequest } from 'next/server'
import { describe, expect, it, vi } from 'vitest'
import type { Addresses } from '@/sanity/content/addresses'
import { onSitePath, redirectLocation, sitePathProblem } from '@/lib/content/paths'
import { toLink, toRedirects } from '@/sanity/content/reshape'
import { validateDocuments } from '@/sanity/validate-documents'
import { schemaTypes } from '@/sanity/schemaTypes'

// "Path on this site" stays on this site, in two layers: the Studio (and content:publish) refuse
// anything a URL parser would read as another host, and the renderers and the proxy resolve a path
// so that its host is ours even for a document written before that rule. Attacks as a careless
// editor or a hostile one would type them; what a browser does is `new URL`, as WHATWG parses.

const SITE = 'https://heardly.example'

/** Values that start with "/" yet lead a browser to another host, or carry what no path should. */
const OFF_SITE = [
  '/\\evil.example/x',
  '/\\\\evil.example',
  '/\t/evil2.example/y',
  '/\n/evil.example',
  '/\r/evil.example',
  '//evil.example',
  '/ /evil.example',
  '/..//evil.example',
  '/.//evil.example',
  '/./\\evil.example',
  '/\u0000/evil.example',
  '/\u202E/evil.example',
  '/\u200B/evil.example',
  '/\uD800',
]

const lead = vi.hoisted(() => ({ known: null as Addresses | null }))
vi.mock('@/sanity/content/addresses', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/sanity/content/addresses')>()),
  addresses: async () => lead.known!,
}))
const { proxy } = await import('@/proxy')

describe('the rule: a path on this site', () => {
  it('accepts paths, anchors and queries of this site', () => {
    for (const path of ['/', '/about', '/#pricing', '/blog?page=2', '/de/datenschutz', '/blog/a-post#section-2', '/a/b/c', '/%E2%9C%93']) {
      expect(sitePathProblem(path), path).toBeNull()
      expect(onSitePath(path)).toBe(path)
    }
  })

  it('refuses backslashes, tabs, controls, invisible characters and anything read as another host', () => {
    for (const path of OFF_SITE) {
      expect(sitePathProblem(path), JSON.stringify(path)).not.toBeNull()
      expect(onSitePath(path)).toBeNull()
    }
    expect(sitePathProblem('/\\evil.example/x')).toMatch(/backslash/)
    expect(sitePathProblem('/\t/evil2.example/y')).toMatch(/tabs/)
    expect(sitePathProblem('about')).toMatch(/single "\/"/)
  })

  it('for any value it allows, a browser stays on this site (generated)', () => {
    const parts = fc.constantFrom('/', '\\', '.', '..', '\t', '\n', ' ', '%2f', '%5c', 'evil.example', '@', ':', '?', '#', '\u202E', '\u0000', 'a')
    const value = fc.array(parts, { minLength: 1, maxLength: 8 }).map((list) => list.join(''))
    fc.assert(
      fc.property(fc.oneof(value, fc.string({ unit: 'binary' })), (path) => {
        if (sitePathProblem(path) !== null) return
        const url = new URL(path, SITE)
        expect(url.origin).toBe(SITE)
        expect(url.pathname.startsWith('//')).toBe(false)
      }),
      { numRuns: 5000 },
    )
  })

  it('a redirect’s location: a path on the request’s own host, or an http(s) address elsewhere, else none', () => {
    expect(redirectLocation('/about', `${SITE}/old`)?.toString()).toBe(`${SITE}/about`)
    expect(redirectLocation('https://docs.example/x', `${SITE}/old`)?.toString()).toBe('https://docs.example/x')
    for (const path of OFF_SITE) expect(redirectLocation(path, `${SITE}/old`), JSON.stringify(path)).toBeNull()
    for (const scheme of ['javascript:alert(1)', 'data:text/html,x', 'ftp://x.example', 'evil.example'])
      expect(redirectLocation(scheme, `${SITE}/old`)).toBeNull()
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (destination) => {
        const url = redirectLocation(`/${destination}`, `${SITE}/old`)
        if (url) expect(url.origin).toBe(SITE)
      }),
      { numRuns: 3000 },
    )
  })
})

describe('a redirect keeps the query it was asked with', () => {
  const at = (destination: string, asked: string) => redirectLocation(destination, `${SITE}${asked}`)?.toString()

  it('a campaign’s tags and any other parameter, to a path here or an address elsewhere', () => {
    expect(at('/about', '/old?utm_campaign=spring&utm_source=newsletter')).toBe(`${SITE}/about?utm_campaign=spring&utm_source=newsletter`)
    expect(at('https://docs.example/x', '/old?utm_source=newsletter')).toBe('https://docs.example/x?utm_source=newsletter')
    expect(at('/about', '/old')).toBe(`${SITE}/about`)
  })

  it('the destination’s own parameters win (every value of them), the others are added after them, and its fragment stays', () => {
    expect(at('/?utm_source=promo&utm_source=short#pricing', '/old?utm_source=newsletter&utm_campaign=spring')).toBe(
      `${SITE}/?utm_source=promo&utm_source=short&utm_campaign=spring#pricing`,
    )
    expect(at('https://docs.example/x?ref=site', '/old?ref=mine&v=2')).toBe('https://docs.example/x?ref=site&v=2')
  })

  it('whatever the query, the location stays where the destination says', () => {
    for (const query of ['next=//evil.example', '@evil.example', '/\\evil.example', '%2F%2Fevil.example', 'a=%0d%0aLocation:%20https://evil.example'])
      expect(new URL(at('/about', `/old?${query}`)!).origin, query).toBe(SITE)
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (query) => {
        const asked = new URL(`${SITE}/old`)
        asked.search = query
        const url = redirectLocation('/about', asked)
        expect(url?.origin).toBe(SITE)
        expect(url?.pathname).toBe('/about')
      }),
      { numRuns: 3000 },
    )
  })
})

describe('the Studio and content:publish refuse such a destination', () => {
  const problems = (document: Record<string, unknown>) => validateDocuments(schemaTypes as never, [document])
  const redirect = (path: string) => ({
    _id: 'redirect-x',
    _type: 'redirect',
    source: '/old-x',
    permanent: false,
    destination: { _type: 'object', kind: 'path', path },
  })

  it('in a redirect', async () => {
    expect(await problems(redirect('/about'))).toEqual([])
    for (const path of ['/\\evil.example/x', '/\t/evil2.example/y', '/..//evil.example']) {
      expect((await problems(redirect(path))).join(), JSON.stringify(path)).toMatch(/destination\.path:/)
    }
  })

  it('in a redirect’s source too (no backslash or invisible character can be matched by a request)', async () => {
    const withSource = (source: string) => ({ ...redirect('/about'), source })
    expect((await problems(withSource('/old\\x'))).join()).toMatch(/source:/)
    expect((await problems(withSource('/old\u200B'))).join()).toMatch(/source:/)
  })
})

describe('a document written before the rule still cannot lead off the site', () => {
  const raw = (path: string) =>
    ({ _key: 'k', label: 'Docs', kind: 'internal', path, pageSlug: null, pageLanguage: null, url: null, email: null }) as Parameters<typeof toLink>[0]

  it('a menu link with such a path is shown as not available, never as a link elsewhere', () => {
    expect(toLink(raw('/about'))).toMatchObject({ kind: 'internal', href: '/about' })
    for (const path of OFF_SITE) expect(toLink(raw(path)), JSON.stringify(path)).toMatchObject({ kind: 'planned' })
  })

  it('such a redirect is left out of the list the proxy reads', () => {
    const redirects = toRedirects([
      { source: '/old', kind: 'path', path: '/\\evil.example/x', url: null, permanent: false },
      { source: '/older', kind: 'url', path: null, url: 'javascript:alert(1)', permanent: false },
      { source: '/fine', kind: 'path', path: '/about', url: null, permanent: true },
    ])
    expect([...redirects.keys()]).toEqual(['/fine'])
  })

  it('the proxy answers the 404, with no Location, for a redirect to such a path that reached it', async () => {
    const redirects = new Map(OFF_SITE.map((destination, index) => [`/old-${index}`, { destination, permanent: false }]))
    redirects.set('/fine', { destination: '/about', permanent: true })
    lead.known = { languages: new Set(), pages: new Set(['/', '/about']), redirects, twins: new Set(), campaigns: new Map() }
    for (const [source, { destination }] of redirects) {
      const response = await proxy(new NextRequest(new URL(source, SITE)))
      if (source === '/fine') {
        expect(response.status).toBe(308)
        expect(response.headers.get('location')).toBe(`${SITE}/about`)
        continue
      }
      expect(response.status, JSON.stringify(destination)).toBe(404)
      expect(response.headers.get('location')).toBeNull()
    }
  })
})
