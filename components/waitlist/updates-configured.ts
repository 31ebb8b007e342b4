import 'server-only'
import { postBroadcastQuery } from '@/sanity/queries'
import { readPublished } from '@/sanity/content/published'
import { configuredServiceClient } from '@/lib/supabase/configured'
import type { BroadcastAnswer, BroadcastDeps, PublishedPost } from './updates'

/**
 * The post read past every cache (the webhook arrives the moment it is published) and the
 * broadcast through the service-role key, as the deployment configures them.
 */
export function configuredBroadcast(): BroadcastDeps {
  const client = configuredServiceClient()
  return {
    readPost: (id) => readPublished<PublishedPost>(postBroadcastQuery, { id }),
    broadcast: client
      ? async ({ postId, title, excerpt, path }) => {
          const { data, error, status } = await client.rpc('waitlist_broadcast_post', { post_id: postId, title, excerpt, path })
          // SQLSTATE class 22, data exception: the function refused these words, and would again.
          if (error?.code?.startsWith('22')) return { refused: error.message }
          if (error) throw new Error(`waitlist_broadcast_post failed (HTTP ${status}${error.code ? ` ${error.code}` : ''}): ${error.message}`)
          return data as BroadcastAnswer
        }
      : null,
  }
}
