import 'server-only'
import { configuredServiceClient } from '@/lib/supabase/configured'
import { copyPublishedSet, rpcFailure } from '@/lib/supabase/published-set'
import { readPublished } from '@/sanity/content/published'
import { publishedQuestionsQuery } from '@/sanity/queries'
import { publishableQuestions, type PublishedQuestion } from '@/sanity/questions/rules'

/**
 * Keeps the database's copy of the waitlist page's questions (private.waitlist_questions,
 * supabase/schemas/15_questions.sql) equal to what is published in Sanity: the set every sign-up's
 * answers are checked against. Called on every publish webhook (app/api/revalidate) before the
 * pages change, so the form never asks what the database does not know yet, and on each scheduled
 * outbox run (app/api/outbox/dispatch) for a webhook that failed or never came.
 * A read or store that fails keeps the last set (lib/supabase/published-set.ts): an unreachable
 * Sanity must not look like "the page asks nothing", which would drop every answer.
 */

export type QuestionSyncDeps = {
  /** The published questions, as sanity/queries.ts publishedQuestionsQuery answers. */
  read: () => Promise<unknown>
  /** Replaces the database's set; resolves to the number of questions stored. */
  replace: (questions: PublishedQuestion[]) => Promise<number>
}

export type QuestionSyncOutcome = { kind: 'synced'; questions: number; skipped: string[] } | { kind: 'kept'; reason: string } | { kind: 'not-configured' }

export async function syncPublishedQuestions(deps: QuestionSyncDeps): Promise<QuestionSyncOutcome> {
  const copy = await copyPublishedSet({
    what: "the waitlist page's questions",
    read: deps.read,
    check: (answer) => {
      const { questions, skipped } = publishableQuestions(answer)
      return { items: questions, skipped }
    },
    replace: deps.replace,
  })
  return copy.kind === 'synced' ? { kind: 'synced', questions: copy.stored, skipped: copy.skipped } : copy
}

/** The sync as the deployment configures it: Sanity (or the seed) and the service-role key. */
export function configuredQuestionSync(): QuestionSyncDeps | null {
  const client = configuredServiceClient()
  if (!client) return null
  return {
    // Past every cache: the webhook arrives the moment the page is published.
    read: () => readPublished(publishedQuestionsQuery),
    replace: async (questions) => {
      const { data, error, status } = await client.rpc('waitlist_replace_questions', { questions })
      if (error) throw rpcFailure('waitlist_replace_questions', error, status)
      return data
    },
  }
}

/** Runs the configured sync and logs what it did; never throws. */
export async function syncQuestions(deps: QuestionSyncDeps | null = configuredQuestionSync()): Promise<QuestionSyncOutcome> {
  if (!deps) return { kind: 'not-configured' }
  const outcome = await syncPublishedQuestions(deps)
  if (outcome.kind === 'kept') console.error(`[questions] The last set of questions at sign-up is kept: ${outcome.reason}`)
  else if (outcome.kind === 'synced' && outcome.skipped.length > 0) console.warn(`[questions] Left out of the database's set: ${outcome.skipped.join(', ')}`)
  return outcome
}
