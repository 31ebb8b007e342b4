import type {
  CategoriesQueryResult,
  FixedPagesQueryResult,
  LiveCampaignsQueryResult,
  MovedAddressesQueryResult,
  PageListQueryResult,
  PostSummariesQueryResult,
  RedirectsQueryResult,
  SiteLanguagesQueryResult,
} from '@/sanity/types.generated'
import {
  categoriesQuery,
  fixedPagesQuery,
  liveCampaignsQuery,
  movedAddressesQuery,
  pageListQuery,
  postSummariesQuery,
  redirectsQuery,
  siteLanguagesQuery,
} from '@/sanity/queries'
import { serverEnv } from '@/lib/env'
import { KEY_PREFIX, owe, readyRedis, within } from '@/lib/cache/redis.mjs'
import { DEFAULT_LANGUAGE, isLocalizedPath, localizePath, unprefixedPath } from '@/lib/i18n/languages'
import Negotiator from 'negotiator'
import {
  chainedDestination,
  FEED_PATHS,
  FIXED_PAGE_PATHS,
  LLMS_TXT_PATH,
  normalizePath,
  pageOfTwin,
  postListPath,
  sitePathname,
  twinPath,
} from '@/lib/content/paths'
import { warnOnce } from '@/lib/warn-once'
import { inLanguage, postListPaths, toCategories, toPostSummaries, type SampleMode } from './posts'
import { readPublished } from './published'
import { toMovedRedirects, toPageList, toRedirects, toSiteLanguages } from './reshape'
import type { Redirect } from './types'
import { toLiveCampaigns, type LiveCampaigns } from '@/sanity/variants/live-campaigns'

/**
 * Which addresses the content answers: the published pages and the redirects. The proxy
 * (proxy.ts) asks it for every address the pages route could answer, before anything renders,
 * so that an address nobody published gets the 404 drawn by the server (a rewrite to the 404
 * route) instead of the pages route's `notFound()`, whose HTML Next leaves empty
 * (vercel/next.js#62228), and a redirect is answered before any page renders.
 *
 * The proxy runs outside the render, where Next's data cache is not to be relied on, so the
 * list is kept here, in memory: read once, then again when the publish webhook says pages or
 * redirects changed (`forgetAddresses`), and behind the requests after CONTENT_REVALIDATE_SECONDS,
 * the safety net the pages themselves have. One read serves every address: a request for a random
 * address costs no query of its own. With REDIS_URL the webhook also marks the publish in Redis,
 * and every process (another instance, or a proxy running apart from the server) looks at that
 * mark at most once a second, so a publish reaches all of them within about a second.
 */
export type Addresses = {
  /** The languages besides English: the prefixes /<code>/… that name one. */
  languages: ReadonlySet<string>
  /** Every path a page answers at, its language's prefix included. */
  pages: ReadonlySet<string>
  redirects: ReadonlyMap<string, Redirect>
  /** The pages and posts with a Markdown twin (a subset of `pages`): `<path>.md`, /index.md for a home page. */
  twins: ReadonlySet<string>
  /** The campaign versions each page shows to the addresses that carry their tags (sanity/variants/live-campaigns.ts). */
  campaigns: LiveCampaigns
}

/**
 * A page's address (`negotiated` when it also has a twin, so its answer depends on `Accept`), the
 * Markdown twin of the page at `path` (asked for by its .md address, or by the page's own address
 * preferring Markdown), a redirect, or nothing.
 */
export type Answer =
  { kind: 'page'; negotiated?: true } | { kind: 'markdown'; path: string; negotiated?: true } | ({ kind: 'redirect' } & Redirect) | { kind: 'missing' }

/** What answers an address before any redirect: a page, or its Markdown twin. */
type Answering = Pick<Addresses, 'pages' | 'twins'>

/** A request's path (percent-encoded) as the content spells addresses. */
export const addressOf = (pathname: string): string => normalizePath(pathname.split('/').map(safeDecode).join('/'))

/** What the content says of a path (as the request has it, percent-encoded), for a request that accepts `accept`. */
export function answerFor(addresses: Answering & Pick<Addresses, 'redirects'>, pathname: string, accept: string | null = null): Answer {
  const path = addressOf(pathname)
  if (addresses.pages.has(path)) {
    if (!addresses.twins.has(path)) return { kind: 'page' }
    return prefersMarkdown(accept) ? { kind: 'markdown', path, negotiated: true } : { kind: 'page', negotiated: true }
  }
  const page = pageOfTwin(path)
  if (page !== null && addresses.twins.has(page)) return { kind: 'markdown', path: page }
  const redirect = addresses.redirects.get(path)
  return redirect ? { kind: 'redirect', ...redirect } : { kind: 'missing' }
}

const MARKDOWN = 'text/markdown'
const HTML = 'text/html'

/**
 * Whether a request asks for Markdown before HTML (`Accept: text/markdown`, or a higher q for it):
 * a browser's Accept names HTML first, and a wildcard alone is no preference: both get the page.
 */
export function prefersMarkdown(accept: string | null): boolean {
  if (!accept) return false
  return new Negotiator({ headers: { accept } }).mediaType([HTML, MARKDOWN]) === MARKDOWN
}

type Held = { generation: number; loadedAt: number; addresses: Promise<Addresses>; refreshing?: boolean }
/** The publish mark in Redis as last seen (undefined before the first answer), and when it was asked. */
type Remote = { mark?: string | null; checkedAt: number; checking?: Promise<void> }
type Shared = { generation: number; held?: Held; remote?: Remote }

/**
 * The mark of the last publish that changed addresses, in the shared Redis: a value never used
 * before, not a count, so a Redis restarted empty cannot bring back the value a process last saw.
 */
const PUBLISH_MARK_KEY = `${KEY_PREFIX}addresses:published`
/** How often a process asks Redis whether another one received a publish: well inside the 2 s promised. */
const REMOTE_CHECK_MS = 1_000
/** Past this the list in hand answers: Redis is local to the servers and answers in a millisecond. */
const REMOTE_TIMEOUT_MS = 250

// On globalThis, not in this module: the proxy and the webhook route are bundled apart, and in
// one server process they must see the same generation.
const SHARED = Symbol.for('heardly.content.addresses')
const shared = (): Shared => ((globalThis as { [SHARED]?: Shared })[SHARED] ??= { generation: 0 })

/**
 * The published pages and redirects, read at most once per publish (or per revalidation period).
 * After a publish the next request waits for the new list: the page just published must answer.
 * Past the period (the safety net for a missed webhook) the list in hand still answers at once
 * while it is read again behind it, as Next serves a stale page while it regenerates: otherwise one
 * visitor a minute would wait for seven queries to the content API before their page even started.
 */
export function addresses(now = Date.now()): Promise<Addresses> {
  const state = shared()
  const env = serverEnv()
  if (env.redisUrl && now - (state.remote?.checkedAt ?? -Infinity) >= REMOTE_CHECK_MS)
    return checkRemote(state, env.redisUrl, now).then(() => inHand(state, now, env.contentRevalidateSeconds))
  return inHand(state, now, env.contentRevalidateSeconds)
}

function inHand(state: Shared, now: number, revalidateSeconds: number): Promise<Addresses> {
  const held = state.held
  if (!held || held.generation !== state.generation) return read(state, now, held)
  if (now - held.loadedAt >= revalidateSeconds * 1000 && !held.refreshing) refresh(state, held, now)
  return held.addresses
}

/**
 * Asks Redis for the publish mark (one question at a time per process); a mark that moved since
 * the last answer is a publish received elsewhere. The first answer after a list was read counts as
 * a move too: that list may predate it. Redis down or slow: the list in hand answers, and the
 * connection (lib/cache/redis.mjs) has logged the outage once.
 */
function checkRemote(state: Shared, url: string, now: number): Promise<void> {
  const remote = (state.remote ??= { checkedAt: -Infinity })
  remote.checking ??= readyRedis(url, REMOTE_TIMEOUT_MS)
    .then((redis) => within(redis.get(PUBLISH_MARK_KEY), REMOTE_TIMEOUT_MS))
    .then(
      (mark) => {
        if (mark !== remote.mark && (remote.mark !== undefined || state.held)) state.generation++
        remote.mark = mark
      },
      () => {},
    )
    .finally(() => {
      remote.checkedAt = now
      remote.checking = undefined
    })
  return remote.checking
}

function read(state: Shared, now: number, previous: Held | undefined): Promise<Addresses> {
  const addresses = load()
  const held: Held = { generation: state.generation, loadedAt: now, addresses }
  state.held = held
  if (!previous) {
    // A failed first read is not kept: the next request tries again (and the caller decides meanwhile).
    addresses.catch(() => {
      if (state.held === held) state.held = undefined
    })
    return addresses
  }
  // The content API fails during a publish: the last list that was read answers (a page published
  // meanwhile is a 404 until it can be read, never the pages route's error for an address it cannot
  // look up), and is read again behind the next request, as past the revalidation period.
  return addresses.catch((error: Error) => {
    console.error(`[content] Could not read the published addresses after a publish; the last ones read answer until they can be: ${error.message}`)
    if (state.held === held) state.held = { generation: held.generation, loadedAt: -Infinity, addresses: previous.addresses }
    return previous.addresses
  })
}

function refresh(state: Shared, held: Held, now: number): void {
  held.refreshing = true
  const addresses = load()
  addresses.then(
    // Unless a publish came first: its own read is the newer one.
    () => {
      if (state.held === held) state.held = { generation: held.generation, loadedAt: now, addresses }
    },
    (error: Error) => {
      // The list in hand goes on answering; the next request past the period tries again.
      held.refreshing = false
      console.error(`[content] Could not reload the published addresses: ${error.message}`)
    },
  )
}

/**
 * Called by the publish webhook when pages or redirects changed: the next request in this process
 * reads them afresh, and with REDIS_URL every other process within REMOTE_CHECK_MS. Resolves once
 * Redis has the publish's mark; never rejects (Redis down: logged, and marked once it is back).
 */
export async function forgetAddresses(): Promise<void> {
  const state = shared()
  state.generation++
  const url = serverEnv().redisUrl
  if (url) await markPublish(state, url)
}

async function markPublish(state: Shared, url: string): Promise<void> {
  try {
    const redis = await readyRedis(url, REMOTE_TIMEOUT_MS * 4)
    const mark = `${Date.now()}-${crypto.randomUUID()}`
    // Bounded by the connection's own deadline on every command (lib/cache/redis.mjs, COMMAND_DEADLINE_MS).
    await redis.set(PUBLISH_MARK_KEY, mark)
    // This process already knows: its next look at Redis should not read the list a second time.
    if (state.remote) state.remote.mark = mark
  } catch (error) {
    owe(url, 'addresses', () => markPublish(state, url))
    console.error(`[content] The other instances will see this publish once Redis answers again: Redis did not mark it (${(error as Error).message}).`)
  }
}

/** Counts the publishes that changed addresses: what the proxy keeps beside them (its running experiments) is read again when it moves. */
export const addressesGeneration = (): number => shared().generation

/**
 * Document types whose publication changes which addresses answer, or how the proxy answers them:
 * an experiment started, stopped or promoted changes which page a participant is rewritten to.
 */
export const ADDRESS_TYPES: ReadonlySet<string> = new Set([
  'page',
  'redirect',
  'post',
  'category',
  'siteLanguages',
  'experiment',
  'campaign',
  ...Object.keys(FIXED_PAGE_PATHS),
])

/** What the addresses are computed from: the published content, as its queries return it. */
export type AddressSources = {
  languages: SiteLanguagesQueryResult
  fixedPages: FixedPagesQueryResult
  pages: PageListQueryResult
  redirects: RedirectsQueryResult
  /** The pages and posts with old addresses (`previousSlugs`). */
  moved: MovedAddressesQueryResult
  /** The published campaign versions. */
  campaigns: LiveCampaignsQueryResult
  posts: PostSummariesQueryResult
  categories: CategoriesQueryResult
}

/**
 * Every address the content answers, in every language: the fixed pages where they are translated,
 * the pages, posts and the blog's lists in their own language, the feeds where the blog is, and
 * llms.txt where the landing page is; and which of them have a Markdown twin (the landing and about
 * pages, the pages and the posts).
 */
export function addressesFrom(sources: AddressSources, samples: SampleMode): Addresses {
  const languages = toSiteLanguages(sources.languages).map((language) => language.code)
  // The same sample rule as the pages (sanity/content/posts.ts): a post a deployed site hides is a 404 there.
  const posts = toPostSummaries(sources.posts, samples)
  const categories = toCategories(sources.categories, posts)
  const spoken = new Set(languages)
  const fixed = sources.fixedPages.filter((page) => spoken.has(page.language ?? ''))
  const twins = [
    ...fixed
      .filter((page) => page._type === 'landingPage' || page._type === 'aboutPage')
      .map((page) => localizePath(page._type === 'landingPage' ? '/' : '/about', page.language!)),
    ...toPageList(sources.pages)
      .filter((page) => spoken.has(page.language))
      .map((page) => page.path),
    ...posts.filter((post) => spoken.has(post.language)).map((post) => post.path),
  ]
  const paths = [
    ...fixed.flatMap((page) => (FIXED_PAGE_PATHS[page._type] ?? []).map((path) => localizePath(path, page.language!))),
    ...twins,
    // Where the landing page is, the site's llms.txt is too, in that language.
    ...fixed.filter((page) => page._type === 'landingPage').map((page) => localizePath(LLMS_TXT_PATH, page.language!)),
    ...fixed
      .filter((page) => page._type === 'blogPage')
      .flatMap(({ language }) => [
        ...postListPaths(inLanguage(posts, language!), inLanguage(categories, language!), language!).map(postListPath),
        ...FEED_PATHS.map((path) => localizePath(path, language!)),
      ]),
  ]
  const pages = new Set(paths)
  const twinned = new Set(twins)
  // A moved page's old address leads only where a page answers (not to a post a deployed site hides,
  // or a language the site no longer speaks), and its Markdown twin to the twin there (/careers.md
  // to /jobs.md); a redirect a marketer made for the same address wins.
  const moved = [...toMovedRedirects(sources.moved)].filter(([, { destination }]) => pages.has(destination))
  const movedTwins = moved
    .filter(([, { destination }]) => twinned.has(destination))
    .map(([source, redirect]): [string, Redirect] => [twinPath(source), { ...redirect, destination: twinPath(redirect.destination) }])
  const answering = { pages, twins: twinned }
  return {
    languages: new Set(languages.filter((code) => code !== DEFAULT_LANGUAGE)),
    pages,
    redirects: loopFree(new Map([...moved, ...movedTwins]), toRedirects(sources.redirects), answering),
    twins: twinned,
    campaigns: toLiveCampaigns(sources.campaigns),
  }
}

/**
 * The redirects as the site serves them, whatever the dataset holds: each straight to where its
 * chain ends, in one hop, and none that comes back to an address it passed. The Studio refuses
 * loops and chains among redirects, but a dataset written around it holds them, and the Studio
 * knows neither the pages' old addresses (a redirect to `/careers` after the page moved to `/jobs`)
 * nor that `/en/x` is `/x` (English's prefix, which the proxy redirects). Worked out once per read
 * of the addresses, so no request follows a chain.
 *
 * A marketer's redirect on a cycle is left out, as one leading off the site is (toRedirects): its
 * address answers as it would without it, the old address of a moved page (which leads to a page,
 * so is never on a cycle), the page, or the 404. One leading into a cycle then ends where the
 * cycle was.
 */
function loopFree(moved: ReadonlyMap<string, Redirect>, made: ReadonlyMap<string, Redirect>, answering: Answering): Map<string, Redirect> {
  const all = new Map([...moved, ...made])
  const kept = [...made].filter(([source]) => {
    const end = chainFrom(source, all, answering)
    if (!('back' in end) || end.back !== source) return true
    warnOnce(`[content] The redirect from ${JSON.stringify(source)} is left out: followed, it comes back to itself (a loop)`)
    return false
  })
  const redirects = new Map([...moved, ...kept])
  const resolved = new Map<string, Redirect>()
  for (const source of redirects.keys()) {
    const end = chainFrom(source, redirects, answering)
    // Never met: the cycles are gone, and a moved page's old address ends at a page.
    if ('redirect' in end) resolved.set(source, end.redirect)
  }
  return resolved
}

/**
 * The redirect at `source` followed to where its chain ends, as one (the destination as written when
 * it is one hop already); or the address it came back to.
 */
function chainFrom(source: string, redirects: ReadonlyMap<string, Redirect>, answering: Answering): { redirect: Redirect } | { back: string } {
  let redirect = redirects.get(source)!
  const passed = new Set([source])
  for (let next = nextHop(redirect.destination, redirects, answering); next; next = nextHop(redirect.destination, redirects, answering)) {
    if (passed.has(next.source)) return { back: next.source }
    passed.add(next.source)
    redirect = { destination: chainedDestination(redirect.destination, next.redirect.destination), permanent: redirect.permanent && next.redirect.permanent }
  }
  return { redirect }
}

/**
 * The redirect a browser sent to `destination` meets there, as the proxy would answer it (English's
 * prefix said, then a redirect where no page or twin answers), or null where the chain ends: a page,
 * a twin, the 404, a route the proxy leaves alone, another site.
 */
function nextHop(destination: string, redirects: ReadonlyMap<string, Redirect>, answering: Answering): { source: string; redirect: Redirect } | null {
  const pathname = sitePathname(destination)
  if (pathname === null || !isLocalizedPath(pathname)) return null
  const unprefixed = unprefixedPath(pathname)
  if (unprefixed !== null) return { source: addressOf(pathname), redirect: { destination: unprefixed, permanent: true } }
  const answer = answerFor({ ...answering, redirects }, pathname)
  return answer.kind === 'redirect' ? { source: addressOf(pathname), redirect: { destination: answer.destination, permanent: answer.permanent } } : null
}

/** The query each of the sources is read by. */
const SOURCE_QUERIES: { readonly [K in keyof AddressSources]: string } = {
  languages: siteLanguagesQuery,
  fixedPages: fixedPagesQuery,
  pages: pageListQuery,
  redirects: redirectsQuery,
  moved: movedAddressesQuery,
  campaigns: liveCampaignsQuery,
  posts: postSummariesQuery,
  categories: categoriesQuery,
}

/** Reads every source at once with `read` (the content API or the seed here; the GROQ engine over a test's dataset in tests). */
export async function readAddressSources(read: (query: string) => Promise<unknown>): Promise<AddressSources> {
  const keys = Object.keys(SOURCE_QUERIES) as (keyof AddressSources)[]
  const values = await Promise.all(keys.map((key) => read(SOURCE_QUERIES[key])))
  return Object.fromEntries(keys.map((key, index) => [key, values[index]])) as AddressSources
}

async function load(): Promise<Addresses> {
  return addressesFrom(await readAddressSources((query) => readPublished(query)), serverEnv().sampleContent)
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
