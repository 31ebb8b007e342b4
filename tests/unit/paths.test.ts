import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  CODE_ROUTES,
  normalizePath,
  pageCount,
  postListPath,
  postPath,
  postSlugProblem,
  POSTS_PER_PAGE,
  previousSlugsAfter,
  redirectProblems,
  redirectSourceProblem,
  RESERVED_SEGMENTS,
  sameSitePath,
  slugProblem,
} from '@/lib/content/paths'

/**
 * The first URL segment of every route under app/: route groups "(…)" are transparent, and so is
 * the language ([lang], the prefix of every language but English); other dynamic "[…]" segments
 * are not names.
 */
function topLevelRoutes(dir = 'app'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if ((entry.name.startsWith('(') || entry.name === '[lang]') && entry.isDirectory()) return topLevelRoutes(`${dir}/${entry.name}`)
    if (entry.name.startsWith('[') || entry.name.startsWith('_')) return []
    if (entry.isDirectory()) return [entry.name]
    // Metadata files that answer at the root: /sitemap.xml, /robots.txt, /icon.svg.
    if (/^(sitemap|robots)\.ts$/.test(entry.name)) return [entry.name.replace('.ts', entry.name.startsWith('sitemap') ? '.xml' : '.txt')]
    if (entry.name === 'icon.svg') return [entry.name]
    return []
  })
}

describe('page slugs', () => {
  it('the reserved list names every route the app defines itself (add a new route there)', () => {
    expect([...new Set(topLevelRoutes())].sort()).toEqual([...CODE_ROUTES].sort())
  })

  it.each(['studio', 'api', 'ingest', 'og', '_next', 'about', 'waitlist'])('refuses "%s", a path the code owns', (slug) => {
    expect(slugProblem(slug)).toMatch(/path the site's code owns/)
  })

  it.each(['Privacy', 'privacy policy', 'a/b', '-privacy', 'privacy-', 'pri--vacy', 'café', 'privacy.html', ' privacy', ''])('refuses "%s"', (slug) => {
    expect(slugProblem(slug)).not.toBeNull()
  })

  it.each(['page', 'category', 'feed.xml'])('refuses the blog list segment "%s" as a post slug', (slug) => {
    expect(postSlugProblem(slug)).toMatch(/blog's list addresses/)
  })

  it('addresses posts and their lists, page 1 without a number', () => {
    expect(postPath('we-are-live')).toBe('/blog/we-are-live')
    expect(postListPath()).toBe('/blog')
    expect(postListPath({ page: 1 })).toBe('/blog')
    expect(postListPath({ page: 3 })).toBe('/blog/page/3')
    expect(postListPath({ category: 'product', page: 2 })).toBe('/blog/category/product/page/2')
    expect([pageCount(0), pageCount(POSTS_PER_PAGE), pageCount(POSTS_PER_PAGE + 1)]).toEqual([1, 1, 2])
  })

  it.each(['privacy', 'customer-stories', 'q4-2026'])('accepts "%s"', (slug) => {
    expect(slugProblem(slug)).toBeNull()
  })

  it('reserves the analytics proxy (a route) and Next’s assets besides the routes', () => {
    expect(RESERVED_SEGMENTS).toEqual(expect.arrayContaining(['ingest', '_next']))
  })
})

describe('redirect sources', () => {
  it.each([
    ['old-pricing', /single "\/"/],
    ['//evil.test/x', /single "\/"/],
    ['/', /home page/],
    ['/a?b=1', /path only/],
    ['/studio/x', /served by the site's code/],
    ['/api/revalidate', /served by the site's code/],
    ['/about', /served by the site's code/],
  ])('refuses %s', (source, message) => {
    expect(redirectSourceProblem(source)).toMatch(message)
  })

  it('accepts nested paths and ignores a trailing slash when comparing', () => {
    expect(redirectSourceProblem('/blog/old-post/')).toBeNull()
    expect(normalizePath('/blog/old-post/')).toBe('/blog/old-post')
    expect(normalizePath('/')).toBe('/')
  })
})

describe('redirect rules', () => {
  const others = [
    { id: 'r-a', source: '/a', destinationPath: '/b' },
    { id: 'r-c', source: '/c', destinationPath: null },
  ]

  it('accepts a redirect to a final address', () => {
    expect(redirectProblems({ id: 'new', source: '/old', destinationPath: '/privacy' }, others, ['/privacy'])).toEqual([])
    expect(redirectProblems({ id: 'new', source: '/old', destinationPath: null }, others, ['/privacy'])).toEqual([])
  })

  it('refuses a source that is a post, and the lists themselves, but lets an old post address redirect', () => {
    expect(redirectProblems({ id: 'new', source: '/blog/live', destinationPath: '/' }, others, ['/blog/live'])).toHaveLength(1)
    expect(redirectSourceProblem('/blog')).toMatch(/served by the site's code/)
    expect(redirectSourceProblem('/changelog/')).toMatch(/served by the site's code/)
    expect(redirectSourceProblem('/blog/old-post')).toBeNull()
  })

  it('refuses a source that is a page', () => {
    expect(redirectProblems({ id: 'new', source: '/privacy/', destinationPath: '/terms' }, others, ['/privacy'])).toEqual([
      '/privacy is the address of a published page or post: unpublish it or change its address first',
    ])
  })

  it('refuses a loop to itself and through another redirect', () => {
    expect(redirectProblems({ id: 'new', source: '/x', destinationPath: '/x/' }, others, [])).toEqual(['/x redirects to itself (a loop)'])
    expect(redirectProblems({ id: 'new', source: '/b', destinationPath: '/a' }, others, [])).toEqual(expect.arrayContaining(['/b → /a → /b is a loop']))
  })

  it('refuses chains in both directions, and a second redirect from the same source', () => {
    expect(redirectProblems({ id: 'new', source: '/z', destinationPath: '/a' }, others, [])).toEqual([
      '/a is itself redirected (to /b): point this redirect straight at the final address, no chains',
    ])
    expect(redirectProblems({ id: 'new', source: '/b', destinationPath: '/d' }, others, [])).toEqual([
      'The redirect from /a points at /b: a chain. Point that one at the final address first',
    ])
    expect(redirectProblems({ id: 'new', source: '/c', destinationPath: '/d' }, others, [])).toEqual(['Another redirect already has the source /c'])
  })
})

describe('a path to send a browser to (draft mode’s page to open)', () => {
  const SITE = 'https://heardly.example'
  it.each([
    ['/.//evil.com', '/evil.com'],
    ['/./././/evil.com/a?x=1', '/evil.com/a?x=1'],
    ['//evil.com', '/'],
    ['/\\evil.com', '/'],
    ['\\\\evil.com', '/'],
    ['https://evil.com/x', '/'],
    ['javascript:alert(1)', '/'],
    ['/%2F%2Fevil.com', '/%2F%2Fevil.com'],
    ['', '/'],
    [null, '/'],
    ['/about?x=1#team', '/about?x=1#team'],
    ['/privacy', '/privacy'],
  ])('%j stays on this site: %j', (value, expected) => {
    const path = sameSitePath(value)
    expect(path).toBe(expected)
    // What a browser does with it: the same origin, always.
    expect(new URL(path, SITE).origin).toBe(SITE)
  })
})

describe('the old slugs a page or post is published with', () => {
  const doc = (slug: string | undefined, previousSlugs?: string[]) => ({ slug: slug === undefined ? undefined : { current: slug }, previousSlugs })

  it.each([
    ['a first publish keeps nothing', null, doc('careers'), undefined],
    ['the same address changes nothing', doc('careers'), doc('careers'), undefined],
    ['a move keeps the old address', doc('careers'), doc('jobs'), ['careers']],
    ['a second move keeps both, each one hop from the new one', doc('jobs', ['careers']), doc('join-us', ['careers']), ['careers', 'jobs']],
    ['a move back takes the address again, and keeps the one it leaves', doc('jobs', ['careers']), doc('careers', ['careers']), ['jobs']],
    ['an address kept already is not kept twice', doc('jobs', ['careers']), doc('work', ['careers', 'jobs']), undefined],
    ['an editor’s removal stands when the address does not move', doc('jobs', ['careers', 'old']), doc('jobs', ['careers']), undefined],
    ['a draft whose slug was cleared keeps the old one', doc('jobs'), doc(undefined), undefined],
    ['the list of the draft is the truth, plus the move', doc('jobs', ['a', 'b']), doc('work', ['b']), ['b', 'jobs']],
  ])('%s', (_, published, next, expected) => {
    expect(previousSlugsAfter(published, next)).toEqual(expected)
  })

  it('drops the current slug from a list typed by hand', () => {
    expect(previousSlugsAfter(doc('jobs'), doc('jobs', ['jobs', 'careers']))).toEqual(['careers'])
  })
})
