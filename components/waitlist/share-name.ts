/**
 * The one place the share image asks whose link it is drawing (issue #69): the display name the
 * code's person chose for the opt-in leaderboard, or null. A shared link names nobody unless its
 * person opted in, so until the leaderboard's lookup is wired this answers null for every code.
 *
 * To wire it: call the service-role function `public.waitlist_share_name(p_code text) returns text`
 * here (the name if the code's person opted in and is not hidden, else null), through supabase-js
 * `rpc` with the service-role key, and answer null on any error: a failed lookup must draw the
 * image that names nobody, never fail the image.
 */
export async function shareDisplayName(code: string): Promise<string | null> {
  void code
  return null
}
