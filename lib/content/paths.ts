/**
 * The rules that decide which paths pages and redirects may take. Shared by the Studio's
 * validation, `npm run content:publish` and the site, so all three agree; free of Sanity and
 * Next so tests can run them directly.
 */

import { DEFAULT_LANGUAGE, isLanguageCode, localizePath } from '../i18n/languages'

/** A page's slug: lowercase words of letters and digits joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** Top-level routes the code serves itself under app/ (tests/unit/paths.test.ts checks this list against app/). */
export const CODE_ROUTES = [
  'about',
  'waitlist',
  'studio',
  'api',
  'og',
  'ingest',
  'sitemap.xml',
  'robots.txt',
  'icon.svg',
  'seed-images',
  'not-found',
  'blog',
  'changelog',
  'search',
  'md',
  'llms.txt',
] as const

/**
 * Code routes whose addresses the content decides (a post, a page of a list, a category): the
 * proxy looks them up like pages, so an address nobody published gets the server-drawn 404.
 */
export const CONTENT_ROUTES: ReadonlySet<string> = new Set(['blog', 'changelog'])

/**
 * The addresses of each fixed page, by its document type: they answer in a language where that
 * document is published in it (the blog's lists and feeds are added with the blog's words).
 */
export const FIXED_PAGE_PATHS: Readonly<Record<string, readonly string[]>> = {
  landingPage: ['/'],
  aboutPage: ['/about'],
  waitlistPage: ['/waitlist', '/waitlist/confirm', '/waitlist/unsubscribe', '/waitlist/leaderboard'],
  blogPage: ['/changelog'],
  // The search page's words are in Site settings: it answers wherever they are translated.
  siteSettings: ['/search'],
}

/** Each language's llms.txt (llmstxt.org): the site in links for an AI assistant, refreshed on publish like the sitemap. */
export const LLMS_TXT_PATH = '/llms.txt'

/**
 * The route that draws a page's Markdown twin (app/(site)/[lang]/md): never an address of its own
 * (proxy.ts answers it 404), only where `<path>.md`, or the page's address asked for Markdown, is
 * rewritten to.
 */
export const TWIN_ROUTE_SEGMENT = 'md'

/** The address of a page's Markdown twin: /about.md, /de/about.md, and /index.md for the home page (/de/index.md). */
export function twinPath(path: string): string {
  const { length } = path.split('/').filter(Boolean)
  return path === '/' || (length === 1 && isLanguageCode(path.slice(1))) ? `${path === '/' ? '' : path}/index.md` : `${path}.md`
}

/** The page a twin's address names (its path, language prefix kept), or null when the address is not a twin's. */
export function pageOfTwin(path: string): string | null {
  if (!path.endsWith('.md') || path.length <= 3) return null
  const page = path.slice(0, -3)
  if (page === '/index') return '/'
  const prefix = /^\/([^/]+)\/index$/.exec(page)
  if (prefix && isLanguageCode(prefix[1]!)) return `/${prefix[1]}`
  // A language's home has its twin at /<code>/index.md: /de.md is nobody's (it would be read as
  // English's `/de`, the German home page's path, and answer in English).
  return page.endsWith('/') || isLanguageCode(page.slice(1)) ? null : page
}

/** Where the proxy rewrites a twin's address to: the page's path within its language, under /<language>/md. */
export const twinRoute = (language: string, path: string) => `/${language}/${TWIN_ROUTE_SEGMENT}${path === '/' ? '' : path}`

/** Where a build with embedded defaults serves the seed's images (app/seed-images; none in a deployment). */
export const SEED_IMAGE_ROUTE = '/seed-images'

/** Paths the code owns besides its routes: Next's own assets. */
export const RESERVED_SEGMENTS = [...CODE_ROUTES, '_next'] as const

const reserved = new Set<string>(RESERVED_SEGMENTS)

/** The parts of the site with a 404 of their own: one today (a language under `/<code>/…` may add one). */
export const NOT_FOUND_SCOPES = ['site'] as const

/**
 * The route that draws the 404 for a path in a language (app/(site)/[lang]/not-found/[scope]): the
 * proxy rewrites every address the content does not answer to it, with status 404. One function,
 * so that a part of the site can choose another 404 later.
 */
export function notFoundRouteFor(_pathname: string, language: string): string {
  return `/${language}/not-found/${NOT_FOUND_SCOPES[0]}`
}

/** A page's address: /<slug> in English, /<code>/<slug> in another language. */
export function pagePath(slug: string, language: string = DEFAULT_LANGUAGE): string {
  return localizePath(`/${slug}`, language)
}

/**
 * The address of a page made of sections that an experiment or a campaign version changes: a
 * `page` by its slug (null without one), a fixed page by its route, in the page's language.
 */
export function sectionedPagePath(page: { _type: string; slug: string | null; language: string }): string | null {
  if (page._type === 'page') return page.slug ? pagePath(page.slug, page.language) : null
  const path = FIXED_PAGE_PATHS[page._type]?.[0]
  return path === undefined ? null : localizePath(path, page.language)
}

/** Posts per page of /blog and of each category's list. */
export const POSTS_PER_PAGE = 10

/** Segments under /blog/ that lists take, so no post may take them as a slug. */
const BLOG_LIST_SEGMENTS = new Set(['page', 'category', 'feed.xml'])

/** Every post, article or changelog entry, is at /blog/<slug>. */
export function postPath(slug: string, language: string = DEFAULT_LANGUAGE): string {
  return localizePath(`/blog/${slug}`, language)
}

/** A page of the blog's list, or of one category's: page 1 has no number, so it has one address. */
export function postListPath({ category, page = 1, language = DEFAULT_LANGUAGE }: { category?: string | null; page?: number; language?: string } = {}): string {
  const base = category ? `/blog/category/${category}` : '/blog'
  return localizePath(page > 1 ? `${base}/page/${page}` : base, language)
}

const SLUG_HINT = 'Use lowercase letters, digits and single hyphens, e.g. "privacy" or "customer-stories" (no slashes, spaces or accents)'

/** Why a slug is not one (a category's, say), or null when it is. */
export function slugProblemFor(slug: string | undefined | null): string | null {
  if (!slug) return 'A slug is required'
  return SLUG_PATTERN.test(slug) ? null : SLUG_HINT
}

/** Why a post cannot take this slug, or null when it can. */
export function postSlugProblem(slug: string | undefined | null): string | null {
  if (slug && BLOG_LIST_SEGMENTS.has(slug)) return `"${slug}" is part of the blog's list addresses (/blog/${slug}/…): choose another`
  return slugProblemFor(slug)
}

/** The feeds: the blog's articles and the changelog's entries, each the newest posts with their text, one pair per language. */
export const FEED_PATHS = ['/blog/feed.xml', '/changelog/feed.xml'] as const

/** A feed's address in a language: the blog's (articles) or the changelog's. */
export const feedPath = (kind: 'article' | 'changelog', language: string = DEFAULT_LANGUAGE) => localizePath(FEED_PATHS[kind === 'changelog' ? 1 : 0], language)

/** How many pages a list of `count` posts takes (an empty list still has its first page). */
export const pageCount = (count: number) => Math.max(1, Math.ceil(count / POSTS_PER_PAGE))

/** Why a page cannot take this slug, or null when it can. */
export function slugProblem(slug: string | undefined | null): string | null {
  if (slug && reserved.has(slug))
    return `"${slug}" is a path the site's code owns (${RESERVED_SEGMENTS.filter((s) => !s.includes('.')).join(', ')}): choose another`
  if (slug && isLanguageCode(slug))
    return `"${slug}" has the shape of a language code (two letters, or two and two: "pt-br"): such addresses are kept for the site's languages (/de/…)`
  return slugProblemFor(slug)
}

/** The documents whose address moves with their slug, each with its rule for a slug and its address in a language. */
export const MOVABLE_TYPES = {
  page: { problem: slugProblem, pathOf: pagePath },
  post: { problem: postSlugProblem, pathOf: postPath },
} as const

/** A page or post as its slug history sees it: its slug, and the slugs it had before (`previousSlugs`). */
export type SlugHistory = { slug?: { current?: string } | null; previousSlugs?: readonly string[] | null }

/**
 * The old slugs a document should be published with, given the version published now (null: none):
 * when the slug changed, the old one joins them, and the new one leaves them (a page moved back
 * takes its address again). A chain a → b → c thus keeps [a, b], each one hop from c. Undefined
 * when the list needs no change. What the Studio's Publish (sanity/studio/keep-old-addresses.ts)
 * and `content:publish` both apply, so no editor has to add a redirect for a moved page.
 */
export function previousSlugsAfter(published: SlugHistory | null | undefined, next: SlugHistory): string[] | undefined {
  const before = published?.slug?.current
  const now = next.slug?.current
  const kept = next.previousSlugs ?? []
  const moved = before && now && before !== now && !kept.includes(before) ? [...kept, before] : [...kept]
  const list = now ? moved.filter((slug) => slug !== now) : moved
  return list.length === kept.length && list.every((slug, index) => slug === kept[index]) ? undefined : list
}

/** A redirect's source as the site compares it: no trailing slash, no query or fragment. */
export function normalizePath(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? ''
  return bare.length > 1 ? bare.replace(/\/+$/, '') : bare
}

/** Why a path cannot be a redirect's source, or null when it can. */
export function redirectSourceProblem(source: string | undefined | null): string | null {
  if (!source) return 'A source path is required'
  if (!source.startsWith('/') || source.startsWith('//')) return 'The source must be a path on this site starting with a single "/", e.g. /old-pricing'
  if (/[?#\s\\\p{Cc}\p{Cf}\p{Cs}]/u.test(source)) return 'The source is a path only: no spaces, backslashes, invisible characters, query (?) or fragment (#)'
  const path = normalizePath(source)
  if (path === '/') return 'The home page cannot be redirected'
  const first = path.split('/')[1] ?? ''
  // Under /blog a redirect may take an old post's address; the lists themselves stay.
  if (reserved.has(first) && (!CONTENT_ROUTES.has(first) || path === `/${first}`))
    return `${path} is served by the site's code (/${first}) and cannot be redirected`
  return null
}

export type RedirectEdge = { id: string; source: string; destinationPath: string | null }

/**
 * Problems with a redirect given the addresses of the site's pages and posts and the other
 * redirects: a source that is a page or post (it would win), a loop, or a chain (each redirect must point at the final address).
 */
export function redirectProblems(redirect: RedirectEdge, others: RedirectEdge[], publishedPaths: string[]): string[] {
  const problems: string[] = []
  const source = normalizePath(redirect.source)
  const destination = redirect.destinationPath === null ? null : normalizePath(redirect.destinationPath)
  if (publishedPaths.includes(source)) problems.push(`${source} is the address of a published page or post: unpublish it or change its address first`)
  if (destination === source) problems.push(`${source} redirects to itself (a loop)`)
  const next = others.find((other) => normalizePath(other.source) === destination)
  if (destination !== source && next) {
    const loops = next.destinationPath !== null && normalizePath(next.destinationPath) === source
    problems.push(
      loops
        ? `${source} → ${destination} → ${source} is a loop`
        : `${destination} is itself redirected (to ${next.destinationPath}): point this redirect straight at the final address, no chains`,
    )
  }
  const duplicate = others.find((other) => normalizePath(other.source) === source)
  if (duplicate) problems.push(`Another redirect already has the source ${source}`)
  const incoming = others.find(
    (other) => other.destinationPath !== null && normalizePath(other.destinationPath) === source && normalizePath(other.source) !== destination,
  )
  if (incoming) problems.push(`The redirect from ${incoming.source} points at ${source}: a chain. Point that one at the final address first`)
  return problems
}

const PATH_BASE = 'https://same.site.invalid'

/**
 * Why a value cannot be a "Path on this site" (a link's or a redirect's destination), or null when
 * it can. It must start with one "/", and a URL parser must read it as a path on this site: a
 * browser (and `new URL`) reads "\" as "/" and drops tabs and line breaks, so `/\evil.example`
 * or "/<tab>/evil.example" would name another host. Those, controls, spaces and invisible
 * characters are refused outright, and so is anything that resolves to a path starting with "//".
 */
export function sitePathProblem(value: string | undefined | null): string | null {
  if (!value) return 'A path is required'
  if (!value.startsWith('/') || value.startsWith('//')) return 'The path must start with a single "/", e.g. /about or /#pricing'
  if (value.includes('\\')) return 'No backslashes ("\\"): browsers read them as "/", which can lead off the site'
  if (/[\s\p{Cc}\p{Cf}\p{Cs}]/u.test(value)) return 'No spaces, tabs, line breaks or invisible characters'
  let url: URL
  try {
    url = new URL(value, PATH_BASE)
  } catch {
    return 'Not a path a browser can follow'
  }
  if (url.origin !== PATH_BASE || url.pathname.startsWith('//'))
    return 'The path must stay on this site (no "/../" or "//" that a browser would read as another site)'
  return null
}

/**
 * A destination path as the site may use it: itself when the rule above allows it, else null. For
 * documents written before the rule (or by anything that skips the Studio): the link renders as
 * not available and the redirect is left out, rather than leading off the site.
 */
export function onSitePath(value: string | null | undefined): string | null {
  return sitePathProblem(value) === null ? (value as string) : null
}

/**
 * Where a redirect sends the browser, resolved against the address asked for: a destination
 * starting with "/" is a path on this site and its host is always the request's; anything else
 * must be an http(s) address on another site (an "External address"). Null for anything else.
 * The query the address was asked with goes along (`carryOver`): a campaign's tags, and so its
 * version, survive the redirect.
 */
export function redirectLocation(destination: string, requestUrl: string | URL): URL | null {
  const asked = new URL(requestUrl)
  if (destination.startsWith('/')) {
    const path = onSitePath(destination)
    if (!path) return null
    const url = carryOver(new URL(path, asked), asked)
    return url.origin === asked.origin ? url : null
  }
  if (!URL.canParse(destination)) return null
  const url = new URL(destination)
  return url.protocol === 'https:' || url.protocol === 'http:' ? carryOver(url, asked) : null
}

/**
 * Where a redirect to `first` ends, in one hop, when `first` itself redirects to `then`: `then`,
 * with what a browser sent to `first` brings along to it (as redirectLocation carries it at each hop).
 */
export function chainedDestination(first: string, then: string): string {
  const url = carryOver(new URL(then, PATH_BASE), new URL(first, PATH_BASE))
  return url.origin === PATH_BASE ? `${url.pathname}${url.search}${url.hash}` : url.href
}

/** The path (percent-encoded, as its request carries it) a browser sent to a destination asks this site for, or null when it leads elsewhere. */
export function sitePathname(destination: string): string | null {
  return onSitePath(destination) === null ? null : new URL(destination, PATH_BASE).pathname
}

/**
 * `to` with what a browser sent to it from `from` keeps: `from`'s query parameters after `to`'s own,
 * but for those `to` names itself (a destination's own win: a marketer who wrote `?utm_source=promo`
 * into a redirect made it to tag its visitors so), and `from`'s fragment where `to` has none, as a
 * browser keeps one across a redirect. `to`'s own query stays as written, and only the query is
 * set: no query can move the host.
 */
function carryOver(to: URL, from: URL): URL {
  const own = new Set(to.searchParams.keys())
  const carried = new URLSearchParams([...from.searchParams].filter(([key]) => !own.has(key)))
  if (carried.size > 0) to.search = to.search ? `${to.search}&${carried}` : `?${carried}`
  if (!to.hash) to.hash = from.hash
  return to
}

/**
 * A path on this site to send a browser to, from a value someone else wrote (the Studio's
 * `sanity-preview-pathname`): the path, query and fragment of what it names on this origin, with
 * any run of leading slashes or backslashes made one. `/.//evil.com` resolves to the path
 * `//evil.com`, which a browser reads as another site; here it stays `/evil.com`, on ours.
 */
export function sameSitePath(value: string | null | undefined): string {
  if (!value) return '/'
  let url: URL
  try {
    url = new URL(value, PATH_BASE)
  } catch {
    return '/'
  }
  if (url.origin !== PATH_BASE) return '/'
  return `${url.pathname.replace(/^[/\\]+/, '/')}${url.search}${url.hash}`
}
