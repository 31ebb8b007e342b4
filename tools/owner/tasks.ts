/**
 * The research tasks from the founders' side (supabase/schemas/19_tasks.sql): how each task was
 * answered, the newest short answers, a revoke of a junk one, and the opt-in leaderboard's entries
 * with a hide (supabase/schemas/20_leaderboard.sql). The console, the export and
 * `npm run waitlist:leaderboard` go through here; the database revokes or hides each once.
 */
import type { OwnerClient } from './owner'
import { readCall } from './read'

/** One row of public.waitlist_task_counts: per task (question null: how many answered), question and option (null: a short answer). */
export type TaskCount = { task: string; question: string | null; option: string | null; answers: number }

/** One answer of public.waitlist_task_recent, newest first, with its short answers. */
export type RecentTaskAnswer = {
  entry_id: string
  email: string
  task: string
  title: string
  texts: { question: string; text: string }[] | null
  places: number
  completed_at: string
  revoked_at: string | null
}

/** One entry of public.waitlist_leaderboard_entries: opted in, hidden ones marked. */
export type BoardEntry = { entry_id: string; email: string; name: string; board_name: string; referrals: number; hidden: boolean; board_at: string }

export type Change = { changed: boolean } | null

export const readTaskCounts = (client: OwnerClient) => readCall<TaskCount[]>('the research tasks’ answers', client.rpc('waitlist_task_counts'))

export const listRecentTaskAnswers = (client: OwnerClient, maxRows = 20) =>
  readCall<RecentTaskAnswer[]>('the newest task answers', client.rpc('waitlist_task_recent', { max_rows: maxRows }))

/** The tasks the export has a column for: each published now, then each answered before it was removed. */
export async function exportedTasks(client: OwnerClient): Promise<string[]> {
  const [published, counts] = await Promise.all([readCall<{ key: string }[]>('the research tasks', client.rpc('waitlist_tasks')), readTaskCounts(client)])
  const keys = published.map((task) => task.key)
  for (const count of counts) if (!keys.includes(count.task)) keys.push(count.task)
  return keys
}

/** Takes entry `entry`'s answer to `task` back, with its places; unchanged when it already was; null when they never answered it. */
export async function revokeTask(client: OwnerClient, entry: string, task: string): Promise<Change> {
  const { data, error } = await client.rpc('waitlist_revoke_task', { entry, task })
  if (error) throw new Error(`Could not revoke ${task} of ${entry}: ${error.message}`)
  return data as Change
}

export const listBoardEntries = (client: OwnerClient, maxRows = 40) =>
  readCall<BoardEntry[]>('the leaderboard', client.rpc('waitlist_leaderboard_entries', { max_rows: maxRows }))

/** Hides (true) or shows again (false) an opted-in entry on the leaderboard; null when it is not opted in. */
export async function hideOnBoard(client: OwnerClient, entry: string, hide: boolean): Promise<Change> {
  const { data, error } = await client.rpc('waitlist_leaderboard_hide', { entry, hide })
  if (error) throw new Error(`Could not ${hide ? 'hide' : 'show'} ${entry}: ${error.message}`)
  return data as Change
}

/** Adds and removes words of the nicknames' blocklist; answers the list. */
export async function changeBlocklist(client: OwnerClient, add: string[], remove: string[]): Promise<string[]> {
  const { data, error } = await client.rpc('waitlist_leaderboard_blocklist', { add_words: add, remove_words: remove })
  if (error) throw new Error(`Could not change the blocklist: ${error.message}`)
  return data ?? []
}
