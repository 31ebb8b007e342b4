import 'server-only'
import type { QueryParams, SanityQueries } from '@sanity/client'
import { createClient } from 'next-sanity'
import { unstable_cache } from 'next/cache'
import { assertDeployableConfiguration, publicEnv, serverEnv } from '@/lib/env'
import { evaluateQuery, readSeedDataset } from './seed-dataset'

export type Query = keyof SanityQueries & string
export type QueryResult<Q extends Query> = SanityQueries[Q]

export class ContentFetchError extends Error {
  override name = 'ContentFetchError'
}

type FetchOptions<Q extends Query> = {
  query: Q
  params?: QueryParams
  /** Cache tags: the document types the result depends on, revalidated when they change. */
  tags: string[]
  /** Short name for error messages, e.g. "landing page". */
  label: string
}

/**
 * The one way pages read content. With a Sanity project configured it asks the Content
 * Lake (cached with tags and a revalidation period); without one, on a developer's machine,
 * it runs the same query over the seed dataset. It throws rather than return empty content,
 * so a failed build stops and a failed revalidation keeps the last good page.
 */
export async function sanityFetch<const Q extends Query>({ query, params = {}, tags, label }: FetchOptions<Q>): Promise<NonNullable<QueryResult<Q>>> {
  const server = serverEnv()
  assertDeployableConfiguration(publicEnv, server)
  const result = publicEnv.sanityProjectId
    ? await fetchFromSanity(publicEnv.sanityProjectId, query, params, tags, label)
    : await fetchFromSeed(server.contentSeedPath, query, params, tags, label)
  if (result === null || result === undefined) {
    throw new ContentFetchError(
      `The ${label} has no published content (query returned nothing). Publish it in the Studio, or import the seed dataset (see README).`,
    )
  }
  return result as NonNullable<QueryResult<Q>>
}

async function fetchFromSanity(projectId: string, query: string, params: QueryParams, tags: string[], label: string) {
  const server = serverEnv()
  const client = createClient({
    projectId,
    dataset: publicEnv.sanityDataset,
    apiVersion: publicEnv.sanityApiVersion,
    // The CDN may lag a publish by a minute; tag revalidation must read fresh data.
    useCdn: false,
    perspective: 'published',
    ...(server.sanityApiHost ? { apiHost: server.sanityApiHost, useProjectHostname: false } : {}),
  })
  try {
    return await client.fetch(query, params, { next: { revalidate: server.contentRevalidateSeconds, tags } })
  } catch (error) {
    throw new ContentFetchError(
      `Could not load the ${label} from Sanity (project "${projectId}", dataset "${publicEnv.sanityDataset}"): ${(error as Error).message}`,
      { cause: error },
    )
  }
}

async function fetchFromSeed(seedPath: string, query: string, params: QueryParams, tags: string[], label: string) {
  const server = serverEnv()
  const cached = unstable_cache(
    async () => evaluateQuery(await readSeedDataset(seedPath), query, params),
    ['seed', seedPath, query, JSON.stringify(params)],
    { tags, revalidate: server.contentRevalidateSeconds },
  )
  try {
    return await cached()
  } catch (error) {
    throw new ContentFetchError(`Could not load the ${label} from the seed dataset ${seedPath}: ${(error as Error).message}`, { cause: error })
  }
}
