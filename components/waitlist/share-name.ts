import 'server-only'
import { configuredServiceClient } from '@/lib/supabase/configured'

/**
 * The one place the share image asks whose link it is drawing (issue #69): the name the code's
 * person chose for the opt-in leaderboard when they are on it (opted in, not hidden by a founder),
 * else null (public.waitlist_share_name, supabase/schemas/20_leaderboard.sql). A shared link names
 * nobody unless its person opted in; a lookup that fails or is not configured draws the image that
 * names nobody, never fails it.
 */
export async function shareDisplayName(code: string): Promise<string | null> {
  const client = configuredServiceClient()
  if (!client) return null
  try {
    const { data, error } = await client.rpc('waitlist_share_name', { code })
    if (error) throw new Error(error.message)
    return typeof data === 'string' && data !== '' ? data : null
  } catch (error) {
    console.error(`[share] The share image's name could not be read (${(error as Error).message}): drawn without one.`)
    return null
  }
}
