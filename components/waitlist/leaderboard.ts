import 'server-only'
import { unstable_cache } from 'next/cache'
import { serverEnv } from '@/lib/env'
import { configuredServiceClient } from '@/lib/supabase/configured'

/** One line of the board, as public.waitlist_leaderboard answers it: no address, no id. */
export type BoardRow = { rank: number; name: string; referrals: number }

export const BOARD_SIZE = 20

// The last board this process read: a database that fails during a refresh leaves it shown rather
// than "unavailable", as a content outage leaves the last good page (sanity/content/fetch.ts).
const LAST_BOARD = Symbol.for('heardly.leaderboard.last-good')
const lastBoard = globalThis as { [LAST_BOARD]?: BoardRow[] }

async function readBoard(): Promise<BoardRow[] | 'unavailable'> {
  const client = configuredServiceClient()
  if (!client) return lastBoard[LAST_BOARD] ?? 'unavailable'
  const { data, error } = await client.rpc('waitlist_leaderboard', { max_rows: BOARD_SIZE })
  if (error || !Array.isArray(data)) {
    console.error(`[leaderboard] The board could not be read (${error?.message ?? 'not a list'}): the last one read is shown.`)
    return lastBoard[LAST_BOARD] ?? 'unavailable'
  }
  const rows = data.map(({ rank, name, referrals }) => ({ rank, name, referrals }))
  lastBoard[LAST_BOARD] = rows
  return rows
}

/**
 * The board as the static page /waitlist/leaderboard draws it (supabase/schemas/20_leaderboard.sql):
 * read from the database by the site's server at most once every LEADERBOARD_REFRESH_SECONDS
 * (the page is refreshed with it, as its revalidation), never per visit. The same for every
 * language: one read for all of them.
 */
export function leaderboard(): Promise<BoardRow[] | 'unavailable'> {
  return unstable_cache(readBoard, ['leaderboard'], { tags: ['leaderboard'], revalidate: serverEnv().leaderboardRefreshSeconds })()
}
