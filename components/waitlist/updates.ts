/**
 * Updates by e-mail: when the publish webhook says a post changed, the post goes by e-mail to the
 * people who asked for updates if it is published, marked "E-mail it to subscribers" and not a
 * sample, and only the first time (the database keys it on the post's _id:
 * supabase/schemas/09_updates.sql). Server only; the content read and the database call
 * are passed in, so the decisions are tested without either.
 */
import type { PostBroadcastQueryResult } from '@/sanity/types.generated'
import { postPath } from '@/lib/content/paths'
import { plainTextProblem, toPlainText } from '@/lib/content/plain-text'

/** A post as the webhook reads it: null when it is not published (unpublished, deleted, only a draft). */
export type PublishedPost = PostBroadcastQueryResult

/** What each person's e-mail carries about the post. */
export type Broadcast = { postId: string; title: string; excerpt: string; path: string }

/**
 * What waitlist_broadcast_post answers: whether this call e-mailed the post, and to how many; or
 * that the database refused the post's words for good (an invalid-input error), which no retry of
 * the webhook can change.
 */
export type BroadcastAnswer = { broadcast: boolean; recipients: number } | { refused: string }

export type BroadcastOutcome =
  | { kind: 'not_a_post' }
  | { kind: 'not_sent'; reason: string }
  | { kind: 'sent'; postId: string; recipients: number }
  | { kind: 'already_sent'; postId: string }
  /** The webhook answers 500, so Sanity sends it again; a retry is safe (once per post). */
  | { kind: 'failed'; reason: string }
  /** The post's words can never be e-mailed as they are: the webhook answers 200 (a retry could not help) and the log says why. */
  | { kind: 'refused'; reason: string }

export type BroadcastDeps = {
  readPost: (id: string) => Promise<PublishedPost>
  /** Null when the deployment has no database to e-mail from (no service-role key). */
  broadcast: ((broadcast: Broadcast) => Promise<BroadcastAnswer>) | null
}

/** Whether a post goes by e-mail, and what: the rule the Studio's "E-mail it to subscribers" describes. */
export function broadcastOf(post: PublishedPost): Broadcast | string {
  if (!post) return 'the post is not published'
  if (post.emailToSubscribers !== true) return '"E-mail it to subscribers" is off'
  // Samples are never shown by a deployed site, so never e-mailed by any.
  if (post.isSample === true) return 'the post is a sample'
  if (!post.slug || !post.title) return 'the post has no address or title'
  return { postId: post._id, title: toPlainText(post.title), excerpt: toPlainText(post.excerpt, 'lines'), path: postPath(post.slug, post.language) }
}

/** The webhook's second step, after revalidation: e-mails a changed post if it qualifies, once. */
export async function broadcastOnPublish(change: { _type: string; _id: string }, deps: BroadcastDeps): Promise<BroadcastOutcome> {
  if (change._type !== 'post') return { kind: 'not_a_post' }
  // A draft's change is not a publish; its published document, if any, is what counts.
  const id = change._id.replace(/^drafts\./, '')
  let post: PublishedPost
  try {
    post = await deps.readPost(id)
  } catch (error) {
    return { kind: 'failed', reason: `could not read post ${id}: ${error instanceof Error ? error.message : String(error)}` }
  }
  const broadcast = broadcastOf(post)
  if (typeof broadcast === 'string') return { kind: 'not_sent', reason: broadcast }
  // The database refuses a blank title, and a webhook that can never succeed must not fail: Sanity
  // would send it again for ever. The Studio refuses such a title; this is for one that skipped it.
  const problem = plainTextProblem(broadcast.title)
  if (problem || !broadcast.title) return { kind: 'refused', reason: `post ${id}'s title cannot be e-mailed: ${problem ?? 'it is blank'}` }
  if (!deps.broadcast) return { kind: 'failed', reason: `post ${id} is to be e-mailed, but SUPABASE_SERVICE_ROLE_KEY or NEXT_PUBLIC_SUPABASE_URL is not set` }
  try {
    const answer = await deps.broadcast(broadcast)
    if ('refused' in answer) return { kind: 'refused', reason: `the database refused post ${id}: ${answer.refused}` }
    return answer.broadcast ? { kind: 'sent', postId: id, recipients: answer.recipients } : { kind: 'already_sent', postId: id }
  } catch (error) {
    return { kind: 'failed', reason: `could not e-mail post ${id}: ${error instanceof Error ? error.message : String(error)}` }
  }
}
