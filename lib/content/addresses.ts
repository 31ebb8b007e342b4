import type { CategoriesQueryResult, PageListQueryResult, PostSummariesQueryResult, RedirectsQueryResult } from '@/sanity/types.generated'
import { categoriesQuery, pageListQuery, postSummariesQuery, redirectsQuery } from '@/sanity/queries'
import { serverEnv } from '@/lib/env'
import { FEED_PATHS, normalizePath, pagePath, postListPath } from './paths'
import { postListPaths, toCategories, toPostSummaries } from './posts'
import { readPublished } from './published'
import { toPageList, toRedirects } from './reshape'
import type { Redirect } from './types'

/**
 * Which addresses the content answers: the published pages and the redirects. The proxy
 * (proxy.ts) asks it for every address the pages route could answer, before anything renders,
 * so that an address nobody published gets the 404 drawn by the server (a rewrite to the 404
 * route) instead of the pages route's `notFound()`, whose HTML Next leaves empty
 * (vercel/next.js#62228), and a redirect is answered before any page renders.
 *
 * The proxy runs outside the render, where Next's data cache is not to be relied on, so the
 * list is kept here, in memory: read once, then again when the publish webhook says pages or
 * redirects changed (`forgetAddresses`, in the same process), and at the latest after
 * CONTENT_REVALIDATE_SECONDS, the safety net the pages themselves have. One read serves every
 * address: a request for a random address costs no query of its own.
 */
export type Addresses = { pages: ReadonlySet<string>; redirects: ReadonlyMap<string, Redirect> }

export type Answer = { kind: 'page' } | ({ kind: 'redirect' } & Redirect) | { kind: 'missing' }

/** What the content says of a path (as the request has it, percent-encoded). */
export function answerFor(addresses: Addresses, pathname: string): Answer {
  const path = normalizePath(pathname.split('/').map(safeDecode).join('/'))
  if (addresses.pages.has(path)) return { kind: 'page' }
  const redirect = addresses.redirects.get(path)
  return redirect ? { kind: 'redirect', ...redirect } : { kind: 'missing' }
}

type Held = { generation: number; loadedAt: number; addresses: Promise<Addresses> }
type Shared = { generation: number; held?: Held }

// On globalThis, not in this module: the proxy and the webhook route are bundled apart, and in
// one server process they must see the same generation.
const SHARED = Symbol.for('heardly.content.addresses')
const shared = (): Shared => ((globalThis as { [SHARED]?: Shared })[SHARED] ??= { generation: 0 })

/** The published pages and redirects, read at most once per publish (or per revalidation period). */
export function addresses(now = Date.now()): Promise<Addresses> {
  const state = shared()
  const held = state.held
  if (held && held.generation === state.generation && now - held.loadedAt < serverEnv().contentRevalidateSeconds * 1000) return held.addresses
  const addresses = load()
  state.held = { generation: state.generation, loadedAt: now, addresses }
  // A failed read is not kept: the next request tries again (and the caller decides meanwhile).
  addresses.catch(() => {
    if (state.held?.addresses === addresses) state.held = held
  })
  return addresses
}

/** Called by the publish webhook when pages or redirects changed: the next request reads them afresh. */
export function forgetAddresses(): void {
  shared().generation++
}

/** Document types whose publication changes which addresses answer. */
export const ADDRESS_TYPES: ReadonlySet<string> = new Set(['page', 'redirect', 'post', 'category'])

async function load(): Promise<Addresses> {
  const [pages, redirects, rawPosts, rawCategories] = await Promise.all([
    readPublished<PageListQueryResult>(pageListQuery),
    readPublished<RedirectsQueryResult>(redirectsQuery),
    readPublished<PostSummariesQueryResult>(postSummariesQuery),
    readPublished<CategoriesQueryResult>(categoriesQuery),
  ])
  // The same sample rule as the pages (lib/content/posts.ts): a post a deployed site hides is a 404 there.
  const posts = toPostSummaries(rawPosts, serverEnv().sampleContent)
  const lists = postListPaths(posts, toCategories(rawCategories, posts)).map(postListPath)
  return {
    pages: new Set([...toPageList(pages).map((page) => pagePath(page.slug)), ...posts.map((post) => post.path), ...lists, '/changelog', ...FEED_PATHS]),
    redirects: toRedirects(redirects),
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
