import type { QueryParams } from '@sanity/client'
import { assertDeployableConfiguration, publicEnv, serverEnv } from '@/lib/env'
import { evaluateQuery, readSeedDataset } from '../seed/dataset'
import { sanityClient } from '@/lib/content/client'

/**
 * Published content straight from its source, past Next's caches: for what must see a publish the
 * moment its webhook arrives (the proxy's addresses, ./addresses.ts; the post a publish may e-mail,
 * components/waitlist/updates.ts). The Content Lake without its CDN, or the seed dataset locally.
 */
export async function readPublished<T>(query: string, params: QueryParams = {}): Promise<T> {
  const server = serverEnv()
  assertDeployableConfiguration(publicEnv, server)
  const client = sanityClient()
  if (client) return client.fetch<T>(query, params, { cache: 'no-store' })
  return (await evaluateQuery(await readSeedDataset(server.contentSeedPath), query, params)) as T
}
