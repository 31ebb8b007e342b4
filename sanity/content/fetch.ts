import 'server-only'
import type { QueryParams, SanityQueries } from '@sanity/client'
import type { SanityClient } from 'next-sanity'
import { unstable_cache } from 'next/cache'
import { draftMode } from 'next/headers'
import { assertDeployableConfiguration, publicEnv, serverEnv } from '@/lib/env'
import { seedImagesDir, withSeedAssets } from '../seed/assets'
import { sanityClient } from '@/lib/content/client'
import { evaluateQuery, readSeedDataset, seedVersion } from '../seed/dataset'

export type Query = keyof SanityQueries & string
export type QueryResult<Q extends Query> = SanityQueries[Q]

export class ContentFetchError extends Error {
  override name = 'ContentFetchError'
}

type FetchOptions<Q extends Query> = {
  query: Q
  params?: QueryParams
  /** Cache tags: the document types and ids the result depends on, revalidated when they change. */
  tags: string[]
  /** Short name for error messages, e.g. "landing page". */
  label: string
  /**
   * Published content only, even in a draft preview: for what runs outside a request
   * (generateStaticParams, the sitemap), where Next refuses to read the draft-mode cookie.
   */
  publishedOnly?: boolean
}

/** The client for draft previews: drafts, a server-only token, and click-to-edit markers. */
export function draftClient(): SanityClient | null {
  // Checked first: on a site without previews, every fetch asks this and should not build a client for it.
  const token = serverEnv().sanityReadToken
  if (!token) return null
  const client = sanityClient()
  if (!client) return null
  return client.withConfig({ token, perspective: 'drafts', stega: { enabled: true, studioUrl: '/studio' } })
}

/**
 * The one way pages read content. With a Sanity project configured it asks the Content
 * Lake (cached with tags and a revalidation period; drafts in draft mode); without one,
 * on a developer's machine, it runs the same query over the seed dataset. It throws
 * rather than return empty content, so a failed build stops and a failed revalidation
 * keeps the last good page.
 */
export async function sanityFetch<const Q extends Query>(options: FetchOptions<Q>): Promise<NonNullable<QueryResult<Q>>> {
  const result = await sanityFetchOptional(options)
  if (result === null || result === undefined) {
    throw new ContentFetchError(
      `The ${options.label} has no published content (query returned nothing). Publish it in the Studio, or import the seed dataset (see docs/founders.md, "Connect a Sanity project").`,
    )
  }
  return result as NonNullable<QueryResult<Q>>
}

/**
 * The same, for content that may rightly not exist (a page or redirect looked up by its path):
 * null when the query finds nothing. A failure to reach the content still throws.
 */
export async function sanityFetchOptional<const Q extends Query>({
  query,
  params = {},
  tags,
  label,
  publishedOnly = false,
}: FetchOptions<Q>): Promise<QueryResult<Q> | null> {
  const server = serverEnv()
  assertDeployableConfiguration(publicEnv, server)
  let result: unknown
  try {
    result = publicEnv.sanityProjectId
      ? await fetchFromSanity(query, params, tags, publishedOnly)
      : await fetchFromSeed(server.contentSeedPath, query, params, tags)
  } catch (error) {
    const source = publicEnv.sanityProjectId
      ? `Sanity (project "${publicEnv.sanityProjectId}", dataset "${publicEnv.sanityDataset}")`
      : `the seed dataset ${server.contentSeedPath}`
    const failure = new ContentFetchError(`Could not load the ${label} from ${source}: ${(error as Error).message}`, { cause: error })
    // During revalidation Next keeps serving the last good page; leave a trace of why.
    console.error(`[content] ${failure.message}`)
    throw failure
  }
  return (result ?? null) as QueryResult<Q> | null
}

/** True in a draft preview. Only a site that can preview (a read token is configured) asks for the draft-mode cookie. */
export async function isDraftPreview(): Promise<boolean> {
  return draftClient() !== null && (await draftMode()).isEnabled
}

/** How many published answers this process keeps as its last good ones: every query of every page, with room to spare. */
const LAST_GOOD_ANSWERS = 500
const LAST_GOOD = Symbol.for('heardly.content.last-good')
const lastGood = ((globalThis as { [LAST_GOOD]?: Map<string, unknown> })[LAST_GOOD] ??= new Map<string, unknown>())

async function fetchFromSanity(query: string, params: QueryParams, tags: string[], publishedOnly: boolean) {
  // Only a site that can preview (a read token is configured) asks whether this is a preview.
  const preview = publishedOnly ? null : draftClient()
  if (preview && (await draftMode()).isEnabled) return preview.fetch(query, params, { next: { revalidate: 0 } })
  const client = sanityClient()
  if (!client) throw new Error('no Sanity project configured')
  const key = `${query}\u0000${JSON.stringify(params)}`
  try {
    const result: unknown = await client.fetch(query, params, { next: { revalidate: serverEnv().contentRevalidateSeconds, tags } })
    // Most recently read last, so the oldest goes first when the map is full.
    lastGood.delete(key)
    lastGood.set(key, result)
    if (lastGood.size > LAST_GOOD_ANSWERS) lastGood.delete(lastGood.keys().next().value!)
    return result
  } catch (error) {
    // The Content Lake failing right after a publish: the webhook expired the page's data
    // ({ expire: 0 }), so Next has no stale page to fall back on and would answer 500 for as long as
    // the outage lasts. The last answer this process read draws the last good page instead; it is
    // cached for CONTENT_REVALIDATE_SECONDS like any other, so the publish shows by itself once the
    // API answers again (e2e/faults-sanity.sanity.spec.ts).
    if (!lastGood.has(key)) throw error
    console.error(
      `[content] Sanity did not answer (${(error as Error).message}): the last good answer drawn instead, read again after CONTENT_REVALIDATE_SECONDS.`,
    )
    return lastGood.get(key)
  }
}

async function fetchFromSeed(seedPath: string, query: string, params: QueryParams, tags: string[]) {
  const read = async () => withSeedAssets(await readSeedDataset(seedPath), seedImagesDir(seedPath))
  // Pages still wait for the webhook (or the revalidation period) to show a publish: this key only
  // keeps a cached answer from surviving an edit of the seed into the next build.
  const cached = unstable_cache(
    async () => evaluateQuery(await read(), query, params),
    ['seed', seedPath, await seedVersion(seedPath), query, JSON.stringify(params)],
    {
      tags,
      revalidate: serverEnv().contentRevalidateSeconds,
    },
  )
  return cached()
}
