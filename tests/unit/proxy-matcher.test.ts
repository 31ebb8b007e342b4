import { readdirSync } from 'node:fs'
import path from 'node:path'
import * as staticInfo from 'next/dist/build/analysis/get-page-static-info'
import type { ProxyMatcher } from 'next/dist/build/analysis/get-page-static-info'
import { getMiddlewareRouteMatcher } from 'next/dist/shared/lib/router/utils/middleware-route-matcher'
import { describe, expect, it } from 'vitest'
import { config } from '@/proxy'
import { redirectSourceProblem } from '@/lib/content/paths'
import { SKIP_WHEN, SKIPPABLE_PATHS, SKIPPABLE_SOURCE, skippedHeaders, skippedRewrites } from '@/lib/http/proxy-skip'

// Which requests Next runs proxy.ts for, through Next's own reading of `config.matcher` (what the
// build writes to functions-config-manifest.json and the server matches each request with): every
// address that might be a page, a redirect or a Markdown twin, and not the site's root files, which
// only cost the server a run of the proxy (about 0.8 ms a request under load: docs/bench.md, "The
// server's own cost"), nor a browser's first, cookie-less navigation to one of English's fixed
// pages (docs/engineers.md, "Requests the proxy skips").

// What the build runs on `config.matcher` (its .d.ts leaves it out).
const { getMiddlewareMatchers } = staticInfo as unknown as { getMiddlewareMatchers: (matcher: unknown, nextConfig: object) => ProxyMatcher[] }
type Entry = unknown
const matcherOf = (entries: Entry) => getMiddlewareRouteMatcher(getMiddlewareMatchers(entries, {}))
const proxyMatch = matcherOf(config.matcher as Entry)

type Request = { headers?: Record<string, string>; cookie?: string }
/** What a browser's first visit sends with a navigation (Chromium's own Accept). */
const NAVIGATION = {
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'none',
  'sec-fetch-user': '?1',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
}
const navigation: Request = { headers: NAVIGATION }

const withRequest =
  (match: ReturnType<typeof matcherOf>) =>
  (address: string, request: Request = {}) => {
    const url = new URL(address, 'https://heardly.example')
    const headers = { host: 'heardly.example', ...request.headers, ...(request.cookie ? { cookie: request.cookie } : {}) }
    return match(url.pathname, { headers } as never, Object.fromEntries(url.searchParams))
  }
const runs = withRequest(proxyMatch)

describe("the proxy's matcher", () => {
  it('skips the root files that are never a page', () => {
    for (const path of ['/robots.txt', '/sitemap.xml', '/icon.svg']) expect(runs(path), path).toBe(false)
  })

  it("skips Next's files and the code's own routes, as before", () => {
    for (const path of ['/_next/static/chunks/main.js', '/api/revalidate', '/ingest/e/']) expect(runs(path), path).toBe(false)
  })

  it('runs for every address that might be a page, a redirect or a twin, however close to a root file or a fixed page', () => {
    for (const path of [
      '/',
      '/about',
      '/de',
      '/de/about',
      '/en',
      '/en/about',
      '/about/',
      '/about.md',
      '/about.json',
      '/index.md',
      '/aboutx',
      '/blog/feed.xml',
      '/blog/a-post',
      '/waitlist/x',
      '/llms.txt',
      '/robots.txt.md',
      '/robots.txt/x',
      '/robots-txt',
      '/old-sitemap.xml',
      '/de/robots.txt',
      '/icon.svg.md',
      '/this-page-does-not-exist',
    ]) {
      expect(runs(path), path).toBe(true)
      // A browser's navigation changes nothing for them: only the fixed pages are skipped.
      if (!(SKIPPABLE_PATHS as readonly string[]).includes(path)) expect(runs(path, navigation), `${path}, navigated to`).toBe(true)
    }
  })

  it("skips a browser's first, cookie-less navigation to each of English's fixed pages, a query or not", () => {
    for (const path of SKIPPABLE_PATHS) {
      expect(runs(path, navigation), path).toBe(false)
      expect(runs(`${path}?ref=newsletter`, navigation), `${path}?ref=newsletter`).toBe(false)
      // Cookies that concern nothing the proxy decides (analytics, a refused consent, an experiments
      // cookie without consent: mayTakePart) do not bring it back.
      expect(runs(path, { ...navigation, cookie: 'consent=denied; ph_phc_x_posthog=1; heardly_experiments=hero.b' }), path).toBe(false)
    }
  })

  it('runs for a fixed page as soon as anything the proxy decides might concern the request', () => {
    const concerned: [string, Request][] = [
      ['no Sec-Fetch-Dest (curl, a crawler, a load tool)', { headers: { accept: NAVIGATION.accept } }],
      ['a fetch, not a navigation (Next’s client router)', { headers: { ...NAVIGATION, 'sec-fetch-dest': 'empty', rsc: '1' } }],
      ['a frame', { headers: { ...NAVIGATION, 'sec-fetch-dest': 'iframe' } }],
      ['a body (a form posted to the page)', { headers: { ...NAVIGATION, 'content-type': 'application/x-www-form-urlencoded' } }],
      ['consent granted (an experiment may take the visitor)', { ...navigation, cookie: 'consent=granted' }],
      ['consent granted among other cookies', { ...navigation, cookie: 'a=1; consent=granted; b=2' }],
      ['a draft-mode cookie, whatever its value', { ...navigation, cookie: '__prerender_bypass=x' }],
      ['Accept preferring Markdown', { headers: { ...NAVIGATION, accept: 'text/markdown' } }],
      ['Accept naming Markdown at all, in any case', { headers: { ...NAVIGATION, accept: 'text/html;q=0.9, Text/MarkDown' } }],
    ]
    for (const path of SKIPPABLE_PATHS) for (const [why, request] of concerned) expect(runs(path, request), `${path}: ${why}`).toBe(true)
  })
})

describe('the skip, the proxy and next.config.ts in step', () => {
  it("spells out, in proxy.ts's literal, exactly the complement of lib/http/proxy-skip.ts", () => {
    const [others, ...fixed] = config.matcher
    expect(fixed).toEqual([
      ...SKIP_WHEN.has.map((condition) => ({ source: SKIPPABLE_SOURCE, missing: [condition] })),
      ...SKIP_WHEN.missing.map((condition) => ({ source: SKIPPABLE_SOURCE, has: [condition] })),
    ])
    expect(SKIPPABLE_SOURCE).toBe(`/(${SKIPPABLE_PATHS.map((path) => path.slice(1)).join('|')})`)
    // The entry for every other address leaves out exactly those paths.
    expect(others).toContain(
      `|(?:${SKIPPABLE_PATHS.filter((path) => path !== '/')
        .map((path) => path.slice(1))
        .join('|')})?$)`,
    )
  })

  it('says Vary: Accept, Cookie on exactly the requests the proxy skips', () => {
    const [entry] = skippedHeaders()
    const varies = withRequest(matcherOf([{ source: entry!.source, has: entry!.has, missing: entry!.missing }] as Entry))
    const requests: Request[] = [
      {},
      navigation,
      { ...navigation, cookie: 'consent=granted' },
      { ...navigation, cookie: 'consent=denied' },
      { ...navigation, cookie: '__prerender_bypass=1' },
      { headers: { ...NAVIGATION, accept: 'text/markdown' } },
      { headers: { ...NAVIGATION, 'content-type': 'text/plain' } },
    ]
    // A fixed page's address with a trailing slash always runs the proxy (the first entry), which
    // says what it varies on; Next matches a source with or without one, so such a navigation may
    // say `Cookie` too: more than needed, never less.
    for (const path of [...SKIPPABLE_PATHS, '/de/about', '/privacy'])
      for (const request of requests) expect(varies(path, request), `${path} ${JSON.stringify(request)}`).toBe(!runs(path, request))
    expect(entry!.headers).toEqual([{ key: 'Vary', value: 'Accept, Cookie' }])
  })

  it('rewrites each skipped address to its English route, and nothing else', () => {
    expect(skippedRewrites()).toEqual(SKIPPABLE_PATHS.map((path) => ({ source: path, destination: path === '/' ? '/en' : `/en${path}` })))
  })

  it('skips only addresses the Studio refuses as a redirect source', () => {
    for (const path of SKIPPABLE_PATHS) expect(redirectSourceProblem(path), path).not.toBeNull()
  })

  it('classifies every route under app/(site)/[lang]: skippable, or always through the proxy', () => {
    // A new route is a decision: a fixed page whose document the Studio cannot delete may join
    // SKIPPABLE_PATHS (and proxy.ts's literal); one whose addresses the content decides may not.
    const THROUGH_THE_PROXY = [
      '/[...slug]', // the pages marketers make: any address may be one, a redirect or nothing
      '/blog/[slug]',
      '/blog/page/[page]',
      '/blog/category/[category]',
      '/blog/category/[category]/page/[page]',
      '/blog/feed.xml',
      '/changelog/feed.xml',
      '/llms.txt',
      '/md/[[...path]]', // reached only by the proxy's rewrite of a twin
      '/not-found/[scope]', // reached only by the proxy's rewrite to the 404
      '/waitlist/ref/[code]', // reached only by the proxy's rewrite of a link preview of /waitlist?ref=
    ]
    const root = path.join('app', '(site)', '[lang]')
    const routes = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => /(^|\/)(page\.tsx|route\.ts)$/.test(file))
      .map((file) => `/${path.dirname(file)}`.replace(/\/\.$/, '/').replace(/^\/\.?$/, '/'))
      .sort()
    expect(routes).toEqual([...SKIPPABLE_PATHS, ...THROUGH_THE_PROXY].sort())
  })
})
