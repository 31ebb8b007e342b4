import { createClient, type SanityClient } from 'next-sanity'
import { publicEnv, serverEnv } from '@/lib/env'

/**
 * The Content Lake client, or null when the site runs on the embedded seed. Apart from
 * sanity/content/fetch.ts (which is server-only and uses Next's request-scoped caches) because the proxy
 * reads content too (sanity/content/addresses.ts).
 */
export function sanityClient(): SanityClient | null {
  if (!publicEnv.sanityProjectId) return null
  const { sanityApiHost } = serverEnv()
  return createClient({
    projectId: publicEnv.sanityProjectId,
    dataset: publicEnv.sanityDataset,
    apiVersion: publicEnv.sanityApiVersion,
    // The CDN may lag a publish by a minute; tag revalidation must read fresh data.
    useCdn: false,
    perspective: 'published',
    ...(sanityApiHost ? { apiHost: sanityApiHost, useProjectHostname: false } : {}),
  })
}
